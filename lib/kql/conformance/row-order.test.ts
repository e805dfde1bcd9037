/**
 * Conformance: row order (serialize, prev, next, row_number, row_cumsum) over a serialized row set,
 * as ADX defines it: sort, top and serialize serialize the rows; where, extend, project and take
 * keep them serialized.
 */
import { describe } from "vitest";
import { conformance } from "./harness";


describe("row order", () => {
  conformance([
    // A running delta of a counter: the commonest need after the last value.
    { q: "datatable(T: datetime, Counter: long) [datetime(2026-01-01 00:00), 100, datetime(2026-01-01 01:00), 130, datetime(2026-01-01 02:00), 175, datetime(2026-01-01 03:00), 175, datetime(2026-01-01 04:00), 240] | sort by T asc | extend Delta = Counter - prev(Counter) | project T, Delta", rows: [["2026-01-01T00:00:00.000Z", null], ["2026-01-01T01:00:00.000Z", 30], ["2026-01-01T02:00:00.000Z", 45], ["2026-01-01T03:00:00.000Z", 0], ["2026-01-01T04:00:00.000Z", 65]], types: ["datetime", "long"] },
    { q: "range x from 1 to 5 step 1 | sort by x asc | extend p = prev(x, 2, -1), n = next(x), m = next(x, 1, 0)", rows: [[1, -1, 2, 2], [2, -1, 3, 3], [3, 1, 4, 4], [4, 2, 5, 5], [5, 3, null, 0]], columns: ["x", "p", "n", "m"], types: ["long", "long", "long", "long"] },
    { q: "range x from 1 to 5 step 1 | order by x desc | extend r = row_number(), c = row_cumsum(x)", rows: [[5, 1, 5], [4, 2, 9], [3, 3, 12], [2, 4, 14], [1, 5, 15]], types: ["long", "long", "long"] },
    { q: "range x from 1 to 4 step 1 | serialize | extend r = row_number(0), c = row_cumsum(x * 0.5)", rows: [[1, 0, 0.5], [2, 1, 1.5], [3, 2, 3], [4, 3, 5]], types: ["long", "long", "real"] },
    // serialize with assignments, like extend.
    { q: "range x from 1 to 3 step 1 | sort by x asc | serialize r = row_number(), p = prev(x)", rows: [[1, 1, null], [2, 2, 1], [3, 3, 2]], columns: ["x", "r", "p"] },
    // A filter on a row-order function sees the rows before it; row order survives where/project/take.
    { q: "range x from 1 to 6 step 1 | sort by x asc | where x - prev(x, 1, 0) == 1 and x % 2 == 0 | project x", rows: [[2], [4], [6]] },
    { q: "range x from 1 to 6 step 1 | sort by x asc | where x > 2 | extend r = row_number() | take 2", rows: [[3, 1], [4, 2]] },
    { q: "range x from 1 to 6 step 1 | top 3 by x desc | extend p = prev(x)", rows: [[6, null], [5, 6], [4, 5]] },
    // Strings: a missing neighbour is "" (strings are never null here).
    { q: "datatable(s: string) [\"a\", \"b\"] | sort by s asc | extend p = prev(s), n = next(s)", rows: [["a", "", "b"], ["b", "a", ""]] },
    // Computed before a summarize reads it.
    { q: "range x from 1 to 4 step 1 | sort by x asc | extend c = row_cumsum(x) | summarize total = sum(c)", rows: [[20]] },
    { q: "range x from 1 to 4 step 1 | sort by x asc | extend d = x - prev(x) | extend e = d * 10 | project x, e", rows: [[1, null], [2, 10], [3, 10], [4, 10]] },
  ]);
});
