/**
 * `npm run bench:telemetry`: representative telemetry queries on the 30-day demo data (≥ 10 M
 * readings), each timed three ways in the same run:
 *
 *   baseline  hand-written DuckDB SQL for the same answer, in process (same executor, same
 *             row conversion as the query path, so only the SQL differs);
 *   engine    the KQL engine in process: parse, compile, execute, convert;
 *   http      end to end: POST /insights/v1/telemetry/query/table with a bearer token.
 *
 * Prints medians, engine/baseline ratio and HTTP overhead (http − engine). The data is generated
 * once into BENCH_DATA_DIR (default data/bench-telemetry) and reused. Options: `--runs N` (default 7),
 * `--only <name>`, `--sql` (print the compiled SQL).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { compileKql, type ResultColumn, type SqlParams } from "@/lib/kql";
import { parseConfig } from "@/lib/config";
import { fromNodeRequest, sendNodeResponse } from "@/lib/service/http/node-adapter";
import { createServiceRuntime } from "@/lib/service/runtime";
import { scopedSources, type SqlStatement } from "@/lib/service/telemetry/duckdb-store";
import { TELEMETRY_LIMITS } from "@/lib/service/telemetry";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const RUNS = Number(option("runs") ?? 7);
const ONLY = option("only");
const SHOW_SQL = args.includes("--sql");
const root = path.resolve(import.meta.dirname, "..");
const dataDir = path.resolve(root, process.env.BENCH_DATA_DIR ?? "data/bench-telemetry");
const CUSTOMER = "CUST-ACME";
const DAY = 86_400_000;

interface BenchQuery {
  name: string;
  /** Range length ending at the end of the data. */
  days: number;
  kql: string;
  /** Hand-written SQL over the same scope: `$s`/`$e` are the range, other params as given. */
  sql: string;
  params?: SqlParams;
  columns: ResultColumn[];
}

const str = (value: string) => ({ type: "VARCHAR" as const, value });
const RANGE = `"Timestamp" >= $s AND "Timestamp" < $e`;
const EVENTS_RANGE = `StartTime < $e AND (EndTime IS NULL OR EndTime >= $s)`;

const QUERIES: BenchQuery[] = [
  {
    name: "raw 24h, one data point",
    days: 1,
    kql: 'States | where DeviceId == "RTM1-DEV-007" and Name == "Temperature" | project Timestamp, Value | order by Timestamp asc',
    sql: `SELECT "Timestamp", "Value" FROM States WHERE ${RANGE} AND DeviceId = $d AND Name = $n ORDER BY "Timestamp" ASC`,
    params: { d: str("RTM1-DEV-007"), n: str("Temperature") },
    columns: [
      { name: "Timestamp", kqlType: "datetime" },
      { name: "Value", kqlType: "dynamic" },
    ],
  },
  {
    name: "30d hourly avg/min/max, one data point",
    days: 30,
    kql: 'States | where DeviceId == "RTM1-DEV-007" and Name == "Vibration" | summarize avg(Value), min(Value), max(Value) by bin(Timestamp, 1h) | order by Timestamp asc',
    sql: `SELECT time_bucket(INTERVAL 1 HOUR, "Timestamp") AS "Timestamp", avg("Value"), min("Value"), max("Value")
          FROM States WHERE ${RANGE} AND DeviceId = $d AND Name = $n GROUP BY 1 ORDER BY 1`,
    params: { d: str("RTM1-DEV-007"), n: str("Vibration") },
    columns: [
      { name: "Timestamp", kqlType: "datetime" },
      { name: "avg_Value", kqlType: "real" },
      { name: "min_Value", kqlType: "dynamic" },
      { name: "max_Value", kqlType: "dynamic" },
    ],
  },
  {
    name: "top alarms by count (30d)",
    days: 30,
    kql: "Events | summarize count() by Name | top 5 by count_",
    sql: `SELECT Name, count(*) AS count_ FROM Events WHERE ${EVENTS_RANGE} GROUP BY Name ORDER BY count_ DESC LIMIT 5`,
    columns: [
      { name: "Name", kqlType: "string" },
      { name: "count_", kqlType: "long" },
    ],
  },
  {
    name: "dcount devices by DataMetadata.Area (24h)",
    days: 1,
    kql: "States | summarize dcount(DeviceId) by Area = tostring(DataMetadata.Area) | order by Area asc",
    sql: `SELECT DataMetadata->>'Area' AS Area, count(DISTINCT DeviceId) FROM States WHERE ${RANGE} GROUP BY 1 ORDER BY 1`,
    columns: [
      { name: "Area", kqlType: "string" },
      { name: "dcount_DeviceId", kqlType: "long" },
    ],
  },
  {
    name: "p95 temperature per device (7d)",
    days: 7,
    kql: 'States | where Name == "Temperature" | summarize percentile(todouble(Value), 95) by DeviceId | order by DeviceId asc',
    sql: `SELECT DeviceId, quantile_disc("Value", 0.95) FROM States WHERE ${RANGE} AND Name = $n GROUP BY 1 ORDER BY 1`,
    params: { n: str("Temperature") },
    columns: [
      { name: "DeviceId", kqlType: "string" },
      { name: "percentile__95", kqlType: "real" },
    ],
  },
  {
    name: "filter on DataMetadata.DeviceType (24h)",
    days: 1,
    kql: 'States | where Name == "MotorCurrent" and DataMetadata.DeviceType == "Pump" | summarize avg(Value) by DeviceId | order by DeviceId asc',
    sql: `SELECT DeviceId, avg("Value") FROM States WHERE ${RANGE} AND Name = $n AND (DataMetadata->>'DeviceType') = $t GROUP BY 1 ORDER BY 1`,
    params: { n: str("MotorCurrent"), t: str("Pump") },
    columns: [
      { name: "DeviceId", kqlType: "string" },
      { name: "avg_Value", kqlType: "real" },
    ],
  },
  {
    name: "take 1000 (30d)",
    days: 30,
    kql: "States | take 1000",
    sql: `SELECT * FROM States WHERE ${RANGE} LIMIT 1000`,
    columns: [
      { name: "DeviceId", kqlType: "string" },
      { name: "Name", kqlType: "string" },
      { name: "Timestamp", kqlType: "datetime" },
      { name: "Value", kqlType: "dynamic" },
      { name: "PlantId", kqlType: "string" },
      { name: "DataMetadata", kqlType: "dynamic" },
      { name: "MessageMetadata", kqlType: "dynamic" },
      { name: "MessageType", kqlType: "string" },
      { name: "AgentTimestamp", kqlType: "datetime" },
      { name: "IngestionTimestamp", kqlType: "datetime" },
    ],
  },
  {
    name: "count (30d)",
    days: 30,
    kql: "States | count",
    sql: `SELECT count(*) AS "Count" FROM States WHERE ${RANGE}`,
    columns: [{ name: "Count", kqlType: "long" }],
  },
];

const EXPLAIN_COLUMNS: ResultColumn[] = [
  { name: "explain_key", kqlType: "string" },
  { name: "explain_value", kqlType: "string" },
];

/**
 * The operator names of an EXPLAIN tree, top to bottom. Projections are left out: the compiled SQL
 * reads from a scoped subquery, which adds a pass-through PROJECTION that costs nothing measurable.
 */
function operators(plan: string): string {
  return [...plan.matchAll(/│\s*([A-Z_]{3,})\s*│/g)]
    .map((m) => m[1])
    .filter((name) => name !== "PROJECTION")
    .join(" > ");
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main() {
  const setupStarted = Date.now();
  const fresh = !fs.existsSync(path.join(dataDir, `telemetry-${CUSTOMER}.duckdb`));
  const config = parseConfig({
    ...process.env,
    DATA_DIR: dataDir,
    DEMO_TELEMETRY_DAYS: "30",
    TELEMETRY_COST_BUDGET_PER_MINUTE: "100000000",
  } as NodeJS.ProcessEnv);
  const runtime = await createServiceRuntime(config);
  console.log(`${fresh ? "Generated" : "Reused"} ${dataDir} (${((Date.now() - setupStarted) / 1000).toFixed(1)} s)`);

  const server = http.createServer((req, res) => {
    void (async () => {
      const request = await fromNodeRequest(req, "http://127.0.0.1");
      sendNodeResponse(res, await runtime.handle(request));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  try {
    const client = runtime.telemetry.clients.create(CUSTOMER);
    const tokenResponse = await fetch(`${base}/oauth2/v2.0/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: client.client_id,
        client_secret: client.client_secret,
        scope: `${config.TELEMETRY_RESOURCE_ID}/.default`,
      }),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const store = runtime.telemetry.store;
    const limits = { ...TELEMETRY_LIMITS, timeoutMs: config.TELEMETRY_QUERY_TIMEOUT_MS };

    // The data ends where it was generated; every range ends there.
    const wide = { start: new Date(Date.now() - 399 * DAY), end: new Date(Date.now() + DAY), plantIds: null };
    const extent = await store.query({ customerId: CUSTOMER, kql: "States | summarize n = count(), last = max(Timestamp)", scope: wide, limits });
    const [total, last] = extent.rows[0] as [number, string];
    const end = new Date(Date.parse(last) + 60_000);
    const allRows = await Promise.all(
      ["CUST-ACME", "CUST-NORDIC"].map((c) => store.query({ customerId: c, kql: "States | count", scope: wide, limits })),
    );
    const everyCustomer = allRows.reduce((sum, t) => sum + Number(t.rows[0]![0]), 0);
    console.log(`States rows: ${everyCustomer.toLocaleString("en-US")} over all customers, ${total.toLocaleString("en-US")} for ${CUSTOMER}; data ends ${end.toISOString()}`);
    console.log(`Runs per query and way: ${RUNS} (after one warm-up), interleaved.\n`);

    const results: Record<string, unknown>[] = [];
    for (const q of QUERIES.filter((q) => !ONLY || q.name.includes(ONLY))) {
      const scope = { start: new Date(end.getTime() - q.days * DAY), end, plantIds: null };
      const baseline: SqlStatement = {
        sql: q.sql,
        params: {
          ...q.params,
          s: { type: "TIMESTAMP", value: scope.start.getTime() },
          e: { type: "TIMESTAMP", value: scope.end.getTime() },
        },
        columns: q.columns,
      };
      if (SHOW_SQL) {
        const compiled = compileKql(q.kql, { sources: scopedSources(scope) });
        console.log(`-- ${q.name}\n-- KQL: ${q.kql}\n${compiled.sql}\n`);
      }
      const body = JSON.stringify({ query: q.kql, startTime: scope.start.toISOString(), endTime: scope.end.toISOString() });
      const timings = { baseline: [] as number[], engine: [] as number[], http: [] as number[] };
      let baselineRows: unknown[][] = [];
      let engineRows: unknown[][] = [];
      let httpRows = 0;
      const ways: Record<keyof typeof timings, () => Promise<void>> = {
        baseline: async () => {
          baselineRows = (await store.execute(CUSTOMER, baseline, { limits })).rows;
        },
        engine: async () => {
          engineRows = (await store.query({ customerId: CUSTOMER, kql: q.kql, scope, limits })).rows;
        },
        http: async () => {
          const response = await fetch(`${base}/insights/v1/telemetry/query/table`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
            body,
          });
          const json = (await response.json()) as { data?: { rows: unknown[] } };
          if (response.status !== 200) throw new Error(`${q.name}: HTTP ${response.status} ${JSON.stringify(json)}`);
          httpRows = json.data!.rows.length;
        },
      };
      const order = Object.keys(ways) as (keyof typeof timings)[];
      for (let run = 0; run <= RUNS; run++) {
        // Rotate the order each run, so no way always runs first (cold) or right after another.
        for (let k = 0; k < order.length; k++) {
          const way = order[(run + k) % order.length]!;
          const t = performance.now();
          await ways[way]();
          if (run > 0) timings[way].push(performance.now() - t); // run 0 warms up
        }
      }
      // The compiled SQL should plan like the hand-written one: compare DuckDB's physical plans.
      const explain = (statement: SqlStatement) =>
        store.execute(CUSTOMER, { ...statement, sql: `EXPLAIN ${statement.sql}`, columns: EXPLAIN_COLUMNS }, { limits });
      const compiled = compileKql(q.kql, { sources: scopedSources(scope) });
      const plans = [await explain(baseline), await explain(compiled)].map((t) => operators(String(t.rows[0]?.[1] ?? "")));
      const plan = plans[0] === plans[1] ? "plan same" : "plan differs";
      const same = JSON.stringify(baselineRows) === JSON.stringify(engineRows) ? "same" : "DIFFERENT";
      const row = {
        query: q.name,
        rows: engineRows.length,
        answer: same,
        baselineMs: median(timings.baseline),
        engineMs: median(timings.engine),
        ratio: median(timings.engine) / median(timings.baseline),
        httpMs: median(timings.http),
        httpOverheadMs: median(timings.http) - median(timings.engine),
        plan,
      };
      if (httpRows !== engineRows.length) row.answer = "HTTP DIFFERENT";
      results.push(row);
      console.log(
        `${q.name.padEnd(44)} rows ${String(row.rows).padStart(5)}  baseline ${row.baselineMs.toFixed(1).padStart(7)} ms  ` +
          `engine ${row.engineMs.toFixed(1).padStart(7)} ms  ratio ${row.ratio.toFixed(2)}  http ${row.httpMs.toFixed(1).padStart(7)} ms  ` +
          `overhead ${row.httpOverheadMs.toFixed(1).padStart(6)} ms  ${same}, ${plan}`,
      );
    }
    const outDir = path.join(root, "bench", "results");
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, "telemetry.json"), JSON.stringify({ at: new Date().toISOString(), runs: RUNS, results }, null, 2));
  } finally {
    server.close();
    await runtime.close();
  }
}

await main();
