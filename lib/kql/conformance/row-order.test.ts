/**
 * Conformance: row order (serialize, prev, next, row_number, row_cumsum, row_window_session) over a
 * serialized row set, as ADX defines it: sort, top and serialize serialize the rows; where, extend,
 * project and take keep them serialized.
 */
import { describe } from "vitest";
import { conformance, ENGINES, runOn } from "../../service/telemetry/testing/kql-conformance";
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

  /**
   * Long inputs (the runs between certain starts, dialect.ts RowWindowSessionSpec), checked row by
   * row against ADX's rule applied in order here: a row starts a session when there is none or its
   * start is null, on Restart, when the row before has a null Expr, or when Expr >= start +
   * MaxDistanceFromFirst or >= previous Expr + MaxDistanceBetweenNeighbors; a null Expr gets null.
   */
  const expected = (rows: readonly (readonly unknown[])[], firstOf: (row: readonly unknown[]) => number, neighbors: number) => {
    let start: number | null = null;
    let previous: number | null = null;
    return rows.map((row, i) => {
      const x = row[1] === null ? null : Date.parse(row[1] as string);
      const restart = row[2] === true;
      if (x === null) start = null;
      else if (i === 0 || start === null || previous === null || restart || x >= start + firstOf(row) || x >= previous + neighbors) start = x;
      previous = x;
      return start === null ? null : new Date(start).toISOString();
    });
  };
  const minute = 60_000;
  for (const engine of ENGINES) {
    it(`[${engine}] 20,000 rows: sessions broken by neighbour gaps, restarts, nulls and MaxDistanceFromFirst, Expr not monotonic`, async () => {
      // A minute apart with a jitter of 0–150 s (so Expr sometimes falls), an 8-minute gap every 700 rows, a null every 1,013, a restart every 4,999.
      const q =
        "range i from 0 to 19999 step 1 | extend T = iff(i % 1013 == 500, datetime(null), datetime(2026-01-01) + i * 1m + (i % 7) * 25s + (i / 700) * 7m), R = i % 4999 == 0 " +
        "| sort by i asc | extend S = row_window_session(T, 1h, 5m, R) | project i, T, R, S";
      const rows = (await runOn(engine, q)).rows;
      expect(rows.map((r) => r[0])).toEqual(Array.from({ length: 20_000 }, (_, i) => i));
      const sessions = expected(rows, () => 60 * minute, 5 * minute);
      expect(rows.map((r) => r[3])).toEqual(sessions);
      expect(new Set(sessions).size).toBeGreaterThan(300);
    });
    it(`[${engine}] 20,000 rows with MaxDistanceFromFirst varying by row`, async () => {
      // ClickHouse steps from start to start only when MaxDistanceFromFirst is the same on a run's rows; here it is not (50 or 60 minutes).
      const q =
        "range i from 0 to 19999 step 1 | extend T = iff(i % 1013 == 500, datetime(null), datetime(2026-01-01) + i * 1m + (i % 7) * 25s + (i / 700) * 7m), R = i % 4999 == 0, F = iff(i % 3 == 0, 50m, 1h) " +
        "| sort by i asc | extend S = row_window_session(T, F, 5m, R) | project i, T, R, S, F";
      const rows = (await runOn(engine, q)).rows;
      expect(rows.map((r) => r[0])).toEqual(Array.from({ length: 20_000 }, (_, i) => i));
      expect(rows.map((r) => r[3])).toEqual(expected(rows, (row) => ((row[0] as number) % 3 === 0 ? 50 : 60) * minute, 5 * minute));
    });
    it(`[${engine}] 30,000 rows in one run: only MaxDistanceFromFirst splits it`, async () => {
      const q = "range i from 0 to 29999 step 1 | extend T = datetime(2026-01-01) + i * 1m | sort by i asc | extend S = row_window_session(T, 1h, 1h) | summarize Rows = count(), Sessions = dcount(S), Late = countif(T - S >= 1h), First = min(S), Last = max(S)";
      expect((await runOn(engine, q)).rows).toEqual([[30_000, 500, 0, "2026-01-01T00:00:00.000Z", "2026-01-21T19:00:00.000Z"]]);
    });
  }

  // Bounded: at most LIMITS.sessionRows rows, and per run LIMITS.sessionRunWork rows × sessions; more is the engine's error, a 400.
  const refusal = async (engine: (typeof ENGINES)[number], q: string) => {
    const error = await runOn(engine, q).then(() => undefined, (e: unknown) => e);
    return engine === "duckdb" ? evaluationError(error) : clickhouseQueryError(error);
  };
  for (const engine of ENGINES) {
    it(`[${engine}] refuses more than ${LIMITS.sessionRows} rows, naming the function and the limit`, async () => {
      const q = `range i from 0 to ${LIMITS.sessionRows} step 1 | extend T = datetime(2026-01-01) + i * 1s | sort by i asc | extend S = row_window_session(T, 1h, 5m)`;
      const answer = await refusal(engine, q);
      expect(answer?.code).toBe("INVALID_QUERY");
      expect(answer?.message).toContain(`row_window_session reads at most ${LIMITS.sessionRows.toLocaleString("en-US")} rows`);
    });
    it(`[${engine}] reads exactly ${LIMITS.sessionRows} rows`, async () => {
      // A 10-minute gap every 1,000 rows (100 runs), 1 h sessions within each.
      const q = `range i from 0 to ${LIMITS.sessionRows - 1} step 1 | extend T = datetime(2026-01-01) + i * 1s + (i / 1000) * 10m | sort by i asc | extend S = row_window_session(T, 1h, 5m) | summarize count(), dcount(S)`;
      expect((await runOn(engine, q)).rows).toEqual([[LIMITS.sessionRows, 100]]);
    });
    it(`[${engine}] refuses a run where every row is its own session past the work limit`, async () => {
      const q = "range i from 0 to 14999 step 1 | extend T = datetime(2026-01-01) + i * 1s | sort by i asc | extend S = row_window_session(T, 1s, 1h) | summarize dcount(S)";
      const answer = await refusal(engine, q);
      expect(answer?.code).toBe("INVALID_QUERY");
      expect(answer?.message).toContain(`row_window_session allows at most ${LIMITS.sessionRunWork.toLocaleString("en-US")} rows × sessions in one run`);
    });
    it(`[${engine}] every row its own session within the work limit`, async () => {
      const q = "range i from 0 to 4999 step 1 | extend T = datetime(2026-01-01) + i * 1s | sort by i asc | extend S = row_window_session(T, 1s, 1h) | summarize count(), dcount(S), countif(S != T)";
      expect((await runOn(engine, q)).rows).toEqual([[5000, 5000, 0]]);
    });
  }
});
