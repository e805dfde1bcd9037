import { describe, expect, it } from "vitest";
import { MAX_TABS, parseTabs, queryOfSearch, tabTitle } from "./query-tabs";

describe("query tabs", () => {
  it("reads stored tabs and drops what is malformed", () => {
    expect(parseTabs(null)).toBeNull();
    expect(parseTabs("not json")).toBeNull();
    expect(parseTabs(JSON.stringify({ tabs: [{ id: 1 }], active: "x" }))).toBeNull();
    const tabs = [
      { id: "a", search: "q=States", draft: "States" },
      { id: "b", search: "", draft: "Events" },
      { junk: true },
    ];
    expect(parseTabs(JSON.stringify({ tabs, active: "b" }))).toEqual({ tabs: tabs.slice(0, 2), active: "b" });
    expect(parseTabs(JSON.stringify({ tabs, active: "gone" }))?.active).toBe("a");
    const many = Array.from({ length: MAX_TABS + 5 }, (_, index) => ({ id: String(index), search: "", draft: "" }));
    expect(parseTabs(JSON.stringify({ tabs: many, active: "0" }))?.tabs).toHaveLength(MAX_TABS);
  });

  it("names a tab after its query on one line, without comments", () => {
    expect(tabTitle({ id: "a", search: "", draft: "// mine\nStates\n| take 5" }, 0)).toBe("States | take 5");
    expect(tabTitle({ id: "a", search: "", draft: "  " }, 2)).toBe("Query 3");
    expect(tabTitle({ id: "a", search: "", draft: "States | where Name == \"Temperature\" | take 5" }, 0)).toBe("States | where Name == \"Tempera…");
  });

  it("knows the query a tab last ran", () => {
    expect(queryOfSearch("q=Events+%7C+take+1&range=24h")).toBe("Events | take 1");
    expect(queryOfSearch("")).toBeNull();
  });
});
