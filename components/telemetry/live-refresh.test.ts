import { describe, expect, it } from "vitest";
import { appendRows, nextDeltaStart, parseRefresh, timeColumn, updatedAgo } from "./live-refresh";
import type { QueryResult } from "./series";

const columns = [
  { name: "Timestamp", columnType: "datetime" },
  { name: "Name", columnType: "string" },
  { name: "avg_Value", columnType: "real" },
];
const at = (minute: number) => new Date(Date.UTC(2026, 2, 10, 12, minute)).toISOString();
const result = (rows: [number, string, number][]): QueryResult => ({ columns, rows: rows.map(([m, n, v]) => [at(m), n, v]) });

describe("auto-refresh: appending what is new", () => {
  it("reads only the two intervals from the URL", () => {
    expect([parseRefresh("10s"), parseRefresh("1m"), parseRefresh("5s"), parseRefresh(null), parseRefresh("constructor")]).toEqual(["10s", "1m", null, null, null]);
  });

  it("asks again from the newest row, which the answer replaces (an open bucket gets its full value)", () => {
    const previous = result([
      [0, "T", 1],
      [10, "T", 2],
      [20, "T", 3], // open bucket: computed over part of it
    ]);
    const start = nextDeltaStart(previous, Date.parse(at(25)));
    expect(start).toBe(Date.parse(at(20)));
    const delta = result([
      [20, "T", 3.5],
      [30, "T", 4],
    ]);
    // The window moved on by 10 minutes: the first bucket leaves it.
    const merged = appendRows(previous, delta, start, Date.parse(at(5)));
    expect(merged!.rows).toEqual(result([
      [10, "T", 2],
      [20, "T", 3.5],
      [30, "T", 4],
    ]).rows);
  });

  it("does not append to a result without a time axis or with other columns", () => {
    const counts: QueryResult = { columns: [{ name: "Count", columnType: "long" }], rows: [[5]] };
    expect(timeColumn(counts)).toBe(-1);
    expect(appendRows(counts, counts, 0, 0)).toBeNull();
    const previous = result([[0, "T", 1]]);
    expect(appendRows(previous, { columns: columns.slice(0, 2), rows: [] }, 0, 0)).toBeNull();
    expect(nextDeltaStart(counts, 42)).toBe(42);
  });
});

describe("updatedAgo", () => {
  it("says when live mode last updated, in the reader's language", () => {
    expect(updatedAgo(1_500, "en")).toBe("updated just now");
    expect(updatedAgo(-2_000, "en")).toBe("updated just now");
    expect(updatedAgo(12_000, "en")).toBe("updated 12 sec. ago");
    expect(updatedAgo(125_000, "en")).toBe("updated 2 min. ago");
    expect(updatedAgo(2 * 3_600_000, "en")).toBe("updated 2 hr. ago");
    expect(updatedAgo(30_000, "de")).toContain("30 Sek.");
  });
});
