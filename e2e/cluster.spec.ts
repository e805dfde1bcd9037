/**
 * Several instances behind one address (docs/architecture.md, "Several instances"): three servers
 * started as the README starts one (`tsx scripts/start.ts`, lib/testing/cluster.ts), sharing one
 * PostgreSQL schema (DATABASE_URL), one Redis key space (REDIS_URL, REDIS_KEY_PREFIX) and one
 * DATA_DIR whose DuckDB telemetry files `npm run seed` wrote and every instance opens read-only
 * (TELEMETRY_READ_ONLY=1); a round-robin balancer (lib/testing/balancer.ts) is the one address.
 * Through it the service's API works; what one instance writes or revokes, the others see at once;
 * the request rate limit, the query cost budget, a user's `/api/` calls and a client's token
 * requests are each one budget for all three; and SIGKILL of an
 * instance under load loses no acknowledged write while the others keep answering.
 *
 * Needs PostgreSQL and Redis: skipped with the reason when they do not answer, a failure with
 * PLANTDESK_REQUIRE_SERVICES=1 (lib/testing/services.ts). Playwright's own `npm start` server is not
 * used here; only `request`-style HTTP, no browser.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createCheckedClient, type ApiResponse } from "@/lib/service/testing/openapi-checked-client";
import { clusterUnavailable, startCluster, type Cluster, type ClusterInstance } from "@/lib/testing/cluster";
import { servicesRequired } from "@/lib/testing/services";

const distDir = path.join(path.resolve(import.meta.dirname, ".."), process.env.NEXT_DIST_DIR ?? ".next");
const BASE = "/maintenance/v1/plants";
const QUERY = "/insights/v1/telemetry/query/table";
const SCOPE = "api://plant-telemetry/.default";
/** Low on purpose: the tests reach them, and each plant token or client has its own. */
const RATE_LIMIT = 30;
const COST_BUDGET = 5;
const API_CALLS = 12;
const TOKEN_REQUESTS = 4;
const TASK = { activityKind: "CORRECTIVE", priority: "P2", asset: { tagNumber: "RTM1-A1" } };

type Client = Awaited<ReturnType<typeof createCheckedClient>>;
type Instance = ClusterInstance & { client: Client };

let cluster: Cluster | null = null;
let lb: Client;
let instances: Instance[] = [];

/** The operator CLI, as an operator runs it against the cluster's database (`npm run ops -- … --json`). */
async function ops<T>(...args: string[]): Promise<T> {
  const out = await cluster!.runScript("ops.ts", [...args, "--json"]);
  return JSON.parse(out.slice(out.search(/[[{]/))) as T;
}

const issueToken = (plantId = "RTM1") => ops<{ id: string; token: string }>("token", "issue", "--plant", plantId);
const createClient = (customerId = "CUST-ACME") => ops<{ client_id: string; client_secret: string }>("client", "create", "--customer", customerId);

function expectOk(res: ApiResponse) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function telemetryToken(client: Client, c: { client_id: string; client_secret: string }): Promise<ApiResponse> {
  const form = new URLSearchParams({ grant_type: "client_credentials", client_id: c.client_id, client_secret: c.client_secret, scope: SCOPE });
  return client.call("POST", "/oauth2/v2.0/token", { rawBody: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
}

function telemetryQuery(client: Client, token: string, query = "States | take 5"): Promise<ApiResponse> {
  const end = Date.now() + 60_000;
  return client.call("POST", QUERY, { token, body: { query, startTime: new Date(end - 2 * 86_400_000).toISOString(), endTime: new Date(end).toISOString() } });
}

const createTask = (client: Client, token: string, title: string) => client.call("POST", `${BASE}/RTM1/tasks`, { token, body: { ...TASK, taskTitle: title } });

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const unavailable = await clusterUnavailable();
  if (unavailable) {
    if (servicesRequired()) throw new Error(unavailable);
    test.skip(true, unavailable);
    return;
  }
  expect(fs.existsSync(path.join(distDir, "BUILD_ID")), `a production build in ${distDir} (next build)`).toBe(true);
  cluster = await startCluster({
    size: 3,
    env: {
      DEMO_PASSWORD: "cluster-spec-password",
      MAINTENANCE_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      TELEMETRY_COST_BUDGET_PER_MINUTE: String(COST_BUDGET),
      DASHBOARD_RATE_LIMIT_PER_MINUTE: String(API_CALLS),
      TOKEN_RATE_LIMIT_PER_CLIENT_PER_MINUTE: String(TOKEN_REQUESTS),
    },
  });
  instances = await Promise.all(cluster.instances.map(async (instance) => Object.assign(instance, { client: await createCheckedClient(instance.url) })));
  lb = await createCheckedClient(cluster.url);
});

test.afterAll(async () => {
  await cluster?.close();
});

test("every instance serves the seeded telemetry read-only, without writers of its own", () => {
  for (const instance of instances) {
    expect(instance.log).toContain("[telemetry] read-only (TELEMETRY_READ_ONLY=1): the live demo plant and MQTT ingestion are off");
    expect(instance.log).not.toMatch(/generating .* demo telemetry/);
  }
});

test("the service's API answers through the one address, as the OpenAPI document says", async () => {
  const { token } = await issueToken();
  for (const resource of ["jobs-done", "jobs-planned", "assets", "tasks", "parts", "lookup-values?kind=priority"]) {
    const res = await lb.call("GET", `${BASE}/RTM1/${resource}${resource.includes("?") ? "&" : "?"}pageSize=5`, { token });
    expectOk(res);
    expect(res.body.data.length, resource).toBeGreaterThan(0);
  }
  expect((await lb.call("GET", `${BASE}/RTM1/assets`)).status).toBe(401);
  expect((await lb.call("GET", `${BASE}/HOU1/assets`, { token })).status).toBe(403);

  const created = await createTask(lb, token, "Cluster sample task");
  expectOk(created);
  const id = created.body.data[0].id as string;
  expectOk(await lb.call("POST", `${BASE}/RTM1/tasks/${id}/transitions`, { token, body: { to: "PENDING", remark: "through the balancer" } }));
  const part = (await lb.call("GET", `${BASE}/RTM1/parts?pageSize=1`, { token })).body.data[0];
  expectOk(await lb.call("PUT", `${BASE}/RTM1/parts/${part.id}/stock-level`, { token, body: { id: part.id, quantity: 7, unit: part.unit, remark: "cluster", isShort: false } }));

  const telemetryClient = await createClient();
  const issued = await telemetryToken(lb, telemetryClient);
  expectOk(issued);
  const answer = await telemetryQuery(lb, issued.body.access_token);
  expectOk(answer);
  expect(answer.body.data.rows.length).toBe(5);
  // Round robin reached all three.
  expect(cluster!.balancer.served.every((n) => n > 0), String(cluster!.balancer.served)).toBe(true);
});

test("a write through one instance is read through the others at once", async () => {
  const { token } = await issueToken();
  const [one, two, three] = instances as [Instance, Instance, Instance];
  const created = await createTask(one.client, token, "Written on instance one");
  expectOk(created);
  const id = created.body.data[0].id as string;
  for (const other of [two, three]) {
    const read = await other.client.call("GET", `${BASE}/RTM1/tasks/${id}`, { token });
    expectOk(read);
    expect(read.body.taskTitle).toBe("Written on instance one");
  }
  const part = (await two.client.call("GET", `${BASE}/RTM1/parts?pageSize=1`, { token })).body.data[0];
  expectOk(await two.client.call("PUT", `${BASE}/RTM1/parts/${part.id}/stock-level`, { token, body: { id: part.id, quantity: 42, unit: part.unit, remark: "on two", isShort: true } }));
  const history = await three.client.call("GET", `${BASE}/RTM1/parts/${part.id}/stock-levels?pageSize=1`, { token });
  expect(history.body.data[0]).toMatchObject({ quantity: 42, remark: "on two" });
});

test("a revoked plant token and a revoked telemetry client are refused by every instance at once", async () => {
  const [issued, telemetryClient] = await Promise.all([issueToken(), createClient()]);
  const access = (await telemetryToken(instances[0]!.client, telemetryClient)).body.access_token as string;
  for (const instance of instances) {
    expectOk(await instance.client.call("GET", `${BASE}/RTM1/assets?pageSize=1`, { token: issued.token }));
  }
  expectOk(await telemetryQuery(instances[1]!.client, access));

  // Revoked by the operator against the database all instances share, while they run.
  await Promise.all([ops("token", "revoke", issued.id), ops("client", "revoke", telemetryClient.client_id)]);
  for (const instance of instances) {
    expect((await instance.client.call("GET", `${BASE}/RTM1/assets?pageSize=1`, { token: issued.token })).status).toBe(401);
    expect((await telemetryQuery(instance.client, access)).status).toBe(401);
    expect((await telemetryToken(instance.client, telemetryClient)).status).toBe(401);
  }
});

test("the request rate limit and the query cost budget are one budget for all instances", async () => {
  // A fresh token's window starts at its first request: the burst fits in the minute.
  const { token } = await issueToken();
  const answers = [];
  for (let i = 0; i < RATE_LIMIT; i++) answers.push(await lb.call("GET", `${BASE}/RTM1/assets?pageSize=1`, { token }));
  expect(answers.map((a) => a.status)).toEqual(Array(RATE_LIMIT).fill(200));
  // Each instance has seen about a third of the limit, yet every one refuses the next request.
  for (const instance of instances) {
    const refused = await instance.client.call("GET", `${BASE}/RTM1/assets?pageSize=1`, { token });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  }

  const telemetryClient = await createClient();
  const access = (await telemetryToken(lb, telemetryClient)).body.access_token as string;
  let consumed = 0;
  let admitted = 0;
  for (let i = 0; i < 3 * COST_BUDGET; i++) {
    const res = await telemetryQuery(instances[i % instances.length]!.client, access);
    if (res.status !== 200) {
      expect(res.status).toBe(429);
      break;
    }
    admitted += 1;
    consumed += Number(/consumed=(\d+)/.exec(res.headers.get("x-query-cost") ?? "")?.[1]);
  }
  // The instances charged one budget: never more than it holds in all, and then all refuse.
  expect(admitted).toBeGreaterThan(0);
  expect(consumed).toBeLessThanOrEqual(COST_BUDGET);
  for (const instance of instances) expect((await telemetryQuery(instance.client, access)).status).toBe(429);
});

test("a user's /api/ calls and a client's token requests are each one limit for all instances", async () => {
  // Signed in through the balancer with next-auth's own endpoints (the session key is in the shared database).
  const csrf = await fetch(`${cluster!.url}/api/auth/csrf`);
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await fetch(`${cluster!.url}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, email: "planner@plantdesk.demo", password: "cluster-spec-password", json: "true" }),
    redirect: "manual",
  });
  const cookie = [...cookies, ...signIn.headers.getSetCookie().map((c) => c.split(";")[0])].join("; ");
  expect(cookie).toContain("next-auth.session-token=");
  const statuses: number[] = [];
  for (let i = 0; i < API_CALLS; i++) statuses.push((await fetch(`${cluster!.url}/api/me`, { headers: { cookie } })).status);
  expect(statuses).toEqual(Array(API_CALLS).fill(200));
  for (const instance of instances) {
    const refused = await fetch(`${instance.url}/api/me`, { headers: { cookie } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ status: "ERROR", code: "RATE_LIMITED" });
  }

  const telemetryClient = await createClient();
  for (let i = 0; i < TOKEN_REQUESTS; i++) expectOk(await telemetryToken(instances[i % instances.length]!.client, telemetryClient));
  for (const instance of instances) {
    const refused = await telemetryToken(instance.client, telemetryClient);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe("temporarily_unavailable");
  }
});

test("SIGKILL of an instance under load loses no acknowledged write, and the others go on answering", async () => {
  test.setTimeout(120_000);
  // Four tokens: the load is larger than one token's rate limit.
  const tokens = await Promise.all([issueToken(), issueToken(), issueToken(), issueToken()]);
  const run = randomBytes(4).toString("hex");
  const WRITES = 60;
  const acknowledged = new Map<string, string>(); // idempotency key → task id
  let sent = 0;
  let lostInFlight = 0;
  let killed: Promise<void> | null = null;

  async function writer() {
    for (;;) {
      const n = sent++;
      if (n >= WRITES) return;
      const key = `${run}-${n}`;
      const token = tokens[n % tokens.length]!.token;
      // A write lost with its instance (502 from the balancer) is retried with its key, as a client would.
      // Plain fetch: the balancer's own 502 is not an answer of the service's API.
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(`${cluster!.url}${BASE}/RTM1/tasks`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
          body: JSON.stringify({ ...TASK, taskTitle: `Load ${run} ${n}` }),
        });
        const body = (await res.json()) as { data: { id: string }[] };
        if (res.status === 200) {
          acknowledged.set(key, body.data[0]!.id);
          break;
        }
        expect(res.status, JSON.stringify(body)).toBe(502);
        expect(attempt).toBeLessThan(3);
        lostInFlight += 1;
      }
      if (!killed && acknowledged.size >= WRITES / 3) killed = instances[2]!.kill();
    }
  }
  await Promise.all([0, 1, 2, 3].map(() => writer()));
  await killed;
  expect(instances[2]!.process.signalCode).toBe("SIGKILL");
  expect(await fetch(`${instances[2]!.url}/openapi.json`).then(() => "answered", () => "gone")).toBe("gone");
  expect(acknowledged.size).toBe(WRITES);

  // Every acknowledged write is there, once, on both survivors.
  for (const survivor of instances.slice(0, 2)) {
    const listed = new Map<string, string>();
    const res = await survivor.client.call("GET", `${BASE}/RTM1/tasks?taskStatus=NEED_APPROVAL&pageSize=1000`, { token: tokens[0]!.token });
    expectOk(res);
    for (const task of res.body.data as { id: string; taskTitle: string }[]) if (task.taskTitle.startsWith(`Load ${run} `)) listed.set(task.id, task.taskTitle);
    expect(listed.size, `tasks of the run on ${survivor.url}`).toBe(WRITES);
    for (const id of acknowledged.values()) expect(listed.has(id), id).toBe(true);
  }
  // The balancer goes on without the dead instance.
  for (let i = 0; i < 6; i++) expectOk(await lb.call("GET", `${BASE}/RTM1/assets?pageSize=1`, { token: tokens[1]!.token }));
  test.info().annotations.push({ type: "writes lost in flight and retried", description: String(lostInFlight) });
});
