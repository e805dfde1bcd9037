/**
 * `npm run bench:telemetry`: representative telemetry queries on the 30-day demo data (≥ 10 M
 * readings), each timed three ways in the same run:
 *
 *   baseline  hand-written DuckDB SQL for the same answer, in process (same executor, same
 *             row conversion as the query path, so only the SQL differs);
 *   engine    the KQL engine in process: parse, compile, execute, convert;
 *   http      end to end: POST /insights/v1/telemetry/query/table with a bearer token.
 *
 * Then the Kusto protocol's rows (bench/telemetry-kusto.ts): the same queries through
 * POST /v2/rest/query ÷ through the spec's endpoint.
 *
 * Prints medians, engine/baseline ratio and HTTP overhead (http − engine). The data is generated
 * once into BENCH_DATA_DIR (default data/bench-telemetry) and reused. Options: `--runs N` (default 7),
 * `--only <name>`, `--sql` (print the compiled SQL).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { compileKql } from "@/lib/kql";
import { parseConfig } from "@/lib/config";
import { fromNodeRequest, sendNodeResponse } from "@/lib/platform/http/node-adapter";
import { createServiceRuntime } from "@/lib/service/runtime";
import { scopedSources, type SqlStatement } from "@/lib/service/telemetry/duckdb/store";
import { embeddedDuckDb, TELEMETRY_LIMITS } from "@/lib/service/telemetry-service";
import { QUERIES } from "./telemetry-queries";
import { benchKusto } from "./telemetry-kusto";

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

/**
 * Same answer: equal rows, numbers to 1e-9 relative (a float sum or average may differ in its last
 * bits between two plans, since DuckDB adds in parallel and in no fixed order).
 */
function sameAnswer(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameAnswer(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object") {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => sameAnswer((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
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
      const request = await fromNodeRequest(req, "http://127.0.0.1", res);
      sendNodeResponse(res, await runtime.handle(request));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  try {
    const client = await runtime.telemetry.clients.create(CUSTOMER);
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
    const store = embeddedDuckDb(runtime.telemetry);
    const limits = { ...TELEMETRY_LIMITS, timeoutMs: config.TELEMETRY_QUERY_TIMEOUT_MS };

    // The data ends where it was generated; every range ends there.
    const wide = { start: new Date(Date.now() - 399 * DAY), end: new Date(Date.now() + DAY), plantIds: null };
    const extent = await store.query({ customerId: CUSTOMER, kql: "States | summarize n = count(), last = max(Timestamp)", scope: wide, limits });
    const rowsOf = (table: { rows: Uint8Array[] }) => JSON.parse(Buffer.concat(table.rows).toString("utf8")) as unknown[][];
    const [total, last] = rowsOf(extent)[0] as [number, string];
    const end = new Date(Date.parse(last) + 60_000);
    const allRows = await Promise.all(
      ["CUST-ACME", "CUST-NORDIC"].map((c) => store.query({ customerId: c, kql: "States | count", scope: wide, limits })),
    );
    const everyCustomer = allRows.reduce((sum, t) => sum + Number(rowsOf(t)[0]![0]), 0);
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
          baselineRows = q.baselineKql
            ? rowsOf(await store.query({ customerId: CUSTOMER, kql: q.baselineKql, scope, limits }))
            : rowsOf(await store.execute(CUSTOMER, baseline, { limits }));
        },
        engine: async () => {
          engineRows = rowsOf(await store.query({ customerId: CUSTOMER, kql: q.kql, scope, limits }));
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
      const compiled = compileKql(q.kql, { sources: scopedSources(scope) });
      const plans = q.baselineKql ? [] : [await store.plan(CUSTOMER, baseline), await store.plan(CUSTOMER, compiled)].map(operators);
      const plan = q.baselineKql ? "KQL baseline" : plans[0] === plans[1] ? "plan same" : "plan differs";
      const same = q.baselineKql ? "not compared" : sameAnswer(baselineRows, engineRows) ? "same" : "DIFFERENT";
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
    // `--only kusto` runs just these rows.
    if (!ONLY || ONLY === "kusto") results.push(...(await benchKusto({ base, token, customerId: CUSTOMER, end, runs: RUNS })));
    const outDir = path.join(root, "bench", "results");
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, "telemetry.json"), JSON.stringify({ at: new Date().toISOString(), runs: RUNS, results }, null, 2));
  } finally {
    server.close();
    await runtime.close();
  }
}

await main();
