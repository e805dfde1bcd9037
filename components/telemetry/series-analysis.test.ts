import { describe, expect, it } from "vitest";
import { anomalyChart, forecastPoints, forecastSpan } from "./series-analysis";
import type { Series } from "./series";

const line = (key: string, column: string, ys: number[]): Series => ({ key, column, points: ys.map((y, x) => ({ x: x * 1000, y })) });

describe("anomalyChart", () => {
  const y = line("D1 · y", "y", [1, 2, 9, 2, 1, -5]);
  const flag = line("D1 · flag", "flag", [0, 0, 1, 0, 0, -1]);
  const score = line("D1 · score", "score", [0, 0.1, 4, 0, 0, -3]);
  const baseline = line("D1 · baseline", "baseline", [1, 2, 2, 2, 1, 1]);

  it("marks the flagged points on the values and draws neither flags nor scores as lines", () => {
    const { series, marks } = anomalyChart([baseline, flag, score, y]);
    expect(series.map((s) => s.key)).toEqual(["D1 · baseline", "D1 · y"]);
    expect(marks).toEqual([
      { key: "D1 · y", x: 2000, y: 9, direction: 1 },
      { key: "D1 · y", x: 5000, y: -5, direction: -1 },
    ]);
  });

  it("takes the flag column the render names, and keeps groups apart", () => {
    const other = line("D2 · y", "y", [5, 5, 5]);
    const otherFlags = line("D2 · anomalies", "anomalies", [0, 1, 0]);
    const { marks } = anomalyChart([y, flag, other, otherFlags], ["anomalies"]);
    expect(marks).toEqual([{ key: "D2 · y", x: 1000, y: 5, direction: 1 }]);
  });

  it("reads the columns one name gives a multi-output function (anomalies_ad_flag, _ad_score, _baseline)", () => {
    const values = line("D1 · y", "y", [1, 9, 1]);
    const flags = line("D1 · anomalies_ad_flag", "anomalies_ad_flag", [0, 1, 0]);
    const scores = line("D1 · anomalies_ad_score", "anomalies_ad_score", [0, 5, 0]);
    const base = line("D1 · anomalies_baseline", "anomalies_baseline", [1, 1, 1]);
    const { series, marks } = anomalyChart([base, flags, scores, values]);
    expect(series.map((s) => s.key)).toEqual(["D1 · anomalies_baseline", "D1 · y"]);
    expect(marks).toEqual([{ key: "D1 · y", x: 1000, y: 9, direction: 1 }]);
  });

  it("leaves a result without flags as it is", () => {
    expect(anomalyChart([y, baseline])).toEqual({ series: [y, baseline], marks: [] });
  });
});

describe("forecast", () => {
  it("reads the forecast's point count from the query", () => {
    expect(forecastPoints("T | extend f = series_decompose_forecast(y, 24)")).toBe(24);
    expect(forecastPoints("T | extend f = series_decompose_forecast(series_fill_linear(y), 12, -1, 'linefit')")).toBe(12);
    expect(forecastPoints("T | extend f = series_decompose(y)")).toBeNull();
  });
  it("shades the last points of the longest series", () => {
    expect(forecastSpan([line("a", "f", [1, 2, 3, 4, 5]), line("b", "y", [1, 2])], 2)).toEqual({ from: 3000, to: 4000 });
    expect(forecastSpan([line("a", "f", [1, 2])], 2)).toBeNull();
  });
});
