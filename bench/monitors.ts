/**
 * `npm run bench:monitors`: 200 monitors with `every: 1m` on one instance (bench/monitors-server.ts:
 * the embedded service, the dashboard's store and the monitors' schedule with its default
 * concurrency cap). For each of BENCH_RUNS ticks (default 3):
 *   idle      maintenance requests (GET jobs-done, pageSize 100, 4 connections) for 12 s before the
 *             tick, while no evaluation runs;
 *   monitors  the same requests from the tick until every monitor's evaluation of that tick ended;
 *   lag       each evaluation's end minus its tick (the schedule polls every second); evaluations
 *             that failed (a 429 once a plant's monitors spent their cost budget) are counted apart.
 * Prints per run the lag p50/p95/max, maintenance p95 idle and while monitors run, and their
 * ratio; then the medians over the runs. Aim: maintenance p95 while running ÷ idle ≤ 1.5.
 * Environment: BENCH_RUNS, BENCH_MONITORS (200), MONITOR_CONCURRENCY (the server's, default 2).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ErrorLedger, printMachine } from "./honest";

const root = path.resolve(import.meta.dirname, "..");
const runs = Number(process.env.BENCH_RUNS ?? 3);
const monitors = Number(process.env.BENCH_MONITORS ?? 200);
const CONNECTIONS = 4;
const IDLE_MS = 12_000;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-bench-monitors-"));

const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["bench/monitors-server.ts"], {
  cwd: root,
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    DEMO_TELEMETRY_DAYS: "1",
    DEMO_LIVE: "0",
    NODE_ENV: "production",
    UV_THREADPOOL_SIZE: "16",
    // The bench measures latency, not the per-token request budget nor the monitors' telemetry cost
    // budget (spent, it refuses evaluations: less work, a flattering ratio).
    MAINTENANCE_RATE_LIMIT_PER_MINUTE: "100000000",
    TELEMETRY_COST_BUDGET_PER_MINUTE: "1000000000",
    BENCH_MONITORS: String(monitors),
  },
  stdio: ["ignore", "pipe", "inherit"],
});
process.on("exit", () => {
  child.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
});
const { port, token } = await new Promise<{ port: number; token: string }>((resolve, reject) => {
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    const line = output.split("\n").find((text) => text.startsWith('{"port"'));
    if (line) resolve(JSON.parse(line) as { port: number; token: string });
  });
  child.once("exit", (code) => reject(new Error(`the bench server exited with ${code}`)));
});
const base = `http://127.0.0.1:${port}`;

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const median = (values: number[]) => percentile(values, 50);

/** Maintenance latencies (ms) of requests made by CONNECTIONS loops until `until()` says stop. */
async function maintenanceLoad(until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (!until()) {
        const started = performance.now();
        const response = await fetch(`${base}/maintenance/v1/plants/RTM1/jobs-done?pageSize=100`, { headers: { authorization: `Bearer ${token}` } });
        await response.arrayBuffer();
        if (!response.ok) ledger.note(`tick ${tickNumber}: maintenance`, `jobs-done answered ${response.status}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

async function evaluationsOf(tick: number): Promise<{ lags: number[]; failed: number }> {
  return (await (await fetch(`${base}/bench/evaluations?tick=${tick}`)).json()) as { lags: number[]; failed: number };
}

const fmt = (value: number) => value.toFixed(1);
const ledger = new ErrorLedger();
let tickNumber = 0;
printMachine("bench:monitors");
console.log(`${monitors} monitors every 1m on one instance (MONITOR_CONCURRENCY ${process.env.MONITOR_CONCURRENCY ?? 2}); ${runs} ticks\n`);
console.log("tick  lag p50 ms  lag p95 ms  lag max ms  maint p95 idle ms  maint p95 running ms  ratio");
const results: { lag95: number; ratio: number; idle: number; busy: number }[] = [];
// The first tick after start opens the firing monitors' tasks; it is measured like the others.
let tick = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
if (tick - Date.now() < IDLE_MS + 3000) tick += 60_000;
for (let run = 0; run < runs; run += 1) {
  tickNumber = run + 1;
  await sleep(tick - IDLE_MS - 1000 - Date.now());
  const idleEnd = Date.now() + IDLE_MS;
  const idle = await maintenanceLoad(() => Date.now() >= idleEnd);
  await sleep(Math.max(0, tick - Date.now()));
  let done = false;
  const deadline = tick + 58_000;
  const watcher = (async () => {
    while (!done) {
      if ((await evaluationsOf(tick)).lags.length >= monitors || Date.now() > deadline) done = true;
      else await sleep(200);
    }
  })();
  const busy = await maintenanceLoad(() => done);
  await watcher;
  const { lags, failed } = await evaluationsOf(tick);
  // A monitor still evaluating the tick before is not evaluated again at this one (it is not due).
  // A tick whose evaluations did not all end, or failed, did less work than it should: no ratio.
  ledger.note(`tick ${run + 1}: evaluations`, `${lags.length} of ${monitors} evaluations ended within 58 s`, lags.length < monitors ? 1 : 0);
  ledger.note(`tick ${run + 1}: evaluations`, `${failed} evaluations failed`, failed);
  const clean = ledger.total(`tick ${run + 1}: evaluations`, `tick ${run + 1}: maintenance`) === 0;
  const result = { lag95: percentile(lags, 95), idle: percentile(idle, 95), busy: percentile(busy, 95), ratio: percentile(busy, 95) / percentile(idle, 95) };
  if (clean) results.push(result);
  console.log(
    `${String(run + 1).padStart(4)}  ${fmt(median(lags)).padStart(10)}  ${fmt(result.lag95).padStart(10)}  ${fmt(Math.max(...lags)).padStart(10)}  ${fmt(result.idle).padStart(17)}  ${fmt(result.busy).padStart(20)}  ${ledger.ratio(result.busy, result.idle, `tick ${run + 1}: evaluations`, `tick ${run + 1}: maintenance`).padStart(5)}  (${os.loadavg()[0]!.toFixed(1)} load)`,
  );
  tick += 60_000;
}
console.log(
  `\nmedian of the ${results.length} clean of ${runs} ticks: evaluation lag p95 ${fmt(median(results.map((r) => r.lag95)))} ms; maintenance p95 ${fmt(median(results.map((r) => r.idle)))} ms idle, ${fmt(median(results.map((r) => r.busy)))} ms while monitors run; ratio ${results.length ? median(results.map((r) => r.ratio)).toFixed(2) : "none (no clean tick)"} (aim ≤ 1.5)`,
);
printMachine("bench:monitors, end");
const clean = ledger.finish();
process.exit(clean ? 0 : 1);
