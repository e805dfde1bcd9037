/* eslint-disable @typescript-eslint/no-explicit-any -- JSON records are read freely in assertions */
/**
 * The maintenance interface over real HTTP against a temporary SQLite database with the demo
 * data. Every response is validated against the served /openapi.json (see the checked client).
 * `PLANTDESK_TEST_ENGINE=postgres` runs the same file against PostgreSQL (a schema of its own on
 * TEST_POSTGRES_URL's server, dropped afterwards).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOOKUP_KINDS, TASK_STATUSES, TASK_TRANSITIONS, type TTaskStatus } from "@/modules/maintenance/contract/maintenance";
import { serviceAddress } from "@/lib/testing/services";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { createServiceRuntime, type ServiceRuntime } from "@/lib/service/runtime";
import { createCheckedClient, startCheckedService, startHttpServer, testConfig, type ApiResponse, type CheckedService } from "@/lib/service/testing/openapi-checked-client";

const BASE = "/maintenance/v1/plants";
let service: CheckedService | undefined;
let dataDir: string;
let runtime: ServiceRuntime;
let client: CheckedService["client"];
let rtm1: string;
let hou1: string;
let oul1: string;
const today = new Date().toISOString().slice(0, 10);
let schema: TestSchema | undefined;
const engine = (): Record<string, string> => (schema ? { DATABASE_URL: schema.url } : {});

const get = (path: string, token = rtm1) => client.call("GET", path, { token });

beforeAll(async () => {
  if (process.env.PLANTDESK_TEST_ENGINE === "postgres") schema = await createTestSchema(serviceAddress("postgres").url);
  service = await startCheckedService("maint-api", { MAINTENANCE_RATE_LIMIT_PER_MINUTE: "1000000", ...engine() });
  ({ dataDir, runtime, client } = service);
  rtm1 = (await runtime.plantTokens.issue("RTM1")).token;
  hou1 = (await runtime.plantTokens.issue("HOU1")).token;
  oul1 = (await runtime.plantTokens.issue("OUL1")).token;
});

afterAll(async () => {
  await service?.close();
  await schema?.drop();
});

function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({ status: "ERROR", code });
  expect(typeof response.body.message).toBe("string");
  expect(Array.isArray(response.body.data)).toBe(true);
}

/** Every record of a list, fetched with the largest page size. */
async function all(path: string, token = rtm1): Promise<any[]> {
  const records: any[] = [];
  for (let page = 1; ; page++) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await get(`${path}${sep}pageSize=1000&page=${page}`, token);
    expect(res.status).toBe(200);
    records.push(...res.body.data);
    if (page >= res.body.totalPages) return records;
  }
}

describe("OpenAPI document", () => {
  it("is served as OpenAPI 3.1 and documents every maintenance operation", async () => {
    const res = await client.call("GET", "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const operations = Object.entries(res.body.paths as Record<string, object>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    for (const op of [
      "GET /jobs-done",
      "GET /jobs-planned",
      "GET /assets",
      "GET /tasks",
      "POST /tasks",
      "PUT /parts/{partId}/stock-level",
      "GET /lookup-values",
      "GET /parts",
      "GET /parts/{partId}/stock-levels",
      "GET /tasks/{taskId}",
      "POST /tasks/{taskId}/transitions",
      "GET /tasks/{taskId}/transitions",
    ]) {
      const [method, rest] = op.split(" ");
      expect(operations).toContain(`${method} ${BASE}/{plantId}${rest}`);
    }
  });
});

describe("authentication and the check order", () => {
  it("401 without a token, with WWW-Authenticate", async () => {
    const res = await client.call("GET", `${BASE}/RTM1/jobs-done`);
    expectError(res, 401, "UNAUTHORIZED");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("401 for an unknown token, a non-bearer scheme, a revoked and an expired token", async () => {
    expectError(await get(`${BASE}/RTM1/jobs-done`, "pdm_nonsense"), 401, "UNAUTHORIZED");
    expectError(await client.call("GET", `${BASE}/RTM1/jobs-done`, { headers: { authorization: `Basic ${rtm1}` } }), 401, "UNAUTHORIZED");
    const revoked = await runtime.plantTokens.issue("RTM1");
    expect((await get(`${BASE}/RTM1/assets?pageSize=1`, revoked.token)).status).toBe(200);
    await runtime.plantTokens.revoke(revoked.id);
    const res = await get(`${BASE}/RTM1/assets?pageSize=1`, revoked.token);
    expectError(res, 401, "UNAUTHORIZED");
    expect(res.body.message).not.toContain(revoked.token);
    const expired = await runtime.plantTokens.issue("RTM1", { expiresInDays: 1, now: new Date(Date.now() - 2 * 86_400_000) });
    expectError(await get(`${BASE}/RTM1/assets?pageSize=1`, expired.token), 401, "UNAUTHORIZED");
  });

  it("token before plant id syntax: a bad token with a malformed plant id is 401", async () => {
    expectError(await get(`${BASE}/bad$id/jobs-done`, "nope"), 401, "UNAUTHORIZED");
  });

  it("400 naming a malformed plant id", async () => {
    const res = await get(`${BASE}/bad$plant!/jobs-done`);
    expectError(res, 400, "INVALID_INPUT");
    expect(res.body.message).toContain("bad$plant!");
  });

  it("404 PLANT_NOT_FOUND before 403, 403 before parameter errors", async () => {
    expectError(await get(`${BASE}/NOPE9/jobs-done`), 404, "PLANT_NOT_FOUND");
    expectError(await get(`${BASE}/HOU1/jobs-done`), 403, "FORBIDDEN");
    expectError(await get(`${BASE}/HOU1/jobs-done?pageSize=0`), 403, "FORBIDDEN");
    expectError(await client.call("POST", `${BASE}/HOU1/tasks`, { token: rtm1, body: {} }), 403, "FORBIDDEN");
  });

  it("400 (body) before 412 (precondition)", async () => {
    const res = await client.call("POST", `${BASE}/RTM1/tasks`, {
      token: rtm1,
      body: { taskTitle: "x", activityKind: "CORRECTIVE", priority: "NOPE", asset: { tagNumber: "NO-SUCH-TAG" } },
    });
    expectError(res, 400, "INVALID_INPUT");
  });
});

describe("pagination", () => {
  it("defaults to page 1 and pageSize 100", async () => {
    const res = await get(`${BASE}/RTM1/jobs-done`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, pageSize: 100 });
    expect(res.body.data).toHaveLength(100);
  });

  it("pageSize 1 and 1000; totalPages = ceil(total / pageSize)", async () => {
    const one = await get(`${BASE}/RTM1/jobs-done?pageSize=1`);
    expect(one.body.data).toHaveLength(1);
    const total = one.body.totalPages;
    const big = await get(`${BASE}/RTM1/jobs-done?pageSize=1000`);
    expect(big.body.data).toHaveLength(1000);
    expect(big.body.totalPages).toBe(Math.ceil(total / 1000));
    const last = await get(`${BASE}/RTM1/jobs-done?pageSize=1000&page=${big.body.totalPages}`);
    expect(last.body.data).toHaveLength(total - 1000 * (big.body.totalPages - 1));
  });

  it.each(["pageSize=1001", "pageSize=0", "page=0", "page=-1", "page=1.5", "pageSize=abc", "page=", "pageSize=1e2"])("400 for %s", async (query) => {
    expectError(await get(`${BASE}/RTM1/assets?${query}`), 400, "INVALID_INPUT");
  });

  it("a page past the end is 200 with no data", async () => {
    const res = await get(`${BASE}/RTM1/assets?page=999`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.page).toBe(999);
    expect(res.body.totalPages).toBeGreaterThan(0);
  });

  it("totalPages is 0 when nothing matches", async () => {
    for (const list of ["jobs-done", "jobs-planned", "assets", "tasks"]) {
      const res = await get(`${BASE}/RTM1/${list}?assetTagNumber=NO-SUCH-TAG`);
      expect(res.body).toMatchObject({ data: [], totalPages: 0, page: 1 });
    }
  });

  it("ignores unknown query parameters", async () => {
    expect((await get(`${BASE}/RTM1/assets?pageSize=2&colour=blue`)).body.data).toHaveLength(2);
  });
});

describe("conditional GET", () => {
  it("a GET answers with an ETag; If-None-Match naming it gives 304 with no body; a changed answer has a new tag", async () => {
    const path = `${BASE}/RTM1/parts?pageSize=5`;
    const first = await get(path);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const again = await client.call("GET", path, { token: rtm1, headers: { "if-none-match": etag! } });
    expect([again.status, again.body]).toEqual([304, null]);
    expect(again.headers.get("etag")).toBe(etag);
    for (const header of [`W/${etag}`, `"other", ${etag}`, "*"]) {
      expect((await client.call("GET", path, { token: rtm1, headers: { "if-none-match": header } })).status, header).toBe(304);
    }
    expect((await client.call("GET", path, { token: rtm1, headers: { "if-none-match": '"other"' } })).status).toBe(200);
    // A HEAD carries the GET's headers, its tag included.
    const head = await fetch(`${service!.server.url}${path}`, { method: "HEAD", headers: { authorization: `Bearer ${rtm1}` } });
    expect([head.status, head.headers.get("etag"), head.headers.get("cache-control")]).toEqual([200, etag, "private, no-cache"]);
    // The tag is checked after the token: no token, no 304.
    expect((await client.call("GET", path, { headers: { "if-none-match": etag! } })).status).toBe(401);
    const part = first.body.data[0];
    const count = await client.call("PUT", `${BASE}/RTM1/parts/${part.id}/stock-level`, { token: rtm1, body: { id: part.id, quantity: 777, unit: part.unit } });
    expect(count.status).toBe(200);
    const changed = await client.call("GET", path, { token: rtm1, headers: { "if-none-match": etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(changed.body.data[0]).toMatchObject({ id: part.id });
  });
});

describe("lists: orders and filters", () => {
  it("jobs done: doneDate desc then id; date filters inclusive; every job has its parts", async () => {
    const jobs = await all(`${BASE}/RTM1/jobs-done`);
    expect(jobs.length).toBeGreaterThanOrEqual(2900);
    for (let i = 1; i < jobs.length; i++) {
      const [a, b] = [jobs[i - 1], jobs[i]];
      expect(a.doneDate > b.doneDate || (a.doneDate === b.doneDate && a.id < b.id)).toBe(true);
    }
    expect(jobs.some((job) => job.partsUsed.length > 0)).toBe(true);
    const day = jobs[500].doneDate;
    const expected = jobs.filter((job) => job.doneDate === day).map((job) => job.id);
    const sameDay = await all(`${BASE}/RTM1/jobs-done?startDate=${day}&endDate=${day}`);
    expect(sameDay.map((job) => job.id)).toEqual(expected);
    const from = await all(`${BASE}/RTM1/jobs-done?startDate=${day}`);
    expect(from.length).toBe(jobs.filter((job) => job.doneDate >= day).length);
    const until = await all(`${BASE}/RTM1/jobs-done?endDate=${day}`);
    expect(until.length).toBe(jobs.filter((job) => job.doneDate <= day).length);
  });

  it("400 for startDate after endDate and for impossible dates", async () => {
    for (const q of ["startDate=2025-03-02&endDate=2025-03-01", "startDate=2025-02-30", "endDate=2025-13-01", "startDate=20250101"]) {
      expectError(await get(`${BASE}/RTM1/jobs-done?${q}`), 400, "INVALID_INPUT");
      expectError(await get(`${BASE}/RTM1/jobs-planned?${q}`), 400, "INVALID_INPUT");
    }
  });

  it("jobs planned: dueDate asc then id; date filter on dueDate; many recurring", async () => {
    const jobs = await all(`${BASE}/RTM1/jobs-planned`);
    expect(jobs.length).toBeGreaterThanOrEqual(350);
    for (let i = 1; i < jobs.length; i++) {
      const [a, b] = [jobs[i - 1], jobs[i]];
      expect(a.dueDate < b.dueDate || (a.dueDate === b.dueDate && a.id < b.id)).toBe(true);
    }
    expect(jobs.filter((job) => job.recurrence !== null).length).toBeGreaterThan(jobs.length / 2);
    const day = jobs[100].dueDate;
    const filtered = await all(`${BASE}/RTM1/jobs-planned?startDate=${day}&endDate=${day}`);
    expect(filtered.map((job) => job.id)).toEqual(jobs.filter((job) => job.dueDate === day).map((job) => job.id));
  });

  it("assets: ordered by tagNumber, in a four-level hierarchy", async () => {
    const assets = await all(`${BASE}/RTM1/assets`);
    expect(assets.length).toBeGreaterThanOrEqual(130);
    const tags = assets.map((asset) => asset.tagNumber);
    expect(tags).toEqual([...tags].sort());
    const byTag = new Map(assets.map((asset) => [asset.tagNumber, asset]));
    const depth = (asset: any): number => (asset.parentTagNumber ? 1 + depth(byTag.get(asset.parentTagNumber)) : 0);
    expect(Math.max(...assets.map(depth))).toBe(3);
  });

  it("asset filters (exact, ANDed) on jobs done, jobs planned, assets and tasks", async () => {
    const jobs = await all(`${BASE}/RTM1/jobs-done`);
    const asset = jobs[0].asset;
    const lists = ["jobs-done", "jobs-planned", "assets", "tasks"];
    for (const [param, key] of [
      ["assetTagNumber", "tagNumber"],
      ["assetSerialNumber", "serialNumber"],
      ["assetExternalReference", "externalReference"],
    ] as const) {
      for (const list of lists) {
        const records = await all(`${BASE}/RTM1/${list}?${param}=${encodeURIComponent(asset[key])}`);
        for (const record of records) expect(list === "assets" ? record[key] : record.asset[key]).toBe(asset[key]);
        if (list === "jobs-done" || list === "assets") expect(records.length).toBeGreaterThan(0);
      }
    }
    const both = await all(`${BASE}/RTM1/jobs-done?assetTagNumber=${asset.tagNumber}&assetSerialNumber=${asset.serialNumber}`);
    expect(both.length).toBe(jobs.filter((job) => job.asset.tagNumber === asset.tagNumber).length);
    const mismatch = await get(`${BASE}/RTM1/jobs-done?assetTagNumber=${asset.tagNumber}&assetSerialNumber=OTHER`);
    expect(mismatch.body.totalPages).toBe(0);
  });

  it("tasks: createdDate desc then id; taskStatus one, several, unknown", async () => {
    const tasks = await all(`${BASE}/OUL1/tasks`, oul1);
    for (let i = 1; i < tasks.length; i++) {
      const [a, b] = [tasks[i - 1], tasks[i]];
      expect(a.createdDate > b.createdDate || (a.createdDate === b.createdDate && a.id < b.id)).toBe(true);
    }
    expect(new Set(tasks.map((task) => task.status))).toEqual(new Set(TASK_STATUSES));
    const pending = await all(`${BASE}/OUL1/tasks?taskStatus=PENDING`, oul1);
    expect(pending.length).toBe(tasks.filter((task) => task.status === "PENDING").length);
    const two = await all(`${BASE}/OUL1/tasks?taskStatus=CLOSED,NOT_CLOSED`, oul1);
    expect(two.length).toBe(tasks.filter((task) => task.status === "CLOSED" || task.status === "NOT_CLOSED").length);
    expectError(await get(`${BASE}/OUL1/tasks?taskStatus=DONE`, oul1), 400, "INVALID_INPUT");
    expectError(await get(`${BASE}/OUL1/tasks?taskStatus=PENDING,`, oul1), 400, "INVALID_INPUT");
  });

  it("lookup values differ per customer and filter by kind", async () => {
    const acme = await all(`${BASE}/RTM1/lookup-values`);
    const nordic = await all(`${BASE}/OUL1/lookup-values`, oul1);
    expect(new Set(acme.map((v) => v.kind))).toEqual(new Set(LOOKUP_KINDS));
    expect(acme.map((v) => v.value)).not.toEqual(nordic.map((v) => v.value));
    const priorities = await all(`${BASE}/RTM1/lookup-values?kind=priority`);
    expect(priorities.length).toBeGreaterThan(0);
    expect(priorities.every((v) => v.kind === "priority")).toBe(true);
    expectError(await get(`${BASE}/RTM1/lookup-values?kind=colour`), 400, "INVALID_INPUT");
  });

  it("parts: ordered by id, isShort filter, some short", async () => {
    const parts = await all(`${BASE}/RTM1/parts`);
    expect(parts.length).toBeGreaterThanOrEqual(190);
    expect(parts.map((p) => p.id)).toEqual([...parts.map((p) => p.id)].sort());
    const short = await all(`${BASE}/RTM1/parts?isShort=true`);
    expect(short.length).toBe(parts.filter((p) => p.isShort).length);
    expect(short.length).toBeGreaterThan(0);
    expect((await all(`${BASE}/RTM1/parts?isShort=false`)).length).toBe(parts.length - short.length);
  });

  it("one task; 404 TASK_NOT_FOUND; 400 for a malformed task id", async () => {
    const [first] = (await get(`${BASE}/RTM1/tasks?pageSize=1`)).body.data;
    const res = await get(`${BASE}/RTM1/tasks/${first.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(first);
    expectError(await get(`${BASE}/RTM1/tasks/RTM1-T999999`), 404, "TASK_NOT_FOUND");
    expectError(await get(`${BASE}/RTM1/tasks/-bad`), 400, "INVALID_INPUT");
    // Another plant's task is not found through this plant.
    const [other] = (await get(`${BASE}/HOU1/tasks?pageSize=1`, hou1)).body.data;
    expectError(await get(`${BASE}/RTM1/tasks/${other.id}`), 404, "TASK_NOT_FOUND");
  });
});

describe("task creation", () => {
  const post = (body: unknown, headers: Record<string, string> = {}, token = rtm1, plant = "RTM1") =>
    client.call("POST", `${BASE}/${plant}/tasks`, { token, body, headers });
  const valid = { taskTitle: "Replace leaking seal", activityKind: "CORRECTIVE", priority: "P2", asset: { tagNumber: "RTM1-A1" } };

  it("creates a NEED_APPROVAL task, createdDate today (UTC), optional fields null", async () => {
    const res = await post(valid);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "SUCCESS", code: "SUCCESS", message: null });
    const [{ id }] = res.body.data;
    const task = (await get(`${BASE}/RTM1/tasks/${id}`)).body;
    expect(task).toMatchObject({
      id,
      plantId: "RTM1",
      status: "NEED_APPROVAL",
      createdDate: today,
      taskDescription: null,
      assignedToRole: null,
      dueDate: null,
      incidentDate: null,
      asset: { tagNumber: "RTM1-A1", serialNumber: null },
    });
  });

  it("accepts every optional field", async () => {
    const body = {
      ...valid,
      taskDescription: "Seal drips.",
      assignedToRole: "MECH_TECH",
      createdDate: "2026-01-10",
      dueDate: "2026-01-10",
      incidentDate: "2026-01-09",
    };
    const res = await post(body);
    expect(res.status).toBe(200);
    const task = (await get(`${BASE}/RTM1/tasks/${res.body.data[0].id}`)).body;
    expect(task).toMatchObject({ taskDescription: "Seal drips.", assignedToRole: "MECH_TECH", createdDate: "2026-01-10", dueDate: "2026-01-10", incidentDate: "2026-01-09" });
  });

  it.each([
    ["missing title", { ...valid, taskTitle: undefined }, "taskTitle"],
    ["empty title", { ...valid, taskTitle: "  " }, "taskTitle"],
    ["title over 200", { ...valid, taskTitle: "x".repeat(201) }, "taskTitle"],
    ["description over 4000", { ...valid, taskDescription: "x".repeat(4001) }, "taskDescription"],
    ["missing asset", { ...valid, asset: undefined }, "asset"],
    ["malformed tag", { ...valid, asset: { tagNumber: "bad tag" } }, "asset.tagNumber"],
    ["impossible date", { ...valid, createdDate: "2026-02-30" }, "createdDate"],
    ["due before created", { ...valid, createdDate: "2026-03-10", dueDate: "2026-03-09" }, "dueDate"],
    ["incident after created", { ...valid, createdDate: "2026-03-10", incidentDate: "2026-03-11" }, "incidentDate"],
    ["a JSON array", [valid], "(body)"],
  ])("400 for %s", async (_name, body, field) => {
    const res = await post(body);
    expectError(res, 400, "INVALID_INPUT");
    expect(res.body.data.map((p: { field: string }) => p.field)).toContain(field);
  });

  it("400 listing the allowed values for a lookup value the plant does not have", async () => {
    // NORDIC's values are not ACME's.
    const res = await post({ ...valid, activityKind: "PM", assignedToRole: "MECHANIC" });
    expectError(res, 400, "INVALID_INPUT");
    const activity = res.body.data.find((p: { field: string }) => p.field === "activityKind");
    expect(activity.allowedValues).toContain("CORRECTIVE");
    expect(res.body.data.find((p: { field: string }) => p.field === "assignedToRole").allowedValues).toContain("MECH_TECH");
    expect((await post({ ...valid, activityKind: "PM", priority: "2-HIGH", asset: { tagNumber: "OUL1-A1" } }, {}, oul1, "OUL1")).status).toBe(200);
  });

  it("412 ASSET_NOT_FOUND for an unknown tag (also another plant's)", async () => {
    expectError(await post({ ...valid, asset: { tagNumber: "NO-SUCH-TAG" } }), 412, "ASSET_NOT_FOUND");
    expectError(await post({ ...valid, asset: { tagNumber: "HOU1-A1" } }), 412, "ASSET_NOT_FOUND");
  });

  it("Idempotency-Key: a retry returns the first result and creates nothing", async () => {
    const before = (await get(`${BASE}/RTM1/tasks?pageSize=1`)).body.totalPages;
    const key = { "idempotency-key": "retry-me-42" };
    const first = await post(valid, key);
    const second = await post(valid, key);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect((await get(`${BASE}/RTM1/tasks?pageSize=1`)).body.totalPages).toBe(before + 1);
    expectError(await post({ ...valid, taskTitle: "Something else" }, key), 400, "INVALID_INPUT");
    // Keys are per plant.
    const elsewhere = await post({ ...valid, asset: { tagNumber: "HOU1-A1" } }, key, hou1, "HOU1");
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.data[0].id).not.toBe(first.body.data[0].id);
    expectError(await post(valid, { "idempotency-key": "" }), 400, "INVALID_INPUT");
  });

  it("a failed creation with a key is not remembered", async () => {
    const key = { "idempotency-key": "fails-first" };
    expectError(await post({ ...valid, priority: "NOPE" }, key), 400, "INVALID_INPUT");
    expect((await post(valid, key)).status).toBe(200);
  });

  it("50 concurrent creations give exactly 50 tasks", async () => {
    const count = async () => (await runtime.sql.get<{ n: number }>("SELECT count(*) AS n FROM tasks WHERE plant_id = 'RTM1'"))!;
    const before = (await count()).n;
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => post({ ...valid, taskTitle: `Concurrent ${i}` })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.data[0].id)).size).toBe(50);
    expect((await count()).n).toBe(before + 50);
  });

  it("50 concurrent retries with one key give exactly one task", async () => {
    const key = { "idempotency-key": "storm" };
    const results = await Promise.all(Array.from({ length: 50 }, () => post(valid, key)));
    expect(new Set(results.map((r) => r.body.data[0].id)).size).toBe(1);
  });
});

describe("request bodies and methods", () => {
  it("413 for a body over 1 MiB", async () => {
    const res = await client.call("POST", `${BASE}/RTM1/tasks`, {
      token: rtm1,
      rawBody: JSON.stringify({ taskTitle: "x".repeat(1024 * 1024 + 10) }),
      headers: { "content-type": "application/json" },
    });
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
  });

  it("400 (not 500) for malformed JSON and an empty body", async () => {
    for (const rawBody of ['{"taskTitle": ', "{'a':1}", ""]) {
      const res = await client.call("POST", `${BASE}/RTM1/tasks`, { token: rtm1, rawBody, headers: { "content-type": "application/json" } });
      expectError(res, 400, "INVALID_INPUT");
    }
  });

  it("415 for another media type", async () => {
    const res = await client.call("POST", `${BASE}/RTM1/tasks`, { token: rtm1, rawBody: "taskTitle=x", headers: { "content-type": "text/plain" } });
    expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("405 with Allow for a known path and another method; 404 for an unknown path", async () => {
    const res = await client.call("DELETE", `${BASE}/RTM1/tasks`, { token: rtm1 });
    expectError(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toContain("POST");
    expectError(await get(`${BASE}/RTM1/nothing-here`), 404, "NOT_FOUND");
  });
});

describe("task transitions", () => {
  async function newTask(): Promise<string> {
    const res = await client.call("POST", `${BASE}/RTM1/tasks`, {
      token: rtm1,
      body: { taskTitle: "Transition test", activityKind: "INSPECTION", priority: "P3", asset: { tagNumber: "RTM1-A2" } },
    });
    return res.body.data[0].id;
  }
  const move = (id: string, to: string, remark?: string) =>
    client.call("POST", `${BASE}/RTM1/tasks/${id}/transitions`, { token: rtm1, body: { to, remark } });

  /** A path of allowed moves from NEED_APPROVAL to the status. */
  function pathTo(target: TTaskStatus): TTaskStatus[] {
    const queue: TTaskStatus[][] = [[]];
    const seen = new Set<TTaskStatus>(["NEED_APPROVAL"]);
    while (queue.length) {
      const steps = queue.shift()!;
      const at = steps.at(-1) ?? "NEED_APPROVAL";
      if (at === target) return steps;
      for (const next of TASK_TRANSITIONS[at]) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push([...steps, next]);
      }
    }
    throw new Error(target);
  }

  it("allows exactly the moves of docs/api.md §3 and records each in the history", async () => {
    for (const from of TASK_STATUSES) {
      for (const to of TASK_STATUSES) {
        const id = await newTask();
        for (const step of pathTo(from)) expect((await move(id, step)).status).toBe(200);
        const res = await move(id, to, "test");
        if (TASK_TRANSITIONS[from].includes(to)) {
          expect(res.status, `${from}→${to}`).toBe(200);
          expect(res.body.data).toEqual([{ id, from, to }]);
          expect((await get(`${BASE}/RTM1/tasks/${id}`)).body.status).toBe(to);
        } else {
          expectError(res, 412, "INVALID_TRANSITION");
          expect((await get(`${BASE}/RTM1/tasks/${id}`)).body.status).toBe(from);
        }
        const history = await runtime.sql.all("SELECT from_status AS f, to_status AS t FROM task_transitions WHERE task_id = @id ORDER BY seq", { id });
        const moves = [...pathTo(from), ...(TASK_TRANSITIONS[from].includes(to) ? [to] : [])];
        expect(history).toEqual([{ f: null, t: "NEED_APPROVAL" }, ...moves.map((t, i) => ({ f: i === 0 ? "NEED_APPROVAL" : moves[i - 1], t }))]);
      }
    }
  });

  it("keeps who moved the task, when, from, to and the remark, and lists the history oldest first", async () => {
    const issued = await runtime.plantTokens.issue("RTM1");
    const created = await client.call("POST", `${BASE}/RTM1/tasks`, {
      token: issued.token,
      body: { taskTitle: "History test", activityKind: "INSPECTION", priority: "P3", asset: { tagNumber: "RTM1-A2" }, by: "Pat Planner <pat@example.com>" },
    });
    const id = created.body.data[0].id as string;
    const approve = await client.call("POST", `${BASE}/RTM1/tasks/${id}/transitions`, {
      token: issued.token,
      body: { to: "PENDING", remark: "Approved: parts on site", by: "  Sam Supervisor <sam@example.com> " },
    });
    expect(approve.status).toBe(200);
    // Without `by`, the client itself is who moved it.
    expect((await client.call("POST", `${BASE}/RTM1/tasks/${id}/transitions`, { token: issued.token, body: { to: "NEED_CONFIRMATION" } })).status).toBe(200);

    const history = await get(`${BASE}/RTM1/tasks/${id}/transitions`);
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject({ page: 1, totalPages: 1, pageSize: 100 });
    expect(history.body.data).toEqual([
      { taskId: id, from: null, to: "NEED_APPROVAL", remark: null, at: expect.any(String), by: "Pat Planner <pat@example.com>", client: issued.id },
      { taskId: id, from: "NEED_APPROVAL", to: "PENDING", remark: "Approved: parts on site", at: expect.any(String), by: "Sam Supervisor <sam@example.com>", client: issued.id },
      { taskId: id, from: "PENDING", to: "NEED_CONFIRMATION", remark: null, at: expect.any(String), by: issued.id, client: issued.id },
    ]);
    // When: instants in order, none in the future.
    const instants = history.body.data.map((step: any) => Date.parse(step.at));
    expect([...instants].sort((a, b) => a - b)).toEqual(instants);
    expect(instants.at(-1)).toBeLessThanOrEqual(Date.now());
    expect(history.body.data[1].at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    // Paged like every list; another plant's token cannot read it; an unknown task is 404.
    const second = await get(`${BASE}/RTM1/tasks/${id}/transitions?pageSize=2&page=2`);
    expect(second.body.data.map((step: any) => step.to)).toEqual(["NEED_CONFIRMATION"]);
    expectError(await get(`${BASE}/RTM1/tasks/${id}/transitions`, hou1), 403, "FORBIDDEN");
    expectError(await get(`${BASE}/RTM1/tasks/RTM1-T999999/transitions`), 404, "TASK_NOT_FOUND");
  });

  it("400 for a `by` that is empty, too long or has control characters; nothing is recorded", async () => {
    const id = await newTask();
    for (const by of ["", "   ", "x".repeat(321), "Sam\nSupervisor", 42]) {
      const res = await client.call("POST", `${BASE}/RTM1/tasks/${id}/transitions`, { token: rtm1, body: { to: "PENDING", by } });
      expectError(res, 400, "INVALID_INPUT");
      expect(res.body.data.map((problem: any) => problem.field)).toContain("by");
    }
    expect((await get(`${BASE}/RTM1/tasks/${id}/transitions`)).body.data).toHaveLength(1);
  });

  it("400 for an unknown status, 404 for an unknown task, 400 for a malformed one", async () => {
    const id = await newTask();
    expectError(await move(id, "DONE"), 400, "INVALID_INPUT");
    expectError(await move("RTM1-T999999", "PENDING"), 404, "TASK_NOT_FOUND");
    expectError(await move("bad id", "PENDING"), 400, "INVALID_INPUT");
  });
});

describe("stock levels", () => {
  const put = (partId: string, body: unknown, token = rtm1) =>
    client.call("PUT", `${BASE}/RTM1/parts/${encodeURIComponent(partId)}/stock-level`, { token, body });

  it("accepts a level, updates the part and keeps history, newest first", async () => {
    const [part] = (await get(`${BASE}/RTM1/parts?pageSize=1`)).body.data;
    const before = (await get(`${BASE}/RTM1/parts/${part.id}/stock-levels?pageSize=1000`)).body.data;
    const res = await put(part.id, { id: part.id, quantity: 0, unit: part.unit, remark: "Counted empty", isShort: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "SUCCESS", code: "SUCCESS", message: null });
    const after = (await get(`${BASE}/RTM1/parts/${part.id}/stock-levels?pageSize=1000`)).body.data;
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatchObject({ partId: part.id, quantity: 0, unit: part.unit, remark: "Counted empty", isShort: true });
    const updated = (await get(`${BASE}/RTM1/parts?pageSize=1`)).body.data[0];
    expect(updated).toMatchObject({ id: part.id, quantity: 0, isShort: true, remark: "Counted empty" });
    // isShort defaults to "below the reorder point"; remark is optional.
    const plenty = await put(part.id, { id: part.id, quantity: 100000, unit: part.unit });
    expect(plenty.body.data[0].isShort).toBe(false);
  });

  it("400 for a mismatched id, a negative quantity, an unknown unit, a long remark", async () => {
    const [part] = (await get(`${BASE}/RTM1/parts?pageSize=1`)).body.data;
    const body = { id: part.id, quantity: 1, unit: part.unit };
    expectError(await put(part.id, { ...body, id: "MAT-OTHER" }), 400, "INVALID_INPUT");
    expectError(await put(part.id, { ...body, quantity: -1 }), 400, "INVALID_INPUT");
    expectError(await put(part.id, { ...body, quantity: "1" }), 400, "INVALID_INPUT");
    expectError(await put(part.id, { ...body, unit: "BARREL" }), 400, "INVALID_INPUT");
    expectError(await put(part.id, { ...body, remark: "x".repeat(1001) }), 400, "INVALID_INPUT");
    expectError(await put("bad id", { ...body, id: "bad id" }), 400, "INVALID_INPUT");
  });

  it("404 PART_NOT_FOUND, 412 UNIT_MISMATCH; a refused write changes nothing", async () => {
    expectError(await put("MAT-0", { id: "MAT-0", quantity: 1, unit: "PCS" }), 404, "PART_NOT_FOUND");
    expectError(await get(`${BASE}/RTM1/parts/MAT-0/stock-levels`), 404, "PART_NOT_FOUND");
    const parts = await all(`${BASE}/RTM1/parts`);
    const part = parts.find((p) => p.unit !== "PCS")!;
    const history = (await get(`${BASE}/RTM1/parts/${part.id}/stock-levels?pageSize=1000`)).body.data.length;
    const res = await put(part.id, { id: part.id, quantity: 1, unit: "PCS" });
    expectError(res, 412, "UNIT_MISMATCH");
    expect((await get(`${BASE}/RTM1/parts/${part.id}/stock-levels?pageSize=1000`)).body.data.length).toBe(history);
  });
});

describe("rate limit and unexpected errors", () => {
  it("429 RATE_LIMITED with Retry-After once a token's budget is spent; other tokens unaffected", async () => {
    const limited = await createServiceRuntime(testConfig({ DATA_DIR: dataDir, MAINTENANCE_RATE_LIMIT_PER_MINUTE: "3", ...engine() }));
    const limitedServer = await startHttpServer(limited);
    try {
      const limitedClient = await createCheckedClient(limitedServer.url);
      const token = (await limited.plantTokens.issue("RTM1")).token;
      for (let i = 0; i < 3; i++) expect((await limitedClient.call("GET", `${BASE}/RTM1/assets?pageSize=1`, { token })).status).toBe(200);
      const res = await limitedClient.call("GET", `${BASE}/RTM1/assets?pageSize=1`, { token });
      expectError(res, 429, "RATE_LIMITED");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      const other = (await limited.plantTokens.issue("RTM1")).token;
      expect((await limitedClient.call("GET", `${BASE}/RTM1/assets?pageSize=1`, { token: other })).status).toBe(200);

      // A broken database gives a bare 500, without details or a stack trace.
      await limited.sql.close();
      const broken = await limitedClient.call("GET", `${BASE}/RTM1/assets?pageSize=1`, { token: other });
      expectError(broken, 500, "INTERNAL_ERROR");
      expect(JSON.stringify(broken.body)).not.toMatch(/at |sqlite|database/i);
    } finally {
      await limitedServer.close();
    }
  });

  it("validated every response against the OpenAPI document", () => {
    expect(client.checkedCount).toBeGreaterThan(300);
  });
});
