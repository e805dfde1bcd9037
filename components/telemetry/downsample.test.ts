import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { downsampleM4, type Point } from "./downsample";

const sortedSeries = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 10_000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true })), {
    maxLength: 400,
  })
  .map((pairs) => pairs.map(([x, y]) => ({ x, y })).sort((a, b) => a.x - b.x));

function columnOf(x: number, width: number, xMin: number, xMax: number) {
  return Math.min(width - 1, Math.floor(((x - xMin) / (xMax - xMin)) * width));
}

describe("downsampleM4", () => {
  it("keeps every point when there are fewer points than pixel columns", () => {
    const points: Point[] = [
      { x: 0, y: 1 },
      { x: 50, y: 3 },
      { x: 100, y: 2 },
    ];
    expect(downsampleM4(points, 800, 0, 100)).toEqual(points);
  });

  it("keeps first, min, max and last of a column, in time order", () => {
    const points: Point[] = [
      { x: 0, y: 5 },
      { x: 1, y: 9 },
      { x: 2, y: -3 },
      { x: 3, y: 4 },
      { x: 4, y: 4.5 },
    ];
    expect(downsampleM4(points, 1, 0, 10)).toEqual([
      { x: 0, y: 5 },
      { x: 1, y: 9 },
      { x: 2, y: -3 },
      { x: 4, y: 4.5 },
    ]);
  });

  it("skips values that cannot be drawn", () => {
    const points: Point[] = [
      { x: 0, y: Number.NaN },
      { x: 1, y: 2 },
      { x: 2, y: Number.POSITIVE_INFINITY },
    ];
    expect(downsampleM4(points, 10, 0, 2)).toEqual([{ x: 1, y: 2 }]);
  });

  it("keeps the nearest point outside each edge so the line reaches the chart's borders", () => {
    const points: Point[] = [
      { x: -20, y: 0 },
      { x: -10, y: 1 },
      { x: 5, y: 2 },
      { x: 20, y: 3 },
      { x: 30, y: 4 },
    ];
    expect(downsampleM4(points, 100, 0, 10)).toEqual([
      { x: -10, y: 1 },
      { x: 5, y: 2 },
      { x: 20, y: 3 },
    ]);
  });

  it("is a sorted subset that keeps every column's extremes and at most four points per column", () => {
    fc.assert(
      fc.property(sortedSeries, fc.integer({ min: 1, max: 60 }), (points, width) => {
        const xMin = 0;
        const xMax = 10_000;
        const out = downsampleM4(points, width, xMin, xMax);
        for (const p of out) expect(points).toContain(p);
        for (let i = 1; i < out.length; i++) expect(out[i]!.x).toBeGreaterThanOrEqual(out[i - 1]!.x);

        const perColumn = new Map<number, Point[]>();
        for (const p of out) {
          const c = columnOf(p.x, width, xMin, xMax);
          perColumn.set(c, [...(perColumn.get(c) ?? []), p]);
        }
        for (const kept of perColumn.values()) expect(kept.length).toBeLessThanOrEqual(4);

        for (const p of points) {
          const kept = perColumn.get(columnOf(p.x, width, xMin, xMax)) ?? [];
          expect(Math.min(...kept.map((k) => k.y))).toBeLessThanOrEqual(p.y);
          expect(Math.max(...kept.map((k) => k.y))).toBeGreaterThanOrEqual(p.y);
        }
      }),
    );
  });

  it("reduces 500,000 points to at most four per pixel column, keeping one-sample spikes", () => {
    const start = Date.parse("2026-10-01T00:00:00Z");
    const points: Point[] = Array.from({ length: 500_000 }, (_, i) => ({
      x: start + i * 60_000,
      y: Math.sin(i / 500) * 10 + (i % 9973 === 0 ? 100 : 0),
    }));
    const out = downsampleM4(points, 1200, start, start + 500_000 * 60_000);
    expect(out.length).toBeLessThanOrEqual(4 * 1200);
    expect(out.some((p) => p.y >= 100)).toBe(true); // the one-sample spikes survive
  });
});
