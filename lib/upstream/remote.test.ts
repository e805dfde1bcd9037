/**
 * The upstream client against real HTTP servers that misbehave on purpose, and against the real
 * service on another port (remote mode). Each failure mode gives its documented result:
 *   timeout → 504 UPSTREAM_TIMEOUT (GETs retried first) · 5xx → retried, then 502 UPSTREAM_UNAVAILABLE
 *   429 + Retry-After → waited out when short, passed on (429 + Retry-After) when long
 *   malformed JSON / schema break → 502 UPSTREAM_INVALID_RESPONSE, logged with path and first problem
 *   expired telemetry token (401) → one retry with a fresh token · extension 404/405 → 501 FEATURE_UNAVAILABLE
 *   a lost answer to a task creation → retried with the same Idempotency-Key: exactly one task.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/contract/errors";
import { createRemoteUpstream, type Credentials } from "./remote";
import type { Upstream } from "./types";
import { httpTransport } from "./transport";
import { startScriptedServer, startServiceServer, type RunningServer, type Script } from "./testing/servers";

const PLANT_TOKEN = "pdm_test-plant-token-value";
const CLIENT_SECRET = "test-client-secret-value";
const EMPTY_PAGE = JSON.stringify({ data: [], page: 1, totalPages: 0, pageSize: 100 });

function credentials(token = PLANT_TOKEN): Credentials {
  return {
    plants: () => [{ id: "RTM1", name: "Rotterdam", customerId: "CUST-ACME" }],
    plantToken: (plantId) => (plantId === "RTM1" ? token : null),
    telemetryClient: () => ({ clientId: "client-1", clientSecret: CLIENT_SECRET, scope: "api://plant-telemetry/.default" }),
  };
}

function clientFor(url: string, overrides: { token?: string; timeoutMs?: number; answerCacheChars?: number; maxAnswerBytes?: number; monitorsBudgetPerMinute?: number } = {}): Upstream {
  return createRemoteUpstream({
    service: httpTransport(url, overrides.maxAnswerBytes ?? 80 * 1048576),
    auth: httpTransport(url, overrides.maxAnswerBytes ?? 80 * 1048576),
    credentials: credentials(overrides.token),
    timeouts: { maintenanceMs: overrides.timeoutMs ?? 3_000, queryMs: overrides.timeoutMs ?? 3_000 },
    send: { baseDelayMs: 10 },
    answerCacheChars: overrides.answerCacheChars ?? 1_000_000,
    ...(overrides.monitorsBudgetPerMinute ? { monitorsBudgetPerMinute: overrides.monitorsBudgetPerMinute } : {}),
  });
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a failure");
}

const logged: string[] = [];
let servers: RunningServer[] = [];

async function scripted(script: Script) {
  const server = await startScriptedServer(script);
  servers.push(server);
  return server;
}

beforeEach(() => {
  for (const level of ["log", "warn", "error", "info"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
    });
  }
});

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

afterAll(() => {
  // Nothing the client logged, in any test, carries a credential.
  const all = logged.join("\n");
  expect(all).not.toContain(PLANT_TOKEN);
  expect(all).not.toContain(CLIENT_SECRET);
  expect(all).not.toMatch(/tok-\d/);
  expect(all).not.toMatch(/Bearer\s+\S/);
});

const readJobs = (client: Upstream) => client.maintenance("listJobsDone", { plantId: "RTM1" });

describe("maintenance reads", () => {
  it("sends the plant's bearer token and returns the validated envelope", async () => {
    const server = await scripted(() => ({ status: 200, body: EMPTY_PAGE }));
    const result = await readJobs(clientFor(server.url));
    expect(result.value).toEqual({ data: [], page: 1, totalPages: 0, pageSize: 100 });
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${PLANT_TOKEN}`);
    expect(server.requests[0]!.path).toBe("/maintenance/v1/plants/RTM1/jobs-done");
  });

  it("times out each attempt, retries a GET, then answers 504 UPSTREAM_TIMEOUT", async () => {
    const server = await scripted(() => "hang");
    const started = Date.now();
    const error = await failureOf(readJobs(clientFor(server.url, { timeoutMs: 150 })));
    expect([error.status, error.code]).toEqual([504, "UPSTREAM_TIMEOUT"]);
    expect(server.requests).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("retries a 500 and succeeds on the next attempt", async () => {
    const server = await scripted((_, index) => (index === 0 ? { status: 500, body: '{"status":"ERROR","code":"INTERNAL_ERROR","message":"x","data":[]}' } : { status: 200, body: EMPTY_PAGE }));
    await expect(readJobs(clientFor(server.url))).resolves.toMatchObject({ value: { data: [] } });
    expect(server.requests).toHaveLength(2);
  });

  it("gives up after three 5xx answers with 502 UPSTREAM_UNAVAILABLE", async () => {
    const server = await scripted(() => ({ status: 503, body: "<html>down</html>" }));
    const error = await failureOf(readJobs(clientFor(server.url)));
    expect([error.status, error.code]).toEqual([502, "UPSTREAM_UNAVAILABLE"]);
    expect(server.requests).toHaveLength(3);
  });

  it("waits out a short Retry-After on 429, then succeeds", async () => {
    const server = await scripted((_, index) =>
      index === 0 ? { status: 429, headers: { "retry-after": "1" }, body: '{"status":"ERROR","code":"RATE_LIMITED","message":"slow down","data":[]}' } : { status: 200, body: EMPTY_PAGE },
    );
    const started = Date.now();
    await readJobs(clientFor(server.url));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it("passes a long Retry-After on to the browser as 429 with the header", async () => {
    const server = await scripted(() => ({ status: 429, headers: { "retry-after": "120" }, body: '{"status":"ERROR","code":"RATE_LIMITED","message":"Too many requests.","data":[]}' }));
    const error = await failureOf(readJobs(clientFor(server.url)));
    expect([error.status, error.code, error.headers["retry-after"]]).toEqual([429, "RATE_LIMITED", "120"]);
    expect(server.requests).toHaveLength(1);
  });

  it("turns malformed JSON into 502 UPSTREAM_INVALID_RESPONSE, logged with the path", async () => {
    const server = await scripted(() => ({ status: 200, body: '{"data": [' }));
    logged.length = 0;
    const error = await failureOf(readJobs(clientFor(server.url)));
    expect([error.status, error.code]).toEqual([502, "UPSTREAM_INVALID_RESPONSE"]);
    expect(logged.join("\n")).toContain("GET /maintenance/v1/plants/RTM1/jobs-done");
  });

  it("turns a schema break into 502, logged with the first problem", async () => {
    const job = { id: "J1", plantId: "RTM1", jobTitle: "x", doneDate: "yesterday" };
    const server = await scripted(() => ({ status: 200, body: JSON.stringify({ data: [job], page: 1, totalPages: 1, pageSize: 100 }) }));
    logged.length = 0;
    const error = await failureOf(readJobs(clientFor(server.url)));
    expect([error.status, error.code]).toEqual([502, "UPSTREAM_INVALID_RESPONSE"]);
    expect(error.message).not.toContain("yesterday");
    expect(logged.join("\n")).toMatch(/jobs-done: invalid response: data\.0\.doneDate/);
  });

  it("passes the service's 4xx error body through (same status, code, message, data)", async () => {
    const body = { status: "ERROR", code: "INVALID_INPUT", message: "Invalid query parameter: pageSize", data: [{ field: "pageSize", problem: "too big" }] };
    const server = await scripted(() => ({ status: 400, body: JSON.stringify(body) }));
    const error = await failureOf(readJobs(clientFor(server.url)));
    expect(error.status).toBe(400);
    expect(error.toBody()).toEqual(body);
  });

  it("reports a refused plant token as 502 UPSTREAM_AUTH_FAILED, not as the user's 401", async () => {
    const server = await scripted(() => ({ status: 401, headers: { "www-authenticate": "Bearer" }, body: '{"status":"ERROR","code":"UNAUTHORIZED","message":"no","data":[]}' }));
    const error = await failureOf(readJobs(clientFor(server.url)));
    expect([error.status, error.code]).toEqual([502, "UPSTREAM_AUTH_FAILED"]);
  });

  it("reports a missing extension (404 without a record code, or 405) as 501 FEATURE_UNAVAILABLE", async () => {
    for (const answer of [{ status: 404, body: "Not Found" }, { status: 405, body: "" }, { status: 404, body: '{"status":"ERROR","code":"NOT_FOUND","message":"No resource","data":[]}' }]) {
      const server = await scripted(() => answer);
      const error = await failureOf(
        clientFor(server.url).maintenance("getTask", { plantId: "RTM1", params: { taskId: "T1" } }),
      );
      expect([error.status, error.code]).toEqual([501, "FEATURE_UNAVAILABLE"]);
    }
    const server = await scripted(() => ({ status: 404, body: '{"status":"ERROR","code":"TASK_NOT_FOUND","message":"No task T1.","data":[]}' }));
    const error = await failureOf(clientFor(server.url).maintenance("getTask", { plantId: "RTM1", params: { taskId: "T1" } }));
    expect([error.status, error.code]).toEqual([404, "TASK_NOT_FOUND"]);
  });
});

describe("writes", () => {
  it("never retries a stock-level submission after a 500 (it may have been recorded)", async () => {
    const server = await scripted(() => ({ status: 500, body: '{"status":"ERROR","code":"INTERNAL_ERROR","message":"x","data":[]}' }));
    const error = await failureOf(
      clientFor(server.url).maintenance("submitStockLevel", { plantId: "RTM1", params: { partId: "P1" }, body: { id: "P1", quantity: 1, unit: "PCS" } }),
    );
    expect(error.status).toBe(502);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a stock-level submission refused with 429 (the service did not process it)", async () => {
    const server = await scripted((_, index) =>
      index === 0
        ? { status: 429, headers: { "retry-after": "0" }, body: '{"status":"ERROR","code":"RATE_LIMITED","message":"x","data":[]}' }
        : { status: 200, body: '{"status":"SUCCESS","code":"SUCCESS","message":null,"data":[]}' },
    );
    await clientFor(server.url).maintenance("submitStockLevel", { plantId: "RTM1", params: { partId: "P1" }, body: { id: "P1", quantity: 1, unit: "PCS" } });
    expect(server.requests).toHaveLength(2);
  });

  for (const loss of ["500", "timeout"] as const) {
    it(`creates exactly one task when the service's answer is lost (${loss}) and the client retries`, async () => {
      const service = await startServiceServer(async (request, index, forward) => {
        const answer = await forward(); // the service really handles every attempt
        if (request.method === "POST" && index === 0) return loss === "500" ? { status: 500, body: "lost" } : "hang";
        return answer;
      });
      servers.push(service);
      const token = (await service.runtime.plantTokens.issue("RTM1")).token;
      const client = clientFor(service.url, { token, timeoutMs: 2_000 });
      const store = service.runtime.maintenance;
      const before = (await store.listTasks("RTM1", { page: 1, pageSize: 1 })).totalPages;
      const asset = (await store.listAssets("RTM1", { page: 1, pageSize: 1 })).data[0]!;
      const activityKind = (await store.allowedLookupValues("RTM1", "activityKind"))[0]!;
      const priority = (await store.allowedLookupValues("RTM1", "priority"))[0]!;
      const result = await client.maintenance("createTask", {
        plantId: "RTM1",
        body: { taskTitle: "Inspect seal", activityKind, priority, asset: { tagNumber: asset.tagNumber } },
        idempotencyKey: `test-${loss}`,
      });
      expect(service.requests.filter((r) => r.method === "POST")).toHaveLength(2);
      expect(new Set(service.requests.map((r) => r.headers["idempotency-key"]))).toEqual(new Set([`test-${loss}`]));
      expect((await store.listTasks("RTM1", { page: 1, pageSize: 1 })).totalPages).toBe(before + 1);
      const id = result.value.data[0]!.id as string;
      expect((await store.getTask("RTM1", id))?.taskTitle).toBe("Inspect seal");
    });
  }
});

describe("revalidating GET answers (conditional GET)", () => {
  async function serviceRecordingStatuses() {
    const statuses: number[] = [];
    const service = await startServiceServer(async (_request, _index, forward) => {
      const answer = await forward();
      statuses.push(answer.status);
      return answer;
    });
    servers.push(service);
    return { service, statuses, token: (await service.runtime.plantTokens.issue("RTM1")).token };
  }

  it("asks with the held answer's ETag, and a 304 gives back the same validated value", async () => {
    const { service, statuses, token } = await serviceRecordingStatuses();
    const client = clientFor(service.url, { token });
    const call = { plantId: "RTM1", query: new URLSearchParams("pageSize=20") };
    const first = await client.maintenance("listJobsDone", call);
    const second = await client.maintenance("listJobsDone", call);
    expect(statuses).toEqual([200, 304]);
    expect(service.requests[0]!.headers["if-none-match"]).toBeUndefined();
    expect(service.requests[1]!.headers["if-none-match"]).toMatch(/^"[\w-]+"$/);
    expect(second.value).toEqual(first.value);
    expect(second.json).toBe(first.json);
    expect(first.value.data).toHaveLength(20);
    // Another page is another answer.
    await client.maintenance("listJobsDone", { plantId: "RTM1", query: new URLSearchParams("pageSize=20&page=2") });
    expect(statuses).toEqual([200, 304, 200]);
  });

  it("never hands back a changed answer: a stock count in between gives a 200 with the new level", async () => {
    const { service, statuses, token } = await serviceRecordingStatuses();
    const client = clientFor(service.url, { token });
    const part = (await service.runtime.maintenance.listParts("RTM1", { page: 1, pageSize: 1 })).data[0]!;
    const call = { plantId: "RTM1", params: { partId: part.id } };
    const before = await client.maintenance("listStockLevels", call);
    await client.maintenance("submitStockLevel", { ...call, body: { id: part.id, quantity: 4242, unit: part.unit } });
    const after = await client.maintenance("listStockLevels", call);
    expect(statuses).toEqual([200, 200, 200]);
    expect(after.value).not.toEqual(before.value);
    expect(JSON.stringify(after.value)).toContain("4242");
  });

  it("keeps nothing when the service sends no ETag, or when the budget is 0", async () => {
    const server = await scripted(() => ({ status: 200, body: EMPTY_PAGE }));
    const call = { plantId: "RTM1" };
    await clientFor(server.url).maintenance("listJobsDone", call);
    await clientFor(server.url).maintenance("listJobsDone", call);
    const { service, statuses, token } = await serviceRecordingStatuses();
    const uncached = clientFor(service.url, { token, answerCacheChars: 0 });
    await uncached.maintenance("listJobsDone", call);
    await uncached.maintenance("listJobsDone", call);
    expect([...server.requests, ...service.requests].map((r) => r.headers["if-none-match"])).toEqual([undefined, undefined, undefined, undefined]);
    expect(statuses).toEqual([200, 200]);
  });
});

describe("telemetry token", () => {
  const QUERY_RESULT = JSON.stringify({ data: { columns: [{ name: "Name", columnType: "string", dataType: "String" }], rows: [["x"]] } });
  const CALLER = { customerId: null, userKey: "1" };
  const QUERY = { query: "States | take 1", startTime: "2026-01-01T00:00:00.000Z", endTime: "2026-01-02T00:00:00.000Z" };

  function telemetryServer(expiredTokens: Set<string>) {
    let issued = 0;
    return scripted(async (request) => {
      if (request.path === "/oauth2/v2.0/token") {
        await new Promise((resolve) => setTimeout(resolve, 30)); // let concurrent callers pile up
        issued += 1;
        return { status: 200, body: JSON.stringify({ token_type: "Bearer", expires_in: 3600, access_token: `tok-${issued}` }) };
      }
      const token = String(request.headers.authorization).replace("Bearer ", "");
      if (expiredTokens.has(token)) return { status: 401, headers: { "www-authenticate": "Bearer" }, body: '{"status":"ERROR","code":"UNAUTHORIZED","message":"expired","data":[]}' };
      return { status: 200, body: QUERY_RESULT };
    });
  }

  it("fetches one token for 100 concurrent queries (single flight)", async () => {
    const server = await telemetryServer(new Set());
    const client = clientFor(server.url, { timeoutMs: 5_000 });
    await Promise.all(Array.from({ length: 100 }, () => client.telemetryQuery(QUERY, CALLER)));
    expect(server.requests.filter((r) => r.path === "/oauth2/v2.0/token")).toHaveLength(1);
    const form = new URLSearchParams(server.requests.find((r) => r.path === "/oauth2/v2.0/token")!.body);
    expect(form.get("grant_type")).toBe("client_credentials");
    expect(form.get("scope")).toBe("api://plant-telemetry/.default");
  });

  it("retries once with a fresh token after a 401 (expired token)", async () => {
    const server = await telemetryServer(new Set(["tok-1"]));
    const result = await clientFor(server.url).telemetryQuery(QUERY, CALLER);
    expect(result.value.data.rows).toEqual([["x"]]);
    expect(server.requests.map((r) => r.path)).toEqual([
      "/oauth2/v2.0/token",
      "/insights/v1/telemetry/query/table",
      "/oauth2/v2.0/token",
      "/insights/v1/telemetry/query/table",
    ]);
  });

  it("stops after one fresh token is refused too: 502 UPSTREAM_AUTH_FAILED", async () => {
    const server = await telemetryServer(new Set(["tok-1", "tok-2", "tok-3"]));
    const error = await failureOf(clientFor(server.url).telemetryQuery(QUERY, CALLER));
    expect([error.status, error.code]).toEqual([502, "UPSTREAM_AUTH_FAILED"]);
    expect(server.requests.filter((r) => r.path.startsWith("/insights"))).toHaveLength(2);
  });
});

describe("monitors' budgets (the remote service budgets per client; this dashboard is one client)", () => {
  const QUERY_RESULT = JSON.stringify({ data: { columns: [{ name: "Name", columnType: "string", dataType: "String" }], rows: [["x"]] } });
  const QUERY = { query: "States | take 1", startTime: "2026-01-01T00:00:00.000Z", endTime: "2026-01-02T00:00:00.000Z" };
  const monitor = (id: number, plant: string, perMinute = 3) => ({ customerId: null, userKey: `monitor-${id}`, budget: { perMinute, within: `monitors-${plant}` } });

  /** The service: a token, and queries answered after `delayMs`. */
  const service = (delayMs = 0) =>
    scripted(async (request) => {
      if (request.path === "/oauth2/v2.0/token") return { status: 200, body: JSON.stringify({ token_type: "Bearer", expires_in: 3600, access_token: "tok-1" }) };
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return { status: 200, body: QUERY_RESULT };
    });
  const queriesSeen = (server: RunningServer) => server.requests.filter((r) => r.path.startsWith("/insights")).length;

  it("a monitor spends at most its own budget: then 429 with Retry-After, and nothing is sent", async () => {
    const server = await service();
    const client = clientFor(server.url, { monitorsBudgetPerMinute: 100 });
    for (let i = 0; i < 3; i += 1) expect((await client.telemetryQuery(QUERY, monitor(1, "RTM1"))).rowCount).toBe(1);
    const refused = await failureOf(client.telemetryQuery(QUERY, monitor(1, "RTM1")));
    expect([refused.status, refused.code]).toEqual([429, "RATE_LIMITED"]);
    expect(refused.message).toMatch(/monitor's query budget of 3 per minute is spent/);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(queriesSeen(server)).toBe(3);
    // Another monitor of the plant, and a person's query (no budget of its own), go on.
    expect((await client.telemetryQuery(QUERY, monitor(2, "RTM1"))).rowCount).toBe(1);
    expect((await client.telemetryQuery(QUERY, { customerId: null, userKey: "user-1" })).rowCount).toBe(1);
  });

  it("a plant's monitors share the plant's budget; another plant's monitors keep theirs", async () => {
    const server = await service();
    const client = clientFor(server.url, { monitorsBudgetPerMinute: 5 });
    const answered = async (caller: ReturnType<typeof monitor>) => {
      let count = 0;
      for (let i = 0; i < 4; i += 1) count += await client.telemetryQuery(QUERY, caller).then(() => 1, () => 0);
      return count;
    };
    expect(await answered(monitor(1, "RTM1"))).toBe(3); // its own 3
    expect(await answered(monitor(2, "RTM1"))).toBe(2); // what the plant's 5 had left
    expect(await answered(monitor(3, "HOU1"))).toBe(3); // another plant: untouched
  });

  it("a query that outruns the monitor's budget is stopped while it runs (429), not waited for", async () => {
    const server = await service(3_000);
    const client = clientFor(server.url, { monitorsBudgetPerMinute: 100, timeoutMs: 10_000 });
    const started = Date.now();
    // 4 units: 1 + 1 per 100 ms of the query's time, so it is stopped after ~300 ms.
    const refused = await failureOf(client.telemetryQuery(QUERY, monitor(1, "RTM1", 4)));
    expect([refused.status, refused.code]).toEqual([429, "RATE_LIMITED"]);
    expect(refused.message).toMatch(/ran out while its query ran/);
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});

describe("answer size", () => {
  /** A service that streams its answer without end (no Content-Length), counting what it sent until the client hangs up. */
  async function endlessService(): Promise<{ url: string; requests: () => number; sent: () => number; close(): Promise<void> }> {
    let requests = 0;
    let sent = 0;
    const server = http.createServer((req, res) => {
      requests += 1;
      req.resume();
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"data":[');
      const row = Buffer.from(`${JSON.stringify({ filler: "x".repeat(1000) })},`.repeat(64));
      const pump = () => {
        while (!res.destroyed && res.write(row)) sent += row.length;
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url,
      requests: () => requests,
      sent: () => sent,
      close: () => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(() => resolve()));
      },
    };
  }

  it("stops reading an answer at UPSTREAM_MAX_ANSWER_MB and says so (502), without asking again", async () => {
    const service = await endlessService();
    try {
      const maxAnswerBytes = 1024 * 1024;
      logged.length = 0;
      const error = await failureOf(readJobs(clientFor(service.url, { maxAnswerBytes, timeoutMs: 20_000 })));
      expect([error.status, error.code]).toEqual([502, "UPSTREAM_INVALID_RESPONSE"]);
      expect(error.message).toMatch(/larger than the dashboard reads \(1 MB\)/);
      expect(service.requests()).toBe(1);
      expect(logged.join("\n")).toContain("GET /maintenance/v1/plants/RTM1/jobs-done: answer over 1048576 bytes");
    } finally {
      await service.close();
    }
  });

  it("refuses a declared Content-Length over the cap before reading the body", async () => {
    const server = await scripted(() => ({ status: 200, body: `{"data":[],"page":1,"totalPages":0,"pageSize":100,"pad":"${"x".repeat(4096)}"}` }));
    const error = await failureOf(readJobs(clientFor(server.url, { maxAnswerBytes: 1024 })));
    expect([error.status, error.code]).toEqual([502, "UPSTREAM_INVALID_RESPONSE"]);
    expect(server.requests).toHaveLength(1);
  });
});
