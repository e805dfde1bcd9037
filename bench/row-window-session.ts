/**
 * row_window_session's cost (docs/api.md, LIMITS.sessionRows and LIMITS.sessionRunWork) ÷ prev()
 * over the same rows, on DuckDB and on ClickHouse (chdb, in process). Cases per size N:
 *   run      N rows a second apart, one run without a neighbour gap: only MaxDistanceFromFirst (1 h) splits it;
 *   gaps     N rows a second apart with a 10-minute hole every 1,000 rows, Restart every 5,000 rows: many runs;
 *   worst    N rows a second apart, MaxDistanceFromFirst 1 s: every row its own session inside one run
 *            (the fold's work grows with rows × sessions; refused past LIMITS.sessionRunWork).
 * Prints the medians and the ratio per engine, case and size.
 *   npx tsx bench/row-window-session.ts [runs=5] [sizes=10000,100000] [worst=9000]
 */
import { FIXTURE_SQL } from "../lib/kql/testing/fixture";
import { createFixtureDatabase, runKql } from "../lib/service/telemetry/testing/duckdb.test-support";
import { createClickHouseFixture, runKqlOnClickHouse } from "../lib/service/telemetry/testing/clickhouse.test-support";

const runs = Number(process.argv[2] ?? 5);
const sizes = (process.argv[3] ?? "10000,100000").split(",").map(Number);
const worst = Number(process.argv[4] ?? 9000);
const duckdb = await createFixtureDatabase(FIXTURE_SQL);
const clickhouse = await createClickHouseFixture(FIXTURE_SQL, "kql_bench_sessions");
const engines = {
  duckdb: (q: string) => runKql(duckdb, q),
  clickhouse: (q: string) => runKqlOnClickHouse(clickhouse, q),
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const range = (n: number) => `range i from 0 to ${n - 1} step 1`;
const cases: { name: string; n: number; rows: string; call: string }[] = [
  ...sizes.flatMap((n) => [
    { name: "run", n, rows: `${range(n)} | extend T = datetime(2026-01-01) + i * 1s`, call: "row_window_session(T, 1h, 5m)" },
    { name: "gaps", n, rows: `${range(n)} | extend T = datetime(2026-01-01) + i * 1s + (i / 1000) * 10m`, call: "row_window_session(T, 1h, 5m, i % 5000 == 0)" },
  ]),
  { name: "worst", n: worst, rows: `${range(worst)} | extend T = datetime(2026-01-01) + i * 1s`, call: "row_window_session(T, 1s, 1h)" },
];

for (const c of cases) {
  const rows = `${c.rows} | sort by i asc`;
  const session = `${rows} | extend S = ${c.call} | summarize count(), dcount(S)`;
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
    console.log(`${engine} ${c.name} ${c.n.toLocaleString("en-US")} rows: row_window_session ${s.toFixed(1)} ms, prev ${p.toFixed(1)} ms, ratio ${(s / p).toFixed(2)} (median of ${runs})`);
  }
}
await clickhouse.close();
