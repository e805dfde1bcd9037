/**
 * `npm run bench:cluster`: what several instances buy, measured in one run on this machine.
 *
 *   1. Maintenance GET throughput (jobs-done, 100 records, 30 connections) through a round-robin
 *      balancer in front of three instances ÷ through the same balancer in front of one of them.
 *      The instances share PostgreSQL, Redis and one read-only DATA_DIR (lib/testing/cluster.ts,
 *      started as the README starts the server). All three, the balancer and the load generator
 *      share this machine's cores, so the figure says how far the cores bound it, not what three
 *      machines would do.
 *   2. Telemetry query latency on ClickHouse ÷ on DuckDB for the `bench:telemetry` queries
 *      (`clickhouseVsDuckDb()` of telemetry-clickhouse.ts: chdb in process, same demo data).
 *
 *   npm run bench:cluster -- [--seconds 15] [--days 7] [--runs 3]
 *
 * Needs PostgreSQL and Redis (lib/testing/services.ts); without them part 1 is skipped with the
 * reason. BENCH_DATA_DIR (default data/bench-telemetry-clickhouse) keeps part 2's data between
 * runs, shared with `npm run bench:telemetry-clickhouse`.
 */
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startBalancer, type Balancer } from "@/lib/testing/balancer";
import { clusterUnavailable, startCluster } from "@/lib/testing/cluster";
import { clickhouseVsDuckDb } from "./telemetry-clickhouse";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const SECONDS = option("seconds", 15);
const DAYS = option("days", 7);
const RUNS = option("runs", 3);
const CONNECTIONS = 30;
const root = path.resolve(import.meta.dirname, "..");
const cores = os.availableParallelism();

interface Throughput {
  rps: number;
  p99: number;
  errors: number;
}

function load(url: string, token: string, seconds: number): Promise<Throughput> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: `${url}/maintenance/v1/plants/RTM1/jobs-done?pageSize=100`, connections: CONNECTIONS, duration: seconds, headers: { authorization: `Bearer ${token}` } },
      (error, result) => {
        if (error) return reject(error);
        resolve({ rps: result.requests.total / seconds, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx });
      },
    );
  });
}

async function maintenanceThroughput(): Promise<string[]> {
  const unavailable = await clusterUnavailable();
  if (unavailable) {
    console.log(`Part 1 skipped: ${unavailable}`);
    return [`maintenance throughput 3 ÷ 1 instances: skipped (${unavailable})`];
  }
  console.log("Starting three instances (PostgreSQL, Redis, read-only telemetry)…");
  const cluster = await startCluster({
    size: 3,
    // Throughput, not the per-token request limit (1,200/min).
    env: { MAINTENANCE_RATE_LIMIT_PER_MINUTE: "1000000000" },
    log: (line) => console.log(`  ${line}`),
  });
  let one: Balancer | null = null;
  try {
    const out = await cluster.runScript("ops.ts", ["token", "issue", "--plant", "RTM1", "--json"]);
    const { token } = JSON.parse(out.slice(out.indexOf("{"))) as { token: string };
    one = await startBalancer([cluster.instances[0]!.url]);
    // Warm both paths (JIT, connection pools, PostgreSQL's caches), then measure in turn.
    await load(one.url, token, 3);
    await load(cluster.url, token, 3);
    const single = await load(one.url, token, SECONDS);
    const three = await load(cluster.url, token, SECONDS);
    const ratio = three.rps / single.rps;
    const busy = os.loadavg()[0]!;
    console.log(`\nMaintenance GET throughput (jobs-done, 100 records, ${CONNECTIONS} connections, ${SECONDS} s each, through a round-robin balancer):`);
    console.log(`  1 instance   ${single.rps.toFixed(0).padStart(6)} req/s   p99 ${single.p99} ms   errors ${single.errors}`);
    console.log(`  3 instances  ${three.rps.toFixed(0).padStart(6)} req/s   p99 ${three.p99} ms   errors ${three.errors}`);
    console.log(`  3 ÷ 1 = ${ratio.toFixed(2)}`);
    console.log(
      `  Bound by this machine's ${cores} core${cores === 1 ? "" : "s"}: the three instances, the balancer, PostgreSQL and the load generator share them,\n` +
        "  so this shows what a second process on the same cores gives, not what three machines would.",
    );
    // Other work on the machine skews the figure upwards: three processes get three shares of contended cores.
    console.log(`  Load average during the run: ${busy.toFixed(1)} on ${cores} cores${busy > cores ? " — the machine was busy with other work, which favours three processes" : ""}.`);
    return [`maintenance throughput 3 ÷ 1 instances: ${ratio.toFixed(2)} (${three.rps.toFixed(0)} vs ${single.rps.toFixed(0)} req/s; ${cores} cores bound it; load average ${busy.toFixed(1)})`];
  } finally {
    await one?.close();
    await cluster.close();
  }
}

const summary = await maintenanceThroughput();

console.log(`\nTelemetry query latency, ClickHouse (chdb, ${DAYS} d of demo data) ÷ DuckDB, median of ${RUNS} runs each:`);
const dataDir = path.resolve(root, process.env.BENCH_DATA_DIR ?? "data/bench-telemetry-clickhouse");
const { rows, geometricMean } = await clickhouseVsDuckDb({ dataDir, days: DAYS, runs: RUNS, log: (line) => console.log(`  ${line}`) });
console.log(["  query".padEnd(46), "DuckDB ms".padStart(10), "ClickHouse ms".padStart(14), "ratio".padStart(7), " same answer"].join(" "));
for (const r of rows) {
  console.log([`  ${r.name}`.padEnd(46), r.duckdbMs.toFixed(1).padStart(10), r.clickhouseMs.toFixed(1).padStart(14), r.ratio.toFixed(2).padStart(7), ` ${r.sameRows ? "yes" : "NO"}`].join(" "));
}
summary.push(`telemetry latency ClickHouse ÷ DuckDB: geometric mean ${geometricMean.toFixed(2)} over ${rows.length} queries (below 1: ClickHouse faster)`);

console.log(`\nSummary (${cores} cores):`);
for (const line of summary) console.log(`  ${line}`);
if (rows.some((r) => !r.sameRows)) {
  console.error("ClickHouse and DuckDB gave different answers (see the table).");
  process.exit(1);
}
