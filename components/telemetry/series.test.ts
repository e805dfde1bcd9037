import { describe, expect, it } from "vitest";
import { buildSeries, withUnits, type QueryResult } from "./series";

const t = (minute: number) => new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString();

describe("buildSeries", () => {
  it("draws one series per Name from raw States rows, sorted by time", () => {
    const result: QueryResult = {
      columns: [
        { name: "DeviceId", columnType: "string" },
        { name: "Name", columnType: "string" },
        { name: "Timestamp", columnType: "datetime" },
        { name: "Value", columnType: "dynamic" },
      ],
      rows: [
        ["d1", "Temperature", t(2), 21],
        ["d1", "Pressure", t(1), 2.5],
        ["d1", "Temperature", t(1), 20],
      ],
    };
    const plan = buildSeries(result);
    expect(plan).toEqual({
      ok: true,
      xMin: Date.parse(t(1)),
      xMax: Date.parse(t(2)),
      series: [
        { key: "Pressure", name: "Pressure", column: "Value", points: [{ x: Date.parse(t(1)), y: 2.5 }] },
        {
          key: "Temperature",
          name: "Temperature",
          column: "Value",
          points: [
            { x: Date.parse(t(1)), y: 20 },
            { x: Date.parse(t(2)), y: 21 },
          ],
        },
      ],
    });
  });

  it("splits a Name reported by several devices into one series per device", () => {
    const result: QueryResult = {
      columns: [
        { name: "DeviceId", columnType: "string" },
        { name: "Name", columnType: "string" },
        { name: "Timestamp", columnType: "datetime" },
        { name: "Value", columnType: "dynamic" },
      ],
      rows: [
        ["pump-1", "Temperature", t(1), 20],
        ["pump-2", "Temperature", t(1), 30],
      ],
    };
    const plan = buildSeries(result);
    expect(plan.ok && plan.series.map((s) => s.key)).toEqual(["Temperature · pump-1", "Temperature · pump-2"]);
  });

  it("groups a summarize by its string columns and names each numeric column", () => {
    const result: QueryResult = {
      columns: [
        { name: "Timestamp", columnType: "datetime" },
        { name: "PlantId", columnType: "string" },
        { name: "avg_Value", columnType: "real" },
        { name: "max_Value", columnType: "real" },
      ],
      rows: [[t(0), "RTM1", 1.5, 3]],
    };
    const plan = buildSeries(result);
    expect(plan.ok && plan.series.map((s) => s.key)).toEqual(["RTM1 · Average Value", "RTM1 · Max Value"]);
  });

  it("explains why a result cannot be charted", () => {
    expect(buildSeries({ columns: [{ name: "Count", columnType: "long" }], rows: [[4]] })).toEqual({
      ok: false,
      reason: "The result has no datetime column to put on the time axis.",
    });
    const textOnly = buildSeries({
      columns: [
        { name: "StartTime", columnType: "datetime" },
        { name: "Message", columnType: "string" },
      ],
      rows: [[t(0), "Overheat"]],
    });
    expect(textOnly.ok).toBe(false);
  });

  it("gives each series the unit of its data point, or of the one data point the query picked", () => {
    const units = new Map([["Pressure", "bar"], ["MotorCurrent", "A"]]);
    const unitOf = (name: string) => units.get(name);
    const named = withUnits([{ key: "Pressure · d1", name: "Pressure", points: [] }, { key: "Other", name: "Other", points: [] }], unitOf);
    expect(named.map((s) => s.unit)).toEqual(["bar", ""]);
    const [avg] = withUnits([{ key: "avg_Value", points: [] }], unitOf, 'States | where Name == "MotorCurrent" | summarize avg(Value) by bin(Timestamp, 1h)');
    expect(avg).toMatchObject({ name: "MotorCurrent", unit: "A" });
    const [ambiguous] = withUnits([{ key: "avg_Value", points: [] }], unitOf, 'States | where Name == "MotorCurrent" or Name == "Pressure"');
    expect(ambiguous!.unit).toBe("");
  });

  it("gives counts no unit: summarize n = count(), p99 = percentile(Value, 99) by Name (issue 26)", () => {
    const plan = buildSeries({
      columns: [
        { name: "Timestamp", columnType: "datetime" },
        { name: "Name", columnType: "string" },
        { name: "n", columnType: "long" },
        { name: "p99", columnType: "real" },
      ],
      rows: [[t(0), "MotorCurrent", 2600, 48.5]],
    });
    const series = withUnits(plan.ok ? plan.series : [], (name) => (name === "MotorCurrent" ? "A" : undefined));
    expect(series.map((s) => [s.key, s.unit])).toEqual([
      ["MotorCurrent · n", ""],
      ["MotorCurrent · p99", "A"],
    ]);
  });
});
