/**
 * Function calls per second on both engines (issue 32): N calls of a function over `range`,
 * timed against the same query without the call, so the difference is the calls' own cost.
 * Functions: sin (SQL on both engines), pow, hash (XXH64: a JavaScript scalar function on DuckDB,
 * ClickHouse's own xxHash64). Prints the median of `runs` per engine and function.
 *   npx tsx bench/kql-functions.ts [runs=5] [n=1000000]
 */
import { createFixtureDatabase, runKql } from "../lib/service/telemetry/testing/duckdb.test-support";
import { createClickHouseFixture, runKqlOnClickHouse } from "../lib/service/telemetry/testing/clickhouse.test-support";

const runs = Number(process.argv[2] ?? 5);
const n = Number(process.argv[3] ?? 1_000_000);
const duckdb = await createFixtureDatabase([]);
const clickhouse = await createClickHouseFixture([], "kql_bench_functions");
const engines = {
  duckdb: (q: string) => runKql(duckdb, q),
  clickhouse: (q: string) => runKqlOnClickHouse(clickhouse, q),
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows = `range i from 1 to ${n} step 1`;
const calls: [string, string][] = [
  ["sin", `sum(sin(i))`],
  ["pow", `sum(pow(i, 0.5))`],
  ["hash", `sum(hash(tostring(i), 1000))`],
];
const baselines: Record<string, string> = { sin: "sum(todouble(i))", pow: "sum(todouble(i))", hash: "sum(strlen(tostring(i)))" };
async function time(run: (q: string) => Promise<unknown>, q: string): Promise<number> {
  const start = performance.now();
  await run(q);
  return performance.now() - start;
}
for (const [engine, run] of Object.entries(engines)) {
  for (const [name, call] of calls) {
    const withCall: number[] = [];
    const without: number[] = [];
    for (let r = 0; r < runs; r++) {
      withCall.push(await time(run, `${rows} | summarize ${call}`));
      without.push(await time(run, `${rows} | summarize ${baselines[name]}`));
    }
    const cost = Math.max(median(withCall) - median(without), 0.001);
    console.log(`${engine.padEnd(10)} ${name.padEnd(5)} ${n.toLocaleString("en-US")} calls: ${median(withCall).toFixed(0)} ms (without the call ${median(without).toFixed(0)} ms) → ${((n / cost) * 1000 / 1e6).toFixed(1)} M calls/s`);
  }
}
process.exit(0);
