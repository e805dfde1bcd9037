/**
 * `npm run bench:maintenance`: autocannon on loopback, 20 connections, against
 *   1. GET jobs-done (page 1, pageSize 100) through the service path of scripts/serve.ts,
 *   2. the same read from a bare node:http server calling the same lib/service function (baseline),
 *   3. POST tasks through the service path,
 *   4. optionally (`--full`, needs `next build`) GET jobs-done through scripts/serve.ts itself,
 *   5. GET jobs-done through the service path with 1,000 maintenance plans: the reads' p95 while one
 *      tick of the plans' scheduler evaluates all 1,000 (tick → done) ÷ their p95 idle just before,
 *      for the first tick (it opens the 1,000 plans' first tasks) and a steady one (nothing due);
 *      --plan-runs runs (default BENCH_RUNS or 3) on a fresh server each, medians of the clean ones,
 *      the load average printed per run, and no ratio from a run with an error (aim ≤ 1.5).
 * Prints requests/s and p99 latency, and the service/baseline ratio (aim: ≥ 0.7, p99 < 100 ms).
 * Baseline and service path alternate for --rounds rounds (default 3) of --duration seconds
 * (default 5); the median round is reported. --full adds the full server (needs a build);
 * --only plans runs phase 5 alone.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { parseConfig } from "../lib/config";
import { createServiceRuntime } from "../lib/service/runtime";
import { ErrorLedger, machine, median as middle } from "./honest";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    full: { type: "boolean", default: false },
    only: { type: "string" },
    "plan-runs": { type: "string", default: process.env.BENCH_RUNS ?? "3" },
  },
});
const plansOnly = values.only === "plans";
const duration = Number(values.duration);
const rounds = Number(values.rounds);
const root = path.resolve(import.meta.dirname, "..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-bench-maint-"));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  // The bench measures throughput, not the per-token budget (1,200/min by default).
  MAINTENANCE_RATE_LIMIT_PER_MINUTE: "100000000",
  DEMO_TELEMETRY_DAYS: "1",
  NODE_ENV: "production",
};

// Seed once, and issue the token every run uses.
const setup = await createServiceRuntime(parseConfig(env));
const token = (await setup.plantTokens.issue("RTM1")).token;
await setup.close();

const children: ChildProcess[] = [];
process.on("exit", () => {
  children.forEach((child) => child.kill("SIGTERM"));
  for (let i = 0; i <= copies; i++) fs.rmSync(i === 0 ? dataDir : `${dataDir}-${i}`, { recursive: true, force: true });
});

/**
 * Each server gets its own copy of the seeded data directory: DuckDB (telemetry, opened by every
 * runtime) allows one process per file.
 */
let copies = 0;
function dataDirCopy(): string {
  const copy = `${dataDir}-${++copies}`;
  fs.cpSync(dataDir, copy, { recursive: true });
  return copy;
}

async function startServer(args: string[], extraEnv: Record<string, string> = {}, readyPattern?: RegExp, port?: number): Promise<{ url: string; stop(): Promise<void> }> {
  const ownDataDir = dataDirCopy();
  const child = spawn(tsx, args, { cwd: root, env: { ...env, DATA_DIR: ownDataDir, ...extraEnv }, stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const announced = /\{"port":(\d+)\}/.exec(output);
      if (announced) resolve(`http://127.0.0.1:${announced[1]}`);
      else if (readyPattern?.test(output) && port) resolve(`http://127.0.0.1:${port}`);
    });
    child.once("exit", (code) => reject(new Error(`server ${args.join(" ")} exited with ${code}`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => {
          fs.rmSync(ownDataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

interface Figures {
  name: string;
  requestsPerSecond: number;
  p99: number;
  p97_5: number;
  errors: number;
  bytesPerRequest: number;
}

async function load(name: string, options: autocannon.Options): Promise<Figures> {
  // A short warm-up (JIT, SQLite page cache), then the measured run.
  await autocannon({ ...options, duration: 2, connections: 20 });
  const result = await autocannon({ ...options, duration, connections: 20 });
  const non2xx = result.non2xx + result.errors + result.timeouts;
  return {
    name,
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    p97_5: result.latency.p97_5,
    errors: non2xx,
    bytesPerRequest: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
  };
}

const READ = "/maintenance/v1/plants/RTM1/jobs-done?page=1&pageSize=100";
const auth = { authorization: `Bearer ${token}` };
const figures: Figures[] = [];

// Baseline and service path run alternately, several rounds, and report the median round: on a
// shared machine the background load drifts, and back-to-back rounds see about the same load.
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function medianOf(rounds: Figures[]): Figures {
  return {
    name: rounds[0]!.name,
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
    p99: median(rounds.map((r) => r.p99)),
    p97_5: median(rounds.map((r) => r.p97_5)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    bytesPerRequest: rounds[0]!.bytesPerRequest,
  };
}

if (!plansOnly) {
  const baseline = await startServer(["bench/maintenance-server.ts", "baseline"]);
  const service = await startServer(["bench/maintenance-server.ts", "service"]);
  const baselineRounds: Figures[] = [];
  const serviceRounds: Figures[] = [];
  for (let round = 0; round < rounds; round++) {
    baselineRounds.push(await load("baseline: bare node:http + same function", { url: baseline.url + READ }));
    serviceRounds.push(await load("service path (as scripts/serve.ts)", { url: service.url + READ, headers: auth }));
  }
  figures.push(medianOf(baselineRounds), medianOf(serviceRounds));
  await baseline.stop();
  figures.push(
    await load("POST tasks (service path)", {
      url: `${service.url}/maintenance/v1/plants/RTM1/tasks`,
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ taskTitle: "Benchmark task", activityKind: "INSPECTION", priority: "P3", asset: { tagNumber: "RTM1-A1" } }),
    }),
  );
  await service.stop();
}

// Reads while 1,000 plans are evaluated (README, "Benchmarks"): the scheduler yields between plans
// and the SQLite writer is held only for each task's own short transaction, so reads keep their latency.
const PLAN_READERS = 4;
const PLAN_IDLE_MS = 8_000;
const ledger = new ErrorLedger();

function percentile(latencies: number[], p: number): number {
  if (latencies.length === 0) return Number.NaN;
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Read latencies (ms) of PLAN_READERS loops until `stop()`; a non-200 answer is an error of `where`. */
async function reads(url: string, stop: () => boolean, where: string): Promise<number[]> {
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: PLAN_READERS }, async () => {
      while (!stop()) {
        const started = performance.now();
        const response = await fetch(url + READ, { headers: auth });
        await response.arrayBuffer();
        if (response.status !== 200) ledger.note(where, `jobs-done answered ${response.status}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

interface TickRow {
  run: number;
  tick: "first" | "steady";
  ms: number;
  opened: number;
  idle95: number;
  during95: number;
  samples: number;
  load: number;
  clean: boolean;
}

async function planRuns(runs: number): Promise<TickRow[]> {
  const rows: TickRow[] = [];
  for (let run = 1; run <= runs; run++) {
    const server = await startServer(["bench/maintenance-server.ts", "plans"], { PLANS_TICK_MS: "1000" });
    await reads(server.url, ((end) => () => Date.now() > end)(Date.now() + 2000), `run ${run}: warm-up`);
    for (const tick of ["first", "steady"] as const) {
      const where = `run ${run} ${tick}`;
      const idleEnd = Date.now() + PLAN_IDLE_MS;
      const idle = await reads(server.url, () => Date.now() > idleEnd, `${where}: reads`);
      let done = false;
      const report = fetch(`${server.url}/bench/tick`)
        .then((response) => response.json() as Promise<{ ms: number; evaluated: number; opened: number; failed: number }>)
        .finally(() => (done = true));
      const during = await reads(server.url, () => done, `${where}: reads`);
      const { ms, evaluated, opened, failed } = await report;
      ledger.note(`${where}: tick`, `${failed} plans failed`, failed);
      ledger.note(`${where}: tick`, `${evaluated} of 1,000 plans evaluated`, evaluated === 1000 ? 0 : 1);
      const clean = ledger.total(`${where}: reads`, `${where}: tick`) === 0;
      const row = { run, tick, ms, opened, idle95: percentile(idle, 95), during95: percentile(during, 95), samples: during.length, load: os.loadavg()[0]!, clean };
      rows.push(row);
      console.log(
        `plans run ${run}, ${tick} tick: ${ms} ms, ${opened} tasks opened; reads p95 idle ${row.idle95.toFixed(1)} ms, during ${row.during95.toFixed(1)} ms (${row.samples} reads): ` +
          `${ledger.ratio(row.during95, row.idle95, `${where}: reads`, `${where}: tick`)} (load average ${row.load.toFixed(1)})`,
      );
    }
    await server.stop();
  }
  return rows;
}

const planRows = await planRuns(Number(values["plan-runs"]));

if (values.full && !plansOnly) {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (!fs.existsSync(path.join(root, distDir, "BUILD_ID"))) {
    console.log(`--full skipped: no build in ${distDir} (run NEXT_DIST_DIR=${distDir} npx next build first).`);
  } else {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const full = await startServer(["scripts/serve.ts"], { PORT: String(port), HOST: "127.0.0.1" }, /is running at/, port);
    figures.push(await load("full custom server (scripts/serve.ts with Next)", { url: full.url + READ, headers: auth }));
    await full.stop();
  }
}

if (!plansOnly) {
  const bare = figures[0]!;
  console.log(`\nbench:maintenance — ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}, ${rounds} × ${duration} s per read scenario (median), 20 connections\n`);
  console.log(["scenario".padEnd(48), "req/s".padStart(8), "p99 ms".padStart(8), "ratio".padStart(7), "non-2xx".padStart(8), "bytes".padStart(8)].join(" "));
  for (const f of figures) {
    const ratio = f.name.startsWith("POST") ? "" : (f.requestsPerSecond / bare.requestsPerSecond).toFixed(2);
    console.log([f.name.padEnd(48), f.requestsPerSecond.toFixed(0).padStart(8), String(f.p99).padStart(8), ratio.padStart(7), String(f.errors).padStart(8), String(f.bytesPerRequest).padStart(8)].join(" "));
  }
  const servicePath = figures[1]!;
  const ratio = servicePath.requestsPerSecond / bare.requestsPerSecond;
  console.log(`\nratio service/baseline ${ratio.toFixed(2)} (aim ≥ 0.7): ${ratio >= 0.7 ? "met" : "NOT met"}; p99 ${servicePath.p99} ms (aim < 100): ${servicePath.p99 < 100 ? "met" : "NOT met"}`);
}

for (const tick of ["first", "steady"] as const) {
  const rows = planRows.filter((row) => row.tick === tick);
  const clean = rows.filter((row) => row.clean);
  const ratios = clean.map((row) => row.during95 / row.idle95);
  console.log(
    `\n1,000 plans, ${tick} tick (tick → done), ${clean.length} clean of ${rows.length} runs: tick median ${middle(rows.map((row) => row.ms)).toFixed(0)} ms` +
      (tick === "first" ? ` (${middle(rows.map((row) => row.opened))} tasks opened)` : "") +
      `; reads p95 median idle ${middle(clean.map((row) => row.idle95)).toFixed(1)} ms, during ${middle(clean.map((row) => row.during95)).toFixed(1)} ms; ` +
      `p95 during ÷ idle: ${clean.length ? `median ${middle(ratios).toFixed(2)} (runs ${ratios.map((r) => r.toFixed(2)).join(", ")})` : "no ratio (no clean run)"} (aim ≤ 1.5); ` +
      `load average ${rows.map((row) => row.load.toFixed(1)).join(", ")}`,
  );
}
console.log(`\n${machine()}`);
ledger.finish();
