/**
 * row_window_session's cost (docs/api.md, LIMITS.sessionRows): the session fold over N rows a
 * second apart (one segment, the worst case) ÷ prev() over the same rows, on DuckDB and on
 * ClickHouse (chdb, in process). Prints the medians and the ratio per engine and size.
 *   npx tsx bench/row-window-session.ts [runs=5] [sizes=1000,5000,10000]
 */
import { FIXTURE_SQL } from "../lib/kql/testing/fixture";
import { createFixtureDatabase, runKql } from "../lib/kql/testing/duckdb.test-support";
import { createClickHouseFixture, runKqlOnClickHouse } from "../lib/kql/testing/clickhouse.test-support";

const runs = Number(process.argv[2] ?? 5);
const sizes = (process.argv[3] ?? "1000,5000,10000").split(",").map(Number);
const duckdb = await createFixtureDatabase(FIXTURE_SQL);
const clickhouse = await createClickHouseFixture(FIXTURE_SQL, "kql_bench_sessions");
const engines = {
  duckdb: (q: string) => runKql(duckdb, q),
  clickhouse: (q: string) => runKqlOnClickHouse(clickhouse, q),
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const iso = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString().slice(0, 19).replace("T", " ");

for (const n of sizes) {
  const rows = `range T from datetime(${iso(0)}) to datetime(${iso(n - 1)}) step 1s | sort by T asc`;
  const session = `${rows} | extend S = row_window_session(T, 1h, 5m) | summarize count(), dcount(S)`;
  const previous = `${rows} | extend S = prev(T) | summarize count(), dcount(S)`;
  for (const [engine, run] of Object.entries(engines)) {
    const times: Record<string, number[]> = { session: [], previous: [] };
    for (let i = 0; i < runs; i++) {
      for (const [name, q] of [["session", session], ["previous", previous]] as const) {
        const start = performance.now();
        await run(q);
        times[name]!.push(performance.now() - start);
      }
    }
    const [s, p] = [median(times.session!), median(times.previous!)];
    console.log(`${engine} ${n.toLocaleString("en-US")} rows: row_window_session ${s.toFixed(1)} ms, prev ${p.toFixed(1)} ms, ratio ${(s / p).toFixed(2)} (median of ${runs})`);
  }
}
await clickhouse.close();
