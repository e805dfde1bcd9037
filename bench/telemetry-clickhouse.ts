/**
 * Telemetry query latency on ClickHouse ÷ on DuckDB, same machine, same run, same demo data: the
 * queries of `npm run bench:telemetry` (telemetry-queries.ts) through each store's `query()` (compile
 * + execute + rows as response JSON). ClickHouse runs in process (chdb, the same statements the
 * HTTP client sends a server), so the figure compares the engines, not a network.
 *
 *   npm run bench:telemetry-clickhouse -- [--days 30] [--runs 5] [--only <name>]
 *
 * `clickhouseVsDuckDb()` is exported for a combined benchmark (bench:cluster).
 */
import fs from "node:fs";
import path from "node:path";
import { DEMO_CUSTOMERS, DEMO_PLANTS } from "@/lib/service/demo/catalog";
import { TELEMETRY_LIMITS } from "@/lib/service/telemetry-service";
import { chdbExecutor } from "@/lib/service/telemetry/clickhouse/chdb-executor";
import { openClickHouseTelemetryStore } from "@/lib/service/telemetry/clickhouse/store";
import { openDuckDbTelemetryStore } from "@/lib/service/telemetry/duckdb/store";
import { tableRows, type TelemetryStore } from "@/lib/service/telemetry/store";
import { QUERIES } from "./telemetry-queries";
import { demoTelemetrySeed } from "@/lib/service/telemetry/demo-data";

const DAY = 86_400_000;
const CUSTOMER = "CUST-ACME";

interface RatioRow {
  name: string;
  duckdbMs: number;
  clickhouseMs: number;
  ratio: number;
  rows: number;
  sameRows: boolean;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function clickhouseVsDuckDb(options: { dataDir: string; days: number; runs: number; only?: string; log?: (line: string) => void }): Promise<{ rows: RatioRow[]; geometricMean: number }> {
  const log = options.log ?? ((line: string) => console.log(line));
  fs.mkdirSync(options.dataDir, { recursive: true });
  // One "now" for both stores, kept with the data so a later run reuses both.
  const nowFile = path.join(options.dataDir, `now-${options.days}d.txt`);
  if (!fs.existsSync(nowFile)) fs.writeFileSync(nowFile, new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString());
  const now = new Date(fs.readFileSync(nowFile, "utf8").trim());
  const customers = DEMO_CUSTOMERS.filter((c) => c.id === CUSTOMER).map((c) => ({ id: c.id, plants: DEMO_PLANTS.filter((p) => p.customerId === c.id) }));
  const seed = demoTelemetrySeed({ seed: "bench-clickhouse", days: options.days, now });

  const started = Date.now();
  const duckdb = await openDuckDbTelemetryStore({ dataDir: path.join(options.dataDir, `duckdb-${options.days}d`), customers, seed });
  log(`DuckDB store ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const chStarted = Date.now();
  const clickhouse = await openClickHouseTelemetryStore({ executor: chdbExecutor(path.join(options.dataDir, "chdb")), databasePrefix: `bench${options.days}d_`, customers, seed, maxQueryMemoryBytes: 1024 * 1048576 });
  log(`ClickHouse (chdb) store ready in ${((Date.now() - chStarted) / 1000).toFixed(1)} s`);

  const limits = { ...TELEMETRY_LIMITS, timeoutMs: 60_000 };
  const run = async (store: TelemetryStore, kql: string, days: number) => {
    const t0 = performance.now();
    const table = await store.query({ customerId: CUSTOMER, kql, scope: { start: new Date(now.getTime() - days * DAY), end: now, plantIds: null }, limits, now });
    return { ms: performance.now() - t0, table };
  };

  const rows: RatioRow[] = [];
  try {
    for (const query of QUERIES.filter((q) => !options.only || q.name.includes(options.only))) {
      const a = await run(duckdb, query.kql, query.days); // warm-up (and the answers compared)
      const b = await run(clickhouse, query.kql, query.days);
      const duckTimes: number[] = [];
      const chTimes: number[] = [];
      for (let i = 0; i < options.runs; i++) {
        duckTimes.push((await run(duckdb, query.kql, query.days)).ms);
        chTimes.push((await run(clickhouse, query.kql, query.days)).ms);
      }
      const [duckdbMs, clickhouseMs] = [median(duckTimes), median(chTimes)];
      const sameRows = a.table.rowCount === b.table.rowCount && (query.kql.includes("take") || JSON.stringify(roundAll(tableRows(a.table))) === JSON.stringify(roundAll(tableRows(b.table))));
      rows.push({ name: query.name, duckdbMs, clickhouseMs, ratio: clickhouseMs / duckdbMs, rows: a.table.rowCount, sameRows });
    }
  } finally {
    await duckdb.close();
    await clickhouse.close();
  }
  const geometricMean = Math.exp(rows.reduce((sum, r) => sum + Math.log(r.ratio), 0) / Math.max(1, rows.length));
  return { rows, geometricMean };
}

function roundAll(value: unknown): unknown {
  if (typeof value === "number") return Number(value.toPrecision(9));
  return Array.isArray(value) ? value.map(roundAll) : value;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const days = Number(option("days") ?? 30);
  const runs = Number(option("runs") ?? 5);
  const root = path.resolve(import.meta.dirname, "..");
  const dataDir = path.resolve(root, process.env.BENCH_DATA_DIR ?? "data/bench-telemetry-clickhouse");
  const { rows, geometricMean } = await clickhouseVsDuckDb({ dataDir, days, runs, only: option("only") });
  console.log(`\nTelemetry query latency, ClickHouse (chdb ${days} d of demo data) ÷ DuckDB, median of ${runs} runs each:`);
  console.log(["query".padEnd(44), "rows".padStart(7), "DuckDB ms".padStart(10), "ClickHouse ms".padStart(14), "ratio".padStart(7), " same answer"].join(" "));
  for (const r of rows) {
    console.log([r.name.padEnd(44), String(r.rows).padStart(7), r.duckdbMs.toFixed(1).padStart(10), r.clickhouseMs.toFixed(1).padStart(14), r.ratio.toFixed(2).padStart(7), ` ${r.sameRows ? "yes" : "NO"}`].join(" "));
  }
  console.log(`geometric mean of the ratios: ${geometricMean.toFixed(2)} (below 1: ClickHouse faster)`);
}
