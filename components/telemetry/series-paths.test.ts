import { describe, expect, it } from "vitest";
import { axisExtents, linePath } from "./series-paths";

describe("axisExtents", () => {
  it("gives each axis the lowest and highest value of its own series, across the range", () => {
    const extents = axisExtents(
      [
        { key: "a", axis: "A", points: [{ x: 5, y: 3 }, { x: 6, y: -2 }] },
        { key: "b", axis: "A", points: [{ x: 5, y: 9 }] },
        { key: "c", axis: "bar", points: [{ x: 7, y: 0.5 }, { x: 8, y: 0.25 }] },
        { key: "d", axis: "empty", points: [] },
      ],
      0,
      100,
    );
    expect(extents).toEqual([
      { axis: "A", points: [{ x: 0, y: -2 }, { x: 100, y: 9 }] },
      { axis: "bar", points: [{ x: 0, y: 0.25 }, { x: 100, y: 0.5 }] },
    ]);
  });
});

describe("linePath", () => {
  const x = (value: number) => value * 2;
  it("moves to the first point and draws straight to the rest, to a tenth of a pixel", () => {
    expect(linePath([{ x: 1, y: 1 }, { x: 2, y: 0.333 }, { x: 3, y: 2 }], x, (v) => 100 - v * 10)).toBe("M2,90L4,96.7L6,80");
  });
  it("leaves out points a scale cannot place, joining their neighbours", () => {
    const y = (v: number) => (v < 0 ? undefined : v === 5 ? Number.NaN : v);
    expect(linePath([{ x: 1, y: -1 }, { x: 2, y: 4 }, { x: 3, y: 5 }, { x: 4, y: 6 }], x, y)).toBe("M4,4L8,6");
    expect(linePath([], x, y)).toBe("");
  });
});
