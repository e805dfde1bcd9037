/**
 * `npx tsx bench/fixed-cost.ts [--requests 500]`: the fixed cost of an answer (issue 38), a query
 * that reads no row (`print x = 1`) sent again and again through the real HTTP endpoint
 * (POST /insights/v1/telemetry/query/table with a bearer token), through the store in process, and
 * as bare `SELECT 1` through the same store connection and JSON rendering, and the compiled
 * statement through the store with its parameters typed (`CAST($k1 AS BIGINT)`, as the DuckDB dialect
 * spells them) and untyped (`$k1`, as before: re-planned on every run); alternated request by request,
 * medians. Run under `node --cpu-prof --import tsx bench/fixed-cost.ts` to see where the
 * HTTP path's time goes. Data: a 2-day demo file in BENCH_DATA_DIR (default data/bench-fixed-cost).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { compileKql } from "@/lib/kql";
import { embeddedDuckDb, TELEMETRY_LIMITS } from "@/lib/service/telemetry-service";
import { scopedSources } from "@/lib/service/telemetry/duckdb/store";
import { ErrorLedger, median, printMachine } from "./honest";
import { startTelemetryServer } from "./telemetry-server";

const args = process.argv.slice(2);
const at = args.indexOf("--requests");
const REQUESTS = at >= 0 ? Number(args[at + 1]) : 500;
const CUSTOMER = "CUST-ACME";
const root = path.resolve(import.meta.dirname, "..");
const ledger = new ErrorLedger();

printMachine(`fixed cost, ${REQUESTS} requests a way`);
const service = await startTelemetryServer({ dataDir: path.resolve(root, process.env.BENCH_DATA_DIR ?? "data/bench-fixed-cost"), days: 2, customerId: CUSTOMER });
const { base, token, runtime } = service;
// The transport's own floor: the same client and Node's HTTP server, answering without the service.
const echo = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"data":{"rows":[[1]]}}'));
});
await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
const echoBase = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
try {
  const store = embeddedDuckDb(runtime.telemetry);
  const end = new Date();
  const scope = { start: new Date(end.getTime() - 86_400_000), end, plantIds: null };
  const body = JSON.stringify({ query: "print x = 1", startTime: scope.start.toISOString(), endTime: scope.end.toISOString() });
  const limits = { ...TELEMETRY_LIMITS, timeoutMs: 30_000 };
  const printed = compileKql("print x = 1", { sources: scopedSources(scope) });
  const ways: Record<string, () => Promise<void>> = {
    "HTTP": async () => {
      const response = await fetch(`${base}/insights/v1/telemetry/query/table`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`HTTP ${response.status} ${text.slice(0, 200)}`);
    },
    "HTTP, no service": async () => {
      const response = await fetch(`${echoBase}/insights/v1/telemetry/query/table`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body });
      await response.text();
    },
    "in process": async () => void (await store.query({ customerId: CUSTOMER, kql: "print x = 1", scope, limits })),
    // The same compiled statement with its parameters untyped (`$k1`, as before issue 38's change):
    // DuckDB cannot infer `SELECT $k1`'s type, so it binds and plans the statement on every run.
    "untyped $k": async () => void (await store.execute(CUSTOMER, { ...printed, sql: printed.sql.replace(/CAST\(\$(\w+) AS \w+\)/g, "$$$1") }, { limits })),
    "typed CAST($k)": async () => void (await store.execute(CUSTOMER, printed, { limits })),
    "bare SELECT 1": async () => void (await store.execute(CUSTOMER, { sql: "SELECT 1::BIGINT AS x", params: {}, columns: [{ name: "x", kqlType: "long" }] }, { limits })),
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((w) => [w, []]));
  const names = Object.keys(ways);
  for (let i = -20; i < REQUESTS; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + 20 + k) % names.length]!;
      const t = performance.now();
      try {
        await ways[name]!();
      } catch (error) {
        ledger.note(name, error instanceof Error ? error.message : String(error));
        continue;
      }
      if (i >= 0) times[name]!.push(performance.now() - t);
    }
  }
  const ms = Object.fromEntries(names.map((n) => [n, median(times[n]!)]));
  for (const n of names) console.log(`${n.padEnd(14)} median ${ms[n]!.toFixed(2)} ms`);
  const bare = "bare SELECT 1";
  console.log(names.filter((n) => n !== bare).map((n) => `${n} ÷ bare ${ledger.ratio(ms[n]!, ms[bare]!, n, bare)}`).join(", "));
} finally {
  echo.close();
  await service.close();
}
printMachine("fixed cost, end");
ledger.finish();
