import { describe, expect, it } from "vitest";
import { axisUnits, carriesUnit, isCountColumn, MAX_AXES, planAxes, smallMultiples, seriesColor, seriesColors, type AxisSeries } from "./axes";
import { SERIES_COLORS } from "./chart-colors";

describe("carriesUnit / isCountColumn", () => {
  it("keeps the unit on measurements and takes it off counts", () => {
    for (const column of ["Value", "avg_Value", "min_Value", "max_Value", "percentile_Value_99", "p99", "p50", "avg", "sum_Value", "stdev_Value"]) {
      expect(carriesUnit(column), column).toBe(true);
    }
    for (const column of ["n", "count_", "count", "dcount_DeviceId", "dcount", "countif_", "readings_count", "count_Value"]) {
      expect(isCountColumn(column), column).toBe(true);
      expect(carriesUnit(column), column).toBe(false);
    }
    // An alias the chart cannot read is not given a unit it may not have.
    expect(carriesUnit("ratio")).toBe(false);
  });
});

describe("planAxes", () => {
  it('draws "MotorCurrent · n" unitless on a count axis beside the ampere axis', () => {
    const series: AxisSeries[] = [
      { key: "MotorCurrent · n", unit: "A", column: "n" },
      { key: "MotorCurrent · avg_Value", unit: "A", column: "avg_Value" },
    ];
    const plan = planAxes(series);
    expect(plan.axes.map((axis) => [axis.kind, axis.units, axis.side])).toEqual([
      ["count", [], "left"],
      ["unit", ["A"], "right"],
    ]);
    expect(plan.axisOf.get("MotorCurrent · n")).toBe("count");
    expect(plan.axisOf.get("MotorCurrent · avg_Value")).toBe("u:A");
  });

  it("never grows more than two axes: p99, dcount and count of three units together", () => {
    const series: AxisSeries[] = [
      { key: "MotorCurrent · p99", unit: "A", column: "p99" },
      { key: "Pressure · p99", unit: "bar", column: "p99" },
      { key: "Temperature · p99", unit: "degC", column: "p99" },
      { key: "MotorCurrent · n", unit: "A", column: "n" },
      { key: "MotorCurrent · dcount_DeviceId", unit: "A", column: "dcount_DeviceId" },
      { key: "MotorCurrent · ratio", column: "ratio" },
    ];
    const plan = planAxes(series);
    expect(plan.axes.length).toBe(MAX_AXES);
    const [measured, counts] = plan.axes;
    // Every unit is named on the axis it is drawn against; counts keep their own.
    expect(measured!.units).toEqual(["A", "bar", "degC"]);
    expect(counts!.kind).toBe("count");
    expect(axisUnits(counts!, plan, series)).toEqual(["count", "no unit"]);
    expect(new Set(series.map((s) => plan.axisOf.get(s.key)))).toEqual(new Set(["u:A", "count"]));
    expect(plan.axisOf.get("Pressure · p99")).toBe("u:A");
    expect(plan.axisOf.get("MotorCurrent · ratio")).toBe("count");
  });

  it("with three units and no counts, the first keeps its axis and the others share the second", () => {
    const plan = planAxes([
      { key: "a", unit: "A" },
      { key: "b", unit: "bar" },
      { key: "c", unit: "degC" },
    ]);
    expect(plan.axes.map((axis) => axis.units)).toEqual([["A"], ["bar", "degC"]]);
    expect(plan.axisOf.get("c")).toBe("u:bar");
  });

  it("keeps one axis per unit when there are two or fewer", () => {
    expect(planAxes([{ key: "Pressure", unit: "bar", column: "Value" }]).axes).toEqual([{ id: "u:bar", kind: "unit", units: ["bar"], side: "left" }]);
    expect(planAxes([]).axes).toHaveLength(1);
  });
});

describe("seriesColor", () => {
  it("gives a series the same colour whatever else is drawn", () => {
    const keys = ["Pressure · pump-1", "Pressure · pump-2", "Temperature · pump-1", "MotorCurrent · n"];
    const all = keys.map(seriesColor);
    const filtered = keys.slice(2).map(seriesColor);
    expect(filtered).toEqual(all.slice(2));
    for (const colour of all) expect(SERIES_COLORS).toContain(colour);
    // The hash spreads names over the palette rather than giving them all one colour.
    expect(new Set(Array.from({ length: 40 }, (_, i) => seriesColor(`device-${i}`))).size).toBeGreaterThan(4);
  });

  it("never gives two series of one chart the same colour while the palette has a free one", () => {
    // These two hash to the same colour (the explorer drew them both blue).
    expect(seriesColor("MotorCurrent · n")).toBe(seriesColor("MotorCurrent · p99"));
    const colors = seriesColors(["MotorCurrent · p99", "MotorCurrent · n"]);
    expect(colors.get("MotorCurrent · n")).toBe(seriesColor("MotorCurrent · n"));
    expect(colors.get("MotorCurrent · p99")).not.toBe(colors.get("MotorCurrent · n"));
    const many = seriesColors(Array.from({ length: SERIES_COLORS.length }, (_, i) => `device-${i}`));
    expect(new Set(many.values()).size).toBe(SERIES_COLORS.length);
    // Filtering keeps the colours of the series that stay (when they had not given way).
    const keys = ["Pressure · pump-1", "Pressure · pump-2", "Temperature · pump-1"];
    const all = seriesColors(keys);
    const kept = seriesColors(keys.slice(1));
    for (const key of keys.slice(1)) if (all.get(key) === seriesColor(key)) expect(kept.get(key)).toBe(all.get(key));
  });
});

describe("smallMultiples", () => {
  const s = (key: string, unit: string, column = "avg_Value"): AxisSeries => ({ key, unit, column });
  it("keeps one chart for one or two kinds of value", () => {
    const two = [s("a", "bar"), s("b", "A"), s("c", "bar")];
    expect(smallMultiples(two)).toEqual([two]);
    expect(smallMultiples([])).toEqual([]);
  });
  it("puts every unit beyond two on a chart of its own, counts staying with the first unit", () => {
    const series = [s("p", "bar"), s("i", "A"), s("n", "", "n"), s("t", "°C"), s("p2", "bar")];
    const panels = smallMultiples(series);
    expect(panels.map((panel) => panel.map((x) => x.key))).toEqual([["p", "n", "p2"], ["i"], ["t"]]);
    // Each chart then needs at most two axes, each with one unit.
    for (const panel of panels) {
      const plan = planAxes(panel);
      expect(plan.axes.length).toBeLessThanOrEqual(MAX_AXES);
      for (const axis of plan.axes) expect(axis.units.length).toBeLessThanOrEqual(1);
    }
  });
  it("with three units and nothing else, the first two share the main chart", () => {
    const panels = smallMultiples([s("a", "bar"), s("b", "A"), s("c", "°C")]);
    expect(panels.map((panel) => panel.map((x) => x.key))).toEqual([["a", "b"], ["c"]]);
  });
});
