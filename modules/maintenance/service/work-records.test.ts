/* eslint-disable @typescript-eslint/no-explicit-any -- JSON records are read freely in assertions */
/**
 * From request to record over real HTTP (docs/api.md §3, extensions): task edits and assignees,
 * postponements with a new due date, the close-out (job-done record + stock moves in one
 * transaction, idempotent on retry), stock counts in whole units with who counted, asset filters
 * with components. Every answer is checked against the served OpenAPI document. The same suite
 * runs on SQLite and on PostgreSQL (a schema of its own, when the test server answers).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COUNTED_UNITS } from "@/modules/maintenance/contract/maintenance";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { describeWithService } from "@/lib/testing/with-service";
import { startCheckedService, type ApiResponse, type CheckedService } from "@/lib/service/testing/openapi-checked-client";

const BASE = "/maintenance/v1/plants/RTM1";
const today = new Date().toISOString().slice(0, 10);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const ANN = { username: "ann@plant.example", firstname: "Ann", lastname: "Smith" };

function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({ status: "ERROR", code });
}

function workRecordSuite(engine: () => Record<string, string>) {
  let service: CheckedService;
  let token: string;
  let tag: string;
  let activityKind: string;
  let priority: string;
  let codes: { failureCode: string; causeCode: string; remedyCode: string };
  let counted: any;
  let measured: any;

  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    service.client.call(method, `${BASE}${path}`, { token, body, headers });
  const part = async (id: string) => (await call("GET", `/parts?pageSize=1000`)).body.data.find((p: any) => p.id === id);
  const task = async (id: string) => (await call("GET", `/tasks/${id}`)).body;
  const jobOf = async (taskId: string) => {
    const jobs = (await call("GET", `/jobs-done?startDate=${today}&endDate=${today}&pageSize=1000`)).body.data;
    return jobs.filter((job: any) => job.taskId === taskId);
  };

  async function newTask(fields: Record<string, unknown> = {}): Promise<string> {
    const res = await call("POST", "/tasks", { taskTitle: "Pump leaks at the seal", activityKind, priority, asset: { tagNumber: tag }, ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data[0].id;
  }
  /** A task approved (PENDING) and assigned to Ann. */
  async function assignedTask(): Promise<string> {
    const id = await newTask();
    expect((await call("POST", `/tasks/${id}/transitions`, { to: "PENDING" })).status).toBe(200);
    expect((await call("PATCH", `/tasks/${id}`, { assignee: ANN })).status).toBe(200);
    return id;
  }
  const closeOut = (id: string, fields: Record<string, unknown> = {}, headers?: Record<string, string>) =>
    call("POST", `/tasks/${id}/close-out`, { hoursWorked: "2.5", personCount: 2, partsUsed: [], ...codes, note: "Seal replaced", ...fields }, headers);

  beforeAll(async () => {
    service = await startCheckedService("work-records", { MAINTENANCE_RATE_LIMIT_PER_MINUTE: "1000000", ...engine() });
    token = (await service.runtime.plantTokens.issue("RTM1")).token;
    const assets = (await service.client.call("GET", `${BASE}/assets?pageSize=1000`, { token })).body.data;
    tag = assets.find((a: any) => a.assetType !== "AREA" && a.assetType !== "LINE").tagNumber;
    const lookups = (await service.client.call("GET", `${BASE}/lookup-values?pageSize=1000`, { token })).body.data;
    const first = (kind: string) => lookups.find((v: any) => v.kind === kind).value;
    activityKind = first("activityKind");
    priority = first("priority");
    codes = { failureCode: first("failureCode"), causeCode: first("causeCode"), remedyCode: first("remedyCode") };
    const parts = (await service.client.call("GET", `${BASE}/parts?pageSize=1000`, { token })).body.data;
    counted = parts.filter((p: any) => COUNTED_UNITS.includes(p.unit) && p.quantity >= 10).sort((a: any, b: any) => a.id.localeCompare(b.id))[0];
    measured = parts.filter((p: any) => !COUNTED_UNITS.includes(p.unit) && p.quantity >= 5).sort((a: any, b: any) => a.id.localeCompare(b.id))[0];
    expect(counted && measured).toBeTruthy();
  }, 180_000);
  afterAll(() => service?.close());

  it("parts carry their reorder level and quantity; a count in whole units names who counted", async () => {
    const before = await part(counted.id);
    expect(typeof before.reorderLevel).toBe("number");
    expect(before.reorderQuantity).toBeGreaterThan(0);
    const half = await call("PUT", `/parts/${counted.id}/stock-level`, { id: counted.id, quantity: 2.5, unit: counted.unit });
    expectError(half, 400, "INVALID_INPUT");
    expect(JSON.stringify(half.body.data)).toContain("whole number");
    expect((await part(counted.id)).quantity).toBe(before.quantity);
    const ok = await call("PUT", `/parts/${counted.id}/stock-level`, { id: counted.id, quantity: before.quantity, unit: counted.unit, by: "Kim Lee <kim@plant.example>" });
    expect(ok.status).toBe(200);
    const history = (await call("GET", `/parts/${counted.id}/stock-levels?pageSize=1`)).body.data;
    expect(history[0]).toMatchObject({ quantity: before.quantity, countedBy: "Kim Lee <kim@plant.example>" });
    // Measured units keep their decimals.
    expect((await call("PUT", `/parts/${measured.id}/stock-level`, { id: measured.id, quantity: measured.quantity, unit: measured.unit })).status).toBe(200);
  });

  it("edits a task until it is closed, with the edit in its history and 'my work' by assignee", async () => {
    const id = await newTask();
    const assigned = await call("PATCH", `/tasks/${id}`, { assignee: ANN, dueDate: inDays(7), by: "Sam Boss <sam@plant.example>" });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(assigned.body.data[0].changed).toEqual(expect.arrayContaining(["assignee", "dueDate"]));
    expect(await task(id)).toMatchObject({ assignee: ANN, dueDate: inDays(7), status: "NEED_APPROVAL" });
    const history = (await call("GET", `/tasks/${id}/transitions`)).body.data;
    expect(history.at(-1)).toMatchObject({ from: "NEED_APPROVAL", to: "NEED_APPROVAL", remark: "Assigned to Ann Smith; Edited: dueDate", by: "Sam Boss <sam@plant.example>" });
    const mine = (await call("GET", `/tasks?assignee=${encodeURIComponent(ANN.username)}&pageSize=1000`)).body.data;
    expect(mine.map((t: any) => t.id)).toContain(id);
    expect(mine.every((t: any) => t.assignee.username === ANN.username)).toBe(true);

    // Refusals keep their status and code and change nothing.
    const before = await task(id);
    expectError(await call("PATCH", `/tasks/${id}`, { priority: "NOT-A-PRIORITY" }), 400, "INVALID_INPUT");
    expectError(await call("PATCH", `/tasks/${id}`, { dueDate: "2000-01-01" }), 400, "INVALID_INPUT");
    expectError(await call("PATCH", `/tasks/${id}`, {}), 400, "INVALID_INPUT");
    expectError(await call("PATCH", `/tasks/${BASE.slice(-4)}-T999999`, { taskTitle: "x" }), 404, "TASK_NOT_FOUND");
    expect(await task(id)).toEqual(before);
    expect((await call("PATCH", `/tasks/${id}`, { assignee: null })).status).toBe(200);
    expect((await task(id)).assignee).toBeNull();

    expect((await call("POST", `/tasks/${id}/transitions`, { to: "CLOSED" })).status).toBe(200);
    expectError(await call("PATCH", `/tasks/${id}`, { taskTitle: "Too late" }), 412, "TASK_CLOSED");
    expect((await task(id)).taskTitle).toBe(before.taskTitle);
  });

  it("refuses an edit made on a stale version with 412 TASK_CHANGED, naming when, and writes nothing", async () => {
    const id = await newTask();
    const read = await task(id);
    // Someone else edits first (any change moves updatedAt).
    expect((await call("PATCH", `/tasks/${id}`, { priority: read.priority, taskTitle: "Seal leaks (checked)", ifUpdatedAt: read.updatedAt })).status).toBe(200);
    const now = await task(id);
    expect(now.updatedAt).not.toBe(read.updatedAt);
    const stale = await call("PATCH", `/tasks/${id}`, { taskTitle: "My stale title", ifUpdatedAt: read.updatedAt });
    expectError(stale, 412, "TASK_CHANGED");
    expect(stale.body.message).toContain(now.updatedAt);
    expect(stale.body.data).toEqual([{ field: "ifUpdatedAt", problem: `task changed at ${now.updatedAt}` }]);
    expect(await task(id)).toEqual(now);
    // A move changes the version too; with the current one the edit goes through.
    expect((await call("POST", `/tasks/${id}/transitions`, { to: "PENDING" })).status).toBe(200);
    expectError(await call("PATCH", `/tasks/${id}`, { dueDate: inDays(5), ifUpdatedAt: now.updatedAt }), 412, "TASK_CHANGED");
    const moved = await task(id);
    expect((await call("PATCH", `/tasks/${id}`, { dueDate: inDays(5), ifUpdatedAt: moved.updatedAt })).status).toBe(200);
    expect((await task(id)).dueDate).toBe(inDays(5));
    // Only a version alone is not an edit; a malformed one is a 400.
    expectError(await call("PATCH", `/tasks/${id}`, { ifUpdatedAt: moved.updatedAt }), 400, "INVALID_INPUT");
    expectError(await call("PATCH", `/tasks/${id}`, { taskTitle: "x", ifUpdatedAt: "yesterday" }), 400, "INVALID_INPUT");
  });

  it("sets a part's reorder level and quantity: whole units for counted parts, the shortage decided again, the count untouched", async () => {
    const before = await part(counted.id);
    const higher = before.quantity + 5;
    const set = await call("PATCH", `/parts/${counted.id}`, { reorderLevel: higher, reorderQuantity: 12 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toEqual([{ id: counted.id, changed: ["reorderLevel", "reorderQuantity"], isShort: true }]);
    expect(await part(counted.id)).toEqual({ ...before, reorderLevel: higher, reorderQuantity: 12, isShort: true });
    // Only the quantity: the level stays; null clears the quantity.
    expect((await call("PATCH", `/parts/${counted.id}`, { reorderQuantity: null })).status).toBe(200);
    expect(await part(counted.id)).toMatchObject({ reorderLevel: higher, reorderQuantity: null, isShort: true });
    // Refusals change nothing.
    const now = await part(counted.id);
    expectError(await call("PATCH", `/parts/${counted.id}`, { reorderLevel: 2.5 }), 400, "INVALID_INPUT");
    expectError(await call("PATCH", `/parts/${counted.id}`, { reorderLevel: -1 }), 400, "INVALID_INPUT");
    expectError(await call("PATCH", `/parts/${counted.id}`, { reorderLevel: "3" }), 400, "INVALID_INPUT");
    expectError(await call("PATCH", `/parts/${counted.id}`, {}), 400, "INVALID_INPUT");
    expectError(await call("PATCH", `/parts/NO-SUCH-PART`, { reorderLevel: 1 }), 404, "PART_NOT_FOUND");
    expect(await part(counted.id)).toEqual(now);
    // Measured parts take decimals; a level under the stock makes the part not short again.
    expect((await call("PATCH", `/parts/${measured.id}`, { reorderLevel: 0.5, reorderQuantity: 2.25 })).status).toBe(200);
    expect(await part(measured.id)).toMatchObject({ reorderLevel: 0.5, reorderQuantity: 2.25, isShort: measured.quantity < 0.5 });
    expect((await call("PATCH", `/parts/${counted.id}`, { reorderLevel: before.reorderLevel, reorderQuantity: before.reorderQuantity })).status).toBe(200);
    expect((await part(counted.id)).isShort).toBe(before.quantity < before.reorderLevel);
  });

  it("a postponement asks for a new due date, and its approval sets it", async () => {
    const id = await newTask({ dueDate: today });
    await call("POST", `/tasks/${id}/transitions`, { to: "PENDING" });
    expectError(await call("POST", `/tasks/${id}/transitions`, { to: "POSTPONEMENT_NEED_APPROVAL", dueDate: "2001-01-01" }), 400, "INVALID_INPUT");
    expectError(await call("POST", `/tasks/${id}/transitions`, { to: "NEED_CONFIRMATION", dueDate: inDays(3) }), 400, "INVALID_INPUT");
    expect((await task(id)).status).toBe("PENDING");
    expect((await call("POST", `/tasks/${id}/transitions`, { to: "POSTPONEMENT_NEED_APPROVAL", dueDate: inDays(14) })).status).toBe(200);
    expect(await task(id)).toMatchObject({ status: "POSTPONEMENT_NEED_APPROVAL", dueDate: today, proposedDueDate: inDays(14) });
    expect((await call("POST", `/tasks/${id}/transitions`, { to: "POSTPONED" })).status).toBe(200);
    expect(await task(id)).toMatchObject({ status: "POSTPONED", dueDate: inDays(14), proposedDueDate: null });
  });

  it("closes out: the job-done record with hours, people, parts and codes, and both parts' stock down", async () => {
    const id = await assignedTask();
    const [beforeCounted, beforeMeasured] = [await part(counted.id), await part(measured.id)];
    const res = await closeOut(id, { partsUsed: [{ partId: counted.id, quantity: 2 }, { partId: measured.id, quantity: 1.5, unit: measured.unit }], by: "Ann Smith <ann@plant.example>" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data[0]).toMatchObject({ id, from: "PENDING", to: "CLOSED", jobId: `${id}-J` });

    expect((await task(id)).status).toBe("CLOSED");
    const steps = (await call("GET", `/tasks/${id}/transitions`)).body.data.slice(-2);
    expect(steps.map((s: any) => `${s.from}>${s.to}`)).toEqual(["PENDING>NEED_CONFIRMATION", "NEED_CONFIRMATION>CLOSED"]);

    const [job] = await jobOf(id);
    expect(job).toMatchObject({
      id: `${id}-J`,
      taskId: id,
      jobTitle: "Pump leaks at the seal",
      doneDate: today,
      activityKind,
      totalTimeUsedInHours: "2.5",
      requiredPersonCount: 2,
      isFinal: true,
      asset: { tagNumber: tag },
      workOrder: { id, remark: "Seal replaced" },
      carriedOutByUser: ANN,
      ...codes,
    });
    expect(job.partsUsed).toEqual([
      { partId: counted.id, name: counted.name, quantity: 2, unit: counted.unit },
      { partId: measured.id, name: measured.name, quantity: 1.5, unit: measured.unit },
    ]);
    expect((await part(counted.id)).quantity).toBe(beforeCounted.quantity - 2);
    expect((await part(measured.id)).quantity).toBeCloseTo(beforeMeasured.quantity - 1.5, 6);
    const moved = (await call("GET", `/parts/${counted.id}/stock-levels?pageSize=1`)).body.data[0];
    expect(moved).toMatchObject({ quantity: beforeCounted.quantity - 2, countedBy: "Ann Smith <ann@plant.example>" });
    expect(moved.remark).toContain(`${id}-J`);

    // A second close-out of the closed task writes nothing.
    expectError(await closeOut(id, { partsUsed: [{ partId: counted.id, quantity: 2 }] }), 412, "INVALID_TRANSITION");
    expect(await jobOf(id)).toHaveLength(1);
    expect((await part(counted.id)).quantity).toBe(beforeCounted.quantity - 2);
  });

  it("refuses a bad close-out with its status and code, and changes nothing", async () => {
    const id = await assignedTask();
    const stockBefore = (await part(counted.id)).quantity;
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ partsUsed: [{ partId: counted.id, quantity: 1.5 }] }, 400, "INVALID_INPUT"], // 1.5 PCS
      [{ partsUsed: [{ partId: "MAT-NOPE", quantity: 1 }] }, 400, "INVALID_INPUT"],
      [{ partsUsed: [{ partId: counted.id, quantity: 1 }, { partId: counted.id, quantity: 1 }] }, 400, "INVALID_INPUT"],
      [{ failureCode: "NOT-A-CODE" }, 400, "INVALID_INPUT"],
      [{ hoursWorked: "0" }, 400, "INVALID_INPUT"],
      [{ hoursWorked: "abc" }, 400, "INVALID_INPUT"],
      [{ personCount: 0 }, 400, "INVALID_INPUT"],
      [{ doneDate: inDays(2) }, 400, "INVALID_INPUT"],
      [{ partsUsed: [{ partId: counted.id, quantity: 1, unit: counted.unit === "PCS" ? "SET" : "PCS" }] }, 412, "UNIT_MISMATCH"],
      [{ partsUsed: [{ partId: measured.id, quantity: 0.5 }, { partId: counted.id, quantity: stockBefore + 1 }] }, 412, "INSUFFICIENT_STOCK"],
    ];
    for (const [fields, status, code] of refusals) expectError(await closeOut(id, fields), status, code);
    const failure = await closeOut(id, { failureCode: "NOT-A-CODE" });
    expect(failure.body.data[0]).toMatchObject({ field: "failureCode", allowedValues: expect.arrayContaining([codes.failureCode]) });
    const unassigned = await newTask();
    expectError(await closeOut(unassigned), 400, "INVALID_INPUT");
    expect((await task(id)).status).toBe("PENDING");
    expect((await part(counted.id)).quantity).toBe(stockBefore);
    expect(await jobOf(id)).toHaveLength(0);
    expect(await jobOf(unassigned)).toHaveLength(0);
  });

  it("concurrent retries of one close-out write one job and move the stock once", async () => {
    const keyed = await assignedTask();
    const plain = await assignedTask();
    const before = (await part(counted.id)).quantity;
    const body = { partsUsed: [{ partId: counted.id, quantity: 1 }] };
    // The same attempt retried eight times at once (same key): every answer is the first result.
    const retries = await Promise.all(Array.from({ length: 8 }, () => closeOut(keyed, body, { "idempotency-key": `close-${keyed}` })));
    expect(retries.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(retries.map((r) => r.body.data[0].jobId))).toEqual(new Set([`${keyed}-J`]));
    expect(retries.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(7);
    // Eight attempts without a key: the task's state lets one through.
    const racing = await Promise.all(Array.from({ length: 8 }, () => closeOut(plain, body)));
    expect(racing.filter((r) => r.status === 200)).toHaveLength(1);
    for (const refused of racing.filter((r) => r.status !== 200)) expectError(refused, 412, "INVALID_TRANSITION");
    expect(await jobOf(keyed)).toHaveLength(1);
    expect(await jobOf(plain)).toHaveLength(1);
    expect((await part(counted.id)).quantity).toBe(before - 2);
    // The same key with another body is a client bug.
    expectError(await closeOut(keyed, { partsUsed: [] }, { "idempotency-key": `close-${keyed}` }), 400, "INVALID_INPUT");
  });

  it("filters by an asset together with its components", async () => {
    const assets = (await call("GET", "/assets?pageSize=1000")).body.data;
    const machine = assets.find((a: any) => assets.filter((c: any) => c.parentTagNumber === a.tagNumber && c.assetType !== "LINE").length >= 2 && a.assetType !== "LINE" && a.assetType !== "AREA");
    const components = new Set(assets.filter((c: any) => c.parentTagNumber === machine.tagNumber).map((c: any) => c.tagNumber));
    const exact = (await call("GET", `/jobs-done?assetTagNumber=${machine.tagNumber}&pageSize=1000`)).body.data;
    const wide = (await call("GET", `/jobs-done?assetTagNumber=${machine.tagNumber}&includeComponents=true&pageSize=1000`)).body.data;
    expect(wide.length).toBeGreaterThan(exact.length);
    expect(wide.every((job: any) => job.asset.tagNumber === machine.tagNumber || components.has(job.asset.tagNumber))).toBe(true);
    expect(wide.some((job: any) => components.has(job.asset.tagNumber))).toBe(true);
    const assetsWide = (await call("GET", `/assets?assetTagNumber=${machine.tagNumber}&includeComponents=true`)).body.data;
    expect(assetsWide.length).toBe(1 + components.size);
  });
}

describe("work records on SQLite", () => workRecordSuite(() => ({})));

describeWithService("postgres", "work records on PostgreSQL", (postgres) => {
  let schema: TestSchema | undefined;
  beforeAll(async () => {
    schema = await createTestSchema(postgres.url);
  }, 60_000);
  afterAll(() => schema?.drop());
  workRecordSuite(() => ({ DATABASE_URL: schema!.url }));
});
