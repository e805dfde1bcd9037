import { describe, expect, it } from "vitest";
import { binText, resolutionText } from "./resolution-note";

describe("resolution note", () => {
  it("names bins as a person would", () => {
    expect([binText(60_000, true), binText(1_800_000), binText(3_600_000, true), binText(86_400_000 * 2), binText(15_000), binText(90_000)]).toEqual([
      "1-min",
      "30 min",
      "1-hour",
      "2 d",
      "15 s",
      "90 s",
    ]);
  });
  it("says what a reduced chart shows", () => {
    expect(resolutionText({ method: "bin", sourceBinMs: 60_000, shownBinMs: 900_000, fullRows: 1, fullFits: true })).toBe("1-min data shown at 15 min");
    expect(resolutionText({ method: "minmax", sourceBinMs: null, shownBinMs: 600_000, fullRows: 1, fullFits: true })).toBe("Samples shown as each series' low and high per 10 min");
  });
});
