/**
 * `npm run bench:scale -- --days N`: the four queries of issue 38 at the scale the machine allows,
 * each timed against hand-written SQL on the same files in the same run (docs/architecture.md,
 * "Plans that read only what they need"):
 *
 *   1. hourly average of one data point over 30 days (or the range there is);
 *   2. daily average of one data point over 398 days (or the range there is);
 *   3. count of every reading of the range;
 *   4. count per data point over the range;
 *   5. the fixed cost: `print x = 1`, which reads no row.
 *
 * DuckDB: Plantdesk over HTTP (POST /insights/v1/telemetry/query/table with a bearer token: token,
 * budget, admission, compile, execute, JSON), Plantdesk in process (the store's query: compile,
 * execute, JSON), and the bare SQL through the same store connection and the same JSON rendering
 * (so only the SQL differs), written straight on `StateValues`/`StateSeries`.
 * ClickHouse (chdb, in process): the store's query ÷ hand-written ClickHouse SQL on the same tables
 * and session (the HTTP hop to a ClickHouse server is not measured here).
 *
 * The ways alternate run by run (the order rotates), medians of `--runs` (default 5) after a warm-up;
 * answers are compared; a way that failed or answered differently prints no ratio (bench/honest.ts).
 * Data: the demo's customer CUST-ACME, N days generated once into BENCH_DATA_DIR (default
 * data/bench-scale) and reused. Options: --days (default 30), --runs, --engines duckdb,clickhouse,
 * --threads (TELEMETRY_DUCKDB_THREADS for the DuckDB runs; default the server's).
 */
import fs from "node:fs";
import path from "node:path";
import type { ResultColumn, SqlParams } from "@/lib/kql";
import { DEMO_CUSTOMERS, DEMO_PLANTS } from "@/lib/service/demo/catalog";
import { embeddedDuckDb, TELEMETRY_LIMITS } from "@/lib/service/telemetry-service";
import { chdbExecutor } from "@/lib/service/telemetry/clickhouse/chdb-executor";
import { openClickHouseTelemetryStore } from "@/lib/service/telemetry/clickhouse/store";
import { tableRows, type TelemetryStore } from "@/lib/service/telemetry/store";
import { ErrorLedger, median, printMachine } from "./honest";
import { startTelemetryServer } from "./telemetry-server";
import { demoTelemetrySeed } from "@/lib/service/telemetry/demo-data";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const DAYS = Number(option("days") ?? 30);
const RUNS = Number(option("runs") ?? 5);
const ENGINES = (option("engines") ?? "duckdb,clickhouse").split(",");
const THREADS = option("threads");
if (!Number.isInteger(DAYS) || DAYS < 2 || DAYS > 1650) throw new Error("--days takes a whole number from 2 to 1650");
const root = path.resolve(import.meta.dirname, "..");
const dataDir = path.resolve(root, process.env.BENCH_DATA_DIR ?? "data/bench-scale", `${DAYS}d`);
const CUSTOMER = "CUST-ACME";
const DEVICE = "RTM1-DEV-007";
const POINT = "Temperature";
const DAY = 86_400_000;
const limits = { ...TELEMETRY_LIMITS, timeoutMs: 120_000 };
const ledger = new ErrorLedger();

interface ScaleQuery {
  name: string;
  days: number;
  kql: string;
  /** Hand-written DuckDB SQL on the storage tables: `$s`/`$e` the range, `$d`/`$n` the data point. */
  duckdb: string;
  /** Hand-written ClickHouse SQL on the customer's `States` table (`DB` its database), same params as Int64/String. */
  clickhouse: string;
  columns: ResultColumn[];
}

const RANGE = `"Timestamp" >= $s AND "Timestamp" < $e`;
const ONE_POINT = `sid IN (SELECT sid FROM StateSeries WHERE DeviceId = $d AND Name = $n)`;
const CH_RANGE = `"Timestamp" >= fromUnixTimestamp64Milli({s:Int64}, 'UTC') AND "Timestamp" < fromUnixTimestamp64Milli({e:Int64}, 'UTC')`;
const CH_POINT = `DeviceId = {d:String} AND Name = {n:String}`;

const QUERIES: ScaleQuery[] = [
  {
    name: `hourly average of one data point, ${Math.min(30, DAYS)} days`,
    days: Math.min(30, DAYS),
    kql: `States | where DeviceId == "${DEVICE}" and Name == "${POINT}" | summarize avg(Value) by bin(Timestamp, 1h) | order by Timestamp asc`,
    duckdb: `SELECT time_bucket(INTERVAL 1 HOUR, "Timestamp") AS "Timestamp", avg("Value") AS avg_Value FROM StateValues WHERE ${ONE_POINT} AND ${RANGE} GROUP BY 1 ORDER BY 1`,
    clickhouse: `SELECT toStartOfHour("Timestamp") AS t, avg("Value") FROM DB."States" WHERE ${CH_POINT} AND ${CH_RANGE} GROUP BY t ORDER BY t`,
    columns: [
      { name: "Timestamp", kqlType: "datetime" },
      { name: "avg_Value", kqlType: "real" },
    ],
  },
  {
    name: `daily average of one data point, ${Math.min(398, DAYS)} days`,
    days: Math.min(398, DAYS),
    kql: `States | where DeviceId == "${DEVICE}" and Name == "${POINT}" | summarize avg(Value) by bin(Timestamp, 1d) | order by Timestamp asc`,
    duckdb: `SELECT time_bucket(INTERVAL 1 DAY, "Timestamp") AS "Timestamp", avg("Value") AS avg_Value FROM StateValues WHERE ${ONE_POINT} AND ${RANGE} GROUP BY 1 ORDER BY 1`,
    clickhouse: `SELECT toStartOfDay("Timestamp") AS t, avg("Value") FROM DB."States" WHERE ${CH_POINT} AND ${CH_RANGE} GROUP BY t ORDER BY t`,
    columns: [
      { name: "Timestamp", kqlType: "datetime" },
      { name: "avg_Value", kqlType: "real" },
    ],
  },
  {
    name: `count, ${Math.min(398, DAYS)} days`,
    days: Math.min(398, DAYS),
    kql: "States | count",
    duckdb: `SELECT count(*) AS "Count" FROM StateValues WHERE ${RANGE}`,
    clickhouse: `SELECT count() FROM DB."States" WHERE ${CH_RANGE}`,
    columns: [{ name: "Count", kqlType: "long" }],
  },
  {
    name: `count per data point, ${Math.min(398, DAYS)} days`,
    days: Math.min(398, DAYS),
    kql: "States | summarize count() by Name | order by Name asc",
    // Group the narrow rows by series id first, then join the few hundred groups to their names.
    duckdb: `SELECT s.Name, sum(g.n)::BIGINT AS count_ FROM (SELECT sid, count(*) AS n FROM StateValues WHERE ${RANGE} GROUP BY sid) AS g
             JOIN StateSeries s ON s.sid = g.sid GROUP BY s.Name ORDER BY s.Name`,
    clickhouse: `SELECT Name, count() FROM DB."States" WHERE ${CH_RANGE} GROUP BY Name ORDER BY Name`,
    columns: [
      { name: "Name", kqlType: "string" },
      { name: "count_", kqlType: "long" },
    ],
  },
  {
    // Issue 38's fixed cost: an answer that reads no row, so what is left is the path around the engine.
    name: "fixed cost: a query that reads no row",
    days: 1,
    kql: "print x = 1",
    duckdb: "SELECT 1::BIGINT AS x",
    clickhouse: "SELECT toInt64(1)",
    columns: [{ name: "x", kqlType: "long" }],
  },
];

/** Same answer: same number of rows, every number equal to 1e-6 relative (timestamps' spelling may differ). */
function sameAnswer(a: unknown[][], b: unknown[][]): boolean {
  if (a.length !== b.length) return false;
  return a.every((row, i) =>
    row.every((x, j) => {
      const y = b[i]![j];
      const [nx, ny] = [Number(x), Number(y)];
      if (typeof x === "number" || typeof y === "number") return Math.abs(nx - ny) <= 1e-6 * Math.max(1, Math.abs(nx), Math.abs(ny));
      if (typeof x === "string" && typeof y === "string" && !Number.isNaN(Date.parse(x)) && !Number.isNaN(Date.parse(`${y}Z`.replace(" ", "T")))) return true;
      return x === y;
    }),
  );
}

interface Way {
  name: string;
  run: () => Promise<unknown[][]>;
}

/** Runs the ways alternately (order rotated each run), one warm-up first; medians in ms, answers compared to the last way. */
async function measure(engine: string, query: ScaleQuery, ways: Way[]): Promise<Record<string, number>> {
  const times: Record<string, number[]> = Object.fromEntries(ways.map((w) => [w.name, []]));
  const answers: Record<string, unknown[][]> = {};
  for (let run = 0; run <= RUNS; run++) {
    for (let k = 0; k < ways.length; k++) {
      const way = ways[(run + k) % ways.length]!;
      const where = `${engine} ${query.name}: ${way.name}`;
      const t = performance.now();
      try {
        answers[way.name] = await way.run();
      } catch (error) {
        ledger.note(where, error instanceof Error ? error.message : String(error));
        continue;
      }
      if (run > 0) times[way.name]!.push(performance.now() - t);
    }
  }
  const reference = ways.at(-1)!.name;
  for (const way of ways.slice(0, -1)) {
    if (answers[way.name] && answers[reference] && !sameAnswer(answers[way.name]!, answers[reference]!)) {
      ledger.note(`${engine} ${query.name}: ${way.name}`, `answer differs from ${reference}: ${JSON.stringify(answers[way.name]!.slice(0, 2))} vs ${JSON.stringify(answers[reference]!.slice(0, 2))}`);
    }
  }
  return Object.fromEntries(ways.map((w) => [w.name, median(times[w.name]!)]));
}

const rowsOf = (table: { rows: Uint8Array[] }) => JSON.parse(Buffer.concat(table.rows).toString("utf8")) as unknown[][];
const summary: string[] = [];

function report(engine: string, query: ScaleQuery, ms: Record<string, number>, bare: string) {
  const where = (way: string) => `${engine} ${query.name}: ${way}`;
  const parts = Object.entries(ms).map(([way, v]) => `${way} ${v.toFixed(1)} ms`);
  const ratios = Object.keys(ms)
    .filter((way) => way !== bare)
    .map((way) => `${way} ÷ bare ${ledger.ratio(ms[way]!, ms[bare]!, where(way), where(bare))}`);
  const line = `${engine.padEnd(10)} ${query.name.padEnd(44)} ${parts.join(", ")}; ${ratios.join(", ")}`;
  console.log(line);
  summary.push(line);
}

async function duckdbPhase(): Promise<{ end: Date; total: number }> {
  const started = Date.now();
  const service = await startTelemetryServer({ dataDir: path.join(dataDir, "duckdb"), days: DAYS, customerId: CUSTOMER, env: THREADS ? { TELEMETRY_DUCKDB_THREADS: THREADS } : {} });
  const { config, runtime, base, token } = service;
  console.log(`DuckDB files ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${config.dataDir}; TELEMETRY_DUCKDB_THREADS ${config.TELEMETRY_DUCKDB_THREADS})`);
  try {
    const store = embeddedDuckDb(runtime.telemetry);
    const wide = { start: new Date(Date.now() - 1700 * DAY), end: new Date(Date.now() + DAY), plantIds: null };
    const [total, last] = rowsOf(await store.query({ customerId: CUSTOMER, kql: "States | summarize count(), max(Timestamp)", scope: wide, limits }))[0] as [number, string];
    const end = new Date(Date.parse(last) + 60_000);
    console.log(`${CUSTOMER}: ${total.toLocaleString("en-US")} readings, data ends ${end.toISOString()}\n`);
    if (!ENGINES.includes("duckdb")) return { end, total };
    for (const query of QUERIES) {
      const scope = { start: new Date(end.getTime() - query.days * DAY), end, plantIds: null };
      const params: SqlParams = {
        s: { type: "TIMESTAMP", value: scope.start.getTime() },
        e: { type: "TIMESTAMP", value: scope.end.getTime() },
        d: { type: "VARCHAR", value: DEVICE },
        n: { type: "VARCHAR", value: POINT },
      };
      // DuckDB refuses a bound parameter the statement does not use.
      for (const name of Object.keys(params)) if (!query.duckdb.includes(`$${name}`)) delete params[name];
      const body = JSON.stringify({ query: query.kql, startTime: scope.start.toISOString(), endTime: scope.end.toISOString() });
      const ms = await measure("DuckDB", query, [
        {
          name: "Plantdesk HTTP",
          run: async () => {
            const response = await fetch(`${base}/insights/v1/telemetry/query/table`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body });
            const json = (await response.json()) as { data?: { rows: unknown[][] } };
            if (response.status !== 200) throw new Error(`HTTP ${response.status} ${JSON.stringify(json).slice(0, 200)}`);
            return json.data!.rows;
          },
        },
        { name: "Plantdesk in process", run: async () => rowsOf(await store.query({ customerId: CUSTOMER, kql: query.kql, scope, limits })) },
        { name: "bare SQL", run: async () => rowsOf(await store.execute(CUSTOMER, { sql: query.duckdb, params, columns: query.columns }, { limits })) },
      ]);
      report("DuckDB", query, ms, "bare SQL");
    }
    return { end, total };
  } finally {
    await service.close();
  }
}

async function clickhousePhase(end: Date) {
  const customers = DEMO_CUSTOMERS.filter((c) => c.id === CUSTOMER).map((c) => ({ id: c.id, plants: DEMO_PLANTS.filter((p) => p.customerId === c.id) }));
  const started = Date.now();
  const executor = chdbExecutor(path.join(dataDir, "chdb"));
  // The same demo model and "now" as the DuckDB files: the data ends at the same minute.
  const store = await openClickHouseTelemetryStore({ executor, databasePrefix: "benchscale_", customers, seed: demoTelemetrySeed({ seed: "plantdesk", days: DAYS, now: new Date(end.getTime() - 60_000) }), maxQueryMemoryBytes: 2048 * 1048576 });
  console.log(`\nClickHouse (chdb) ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const database = `"${store.database(CUSTOMER)}"`;
  const run = async (s: TelemetryStore, kql: string, scope: { start: Date; end: Date }) => tableRows(await s.query({ customerId: CUSTOMER, kql, scope: { ...scope, plantIds: null }, limits })) as unknown[][];
  try {
    const [chTotal] = (await run(store, "States | count", { start: new Date(end.getTime() - 1700 * DAY), end }))[0] as [number];
    console.log(`${CUSTOMER} on ClickHouse: ${Number(chTotal).toLocaleString("en-US")} readings\n`);
    for (const query of QUERIES) {
      const scope = { start: new Date(end.getTime() - query.days * DAY), end };
      const params = { s: String(scope.start.getTime()), e: String(scope.end.getTime()), d: DEVICE, n: POINT };
      const sql = `${query.clickhouse.replace("DB.", `${database}.`)} FORMAT JSONCompactEachRow`;
      const ms = await measure("ClickHouse", query, [
        { name: "Plantdesk in process", run: () => run(store, query.kql, scope) },
        {
          name: "bare SQL",
          run: async () => {
            const text = Buffer.from(await executor.query(sql, params)).toString("utf8").trim();
            return text ? text.split("\n").map((line) => JSON.parse(line) as unknown[]) : [];
          },
        },
      ]);
      report("ClickHouse", query, ms, "bare SQL");
    }
  } finally {
    await store.close();
  }
}

printMachine(`bench:scale --days ${DAYS} --runs ${RUNS}`);
const { end } = await duckdbPhase();
if (ENGINES.includes("clickhouse")) await clickhousePhase(end);
console.log("\nSummary (medians; ratio = Plantdesk ÷ hand-written SQL on the same files):");
for (const line of summary) console.log(`  ${line}`);
printMachine("bench:scale, end");
const clean = ledger.finish();
const outDir = path.join(root, "bench", "results");
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, "scale.json"), JSON.stringify({ at: new Date().toISOString(), days: DAYS, runs: RUNS, clean, summary }, null, 2));
