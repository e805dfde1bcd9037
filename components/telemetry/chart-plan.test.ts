import { describe, expect, it } from "vitest";
import { categoryData, expandSeries, pieSlices, planChart, planResult, MAX_PIE_SLICES } from "./chart-plan";
import type { QueryResult } from "./series";

const t = (minute: number) => new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString();
const topStates: QueryResult = {
  columns: [
    { name: "Name", columnType: "string" },
    { name: "count_", columnType: "long" },
  ],
  rows: [
    ["Temperature", 120],
    ["Pressure", 80],
  ],
};
const events: QueryResult = {
  columns: ["EventId", "PlantId", "DeviceId", "Name", "Severity", "Message"].map((name) => ({ name, columnType: "string" })).concat([
    { name: "StartTime", columnType: "datetime" },
    { name: "EndTime", columnType: "datetime" },
    { name: "Value", columnType: "dynamic" },
  ]),
  rows: [["E1", "RTM1", "D1", "HighTemperature", "Major", "Hot", t(1), null, 71.5]],
};
const series: QueryResult = {
  columns: [
    { name: "Timestamp", columnType: "datetime" },
    { name: "Name", columnType: "string" },
    { name: "Value", columnType: "dynamic" },
  ],
  rows: [
    [t(1), "Pressure", 6.1],
    [t(2), "Pressure", 6.2],
  ],
};

describe("planResult", () => {
  it("draws categories as columns and values over time as lines without a render hint", () => {
    expect(planResult(topStates, null)).toMatchObject({ view: "column", data: { labelColumn: "Name", valueColumns: ["count_"], rows: [{ label: "Temperature", values: [120] }, { label: "Pressure", values: [80] }] } });
    expect(planResult(series, null)).toMatchObject({ view: "line", series: [{ key: "Pressure" }] });
  });

  it("shows raw records such as Events | take 20 as a table", () => {
    expect(planResult(events, null).view).toBe("table");
  });

  it("honours render: barchart, piechart, columnchart, timechart and table", () => {
    expect(planResult(topStates, "barchart").view).toBe("bar");
    expect(planResult(topStates, "piechart").view).toBe("pie");
    expect(planResult(series, "columnchart")).toMatchObject({ view: "column", data: { labelsAreTimes: false, labelColumn: "Name" } });
    expect(planResult(series, "table").view).toBe("table");
    expect(planResult(series, "timechart").view).toBe("line");
  });

  it("falls back to the table, saying why, when the result cannot fill the chart asked for", () => {
    const plan = planResult(topStates, "timechart");
    expect(plan).toMatchObject({ view: "table" });
    expect(plan.view === "table" && plan.reason).toMatch(/datetime/);
  });

  it("labels bars with times when there is no text column, and joins extra text columns into the label", () => {
    const hourly: QueryResult = { columns: [{ name: "Timestamp", columnType: "datetime" }, { name: "avg_Value", columnType: "real" }], rows: [[t(0), 1]] };
    expect(categoryData(hourly)).toMatchObject({ labelsAreTimes: true, rows: [{ label: t(0), values: [1] }] });
    const twoKeys: QueryResult = { columns: [{ name: "Name", columnType: "string" }, { name: "Severity", columnType: "string" }, { name: "n", columnType: "long" }], rows: [["Hot", "Major", 3]] };
    expect(categoryData(twoKeys)).toMatchObject({ rows: [{ label: "Hot · Major", values: [3] }] });
  });

  it("keeps the largest pie slices and gathers the rest as Other", () => {
    const rows = Array.from({ length: MAX_PIE_SLICES + 3 }, (_, index) => [`c${index}`, index + 1]);
    const slices = pieSlices({ labelColumn: "c", valueColumns: ["n"], labelsAreTimes: false, rows: rows.map(([label, value]) => ({ label: String(label), values: [Number(value)] })) });
    expect(slices).toHaveLength(MAX_PIE_SLICES);
    expect(slices[0]).toEqual({ label: `c${MAX_PIE_SLICES + 2}`, value: MAX_PIE_SLICES + 3 });
    expect(slices.at(-1)).toEqual({ label: "Other", value: 1 + 2 + 3 + 4 });
  });

  it("draws raw States rows as lines, and finds a chart for records when one is asked for", () => {
    const states: QueryResult = {
      columns: ["DeviceId", "Name", "PlantId", "MessageType"].map((name) => ({ name, columnType: "string" })).concat([
        { name: "Timestamp", columnType: "datetime" },
        { name: "Value", columnType: "dynamic" },
        { name: "DataMetadata", columnType: "dynamic" },
      ]),
      rows: [["D1", "Pressure", "RTM1", "State", t(1), 6.1, { Unit: "bar" }]],
    };
    expect(planResult(states, null).view).toBe("line");
    expect(planResult(events, null).view).toBe("table");
    expect(planChart(events, null).view).toBe("line");
    expect(planChart(topStates, "piechart").view).toBe("pie");
  });
});

describe("make-series results", () => {
  const series: QueryResult = {
    columns: [
      { name: "DeviceId", columnType: "string" },
      { name: "avg_Value", columnType: "dynamic" },
      { name: "Timestamp", columnType: "dynamic" },
    ],
    rows: [
      ["D1", [1, 2, null], ["2026-11-20T00:00:00.000Z", "2026-11-20T01:00:00.000Z", "2026-11-20T02:00:00.000Z"]],
      ["D2", [5, 6, 7], ["2026-11-20T00:00:00.000Z", "2026-11-20T01:00:00.000Z", "2026-11-20T02:00:00.000Z"]],
    ],
  };

  it("are read as one row per point, as mv-expand gives them", () => {
    expect(expandSeries(series)).toEqual({
      columns: [
        { name: "Timestamp", columnType: "datetime" },
        { name: "DeviceId", columnType: "string" },
        { name: "avg_Value", columnType: "real" },
      ],
      rows: [
        ["2026-11-20T00:00:00.000Z", "D1", 1],
        ["2026-11-20T01:00:00.000Z", "D1", 2],
        ["2026-11-20T02:00:00.000Z", "D1", null],
        ["2026-11-20T00:00:00.000Z", "D2", 5],
        ["2026-11-20T01:00:00.000Z", "D2", 6],
        ["2026-11-20T02:00:00.000Z", "D2", 7],
      ],
    });
  });

  it("are drawn as one line per series, with or without render timechart", () => {
    for (const render of [null, "timechart"]) {
      const plan = planResult(series, render);
      expect(plan.view).toBe("line");
      if (plan.view === "line") expect(plan.series.length).toBe(2);
    }
  });

  it("leave other results alone", () => {
    expect(expandSeries({ columns: [{ name: "Name", columnType: "string" }, { name: "n", columnType: "long" }], rows: [["a", 1]] })).toBeNull();
  });
});

describe("bars of alarm severities", () => {
  it("come in the vocabulary's order (Critical, Major, Minor, Warning), not the query's", () => {
    const bySeverity: QueryResult = {
      columns: [
        { name: "Severity", columnType: "string" },
        { name: "Alarms", columnType: "long" },
      ],
      rows: [["Minor", 40], ["Major", 30], ["Critical", 5], ["Warning", 2]],
    };
    const data = categoryData(bySeverity);
    if ("reason" in data) throw new Error(data.reason);
    expect(data.rows.map((row) => row.label)).toEqual(["Critical", "Major", "Minor", "Warning"]);
    // Other labels keep the query's order.
    const other = categoryData({ ...bySeverity, rows: [["Pump", 1], ["Critical", 2]] });
    if ("reason" in other) throw new Error(other.reason);
    expect(other.rows.map((row) => row.label)).toEqual(["Pump", "Critical"]);
  });
});
