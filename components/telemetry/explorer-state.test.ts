import { describe, expect, it } from "vitest";
import {
  absoluteRange,
  parseExplorerState,
  resolveRange,
  serializeExplorerState,
  shiftedRange,
  type ExplorerState,
} from "./explorer-state";

const defaults = { query: "States | take 10", plantId: "RTM1", allowedPlants: ["RTM1", "HOU1"] };

describe("explorer URL state", () => {
  it("round-trips every field through the URL", () => {
    const state: ExplorerState = {
      query: 'States | where Name == "Temp & Flow"\n| take 5',
      range: { kind: "absolute", from: "2026-11-01T00:00:00.000Z", to: "2026-11-02T12:30:00.000Z" },
      plants: ["RTM1", "HOU1"],
      view: "table",
    };
    const parsed = parseExplorerState(new URLSearchParams(serializeExplorerState(state)), defaults);
    expect(parsed).toEqual(state);
  });

  it("keeps full resolution and the split view's shift in the URL, and ignores unknown shifts", () => {
    const state: ExplorerState = { query: "States", range: { kind: "relative", last: "7d" }, plants: ["RTM1"], view: "chart", full: true, compare: "7d" };
    const search = serializeExplorerState(state);
    expect(search).toContain("res=full");
    expect(search).toContain("compare=7d");
    expect(parseExplorerState(new URLSearchParams(search), defaults)).toEqual(state);
    expect(parseExplorerState(new URLSearchParams("q=States&compare=2y&res=half"), defaults)).not.toHaveProperty("compare");
    expect(parseExplorerState(new URLSearchParams("q=States&res=half"), defaults)).not.toHaveProperty("full");
  });

  it("shifts a range back for the split view", () => {
    expect(shiftedRange({ startTime: "2026-11-08T00:00:00.000Z", endTime: "2026-11-09T06:00:00.000Z" }, "7d")).toEqual({
      startTime: "2026-11-01T00:00:00.000Z",
      endTime: "2026-11-02T06:00:00.000Z",
    });
  });

  it("keeps auto-refresh in the URL for relative ranges only", () => {
    const live: ExplorerState = { query: "States", range: { kind: "relative", last: "1h" }, plants: ["RTM1"], view: "chart", refresh: "10s" };
    expect(parseExplorerState(new URLSearchParams(serializeExplorerState(live)), defaults)).toEqual(live);
    const fixed = parseExplorerState(new URLSearchParams("q=States&from=2026-11-01T00:00:00.000Z&to=2026-11-02T00:00:00.000Z&refresh=10s"), defaults);
    expect(fixed.refresh).toBeUndefined();
    expect(parseExplorerState(new URLSearchParams("q=States&range=1h&refresh=2s"), defaults).refresh).toBeUndefined();
  });

  it("falls back to defaults for a bare or hand-broken URL", () => {
    expect(parseExplorerState(new URLSearchParams(""), defaults)).toEqual({
      query: "States | take 10",
      range: { kind: "relative", last: "24h" },
      plants: ["RTM1"],
      view: "auto",
    });
    const broken = new URLSearchParams("range=9y&from=yesterday&to=2026-01-01T00:00:00Z&plants=OUL1,,RTM1,RTM1");
    const parsed = parseExplorerState(broken, defaults);
    expect(parsed.range).toEqual({ kind: "relative", last: "24h" });
    expect(parsed.plants).toEqual(["RTM1"]); // OUL1 is not the user's, the duplicate is dropped
  });

  it("ignores an absolute range that ends before it starts", () => {
    const params = new URLSearchParams("from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z&range=7d");
    expect(parseExplorerState(params, defaults).range).toEqual({ kind: "relative", last: "7d" });
  });

  it("resolves relative ranges against now, in whole seconds, as the API's ISO form", () => {
    const now = Date.parse("2026-11-22T10:00:00.750Z");
    expect(resolveRange({ kind: "relative", last: "1h" }, now)).toEqual({
      startTime: "2026-11-22T09:00:00.000Z",
      endTime: "2026-11-22T10:00:00.000Z",
    });
    expect(resolveRange({ kind: "absolute", from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" }, now)).toEqual({
      startTime: "2026-11-01T00:00:00.000Z",
      endTime: "2026-11-02T00:00:00.000Z",
    });
  });

  it("builds a zoom range in either drag direction and never empty", () => {
    expect(absoluteRange(2_500, 1_200)).toEqual({
      kind: "absolute",
      from: new Date(1_000).toISOString(),
      to: new Date(3_000).toISOString(),
    });
    const same = absoluteRange(5_000, 5_000);
    expect(same.kind === "absolute" && Date.parse(same.to) > Date.parse(same.from)).toBe(true);
  });
});
