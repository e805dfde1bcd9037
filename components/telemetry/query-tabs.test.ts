import { describe, expect, it } from "vitest";
import { MAX_TAB_NAME, MAX_TABS, parseTabs, queryOfSearch, renameTab, tabTitle } from "./query-tabs";

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

  it("renames a tab: one line, bounded; an empty name gives back the query's name; kept through storage", () => {
    const tabs = [
      { id: "a", search: "", draft: "States | take 5" },
      { id: "b", search: "", draft: "Events" },
    ];
    const renamed = renameTab(tabs, "a", "  Line 3\n  pumps  ");
    expect(tabTitle(renamed[0]!, 0)).toBe("Line 3 pumps");
    expect(renamed[1]).toBe(tabs[1]);
    expect(renameTab(tabs, "a", "x".repeat(200))[0]!.name).toHaveLength(MAX_TAB_NAME);
    const cleared = renameTab(renamed, "a", "   ");
    expect(cleared[0]).not.toHaveProperty("name");
    expect(tabTitle(cleared[0]!, 0)).toBe("States | take 5");
    expect(parseTabs(JSON.stringify({ tabs: renamed, active: "a" }))!.tabs[0]!.name).toBe("Line 3 pumps");
    expect(parseTabs(JSON.stringify({ tabs: [{ id: "c", search: "", draft: "x", name: 5 }], active: "c" }))).toBeNull();
  });
});
