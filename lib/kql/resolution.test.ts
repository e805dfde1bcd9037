import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileKql } from "./compile";
import { SCHEMA_ONLY_SOURCES } from "./diagnose";
import { kqlName, minMaxBin, niceBin, planResolution, timespanLiteral } from "./resolution";

const DAY = 86_400_000;
const window = (days: number, width = 1000) => ({ startMs: 0, endMs: days * DAY, width });

describe("planResolution", () => {
  it("coarsens a summarize's literal time bin to one point per pixel column or fewer, keeping render", () => {
    // 30 days on 1,000 px: 43.2 min a column, read as 1 h (720 points of each series).
    const plan = planResolution(`States\n| where Name == "Temperature"\n| summarize avg(todouble(Value)) by bin(Timestamp, 1m), DeviceId\n| render timechart`, window(30));
    expect(plan).toMatchObject({ kind: "bin", sourceBinMs: 60_000, shownBinMs: 60 * 60_000 });
    if (plan.kind !== "bin") return;
    expect(plan.query).toContain("bin(Timestamp, 1h)");
    expect(plan.query.endsWith("| render timechart")).toBe(true);
  });

  it("leaves a query whose bins already fit alone", () => {
    expect(planResolution(`States | summarize avg(todouble(Value)) by bin(Timestamp, 1h), DeviceId`, window(30)).kind).toBe("none");
    expect(planResolution(`States | summarize avg(todouble(Value)) by bin(Timestamp, 1m)`, window(1, 1440)).kind).toBe("none");
    expect(planResolution(`States | summarize avg(todouble(Value)) by bin(Timestamp, 1m)`, window(1, 1439)).kind).toBe("bin");
  });

  it("coarsens a make-series step, but never that of series analysis", () => {
    const plan = planResolution(`States | make-series avg(todouble(Value)) default=0 on Timestamp step 1m by DeviceId`, window(30));
    expect(plan).toMatchObject({ kind: "bin", shownBinMs: 60 * 60_000 });
    const analysed = planResolution(`States | make-series y = avg(todouble(Value)) on Timestamp step 1m by DeviceId | extend (flag, score, baseline) = series_decompose_anomalies(y)`, window(30));
    expect(analysed.kind).toBe("none");
  });

  it("reduces raw samples to each series' low and high per bin, in the query's column order", () => {
    const plan = planResolution(`States | where Name == "Temperature" | project Timestamp, DeviceId, Value`, window(30));
    expect(plan.kind).toBe("minmax");
    if (plan.kind !== "minmax") return;
    const reduced = compileKql(plan.reduce(30 * 60_000), { sources: SCHEMA_ONLY_SOURCES });
    expect(reduced.columns).toEqual([
      { name: "Timestamp", kqlType: "datetime" },
      { name: "DeviceId", kqlType: "string" },
      { name: "Value", kqlType: "real" },
    ]);
    expect(compileKql(plan.countQuery, { sources: SCHEMA_ONLY_SOURCES }).columns.map((c) => c.name)).toEqual(["Rows", "Longest", "Series"]);
  });

  it("does not reduce records it cannot draw (metadata, text-only rows) nor queries that fail", () => {
    expect(planResolution(`States | take 10`, window(30))).toMatchObject({ kind: "none", reason: expect.stringContaining("DataMetadata") });
    expect(planResolution(`Events | project StartTime, Message`, window(30))).toMatchObject({ kind: "none", reason: expect.stringContaining("numbers") });
    expect(planResolution(`States | whre x`, window(30)).kind).toBe("none");
    expect(planResolution(`States | summarize count() by Name`, window(30)).kind).toBe("none");
  });
});

describe("bins", () => {
  it("picks the smallest readable bin at least as wide as asked", () => {
    expect(niceBin(21.6 * 60_000)).toBe(30 * 60_000);
    expect(niceBin(60_000)).toBe(60_000);
    expect(niceBin(40 * DAY)).toBe(40 * DAY);
  });
  it("writes a bin as a KQL timespan in its largest whole unit", () => {
    expect([timespanLiteral(30 * 60_000), timespanLiteral(DAY), timespanLiteral(1_500), timespanLiteral(7_000)]).toEqual(["30m", "1d", "1500ms", "7s"]);
  });
  it("widens min/max bins so that every series' two points per bin stay within the row limit", () => {
    // A low and a high per bin, a bin per two pixel columns: 1,000 px → 500 bins.
    expect(minMaxBin(30 * DAY, 1000, 10, 500_000)).toBe(niceBin((30 * DAY) / 500));
    // 600 series × 2 points × bins ≤ 500,000 → at most 416 bins.
    const bin = minMaxBin(30 * DAY, 1000, 600, 500_000);
    expect(600 * 2 * Math.ceil((30 * DAY) / bin)).toBeLessThanOrEqual(500_000);
  });
  it("never gives a series more points than the chart has pixel columns, nor a bin coarser than needed", () => {
    const query = `States | summarize avg(todouble(Value)) by bin(Timestamp, 1s), DeviceId`;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 * DAY }), fc.integer({ min: 50, max: 8000 }), fc.integer({ min: 1, max: 1000 }), (spanMs, width, series) => {
        const plan = planResolution(query, { startMs: 0, endMs: spanMs, width });
        if (plan.kind === "bin") {
          expect(spanMs / plan.shownBinMs).toBeLessThanOrEqual(width);
          expect(plan.shownBinMs).toBe(niceBin(spanMs / width));
        } else expect(spanMs / 1000).toBeLessThanOrEqual(width);
        // min/max: a low and a high per bin.
        expect(2 * Math.floor(spanMs / minMaxBin(spanMs, width, series, 500_000))).toBeLessThanOrEqual(width);
      }),
    );
  });
  it("quotes names KQL cannot read bare", () => {
    expect([kqlName("Value"), kqlName("avg Value"), kqlName("it's")]).toEqual(["Value", "['avg Value']", "['it\\'s']"]);
  });
});
