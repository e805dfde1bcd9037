/**
 * Conformance: row order (serialize, prev, next, row_number, row_cumsum, row_window_session) over a
 * serialized row set, as ADX defines it: sort, top and serialize serialize the rows; where, extend,
 * project and take keep them serialized.
 */
import { describe } from "vitest";
import { conformance, ENGINES, runOn } from "./harness";
import { expect, it } from "vitest";
import { evaluationError } from "@/lib/service/telemetry/duckdb/errors";
import { clickhouseQueryError } from "@/lib/service/telemetry/clickhouse/errors";
import { LIMITS } from "../budget";


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
    // A table's datetime column (ClickHouse stores milliseconds): a missing neighbour is null.
    { q: "States | sort by Timestamp asc, Name asc | extend p = prev(Timestamp), n = next(AgentTimestamp) | take 3 | project DeviceId, p, n", rows: [["D1", null, "2026-01-01T00:00:00.000Z"], ["D1", "2026-01-01T00:00:00.000Z", "2026-01-01T00:10:00.000Z"], ["D2", "2026-01-01T00:00:00.000Z", "2026-01-01T00:20:00.000Z"]] },
    // Strings: a missing neighbour is "" (strings are never null here).
    { q: "datatable(s: string) [\"a\", \"b\"] | sort by s asc | extend p = prev(s), n = next(s)", rows: [["a", "", "b"], ["b", "a", ""]] },
    // Computed before a summarize reads it.
    { q: "range x from 1 to 4 step 1 | sort by x asc | extend c = row_cumsum(x) | summarize total = sum(c)", rows: [[20]] },
    { q: "range x from 1 to 4 step 1 | sort by x asc | extend d = x - prev(x) | extend e = d * 10 | project x, e", rows: [[1, null], [2, 10], [3, 10], [4, 10]] },
  ]);
});

const t = (hhmm: string) => `2026-01-01T${hhmm}:00.000Z`;

/**
 * row_window_session (docs/api.md): a row starts a session when there is no session yet or its
 * start is null, when Expr is at least the start plus MaxDistanceFromFirst, when Expr is at least
 * the previous Expr plus MaxDistanceBetweenNeighbors (so a distance exactly equal starts one), or
 * when Restart is true. A null Expr gives null and the next row starts a session.
 */
describe("row_window_session", () => {
  conformance([
    // Microsoft's example (row-window-session-function.md), its rows and its output exactly.
    {
      q: 'datatable (ID:string, Timestamp:datetime) [\n    "1", datetime(2024-04-11 10:00:00),\n    "2", datetime(2024-04-11 10:18:00),\n    "1", datetime(2024-04-11 11:00:00),\n    "3", datetime(2024-04-11 11:30:00),\n    "2", datetime(2024-04-11 13:30:00),\n    "2", datetime(2024-04-11 10:16:00)\n]\n| sort by ID asc, Timestamp asc\n| extend SessionStarted = row_window_session(Timestamp, 1h, 5m, ID != prev(ID))',
      rows: [
        ["1", "2024-04-11T10:00:00.000Z", "2024-04-11T10:00:00.000Z"],
        ["1", "2024-04-11T11:00:00.000Z", "2024-04-11T11:00:00.000Z"],
        ["2", "2024-04-11T10:16:00.000Z", "2024-04-11T10:16:00.000Z"],
        ["2", "2024-04-11T10:18:00.000Z", "2024-04-11T10:16:00.000Z"],
        ["2", "2024-04-11T13:30:00.000Z", "2024-04-11T13:30:00.000Z"],
        ["3", "2024-04-11T11:30:00.000Z", "2024-04-11T11:30:00.000Z"],
      ],
      columns: ["ID", "Timestamp", "SessionStarted"],
      types: ["string", "datetime", "datetime"],
    },
    // Exactly MaxDistanceFromFirst after the start: a new session (>=), every 30 minutes here.
    {
      q: "range T from datetime(2026-01-01 00:00) to datetime(2026-01-01 01:00) step 10m | sort by T asc | extend S = row_window_session(T, 30m, 1h)",
      rows: [[t("00:00"), t("00:00")], [t("00:10"), t("00:00")], [t("00:20"), t("00:00")], [t("00:30"), t("00:30")], [t("00:40"), t("00:30")], [t("00:50"), t("00:30")], [t("01:00"), t("01:00")]],
    },
    // Exactly MaxDistanceBetweenNeighbors after the previous row: a new session; a shorter gap continues it.
    {
      q: "datatable(T: datetime) [datetime(2026-01-01 00:00), datetime(2026-01-01 00:04), datetime(2026-01-01 00:09), datetime(2026-01-01 00:13)] | sort by T asc | extend S = row_window_session(T, 1h, 5m)",
      rows: [[t("00:00"), t("00:00")], [t("00:04"), t("00:00")], [t("00:09"), t("00:09")], [t("00:13"), t("00:09")]],
    },
    // Restart when a column changes, without an ID order: the state's runs are the sessions.
    {
      q: 'datatable(T: datetime, State: string) [datetime(2026-01-01 00:00), "on", datetime(2026-01-01 00:01), "on", datetime(2026-01-01 00:02), "off", datetime(2026-01-01 00:03), "off", datetime(2026-01-01 00:04), "on"] | sort by T asc | extend S = row_window_session(T, 1h, 1h, State != prev(State)) | project State, S',
      rows: [["on", t("00:00")], ["on", t("00:00")], ["off", t("00:02")], ["off", t("00:02")], ["on", t("00:04")]],
    },
    // Nulls in Expr: the null row's start is null, and the next row starts a session (also as the first row).
    {
      q: "datatable(i: long, T: datetime) [1, datetime(2026-01-01 00:00), 2, datetime(null), 3, datetime(2026-01-01 00:01), 4, datetime(2026-01-01 00:02)] | sort by i asc | extend S = row_window_session(T, 1h, 5m) | project i, S",
      rows: [[1, t("00:00")], [2, null], [3, t("00:01")], [4, t("00:01")]],
    },
    {
      q: "datatable(i: long, T: datetime) [1, datetime(null), 2, datetime(2026-01-01 00:00), 3, datetime(2026-01-01 00:03)] | sort by i asc | extend S = row_window_session(T, 1h, 5m) | project i, S",
      rows: [[1, null], [2, t("00:00")], [3, t("00:00")]],
    },
    // Equal timestamps (ties in the sort too): no distance, the same session.
    {
      q: "datatable(T: datetime) [datetime(2026-01-01 00:05), datetime(2026-01-01 00:00), datetime(2026-01-01 00:00), datetime(2026-01-01 00:05)] | sort by T asc | extend S = row_window_session(T, 1h, 5m)",
      rows: [[t("00:00"), t("00:00")], [t("00:00"), t("00:00")], [t("00:05"), t("00:05")], [t("00:05"), t("00:05")]],
    },
    // Descending: Expr never passes the start or the previous row by the distances, one session (the doc's model).
    {
      q: "range T from datetime(2026-01-01 00:00) to datetime(2026-01-01 00:30) step 10m | sort by T desc | extend S = row_window_session(T, 15m, 5m)",
      rows: [[t("00:30"), t("00:30")], [t("00:20"), t("00:30")], [t("00:10"), t("00:30")], [t("00:00"), t("00:30")]],
    },
    // Inside an expression and in project; the rows stay serialized (prev after it), and filter/summarize read the column.
    {
      q: "range T from datetime(2026-01-01 00:00) to datetime(2026-01-01 00:40) step 10m | sort by T asc | project T, Age = T - row_window_session(T, 20m, 1h) | extend p = prev(Age)",
      rows: [[t("00:00"), "00:00:00", null], [t("00:10"), "00:10:00", "00:00:00"], [t("00:20"), "00:00:00", "00:10:00"], [t("00:30"), "00:10:00", "00:00:00"], [t("00:40"), "00:00:00", "00:10:00"]],
      types: ["datetime", "timespan", "timespan"],
    },
    {
      q: "range T from datetime(2026-01-01 00:00) to datetime(2026-01-01 02:00) step 10m | sort by T asc | extend S = row_window_session(T, 30m, 1h), r = row_number() | where S == T | project r",
      rows: [[1], [4], [7], [10], [13]],
    },
    {
      q: "range T from datetime(2026-01-01 00:00) to datetime(2026-01-01 02:00) step 10m | serialize S = row_window_session(T, 1h, 1h) | summarize Sessions = dcount(S), Rows = count()",
      rows: [[3, 13]],
    },
    // Over the fixture's States: sessions per device (Restart), every column carried through the fold (JSON metadata, Value).
    {
      q: "States | sort by DeviceId asc, Timestamp asc, Name asc | extend S = row_window_session(Timestamp, 1h, 1h, DeviceId != prev(DeviceId)) | project DeviceId, Name, S, Unit = tostring(DataMetadata.Unit), Value",
      rows: [
        ["D1", "pressure", "2026-01-01T00:00:00.000Z", "bar", 1.2],
        ["D1", "temperature", "2026-01-01T00:00:00.000Z", "C", 20.5],
        ["D1", "temperature", "2026-01-01T00:00:00.000Z", "C", 22],
        ["D1", "temperature", "2026-01-01T01:15:00.250Z", "C", 25.5],
        ["D1", "pressure", "2026-01-01T01:15:00.250Z", "bar", null],
        ["D2", "temperature", "2026-01-01T00:10:00.000Z", "C", 30],
        ["D2", "motor-current", "2026-01-01T00:10:00.000Z", "A", 7],
        ["D2", "vibration", "2026-01-01T03:00:00.000Z", "mm/s", -3.5],
        ["D3", "temperature", "2026-01-02T00:00:00.000Z", "C", 18],
        ["D3", "running", "2026-01-02T00:00:00.000Z", "", 1],
        ["D4", "throughput", "2026-01-02T12:00:00.000Z", "t/h", 100],
        ["D4", "Temperature", "2026-01-02T12:00:00.000Z", "C", 19.25],
      ],
      types: ["string", "string", "datetime", "string", "dynamic"],
    },
    // Two calls in one item, and none over an empty input.
    {
      q: "range T from datetime(2026-01-01 00:00) to datetime(2026-01-01 00:30) step 10m | sort by T asc | extend d = row_window_session(T, 20m, 1h) - row_window_session(T, 1h, 1h)",
      rows: [[t("00:00"), "00:00:00"], [t("00:10"), "00:00:00"], [t("00:20"), "00:20:00"], [t("00:30"), "00:20:00"]],
    },
    { q: "datatable(T: datetime) [] | sort by T asc | extend S = row_window_session(T, 1h, 5m)", rows: [], columns: ["T", "S"], types: ["datetime", "datetime"] },
  ]);

  // Bounded: the fold reads at most LIMITS.sessionRows rows; more is the engine's error, a 400.
  for (const engine of ENGINES) {
    it(`[${engine}] refuses more than ${LIMITS.sessionRows} rows, naming the function and the limit`, async () => {
      // 10,001 rows a second apart (00:00:00 … 02:46:40).
      const q = `range T from datetime(2026-01-01 00:00:00) to datetime(2026-01-01 02:46:40) step 1s | sort by T asc | extend S = row_window_session(T, 1h, 5m)`;
      const error = await runOn(engine, q).then(() => undefined, (e: unknown) => e);
      const answer = engine === "duckdb" ? evaluationError(error) : clickhouseQueryError(error);
      expect(answer?.code).toBe("INVALID_QUERY");
      expect(answer?.message).toContain(`row_window_session reads at most ${LIMITS.sessionRows.toLocaleString("en-US")} rows`);
    });
    it(`[${engine}] reads exactly ${LIMITS.sessionRows} rows`, async () => {
      const q = `range T from datetime(2026-01-01 00:00:00) to datetime(2026-01-01 02:46:39) step 1s | sort by T asc | extend S = row_window_session(T, 1h, 5m) | summarize count(), dcount(S)`;
      expect((await runOn(engine, q)).rows).toEqual([[LIMITS.sessionRows, 3]]);
    });
  }
});
