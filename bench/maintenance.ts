/**
 * `npm run bench:maintenance`: autocannon on loopback, 20 connections, against
 *   1. GET jobs-done (page 1, pageSize 100) through the service path of scripts/serve.ts,
 *   2. the same read from a bare node:http server calling the same lib/service function (baseline),
 *   3. POST tasks through the service path,
 *   4. optionally (`--full`, needs `next build`) GET jobs-done through scripts/serve.ts itself,
 *   5. GET jobs-done through the service path with 1,000 maintenance plans, idle and while the
 *      plans' scheduler ticks back to back (each tick evaluates all 1,000 to its end): the reads'
 *      p97.5 while ticking ÷ idle (aim ≤ 1.5; autocannon reports p97.5, not p95).
 * Prints requests/s and p99 latency, and the service/baseline ratio (aim: ≥ 0.7, p99 < 100 ms).
 * Baseline and service path alternate for --rounds rounds (default 3) of --duration seconds
 * (default 5); the median round is reported. --full adds the full server (needs a build).
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

const { values } = parseArgs({
  options: { duration: { type: "string", default: "5" }, rounds: { type: "string", default: "3" }, full: { type: "boolean", default: false } },
});
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

// Reads while 1,000 plans are evaluated: the scheduler yields between plans, so reads keep their latency.
const planned = await startServer(["bench/maintenance-server.ts", "plans"], { PLANS_TICK_MS: "1000" });
const ticks: { ms: number; evaluated: number; opened: number; failed: number }[] = [];
const tick = async () => ticks.push((await (await fetch(`${planned.url}/bench/tick`)).json()) as (typeof ticks)[number]);
await tick(); // the first tick opens the plans' first tasks and writes their planned jobs
const idleReads = await load("reads, 1,000 plans idle", { url: planned.url + READ, headers: auth });
let ticking = true;
const ticker = (async () => {
  while (ticking) await tick();
})();
const busyReads = await load("reads while plans tick back to back", { url: planned.url + READ, headers: auth });
ticking = false;
await ticker;
await planned.stop();

if (values.full) {
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

const bare = figures[0]!;
console.log(`\nbench:maintenance — ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}, ${rounds} × ${duration} s per read scenario (median), 20 connections\n`);
console.log(["scenario".padEnd(48), "req/s".padStart(8), "p99 ms".padStart(8), "ratio".padStart(7), "non-2xx".padStart(8), "bytes".padStart(8)].join(" "));
for (const f of figures) {
  const ratio = f.name.startsWith("POST") ? "" : (f.requestsPerSecond / bare.requestsPerSecond).toFixed(2);
  console.log([f.name.padEnd(48), f.requestsPerSecond.toFixed(0).padStart(8), String(f.p99).padStart(8), ratio.padStart(7), String(f.errors).padStart(8), String(f.bytesPerRequest).padStart(8)].join(" "));
}
const servicePath = figures[1]!;
const ratio = servicePath.requestsPerSecond / bare.requestsPerSecond;
const steady = ticks.slice(1);
console.log(
  `\n1,000 plans: first tick ${ticks[0]!.ms} ms (${ticks[0]!.opened} tasks opened), then ${steady.length} ticks of median ${median(steady.map((t) => t.ms))} ms (${steady.reduce((s, t) => s + t.failed, 0)} failed)` +
    `; reads p97.5 idle ${idleReads.p97_5} ms, while ticking ${busyReads.p97_5} ms: ratio ${(busyReads.p97_5 / Math.max(1, idleReads.p97_5)).toFixed(2)} (aim ≤ 1.5); req/s ${idleReads.requestsPerSecond.toFixed(0)} → ${busyReads.requestsPerSecond.toFixed(0)}`,
);
console.log(`\nratio service/baseline ${ratio.toFixed(2)} (aim ≥ 0.7): ${ratio >= 0.7 ? "met" : "NOT met"}; p99 ${servicePath.p99} ms (aim < 100): ${servicePath.p99 < 100 ? "met" : "NOT met"}`);
