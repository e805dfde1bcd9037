/* eslint-disable @typescript-eslint/no-explicit-any -- JSON records are read freely in assertions */
/**
 * Maintenance plans over real HTTP (docs/api.md, "Maintenance plans"), on SQLite and on PostgreSQL
 * (a schema of its own), with a fixed "today" the test moves: the plan's answers, its refusals, the
 * tasks it opens (once per occurrence, also from two instances racing on one PostgreSQL database),
 * FIXED against FLOATING after a close-out, a meter read with KQL from the plant's telemetry, and the
 * planned jobs written from it. Every answer is checked against the served OpenAPI document.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { describeWithService } from "@/lib/testing/with-service";
import { createServiceRuntime, type ServiceRuntime } from "@/lib/service/runtime";
import { createCheckedClient, startHttpServer, testConfig, type ApiResponse } from "@/lib/service/testing/openapi-checked-client";

const BASE = "/maintenance/v1/plants/RTM1";
const ANN = { username: "ann@plant.example", firstname: "Ann", lastname: "Smith" };

interface Instance {
  runtime: ServiceRuntime;
  call(method: string, path: string, body?: unknown): Promise<ApiResponse>;
  close(): Promise<void>;
}

/** A service on its own data directory whose "today" is the suite's clock. */
async function startInstance(engine: Record<string, string>, clock: { today: string }, token?: string): Promise<Instance & { token: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-plans-"));
  const runtime = await createServiceRuntime(testConfig({ DATA_DIR: dataDir, MAINTENANCE_RATE_LIMIT_PER_MINUTE: "1000000", ...engine }), { today: () => clock.today });
  const server = await startHttpServer(runtime);
  const client = await createCheckedClient(server.url);
  const own = token ?? (await runtime.plantTokens.issue("RTM1")).token;
  return {
    runtime,
    token: own,
    call: (method, p, body) => client.call(method, `${BASE}${p}`, { token: own, body }),
    async close() {
      await server.close();
      await runtime.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({ status: "ERROR", code });
}

function plansSuite(engine: () => Record<string, string>) {
  const clock = { today: "2026-03-02" };
  let one: Instance & { token: string };
  let tag: string;
  let lookups: { activityKind: string; priority: string; assignedToRole: string; failureCode: string };

  const plan = (fields: Record<string, unknown> = {}) => ({
    title: "Lubricate the drive chain",
    description: "Grease points 1-6",
    assetTagNumber: tag,
    activityKind: lookups.activityKind,
    assignedToRole: lookups.assignedToRole,
    priority: lookups.priority,
    estimatedTimeInHours: 1.5,
    requiredPersonCount: 2,
    trigger: { kind: "CALENDAR", every: 1, unit: "WEEK", startDate: "2026-03-05" },
    leadTimeDays: 3,
    schedule: "FIXED",
    checklist: [
      { text: "Chain tension checked", kind: "CHECK", required: true },
      { text: "Bearing temperature", kind: "READING", unit: "degC", min: 10, max: 70, required: true },
    ],
    enabled: true,
    ...fields,
  });
  async function create(fields: Record<string, unknown> = {}): Promise<any> {
    const res = await one.call("POST", "/maintenance-plans", plan(fields));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data[0];
  }
  const tasksOf = async (planId: string) => {
    const tasks = (await one.call("GET", `/tasks?pageSize=1000&assetTagNumber=${tag}`)).body.data as any[];
    const planned = await one.runtime.sql.all<{ id: string }>(`SELECT id FROM tasks WHERE plan_id = @planId ORDER BY id`, { planId });
    return planned.map((row) => tasks.find((task) => task.id === row.id));
  };

  beforeAll(async () => {
    clock.today = "2026-03-02";
    one = await startInstance(engine(), clock);
    const assets = (await one.call("GET", "/assets?pageSize=1000")).body.data;
    tag = assets.find((a: any) => a.assetType !== "AREA" && a.assetType !== "LINE").tagNumber;
    const values = (await one.call("GET", "/lookup-values?pageSize=1000")).body.data;
    const first = (kind: string) => values.find((v: any) => v.kind === kind).value;
    lookups = { activityKind: first("activityKind"), priority: first("priority"), assignedToRole: first("assignedToRole"), failureCode: first("failureCode") };
  }, 180_000);
  afterAll(() => one?.close());

  it("creates, reads, lists, replaces and deletes a plan", async () => {
    clock.today = "2026-03-02";
    const created = await create({ enabled: false });
    expect(created).toMatchObject({ title: "Lubricate the drive chain", assetTagNumber: tag, schedule: "FIXED", enabled: false, nextDueDate: "2026-03-05", nextDueReading: null });
    expect(created.checklist.map((item: any) => item.itemId)).toEqual(["1", "2"]);
    expect((await one.call("GET", `/maintenance-plans/${created.id}`)).body).toMatchObject({ id: created.id, estimatedTimeInHours: 1.5 });
    const listed = (await one.call("GET", `/maintenance-plans?assetTagNumber=${tag}`)).body.data;
    expect(listed.map((p: any) => p.id)).toContain(created.id);
    const replaced = await one.call("PUT", `/maintenance-plans/${created.id}`, plan({ enabled: false, title: "Lubricate and tension the chain" }));
    expect(replaced.status).toBe(200);
    expect(replaced.body.data[0].title).toBe("Lubricate and tension the chain");
    expect((await tasksOf(created.id)).length).toBe(0);
    expect((await one.call("DELETE", `/maintenance-plans/${created.id}`)).status).toBe(200);
    expectError(await one.call("GET", `/maintenance-plans/${created.id}`), 404, "PLAN_NOT_FOUND");
    expectError(await one.call("POST", `/maintenance-plans/${created.id}/run`), 404, "PLAN_NOT_FOUND");
  });

  it("refuses a bad plan with the field named, and writes nothing", async () => {
    const before = (await one.call("GET", "/maintenance-plans?pageSize=1000")).body.data.length;
    const items = Array.from({ length: 101 }, (_, i) => ({ text: `Step ${i}`, kind: "CHECK", required: false }));
    const tooMany = await one.call("POST", "/maintenance-plans", plan({ checklist: items }));
    expectError(tooMany, 400, "INVALID_INPUT");
    expect(JSON.stringify(tooMany.body.data)).toContain("checklist");
    expectError(await one.call("POST", "/maintenance-plans", plan({ leadTimeDays: 366 })), 400, "INVALID_INPUT");
    expectError(await one.call("POST", "/maintenance-plans", plan({ schedule: "SOMETIMES" })), 400, "INVALID_INPUT");
    expectError(await one.call("POST", "/maintenance-plans", plan({ trigger: { kind: "CALENDAR", every: 1, unit: "YEAR", startDate: "2026-03-05" } })), 400, "INVALID_INPUT");
    expectError(await one.call("POST", "/maintenance-plans", plan({ checklist: [{ text: "Temp", kind: "READING", min: 9, max: 1, required: true }] })), 400, "INVALID_INPUT");
    const lookup = await one.call("POST", "/maintenance-plans", plan({ priority: "WHENEVER" }));
    expectError(lookup, 400, "INVALID_INPUT");
    expect(lookup.body.data[0]).toMatchObject({ field: "priority" });
    expectError(await one.call("POST", "/maintenance-plans", plan({ assetTagNumber: "NO-SUCH-TAG" })), 412, "ASSET_NOT_FOUND");
    const kql = await one.call("POST", "/maintenance-plans", plan({ trigger: { kind: "METER", query: "States\n| where Value >\n| summarize max(Value)", every: 250, unit: "h", startReading: 0 } }));
    expectError(kql, 400, "INVALID_QUERY");
    expect(kql.body.data[0]).toMatchObject({ line: expect.any(Number), column: expect.any(Number) });
    expect(kql.body.data[0].line).toBeGreaterThan(1);
    expectError(
      await one.call("POST", "/maintenance-plans", plan({ trigger: { kind: "METER", query: 'print Reading = "many"', every: 250, unit: "h", startReading: 0 } })),
      400,
      "INVALID_QUERY",
    );
    expect((await one.call("GET", "/maintenance-plans?pageSize=1000")).body.data.length).toBe(before);
  });

  it("a calendar plan opens one task per occurrence within its lead time, with the plan's fields, and plans the next 365 days", async () => {
    clock.today = "2026-03-02";
    const created = await create();
    // Saved on 2 March: the occurrence of 5 March is within 3 days, so its task is open already.
    let tasks = await tasksOf(created.id);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ taskTitle: "Lubricate the drive chain", taskDescription: "Grease points 1-6", activityKind: lookups.activityKind, priority: lookups.priority, assignedToRole: lookups.assignedToRole, dueDate: "2026-03-05", status: "NEED_APPROVAL" });
    const again = await one.call("POST", `/maintenance-plans/${created.id}/run`);
    expect(again.body).toEqual({ opened: [], nextDueDate: "2026-03-12", nextDueReading: null });

    const planned = (await one.call("GET", `/jobs-planned?assetTagNumber=${tag}&pageSize=1000`)).body.data.filter((job: any) => job.planId === created.id);
    expect(planned[0]).toMatchObject({ dueDate: "2026-03-12", recurrence: { every: 1, unit: "WEEK" }, jobTitle: "Lubricate the drive chain", estimatedTimeInHours: "1.5", requiredPersonCount: 2 });
    expect(planned.at(-1).dueDate <= "2027-03-02").toBe(true);
    // 12 March + 7k up to 2 March 2027: k = 0 … 50.
    expect(planned).toHaveLength(51);

    clock.today = "2026-03-09";
    const run = await one.call("POST", `/maintenance-plans/${created.id}/run`);
    expect(run.body.opened).toHaveLength(1);
    expect(run.body.nextDueDate).toBe("2026-03-19");
    tasks = await tasksOf(created.id);
    expect(tasks.map((task: any) => task.dueDate)).toEqual(["2026-03-05", "2026-03-12"]);
    // The window moved by one week: 12 March left it, 4 March 2027 came in; the rest stayed (written as a difference, not again whole).
    const moved = (await one.call("GET", `/jobs-planned?assetTagNumber=${tag}&pageSize=1000`)).body.data.filter((job: any) => job.planId === created.id);
    const weekly = Array.from({ length: 51 }, (_, k) => new Date(Date.parse("2026-03-19T00:00:00Z") + k * 7 * 86_400_000).toISOString().slice(0, 10));
    expect(moved.map((job: any) => job.dueDate).sort()).toEqual(weekly);
    expect(weekly.at(-1)).toBe("2027-03-04");
    await one.call("DELETE", `/maintenance-plans/${created.id}`);
    expect((await one.call("GET", `/jobs-planned?assetTagNumber=${tag}&pageSize=1000`)).body.data.filter((job: any) => job.planId === created.id)).toHaveLength(0);
  });

  it("FLOATING counts from the close-out's doneDate, FIXED from the schedule", async () => {
    clock.today = "2026-03-02";
    const trigger = { kind: "CALENDAR", every: 2, unit: "WEEK", startDate: "2026-03-03" };
    const fixed = await create({ trigger, leadTimeDays: 1, schedule: "FIXED", checklist: [] });
    const floating = await create({ trigger, leadTimeDays: 1, schedule: "FLOATING", checklist: [] });
    const [fixedTask] = await tasksOf(fixed.id);
    const [floatingTask] = await tasksOf(floating.id);
    expect(fixedTask.dueDate).toBe("2026-03-03");
    expect(floatingTask.dueDate).toBe("2026-03-03");

    clock.today = "2026-03-20";
    // The floating plan waits for its open task; the fixed one goes on (17 March is due).
    expect((await one.call("POST", `/maintenance-plans/${floating.id}/run`)).body).toEqual({ opened: [], nextDueDate: "2026-03-03", nextDueReading: null });
    const fixedRun = (await one.call("POST", `/maintenance-plans/${fixed.id}/run`)).body;
    expect(fixedRun.opened).toHaveLength(1);
    expect(fixedRun.nextDueDate).toBe("2026-03-31");

    for (const task of [fixedTask, floatingTask]) {
      const closed = await one.call("POST", `/tasks/${task.id}/close-out`, { hoursWorked: 1, personCount: 1, carriedOutBy: ANN, doneDate: "2026-03-20" });
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    }
    // Closed out on 20 March: the floating plan's next is 3 April (and its lead time is not reached yet); the fixed one keeps 31 March.
    expect((await one.call("POST", `/maintenance-plans/${floating.id}/run`)).body).toEqual({ opened: [], nextDueDate: "2026-04-03", nextDueReading: null });
    expect((await one.call("GET", `/maintenance-plans/${fixed.id}`)).body.nextDueDate).toBe("2026-03-31");
    clock.today = "2026-04-02";
    const floatingRun = (await one.call("POST", `/maintenance-plans/${floating.id}/run`)).body;
    expect(floatingRun.opened).toHaveLength(1);
    expect((await one.call("GET", `/tasks/${floatingRun.opened[0]}`)).body.dueDate).toBe("2026-04-03");
  });

  it("a checklist at close-out: required items refused by name, an out-of-range reading kept, flagged and followed up in the same write", async () => {
    clock.today = "2026-03-02";
    const created = await create({ trigger: { kind: "CALENDAR", every: 1, unit: "MONTH", startDate: "2026-03-02" }, leadTimeDays: 0 });
    const [task] = await tasksOf(created.id);
    expect(task.planId).toBe(created.id);
    expect(task.checklist.map((item: any) => [item.itemId, item.kind, item.required])).toEqual([["1", "CHECK", true], ["2", "READING", true]]);
    const closeOut = (fields: Record<string, unknown>) => one.call("POST", `/tasks/${task.id}/close-out`, { hoursWorked: 2, personCount: 1, carriedOutBy: ANN, ...fields });
    const tasksBefore = (await one.call("GET", `/tasks?pageSize=1000&assetTagNumber=${tag}`)).body.data.length;

    const nothing = await closeOut({});
    expectError(nothing, 400, "INVALID_INPUT");
    expect(nothing.body.data.map((p: any) => p.field)).toEqual(["checklist.1", "checklist.2", "checklist.2.reading"]);
    const noNumber = await closeOut({ checklist: [{ itemId: "1", done: true }, { itemId: "2", done: true }] });
    expectError(noNumber, 400, "INVALID_INPUT");
    expect(noNumber.body.message).toContain("Bearing temperature");
    expectError(await closeOut({ checklist: [{ itemId: "1", done: true }, { itemId: "9", done: true, reading: 1 }, { itemId: "2", done: true, reading: 40 }] }), 400, "INVALID_INPUT");
    expect((await one.call("GET", `/tasks/${task.id}`)).body.status).toBe("NEED_APPROVAL");
    expect((await one.call("GET", `/tasks?pageSize=1000&assetTagNumber=${tag}`)).body.data.length).toBe(tasksBefore);

    const closed = await closeOut({ downtimeHours: 3.5, checklist: [{ itemId: "1", done: true, note: "tensioned" }, { itemId: "2", done: true, reading: 84.5 }] });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const job = (await one.call("GET", `/jobs-done?assetTagNumber=${tag}&pageSize=1000`)).body.data.find((j: any) => j.taskId === task.id);
    expect(job.downtimeHours).toBe("3.5");
    expect(job.checklist[0]).toMatchObject({ itemId: "1", done: true, note: "tensioned", outOfRange: false, followUpTaskId: null });
    expect(job.checklist[1]).toMatchObject({ itemId: "2", reading: 84.5, unit: "degC", min: 10, max: 70, outOfRange: true });
    const followUp = (await one.call("GET", `/tasks/${job.checklist[1].followUpTaskId}`)).body;
    expect(followUp).toMatchObject({ asset: { tagNumber: tag }, activityKind: "CORRECTIVE", status: "NEED_APPROVAL", planId: null });
    expect(followUp.taskDescription).toContain("84.5 degC");
  });

  it("reliability: figures equal those computed from the job records, an asset counting its components' jobs", async () => {
    clock.today = "2026-03-02";
    const assets = (await one.call("GET", "/assets?pageSize=1000")).body.data as any[];
    const window = "startDate=2026-01-01&endDate=2026-02-28";
    const failuresIn = async (tag: string) =>
      ((await one.call("GET", `/jobs-done?${window}&assetTagNumber=${tag}&includeComponents=true&pageSize=1000`)).body.data as any[]).filter((j) => j.failureCode);
    // The demo seed records failures too: take a machine with components and none in the window, so the
    // test's own four failures are the only ones.
    let machine: any;
    for (const candidate of assets.filter((a) => a.assetType !== "AREA" && a.assetType !== "LINE" && assets.some((c) => c.parentTagNumber === a.tagNumber))) {
      if ((await failuresIn(candidate.tagNumber)).length === 0) {
        machine = candidate;
        break;
      }
    }
    expect(machine, "a machine with components and no seeded failure in the window").toBeDefined();
    const component = assets.find((c) => c.parentTagNumber === machine.tagNumber);
    const values = (await one.call("GET", "/lookup-values?pageSize=1000")).body.data as any[];
    const codes = values.filter((v) => v.kind === "failureCode").map((v) => v.value);
    const failures: [string, string, string, number | null, number][] = [
      [machine.tagNumber, "2026-01-10", codes[0], 4, 2],
      [machine.tagNumber, "2026-01-20", codes[1], null, 1.5],
      [component.tagNumber, "2026-02-03", codes[0], 6.25, 3],
      [component.tagNumber, "2026-02-27", codes[0], 0, 1],
    ];
    for (const [assetTag, doneDate, failureCode, downtimeHours, hoursWorked] of failures) {
      const created = await one.call("POST", "/tasks", { taskTitle: "Breakdown", activityKind: lookups.activityKind, priority: lookups.priority, createdDate: "2026-01-05", asset: { tagNumber: assetTag } });
      const closed = await one.call("POST", `/tasks/${created.body.data[0].id}/close-out`, { hoursWorked, personCount: 1, carriedOutBy: ANN, doneDate, failureCode, downtimeHours });
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    }
    // A job without a failure code is no failure.
    const other = await one.call("POST", "/tasks", { taskTitle: "Inspection", activityKind: lookups.activityKind, priority: lookups.priority, createdDate: "2026-01-05", asset: { tagNumber: machine.tagNumber } });
    expect((await one.call("POST", `/tasks/${other.body.data[0].id}/close-out`, { hoursWorked: 9, personCount: 1, carriedOutBy: ANN, doneDate: "2026-01-11" })).status).toBe(200);

    const res = await one.call("GET", `/reliability?${window}&assetTagNumber=${machine.tagNumber}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The expected figures, from the job records as the API lists them.
    const jobs = await failuresIn(machine.tagNumber);
    const hours = 59 * 24;
    const downtime = jobs.reduce((sum: number, j: any) => sum + Number(j.downtimeHours), 0);
    expect(jobs).toHaveLength(4);
    expect(downtime).toBe(4 + 1.5 + 6.25 + 0);
    expect(res.body.windowHours).toBe(hours);
    expect(res.body.plant).toMatchObject({ failures: 4, downtimeHours: downtime, mttrHours: downtime / 4, mtbfHours: (hours - downtime) / 4, availability: (hours - downtime) / hours });
    expect(res.body.plant.failureCodes[0]).toEqual({ code: codes[0], count: 3 });
    const componentRow = res.body.assets.find((a: any) => a.assetTagNumber === component.tagNumber);
    expect(componentRow).toMatchObject({ failures: 2, downtimeHours: 6.25 });
    expect(res.body.assets[0]).toMatchObject({ assetTagNumber: machine.tagNumber, failures: 4 });
    expect(res.body.months.map((m: any) => [m.month, m.failures, m.windowHours])).toEqual([["2026-01", 2, 31 * 24], ["2026-02", 2, 28 * 24]]);
    expect(res.body.months[1].mtbfHours).toBe((28 * 24 - 6.25) / 2);

    const plantWide = (await one.call("GET", `/reliability?${window}`)).body;
    expect(plantWide.plant.failures).toBeGreaterThanOrEqual(4);
    expect(plantWide.assets.find((a: any) => a.assetTagNumber === machine.parentTagNumber).failures).toBeGreaterThanOrEqual(4);
    expectError(await one.call("GET", `/reliability?startDate=2026-03-01&endDate=2026-01-01`), 400, "INVALID_INPUT");
    expectError(await one.call("GET", `/reliability?${window}&assetTagNumber=NOPE`), 412, "ASSET_NOT_FOUND");
  });

  it("a meter plan reads its KQL over the plant's telemetry and opens one task at its due reading", async () => {
    clock.today = "2026-03-02";
    const meter = { kind: "METER", query: "datatable(Hours: real) [1300.0]\n| summarize max(Hours)", every: 250, unit: "h", startReading: 1000 };
    const fixed = await create({ trigger: meter, schedule: "FIXED" });
    const read = (await one.call("GET", `/maintenance-plans/${fixed.id}`)).body;
    expect(read).toMatchObject({ lastReading: 1300, nextDueReading: 1500 });
    const tasks = await tasksOf(fixed.id);
    expect(tasks).toHaveLength(1);
    expect(tasks[0].dueDate).toBe("2026-03-02");
    expect((await one.call("POST", `/maintenance-plans/${fixed.id}/run`)).body).toMatchObject({ opened: [], nextDueReading: 1500 });

    const floating = await create({ trigger: meter, schedule: "FLOATING", checklist: [] });
    const [open] = await tasksOf(floating.id);
    expect((await one.call("POST", `/tasks/${open.id}/close-out`, { hoursWorked: 1, personCount: 1, carriedOutBy: ANN })).status).toBe(200);
    // Closed out at a reading of 1300: the next is 1550, where the fixed schedule says 1500.
    expect((await one.call("POST", `/maintenance-plans/${floating.id}/run`)).body).toMatchObject({ opened: [], nextDueReading: 1550 });

    // A meter that moves: the running-state samples of the plant's telemetry; its rate gives a forecast date.
    const movingMeter = { ...meter, query: 'States\n| where Name == "RunningState"\n| summarize Samples = toreal(count())', startReading: 0, every: 1e9 };
    const first = await create({ trigger: movingMeter });
    expect(first.lastReading).toBeGreaterThan(0);
    expect(first.ratePerDay).toBeGreaterThan(0);
    // Due at five times the reading now: the forecast is that many days away at the meter's rate.
    const every = first.lastReading * 5;
    const moving = (await one.call("PUT", `/maintenance-plans/${first.id}`, plan({ trigger: { ...movingMeter, every } }))).body.data[0];
    expect(moving.nextDueReading).toBe(every);
    const days = Math.ceil((every - moving.lastReading) / moving.ratePerDay);
    expect(moving.nextDueDate).toBe(new Date(Date.parse(`${clock.today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10));
    const planned = (await one.call("GET", `/jobs-planned?assetTagNumber=${tag}&pageSize=1000`)).body.data.filter((job: any) => job.planId === moving.id);
    expect(planned.length <= 1).toBe(true);
  });

  it("the demo seed's plans: jobs-planned lists their occurrences with planId, and the meter plan reads running hours from the demo telemetry", async () => {
    clock.today = "2026-03-02";
    const plans = (await one.call("GET", "/maintenance-plans?pageSize=1000")).body.data as any[];
    const seeded = plans.filter((p) => /^RTM1-PL/.test(p.id));
    expect(seeded.filter((p) => p.trigger.kind === "CALENDAR").length).toBeGreaterThanOrEqual(50);
    const calendar = seeded.find((p) => p.trigger.kind === "CALENDAR" && p.trigger.unit === "WEEK")!;
    const jobs = (await one.call("GET", `/jobs-planned?assetTagNumber=${calendar.assetTagNumber}&pageSize=1000`)).body.data.filter((job: any) => job.planId === calendar.id);
    expect(jobs.length).toBeGreaterThanOrEqual(26);
    expect(jobs[0].recurrence).toEqual({ every: calendar.trigger.every, unit: "WEEK" });

    const meter = seeded.find((p) => p.trigger.kind === "METER")!;
    expect(meter.trigger.query).toContain('Name == "RunningState"');
    const run = (await one.call("POST", `/maintenance-plans/${meter.id}/run`)).body;
    const read = (await one.call("GET", `/maintenance-plans/${meter.id}`)).body;
    // Running hours since commissioning (the query's datetime): at most the hours since then, and
    // near them, since the demo machines run most of the time. (The test's telemetry holds one day,
    // so the rate over seven days is unknown here.)
    const commissioned = /datetime\((\d{4}-\d{2}-\d{2})\)/.exec(meter.trigger.query)![1]!;
    const hoursSince = (Date.parse(read.lastReadingAt) - Date.parse(`${commissioned}T00:00:00Z`)) / 3_600_000;
    expect(read.lastReading).toBeGreaterThan(0.8 * hoursSince);
    expect(read.lastReading).toBeLessThanOrEqual(hoursSince);
    expect(run.nextDueReading).toBe(read.nextDueReading);
    expect(read.nextDueReading).toBeGreaterThan(meter.trigger.startReading);
  });
}

describe("maintenance plans on SQLite", () => plansSuite(() => ({})));

describeWithService("postgres", "maintenance plans on PostgreSQL", (postgres) => {
  let schema: TestSchema | undefined;
  beforeAll(async () => {
    schema = await createTestSchema(postgres.url);
  }, 60_000);
  afterAll(() => schema?.drop());
  plansSuite(() => ({ DATABASE_URL: schema!.url }));

  it("two instances racing on one database open each occurrence once", async () => {
    const clock = { today: "2026-03-02" };
    const a = await startInstance({ DATABASE_URL: schema!.url }, clock);
    const b = await startInstance({ DATABASE_URL: schema!.url }, clock, a.token);
    try {
      const values = (await a.call("GET", "/lookup-values?pageSize=1000")).body.data;
      const first = (kind: string) => values.find((v: any) => v.kind === kind).value;
      const assets = (await a.call("GET", "/assets?pageSize=1000")).body.data;
      const body = {
        title: "Race",
        assetTagNumber: assets.find((x: any) => x.assetType !== "AREA" && x.assetType !== "LINE").tagNumber,
        activityKind: first("activityKind"),
        assignedToRole: first("assignedToRole"),
        priority: first("priority"),
        estimatedTimeInHours: 1,
        requiredPersonCount: 1,
        trigger: { kind: "CALENDAR", every: 1, unit: "MONTH", startDate: "2026-04-01" },
        leadTimeDays: 0,
        schedule: "FIXED",
        enabled: true,
      };
      const calendar = (await a.call("POST", "/maintenance-plans", body)).body.data[0];
      const meter = (await a.call("POST", "/maintenance-plans", { ...body, enabled: false, trigger: { kind: "METER", query: "print Reading = 42.0", every: 10, unit: "cycles", startReading: 0 } })).body.data[0];
      clock.today = "2026-04-01";
      const enable = await b.call("PUT", `/maintenance-plans/${meter.id}`, { ...body, trigger: meter.trigger, enabled: true, title: "Race meter" });
      expect(enable.status).toBe(200);
      // Enabled at a reading of 42: the occurrence at 40 opened then; the next is due at 50.
      expect(enable.body.data[0]).toMatchObject({ lastReading: 42, nextDueReading: 50 });
      const runs = await Promise.all(
        [a, b, a, b, a, b].flatMap((instance) => [instance.call("POST", `/maintenance-plans/${calendar.id}/run`), instance.call("POST", `/maintenance-plans/${meter.id}/run`)]),
      );
      const ticks = await Promise.all([a.runtime.planScheduler.tick(), b.runtime.planScheduler.tick()]);
      expect(runs.map((res) => (res.status === 200 ? 200 : JSON.stringify(res.body)))).toEqual(runs.map(() => 200));
      const opened = runs.flatMap((res) => res.body.opened);
      const rows = await a.runtime.sql.all<{ planId: string; n: number }>(
        `SELECT plan_id AS "planId", count(*) AS n FROM tasks WHERE plan_id IN (@calendar, @meter) GROUP BY plan_id ORDER BY plan_id`,
        { calendar: calendar.id, meter: meter.id },
      );
      // The meter's first task opened when it was enabled; each plan has exactly one task.
      expect(rows.map((row) => Number(row.n))).toEqual([1, 1]);
      // Twelve runs on two instances: the calendar's occurrence of 1 April opened once; the ticks after them opened neither plan again.
      expect(opened).toHaveLength(1);
      const [calendarTask] = await a.runtime.sql.all<{ id: string }>(`SELECT id FROM tasks WHERE plan_id = @planId`, { planId: calendar.id });
      expect(opened).toEqual([calendarTask!.id]);
      expect(ticks.flatMap((tick) => tick.opened)).not.toContain(calendarTask!.id);
    } finally {
      await b.close();
      await a.close();
    }
  }, 120_000);
});
