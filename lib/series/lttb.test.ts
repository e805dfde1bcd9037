import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lttb, pointsForWidth, type Point } from "./lttb";

/** Sorted points with distinct x, like a series of one device. */
const series = (maxLength = 2_000) =>
  fc
    .uniqueArray(fc.integer({ min: 0, max: 1_000_000 }), { maxLength })
    .chain((xs) => fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: xs.length, maxLength: xs.length }).map((ys) => xs.sort((a, b) => a - b).map((x, i) => ({ x, y: ys[i]! }))));

/** Whether `part` is `whole` with some points left out, the rest in order (the same objects). */
function isSubsequence(part: readonly Point[], whole: readonly Point[]): boolean {
  let at = 0;
  for (const p of part) {
    while (at < whole.length && whole[at] !== p) at++;
    if (at === whole.length) return false;
    at++;
  }
  return true;
}

describe("lttb", () => {
  it("gives back a series no longer than the threshold unchanged", () => {
    fc.assert(
      fc.property(series(50), fc.integer({ min: 50, max: 500 }), (points, threshold) => {
        expect(lttb(points, threshold)).toBe(points);
      }),
    );
  });

  it("keeps exactly `threshold` points of a longer series: the first, the last, and points of the series in order", () => {
    fc.assert(
      fc.property(series(), fc.integer({ min: 3, max: 400 }), (points, threshold) => {
        fc.pre(points.length > threshold);
        const out = lttb(points, threshold);
        expect(out).toHaveLength(threshold);
        expect(out[0]).toBe(points[0]);
        expect(out.at(-1)).toBe(points.at(-1));
        expect(isSubsequence(out, points)).toBe(true);
      }),
    );
  });

  it("reads a threshold below 3 as 3", () => {
    const points = [0, 1, 2, 3, 4].map((x) => ({ x, y: x === 2 ? 10 : 0 }));
    expect(lttb(points, 1)).toEqual([points[0], points[2], points[4]]);
  });

  it("keeps a lone spike on a quiet line, wherever it is and whatever the threshold", () => {
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 5_000 }), fc.nat(), fc.integer({ min: 3, max: 300 }), fc.double({ min: 1, max: 1e6, noNaN: true }), (length, at, threshold, height) => {
        const spike = at % length;
        const points = Array.from({ length }, (_, x) => ({ x: x * 60_000, y: x === spike ? 20 + height : 20 }));
        expect(lttb(points, threshold)).toContain(points[spike]);
      }),
    );
  });

  it("picks, per bucket, the point of the largest triangle (a worked example)", () => {
    // 8 points, threshold 4: buckets [1,2,3] and [4,5,6]; the next bucket's average decides.
    const ys = [0, 1, 5, 2, 2, -4, 1, 0];
    const points = ys.map((y, x) => ({ x, y }));
    expect(lttb(points, 4).map((p) => p.x)).toEqual([0, 2, 5, 7]);
  });
});

describe("pointsForWidth", () => {
  it("keeps at most one point per pixel column inside the span, plus one neighbour on each side", () => {
    fc.assert(
      fc.property(series(), fc.integer({ min: 3, max: 300 }), fc.integer({ min: 0, max: 500_000 }), fc.integer({ min: 1, max: 500_000 }), (points, width, from, span) => {
        const out = pointsForWidth(points, width, from, from + span);
        const inside = out.filter((p) => p.x >= from && p.x <= from + span);
        expect(inside.length).toBeLessThanOrEqual(Math.max(width, 3));
        expect(out.length - inside.length).toBeLessThanOrEqual(2);
        expect(isSubsequence(out, points)).toBe(true);
      }),
    );
  });

  it("draws to the chart's edges with the nearest points outside, and skips values that are not numbers", () => {
    const points = [
      { x: 0, y: 1 },
      { x: 5, y: 2 },
      { x: 10, y: Number.NaN },
      { x: 12, y: 3 },
      { x: 20, y: 4 },
      { x: 30, y: 5 },
    ];
    expect(pointsForWidth(points, 100, 8, 25)).toEqual([points[1], points[3], points[4], points[5]]);
  });
});
