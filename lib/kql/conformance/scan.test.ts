/**
 * Conformance: `scan` (scan.ts) with the examples of Microsoft's scan page (cumulative sums with and
 * without a reset, fill forward, sessions, funnels) and the order of checks it states: from the last
 * step to the first, a promotion moving the previous step's state on, the first step starting a new
 * match (and match id) whenever it holds none.
 */
import { describe, expect, it } from "vitest";
import { conformance, ENGINES, runOn } from "../../service/telemetry/testing/kql-conformance";
import { evaluationError } from "@/lib/service/telemetry/duckdb/errors";
import { clickhouseQueryError } from "@/lib/service/telemetry/clickhouse/errors";
import { LIMITS } from "../budget";
import { compileKql } from "../compile";
import { KqlError } from "../errors";
import { unscopedSources } from "../../service/telemetry/testing/duckdb.test-support";

const EVENTS = `datatable (Ts: timespan, Event: string) [0m, "A", 1m, "Start", 2m, "B", 3m, "D", 4m, "Stop", 6m, "C", 8m, "Start", 11m, "E", 12m, "Stop"] | sort by Ts asc`;
const GAPS = `datatable (Ts: timespan, Event: string) [0m, "A", 1m, "", 2m, "B", 3m, "", 4m, "", 6m, "C", 8m, "", 11m, "D", 12m, ""] | sort by Ts asc`;

describe("scan", () => {
  conformance([
    // Exactly LIMITS.scanRows (500) rows.
    { q: "range x from 1 to 500 step 1 | scan declare (c:long=0) with (step s1: true => c = x + s1.c;) | summarize max(c)", rows: [[125250]] },
    // Cumulative sum: the declared default is the empty state's value.
    { q: "range x from 1 to 5 step 1 | scan declare (cumulative_x:long=0) with (step s1: true => cumulative_x = x + s1.cumulative_x;)", rows: [[1, 1], [2, 3], [3, 6], [4, 10], [5, 15]], columns: ["x", "cumulative_x"], types: ["long", "long"] },
    // With a reset condition.
    { q: "range x from 1 to 5 step 1 | scan declare (cumulative_x:long=0) with (step s1: true => cumulative_x = iff(s1.cumulative_x >= 10, x, x + s1.cumulative_x);)", rows: [[1, 1], [2, 3], [3, 6], [4, 10], [5, 5]] },
    // Fill forward.
    { q: `${GAPS} | scan declare (Event_filled: string="") with (step s1: true => Event_filled = iff(isempty(Event), s1.Event_filled, Event);) | project Event_filled`, rows: [["A"], ["A"], ["B"], ["B"], ["B"], ["C"], ["C"], ["D"], ["D"]] },
    // A funnel: Start, then other events within 5 minutes, then Stop within 5 minutes of the Start; C (6m) is no step's.
    { q: `${EVENTS} | scan with_match_id=m_id with (step s1: Event == "Start"; step s2: Event != "Start" and Event != "Stop" and Ts - s1.Ts <= 5m; step s3: Event == "Stop" and Ts - s1.Ts <= 5m;) | project Event, m_id`, rows: [["Start", 0], ["B", 0], ["D", 0], ["Stop", 0], ["Start", 1], ["E", 1], ["Stop", 1]] },
    // output=none: the second step's rows are not output; the first step's match ids go on.
    { q: `${EVENTS} | scan with_match_id=m with (step s1: Event == "Start"; step s2 output=none: Event == "Stop";) | project Ts, m`, rows: [["00:01:00", 0], ["00:08:00", 1]] },
    // A row meeting both steps: first promoted to s2 (output first), then it starts a new match in s1.
    { q: "range x from 1 to 3 step 1 | scan with_match_id=m with (step s1: true; step s2: true;)", rows: [[1, 0], [2, 0], [2, 1], [3, 1], [3, 2]], columns: ["x", "m"] },
    // No row matches: no rows, the columns still there.
    { q: "range x from 1 to 3 step 1 | scan declare (y:long) with (step s1: x > 5 => y = x;) | getschema | project ColumnName", rows: [["x"], ["y"]] },
  ]);
});

describe("scan bounds", () => {
  // One recursion step per row: more than LIMITS.scanRows rows is the engine's error, a 400.
  for (const engine of ENGINES) {
    it(`[${engine}] refuses more than ${LIMITS.scanRows} rows, naming the operator and the limit`, async () => {
      const q = `range x from 0 to ${LIMITS.scanRows} step 1 | scan declare (c:long=0) with (step s1: true => c = x + s1.c;)`;
      const error = await runOn(engine, q).then(() => undefined, (e: unknown) => e);
      const answer = engine === "duckdb" ? evaluationError(error) : clickhouseQueryError(error);
      expect(answer?.code).toBe("INVALID_QUERY");
      expect(answer?.message).toContain(`scan reads at most ${LIMITS.scanRows.toLocaleString("en-US")} rows`);
    });
  }
});

describe("scan refusals", () => {
  const refused = (q: string) => {
    try {
      compileKql(q, { sources: unscopedSources() });
    } catch (e) {
      expect(e).toBeInstanceOf(KqlError);
      return (e as Error).message;
    }
    throw new Error(`not refused: ${q}`);
  };
  it("names what it refuses", () => {
    expect(refused("range x from 1 to 3 step 1 | scan with (step s1 output=last: true;)")).toMatch(/output=last is not supported/);
    expect(refused("range x from 1 to 3 step 1 | scan with (step s1: true => y = x;)")).toMatch(/'y' is not a variable of scan's declare/);
    expect(refused("range x from 1 to 3 step 1 | scan with (step s1: s1.nope > 1;)")).toMatch(/Step 's1' has no column or variable 'nope'/);
  });
});
