/**
 * bench:load's front-door phases (bench/load.ts; docs/architecture.md, "A fair front door"): a
 * signed-in dashboard user reads maintenance data (`GET /api/plants/RTM1/jobs-done?pageSize=100`,
 * 100 records) at a steady 8 requests a second — 480 a minute, under the dashboard's per-user limit
 * of 600 (DASHBOARD_RATE_LIMIT_PER_MINUTE), so the bench never measures that limit — and its p95 is
 * taken
 *   1. idle,
 *   2. while anonymous clients send 300 requests at once (sign-in pages, pages that redirect to it,
 *      `/api/` and maintenance calls without credentials), again as soon as all 300 are answered,
 *   3. while 150 wrong sign-ins arrive at once through next-auth's real form post, again as soon as
 *      all are answered; each from an address of its own (the bench server trusts X-Forwarded-For)
 *      and for one of the demo accounts, so the sign-in throttle lets them through to the password
 *      hash instead of refusing them before it.
 * The user's requests are sent on a clock, not after the previous answer, so a slow answer cannot
 * hide the ones behind it. Any answer but 200 to the user is an error, and a run with an error
 * gets no ratio.
 */
import { spawn } from "node:child_process";

const USER_INTERVAL_MS = 125;
const ANONYMOUS_BURST = 300;
const SIGN_IN_BURST = 150;
const ACCOUNTS = ["planner@plantdesk.demo", "engineer@plantdesk.demo", "supervisor@plantdesk.demo", "admin@plantdesk.demo", "nobody@plantdesk.demo"];

export interface PhaseFigures {
  p50: number;
  p95: number;
  requests: number;
  errors: number;
  /** What the attackers got, by kind of answer. */
  attackers: Record<string, number>;
  bursts: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))]!;
}

/** Signs in through next-auth's own form post, as the sign-in page does; the session cookie. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
    redirect: "manual",
  });
  await response.arrayBuffer();
  const session = response.headers.getSetCookie().map((c) => c.split(";")[0]!).find((c) => /^(__Secure-)?next-auth\.session-token=/.test(c));
  if (!session) throw new Error(`signing in as ${email} failed (HTTP ${response.status})`);
  return session;
}

/** The user's reads on a clock until `until`; latencies of the answers and the count of errors. */
async function userLoad(url: string, cookie: string, until: number): Promise<{ times: number[]; errors: number; statuses: Record<string, number> }> {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const pending: Promise<void>[] = [];
  for (let next = performance.now(); Date.now() < until; next += USER_INTERVAL_MS) {
    const wait = next - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      (async () => {
        const began = performance.now();
        const response = await fetch(`${url}/api/plants/RTM1/jobs-done?pageSize=100`, { headers: { cookie } }).catch(() => null);
        if (response) await response.arrayBuffer();
        times.push(performance.now() - began);
        const key = response ? String(response.status) : "network error";
        statuses[key] = (statuses[key] ?? 0) + 1;
        if (response?.status !== 200) errors += 1;
      })(),
    );
  }
  await Promise.all(pending);
  return { times, errors, statuses };
}

/**
 * The attackers run in a process of their own: 300 requests at once keep a client's event loop busy
 * too, and the user's latencies measured beside them in one process would be the client's own delay.
 * Plain JavaScript (Node's fetch), given its orders in the environment; prints its tally as JSON.
 */
const ATTACKER = `
const { url, kind, until, burst, accounts, csrfToken, cookie } = JSON.parse(process.env.ATTACK);
const tally = {};
const count = (key) => (tally[key] = (tally[key] ?? 0) + 1);
const targets = [
  { path: "/signin", accept: "text/html" },
  { path: "/plants/RTM1/tasks", accept: "text/html" },
  { path: "/api/me", accept: "application/json" },
  { path: "/maintenance/v1/plants/RTM1/jobs-done?pageSize=100", accept: "application/json" },
];
let bursts = 0;
let attempt = 0;
async function anonymous(i) {
  const target = targets[i % targets.length];
  const response = await fetch(url + target.path, { headers: { accept: target.accept }, redirect: "manual" }).catch(() => null);
  if (response) await response.arrayBuffer();
  count(response ? "HTTP " + response.status : "network error");
}
async function wrongSignIn() {
  attempt += 1;
  const address = "10." + ((attempt >> 16) & 255) + "." + ((attempt >> 8) & 255) + "." + (attempt & 255);
  const response = await fetch(url + "/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, "x-forwarded-for": address },
    body: new URLSearchParams({ csrfToken, email: accounts[attempt % accounts.length], password: "wrong-password-" + attempt, json: "true" }),
    redirect: "manual",
  }).catch(() => null);
  const text = response ? await response.text() : "";
  count(!response ? "network error"
    : response.status === 429 && /SignInBusy/.test(text) && response.headers.has("retry-after") ? "429 at the front door"
    : /TooManyAttempts/.test(text) ? "throttled"
    : /SignInBusy/.test(text) ? "hash queue full"
    : /CredentialsSignin/.test(text) ? "hashed, wrong"
    : "HTTP " + response.status);
}
while (Date.now() < until) {
  bursts += 1;
  await Promise.all(Array.from({ length: burst }, (_, i) => (kind === "anonymous" ? anonymous(i) : wrongSignIn())));
}
process.stdout.write(JSON.stringify({ bursts, tally }));
`;

/** Runs the attackers in their own process until `until`; their answers by kind, and how many bursts. */
async function attack(url: string, kind: "anonymous" | "sign-ins", until: number): Promise<{ bursts: number; tally: Record<string, number> }> {
  let orders: Record<string, unknown> = { url, kind, until, burst: kind === "anonymous" ? ANONYMOUS_BURST : SIGN_IN_BURST, accounts: ACCOUNTS };
  if (kind === "sign-ins") {
    const csrf = await fetch(`${url}/api/auth/csrf`);
    const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    orders = { ...orders, cookie, csrfToken };
  }
  const child = spawn(process.execPath, ["--input-type=module", "-e", ATTACKER], { env: { ...process.env, ATTACK: JSON.stringify(orders) }, stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`the attackers' process ended with ${code}`);
  return JSON.parse(output) as { bursts: number; tally: Record<string, number> };
}

export type FrontDoorPhase = "idle" | "anonymous" | "sign-ins";

export async function frontDoorPhase(url: string, cookie: string, phase: FrontDoorPhase, seconds: number): Promise<PhaseFigures> {
  const until = Date.now() + seconds * 1000;
  const [user, { bursts, tally: attackers }] = await Promise.all([
    userLoad(url, cookie, until),
    phase === "idle" ? Promise.resolve({ bursts: 0, tally: {} as Record<string, number> }) : attack(url, phase, until),
  ]);
  const sorted = [...user.times].sort((a, b) => a - b);
  if (user.errors > 0) attackers[`user's answers: ${Object.entries(user.statuses).map(([k, v]) => `${k} × ${v}`).join(", ")}`] = 0;
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), requests: sorted.length, errors: user.errors, attackers, bursts };
}
