/**
 * `npm run bench:bff`: what the dashboard's proxy costs. The same two calls — a jobs-done page
 * (RTM1, page 1, pageSize 100) and a telemetry query (one data point of one device over 24 h) —
 * are made straight to the service and through the dashboard's `/api/` (session cookie, role and
 * plant checks), in the same run: one connection timed request by request (microseconds; the
 * calls are a few milliseconds, too short for autocannon's whole-millisecond percentiles), and 20
 * connections with autocannon (both calls at 1 and 20). The figure is the ratio of median latencies, /api/ over direct:
 *   embedded: the dashboard calls the service's domain functions in process — aim ≤ 1.15;
 *   remote:   the dashboard calls a second server over HTTP (one extra hop)  — aim ≤ 1.8;
 *             it revalidates the answers it holds (If-None-Match → 304), the default;
 *   remote, no cache: the same with UPSTREAM_CACHE_MB=0, every answer fetched, parsed and
 *             validated again — printed for comparison, no aim.
 * Every limit it does not measure is lifted (UNTHROTTLED); any non-2xx answer is an error, and a
 * pair of runs with an error prints no ratio and fails the bench (bench/honest.ts).
 * Environment: BENCH_DIST_DIR (default .next-bench-bff), BENCH_NO_BUILD=1 to reuse that build,
 * BENCH_SECONDS per measurement (default 5), BENCH_RUNS rounds of direct and /api/ alternated (default
 * 3; each figure the median of the rounds).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../lib/testing/free-port";
import { buildInto } from "./next-build";
import http from "node:http";
import autocannon from "autocannon";
import { ErrorLedger, expectOk, median, printMachine } from "./honest";

const root = path.resolve(import.meta.dirname, "..");
const distDir = process.env.BENCH_DIST_DIR ?? ".next-bench-bff";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_RUNS ?? 3);
const PASSWORD = "bench-bff-password";
const SESSION_SECRET = "bench-bff-session-secret-0123456789abcdef";
const PLANT = "RTM1";
const CUSTOMER = "CUST-ACME";
const AIMS = { embedded: 1.15, remote: 1.8, "remote, no cache": null } as const;
const SEQUENTIAL_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 600);
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const children: ChildProcess[] = [];
const tempDirs: string[] = [];


const build = () => buildInto(root, distDir);

function tempDir(label: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `pd-bench-bff-${label}-`));
  tempDirs.push(dir);
  return dir;
}

/**
 * Every limit the bench does not measure out of the way: the service's per-token rate limit and
 * cost budget, the dashboard's per-user rate limit (600 a minute: one 5 s measurement at one
 * connection makes ~1,500 calls), and the telemetry places per client and customer (20 connections
 * of one user would queue and be refused). What is left is the proxy's own cost.
 */
const UNTHROTTLED = {
  MAINTENANCE_RATE_LIMIT_PER_MINUTE: "1000000000",
  DASHBOARD_RATE_LIMIT_PER_MINUTE: "1000000000",
  TELEMETRY_COST_BUDGET_PER_MINUTE: "1000000000",
  TELEMETRY_MAX_CONCURRENT_PER_CLIENT: "64",
  TELEMETRY_MAX_CONCURRENT_PER_CUSTOMER: "64",
  TELEMETRY_QUEUE_PER_CLIENT: "64",
};
const ledger = new ErrorLedger();

async function startServer(env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawn(bin("tsx"), ["scripts/serve.ts"], {
    cwd: root,
    env: { ...process.env, ...UNTHROTTLED, NODE_ENV: "production", NEXT_DIST_DIR: distDir, PORT: String(port), HOST: "127.0.0.1", DEMO_TELEMETRY_DAYS: "2", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 1200; tries += 1) {
    if (child.exitCode !== null) throw new Error("a server exited during start");
    if (await fetch(`${url}/signin`).then((r) => r.ok, () => false)) return url;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("a server did not start in time");
}

function ops(dataDir: string, args: string[], env: Record<string, string> = {}, input?: string): unknown {
  const result = spawnSync(bin("tsx"), ["scripts/ops.ts", ...args, "--json"], { cwd: root, input, encoding: "utf8", env: { ...process.env, DATA_DIR: dataDir, ...env } });
  if (result.status !== 0) throw new Error(`ops ${args.join(" ")} failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

async function signIn(url: string, email: string): Promise<string> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, email, password: PASSWORD, json: "true" }),
    redirect: "manual",
  });
  const session = response.headers.getSetCookie().find((c) => c.includes("next-auth.session-token="));
  if (!session) throw new Error(`sign-in as ${email} failed (${response.status})`);
  return session.split(";")[0]!;
}

async function telemetryToken(url: string, client: { client_id: string; client_secret: string; scope: string }): Promise<string> {
  const response = await fetch(`${url}/oauth2/v2.0/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret, scope: client.scope }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

interface Call {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/** One keep-alive connection, one request at a time: each latency to the microsecond. */
async function sequentialLatency(call: Call, where: string): Promise<{ p50: number; rps: number; errors: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  let errors = 0;
  const began = performance.now();
  for (let index = 0; index < SEQUENTIAL_REQUESTS; index += 1) {
    const started = performance.now();
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(call.url, { method: call.method, headers: call.headers, agent }, (response) => {
        response.resume();
        response.once("end", () => resolve(response.statusCode ?? 0));
      });
      request.once("error", reject);
      request.end(call.body);
    });
    samples.push(performance.now() - started);
    if (status < 200 || status > 299) {
      errors += 1;
      ledger.note(where, `HTTP ${status} from ${call.method} ${call.url}`);
    }
  }
  agent.destroy();
  samples.sort((a, b) => a - b);
  return { p50: Number(samples[samples.length >> 1]!.toFixed(3)), rps: SEQUENTIAL_REQUESTS / ((performance.now() - began) / 1000), errors };
}

async function medianLatency(call: Call, connections: number, where: string): Promise<{ p50: number; rps: number; errors: number }> {
  if (connections === 1) return sequentialLatency(call, where);
  const result = await autocannon({ ...call, connections, duration: SECONDS });
  const errors = result.non2xx + result.errors + result.timeouts;
  ledger.note(where, `${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts from ${call.method} ${call.url}`, errors);
  return { p50: result.latency.p50, rps: result.requests.average, errors };
}

/** The 24 h query of one series, named from the data so it stays valid whatever the seed. */
async function telemetryBody(serviceUrl: string, token: string): Promise<string> {
  const endTime = new Date().toISOString();
  const startTime = new Date(Date.now() - 24 * 3600_000).toISOString();
  const probe = await expectOk(
    await fetch(`${serviceUrl}/insights/v1/telemetry/query/table`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "States | take 1 | project DeviceId, Name", startTime, endTime, plantIds: [PLANT] }),
    }),
    "the probe query",
  );
  const [deviceId, name] = ((await probe.json()) as { data: { rows: string[][] } }).data.rows[0]!;
  return JSON.stringify({
    query: `States | where DeviceId == "${deviceId}" and Name == "${name}" | project Timestamp, Value`,
    startTime,
    endTime,
    plantIds: [PLANT],
  });
}

interface Row {
  mode: "embedded" | "remote" | "remote, no cache";
  call: string;
  connections: number;
  directMs: number;
  apiMs: number;
  ratio: string;
  directRps: number;
  apiRps: number;
  errors: number;
}

async function measure(mode: Row["mode"], service: string, dashboard: string, plantToken: string, accessToken: string, cookie: string): Promise<Row[]> {
  const body = await telemetryBody(service, accessToken);
  const jobs = `/plants/${PLANT}/jobs-done?page=1&pageSize=100`;
  const pairs: { call: string; connections: number[]; direct: Call; api: Call }[] = [
    {
      call: "jobs-done page",
      connections: [1, 20],
      direct: { url: `${service}/maintenance/v1${jobs}`, method: "GET", headers: { authorization: `Bearer ${plantToken}` } },
      api: { url: `${dashboard}/api${jobs}`, method: "GET", headers: { cookie } },
    },
    {
      call: "telemetry query",
      connections: [1, 20],
      direct: { url: `${service}/insights/v1/telemetry/query/table`, method: "POST", headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" }, body },
      api: { url: `${dashboard}/api/telemetry/query`, method: "POST", headers: { cookie, "content-type": "application/json" }, body },
    },
  ];
  const rows: Row[] = [];
  for (const pair of pairs) {
    for (const call of [pair.direct, pair.api]) {
      const check = await fetch(call.url, { method: call.method, headers: call.headers, body: call.body });
      if (check.status !== 200) throw new Error(`${call.method} ${call.url} answered ${check.status}: ${(await check.text()).slice(0, 300)}`);
    }
    // Warm both paths (JIT, Next's route compilation cache, the token cache); a refusal here is an error too.
    for (const [side, call] of [["direct", pair.direct], ["api", pair.api]] as const) {
      const warm = await autocannon({ ...call, connections: 4, amount: 200 });
      ledger.note(`${mode} ${pair.call} warm-up ${side}`, `${warm.non2xx} non-2xx, ${warm.errors} errors from ${call.method} ${call.url}`, warm.non2xx + warm.errors + warm.timeouts);
    }
    for (const connections of pair.connections) {
      const where = `${mode} ${pair.call} c=${connections}`;
      // Direct and /api/ alternate, the order rotated each round; each figure the median of the rounds.
      const rounds: { direct: Awaited<ReturnType<typeof medianLatency>>[]; api: Awaited<ReturnType<typeof medianLatency>>[] } = { direct: [], api: [] };
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const side of round % 2 ? (["api", "direct"] as const) : (["direct", "api"] as const)) rounds[side].push(await medianLatency(pair[side], connections, where));
      }
      const middle = (runs: { p50: number; rps: number; errors: number }[]) => ({ p50: median(runs.map((r) => r.p50)), rps: median(runs.map((r) => r.rps)), errors: runs.reduce((sum, r) => sum + r.errors, 0) });
      const [direct, api] = [middle(rounds.direct), middle(rounds.api)];
      rows.push({
        mode,
        call: pair.call,
        connections,
        directMs: direct.p50,
        apiMs: api.p50,
        ratio: ledger.ratio(api.p50, direct.p50, where, `${mode} ${pair.call} warm-up direct`, `${mode} ${pair.call} warm-up api`),
        directRps: direct.rps,
        apiRps: api.rps,
        errors: direct.errors + api.errors,
      });
      const last = rows.at(-1)!;
      console.log(`  ${mode.padEnd(8)} ${pair.call.padEnd(16)} c=${String(connections).padStart(2)}  direct p50 ${last.directMs} ms  /api/ p50 ${last.apiMs} ms  ratio ${last.ratio}`);
    }
  }
  return rows;
}

async function embedded(): Promise<Row[]> {
  const dataDir = tempDir("embedded");
  const url = await startServer({ DATA_DIR: dataDir, DEMO_PASSWORD: PASSWORD });
  const plantToken = (ops(dataDir, ["token", "issue", "--plant", PLANT]) as { token: string }).token;
  const client = ops(dataDir, ["client", "create", "--customer", CUSTOMER]) as { client_id: string; client_secret: string; scope: string };
  const cookie = await signIn(url, "admin@plantdesk.demo");
  return measure("embedded", url, url, plantToken, await telemetryToken(url, client), cookie);
}

/** `cacheMb` 0: the dashboard keeps no answer, so each page is fetched, parsed and validated again. */
async function remote(cacheMb?: number): Promise<Row[]> {
  const serviceDir = tempDir("service");
  const service = await startServer({ DATA_DIR: serviceDir, DEMO_PASSWORD: PASSWORD });
  const client = ops(serviceDir, ["client", "create", "--customer", CUSTOMER]) as { client_id: string; client_secret: string; scope: string };
  const dashboardToken = (ops(serviceDir, ["token", "issue", "--plant", PLANT]) as { token: string }).token;
  const benchToken = (ops(serviceDir, ["token", "issue", "--plant", PLANT]) as { token: string }).token;
  const remoteEnv = {
    SERVICE_BASE_URL: service,
    SERVICE_AUTH_URL: service,
    PLANT_TOKENS: JSON.stringify({ [PLANT]: { token: dashboardToken, name: "Rotterdam Chemicals", customerId: CUSTOMER } }),
    TELEMETRY_CLIENT_ID: client.client_id,
    TELEMETRY_CLIENT_SECRET: client.client_secret,
    TELEMETRY_SCOPE: client.scope,
    NEXTAUTH_SECRET: SESSION_SECRET,
  };
  const dashboardDir = tempDir("dashboard");
  ops(dashboardDir, ["user", "add", "--email", "bench@plantdesk.test", "--role", "admin", "--plants", "*", "--password-stdin"], remoteEnv, `${PASSWORD}\n`);
  const dashboard = await startServer({ DATA_DIR: dashboardDir, ...remoteEnv, ...(cacheMb === undefined ? {} : { UPSTREAM_CACHE_MB: String(cacheMb) }) });
  const cookie = await signIn(dashboard, "bench@plantdesk.test");
  return measure(cacheMb === 0 ? "remote, no cache" : "remote", service, dashboard, benchToken, await telemetryToken(service, client), cookie);
}

async function main() {
  build();
  printMachine("bench:bff");
  console.log(`Proxy cost, median latency through /api/ ÷ straight to the service (${SECONDS} s per measurement):`);
  const rows = [...(await embedded()), ...(await remote()), ...(await remote(0))];
  console.log("\n| mode | call | connections | direct p50 (ms) | /api/ p50 (ms) | ratio | aim |");
  console.log("|---|---|---|---|---|---|---|");
  for (const row of rows) {
    const aim = AIMS[row.mode];
    const verdict = aim === null || row.errors ? "–" : `≤ ${aim} ${Number(row.ratio) <= aim ? "✓" : "✗"}`;
    console.log(`| ${row.mode} | ${row.call} | ${row.connections} | ${row.directMs} | ${row.apiMs} | ${row.ratio} | ${verdict} |`);
  }
  printMachine("bench:bff, end");
  mkdirSync(path.join(root, "bench", "results"), { recursive: true });
  writeFileSync(path.join(root, "bench", "results", "bff.json"), JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, rows }, null, 2));
  ledger.finish();
}

async function cleanup() {
  for (const child of children) child.kill("SIGTERM");
  await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)))));
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}

try {
  await main();
} finally {
  await cleanup();
}
