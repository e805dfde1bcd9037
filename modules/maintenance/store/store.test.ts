/**
 * The maintenance store on both engines: one suite of behaviour run against SQLite and PostgreSQL
 * (each seeded from the same seed), a parity check that both answer every read identically, the
 * SQLite totals cache, and PostgreSQL writers on separate pools racing each other.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TASK_TRANSITIONS, type TTaskStatus } from "@/modules/maintenance/contract/maintenance";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { describeWithService } from "@/lib/testing/with-service";
import { openServiceSql, type ServiceSql } from "@/lib/service/database";
import { seedServiceIfEmpty } from "@/modules/maintenance/service/seed-service";
import { openPostgresPool, postgresSqlDb } from "@/lib/platform/postgres";
import type { MaintenanceSeedOptions } from "@/modules/maintenance/service/seed";
import { createMaintenanceStore, type MaintenanceStore, type NewTask } from ".";

/** Who the test's writes are for (docs/api.md §3, task history). */
const ACTOR = { by: "store test", client: "test" };

const SEED: MaintenanceSeedOptions = { seed: "store-test", today: "2026-06-15", sizes: { jobsDone: 60, plans: 6, oneOffJobs: 20, tasks: 30, parts: 12 } };

async function someTask(store: MaintenanceStore, sql: ServiceSql): Promise<NewTask> {
  const asset = (await sql.get<{ id: string }>("SELECT id FROM assets WHERE plant_id = 'RTM1' ORDER BY id LIMIT 1"))!;
  return {
    taskTitle: "t",
    taskDescription: null,
    activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0]!,
    assignedToRole: null,
    priority: (await store.allowedLookupValues("RTM1", "priority"))[0]!,
    createdDate: "2026-06-15",
    dueDate: null,
    incidentDate: null,
    assetId: asset.id,
  };
}

/** The behaviour every engine must show; `open` gives a fresh, seeded database. */
function storeSuite(open: () => Promise<{ sql: ServiceSql; close(): Promise<void> }>) {
  let sql: ServiceSql;
  let store: MaintenanceStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ sql, close } = await open());
    store = createMaintenanceStore(sql);
  });
  afterAll(() => close());

  it("lists plants and customers; pages count and order as docs/api.md §3 says", async () => {
    expect((await store.listPlants()).map((p) => p.id)).toEqual(["HOU1", "OUL1", "RTM1"]);
    expect((await store.listCustomers()).flatMap((c) => c.plants.map((p) => `${c.id}/${p.id}`)).length).toBe(3);
    const all = await store.listJobsDone("RTM1", { page: 1, pageSize: 1000 });
    const first = await store.listJobsDone("RTM1", { page: 1, pageSize: 7 });
    expect(first.totalPages).toBe(Math.ceil(all.data.length / 7));
    expect(first.data).toEqual(all.data.slice(0, 7));
    const keys = all.data.map((job) => [job.doneDate, job.id] as const);
    const sorted = [...keys].sort((a, b) => (a[0] !== b[0] ? (a[0] < b[0] ? 1 : -1) : a[1] < b[1] ? -1 : 1));
    expect(keys).toEqual(sorted);
    expect((await store.listJobsDone("RTM1", { page: 99, pageSize: 100 })).data).toEqual([]);
    const tasks = await store.listTasks("RTM1", { page: 1, pageSize: 1000, taskStatus: ["NEED_APPROVAL", "PENDING"] });
    expect(tasks.data.every((task) => task.status === "NEED_APPROVAL" || task.status === "PENDING")).toBe(true);
  });

  it("creates a task with an idempotency key once, and replays the stored answer", async () => {
    const task = await someTask(store, sql);
    const idempotency = { key: "k-1", requestHash: "h", responseFor: (id: string) => JSON.stringify({ id }) };
    const created = await store.createTask("RTM1", task, ACTOR, idempotency);
    expect("taskId" in created).toBe(true);
    const again = await store.createTask("RTM1", task, ACTOR, idempotency);
    expect(again).toEqual({ replay: { requestHash: "h", responseBody: JSON.stringify({ id: (created as { taskId: string }).taskId }) } });
    expect(await store.findIdempotencyRecord("RTM1", "k-1")).toEqual((again as { replay: unknown }).replay);
    const taskId = (created as { taskId: string }).taskId;
    expect((await store.getTask("RTM1", taskId))?.status).toBe("NEED_APPROVAL");
  });

  it("moves a task only from the status it is in, and keeps each move as history", async () => {
    const created = (await store.createTask("RTM1", await someTask(store, sql), ACTOR)) as { taskId: string };
    expect(await store.transitionTask(created.taskId, "NEED_APPROVAL", "PENDING", "go", { by: "Sam", client: "pt_1" })).toBe(true);
    expect(await store.transitionTask(created.taskId, "NEED_APPROVAL", "CLOSED", null, ACTOR)).toBe(false);
    const history = await store.listTaskTransitions(created.taskId, { page: 1, pageSize: 10 });
    expect(history.data.map((t) => [t.from, t.to, t.remark, t.by, t.client])).toEqual([
      [null, "NEED_APPROVAL", null, "store test", "test"],
      ["NEED_APPROVAL", "PENDING", "go", "Sam", "pt_1"],
    ]);
  });

  it("keeps every stock level as history and the newest as the part's level", async () => {
    const part = (await store.listParts("RTM1", { page: 1, pageSize: 1 })).data[0]!;
    const before = (await store.listStockLevels("RTM1", part.id, { page: 1, pageSize: 1 })).totalPages;
    await store.submitStockLevel("RTM1", part.id, { quantity: 3, unit: part.unit, remark: "a", isShort: true, submittedAt: "2099-01-01T00:00:00.000Z" });
    await store.submitStockLevel("RTM1", part.id, { quantity: 5, unit: part.unit, remark: null, isShort: false, submittedAt: "2099-01-02T00:00:00.000Z" });
    const levels = await store.listStockLevels("RTM1", part.id, { page: 1, pageSize: 1000 });
    expect(levels.data.length).toBe(before + 2);
    expect(levels.data[0]).toMatchObject({ quantity: 5, isShort: false, remark: null });
    expect(await store.findPart("RTM1", part.id)).toMatchObject({ quantity: 5, isShort: false, updatedAt: "2099-01-02T00:00:00.000Z" });
  });
}

describe("SQLite maintenance store", () => {
  storeSuite(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-maint-store-"));
    const sql = await openServiceSql({ dataDir: dir });
    await seedServiceIfEmpty(sql, SEED);
    return {
      sql,
      async close() {
        await sql.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  });

  it("re-applying migrations is a no-op; list totals follow writes here and commits by another connection", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-maint-store-"));
    const first = await openServiceSql({ dataDir: dir });
    await seedServiceIfEmpty(first, { ...SEED, sizes: { jobsDone: 50, plans: 4, oneOffJobs: 10, tasks: 10, parts: 10 } });
    const second = await openServiceSql({ dataDir: dir });
    try {
      expect((await first.get<{ n: number }>("SELECT count(*) AS n FROM schema_migrations"))!.n).toBeGreaterThanOrEqual(1);
      const store = createMaintenanceStore(first);
      const other = createMaintenanceStore(second);
      const total = async () => (await store.listTasks("RTM1", { page: 1, pageSize: 1 })).totalPages;
      const before = await total();
      const task = await someTask(store, first);
      await store.createTask("RTM1", task, ACTOR);
      expect(await total()).toBe(before + 1);
      await other.createTask("RTM1", task, ACTOR);
      expect(await total()).toBe(before + 2);
    } finally {
      await first.close();
      await second.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeWithService("postgres", "PostgreSQL maintenance store", (service) => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await createTestSchema(service.url);
  });
  afterAll(() => schema?.drop());

  describe("the common suite", () => {
    storeSuite(async () => {
      const sql = await openServiceSql({ dataDir: "/nonexistent", DATABASE_URL: schema.url });
      await seedServiceIfEmpty(sql, SEED);
      return { sql, close: () => sql.close() };
    });
  });

  it("answers every read exactly as SQLite does, from the same seed", async () => {
    const own = await createTestSchema(service.url);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-maint-parity-"));
    const lite = await openServiceSql({ dataDir: dir });
    const post = await openServiceSql({ dataDir: dir, DATABASE_URL: own.url });
    try {
      await seedServiceIfEmpty(lite, SEED);
      expect(await seedServiceIfEmpty(post, SEED)).toBe(true);
      expect(await seedServiceIfEmpty(post, SEED)).toBe(false);
      const a = createMaintenanceStore(lite);
      const b = createMaintenanceStore(post);
      const page = { page: 1, pageSize: 1000 };
      const same = async (read: (store: MaintenanceStore) => Promise<unknown>) => expect(await read(b)).toEqual(await read(a));
      await same((s) => s.listCustomers());
      for (const plant of ["RTM1", "HOU1", "OUL1"]) {
        await same((s) => s.listJobsDone(plant, page));
        await same((s) => s.listJobsDone(plant, { page: 2, pageSize: 5, startDate: "2026-01-01", endDate: "2026-06-01" }));
        await same((s) => s.listJobsPlanned(plant, page));
        await same((s) => s.listAssets(plant, page));
        await same((s) => s.listTasks(plant, page));
        await same((s) => s.listTasks(plant, { ...page, taskStatus: ["PENDING", "CLOSED"] }));
        await same((s) => s.listLookupValues(plant, page));
        await same((s) => s.listParts(plant, page));
        await same((s) => s.listParts(plant, { ...page, isShort: "true" }));
        const asset = (await a.listAssets(plant, { page: 1, pageSize: 1 })).data[0]!;
        await same((s) => s.listTasks(plant, { ...page, assetTagNumber: asset.tagNumber }));
        await same((s) => s.listJobsDone(plant, { ...page, assetSerialNumber: asset.serialNumber ?? "" }));
        const part = (await a.listParts(plant, { page: 1, pageSize: 1 })).data[0]!;
        await same((s) => s.listStockLevels(plant, part.id, page));
        const task = (await a.listTasks(plant, { page: 1, pageSize: 1 })).data[0]!;
        await same((s) => s.listTaskTransitions(task.id, page));
      }
    } finally {
      await lite.close();
      await post.close();
      await own.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("loses no acknowledged write when 8 connections submit stock levels and move tasks at once", async () => {
    const own = await createTestSchema(service.url);
    const setup = await openServiceSql({ dataDir: "/nonexistent", DATABASE_URL: own.url });
    const WRITERS = 8;
    const EACH = 50;
    // Separate pools, as separate instances would have.
    const pools = Array.from({ length: WRITERS }, () => openPostgresPool(own.url, { max: 1 }));
    try {
      await seedServiceIfEmpty(setup, SEED);
      const store = createMaintenanceStore(setup);
      const part = (await store.listParts("RTM1", { page: 1, pageSize: 1 })).data[0]!;
      const historyBefore = (await setup.get<{ n: number }>("SELECT count(*) AS n FROM stock_levels"))!.n;
      const tasks: string[] = [];
      for (let i = 0; i < 10; i++) tasks.push(((await store.createTask("RTM1", await someTask(store, setup), ACTOR)) as { taskId: string }).taskId);
      const transitionsBefore = (await setup.get<{ n: number }>("SELECT count(*) AS n FROM task_transitions"))!.n;

      const acknowledged: string[] = [];
      let moves = 0;
      await Promise.all(
        pools.map(async (pool, writer) => {
          const mine = createMaintenanceStore(postgresSqlDb(pool));
          for (let i = 0; i < EACH; i++) {
            const remark = `w${writer}-${i}`;
            const submittedAt = new Date(Date.UTC(2099, 0, 1) + writer * EACH + i).toISOString();
            await mine.submitStockLevel("RTM1", part.id, { quantity: writer * 1000 + i, unit: part.unit, remark, isShort: false, submittedAt });
            acknowledged.push(remark);
            // Every writer tries the same move of the same task: exactly one may win it.
            const taskId = tasks[i % tasks.length]!;
            const current = (await mine.getTask("RTM1", taskId))!.status;
            const to = TASK_TRANSITIONS[current][0] as TTaskStatus | undefined;
            if (to && (await mine.transitionTask(taskId, current, to, remark, ACTOR))) moves++;
          }
        }),
      );

      const stored = await setup.all<{ remark: string }>("SELECT remark FROM stock_levels WHERE remark IS NOT NULL AND remark LIKE 'w%'");
      expect(stored.length).toBe(WRITERS * EACH);
      expect(new Set(stored.map((r) => r.remark))).toEqual(new Set(acknowledged));
      expect((await setup.get<{ n: number }>("SELECT count(*) AS n FROM stock_levels"))!.n).toBe(historyBefore + WRITERS * EACH);
      // The current level is the newest submission, whichever order the transactions committed in.
      const newest = (await store.listStockLevels("RTM1", part.id, { page: 1, pageSize: 1 })).data[0]!;
      expect(await store.findPart("RTM1", part.id)).toMatchObject({ quantity: newest.quantity, updatedAt: newest.submittedAt });
      expect(newest.quantity).toBe((WRITERS - 1) * 1000 + EACH - 1);

      // Every won move is in the history once, and each task's history is one unbroken chain.
      expect((await setup.get<{ n: number }>("SELECT count(*) AS n FROM task_transitions"))!.n).toBe(transitionsBefore + moves);
      for (const taskId of tasks) {
        const chain = (await store.listTaskTransitions(taskId, { page: 1, pageSize: 1000 })).data;
        chain.slice(1).forEach((move, i) => expect(move.from).toBe(chain[i]!.to));
        expect((await store.getTask("RTM1", taskId))!.status).toBe(chain.at(-1)!.to);
      }
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
      await setup.close();
      await own.drop();
    }
  });

  it("numbers concurrently created tasks without gaps or duplicates, and stores an idempotency key once", async () => {
    const own = await createTestSchema(service.url);
    const setup = await openServiceSql({ dataDir: "/nonexistent", DATABASE_URL: own.url });
    const pools = Array.from({ length: 4 }, () => openPostgresPool(own.url, { max: 2 }));
    try {
      await seedServiceIfEmpty(setup, SEED);
      const task = await someTask(createMaintenanceStore(setup), setup);
      const idempotency = { key: "same", requestHash: "h", responseFor: (id: string) => id };
      const results = await Promise.all(
        pools.flatMap((pool) => {
          const store = createMaintenanceStore(postgresSqlDb(pool));
          return [...Array.from({ length: 10 }, () => store.createTask("RTM1", task, ACTOR)), store.createTask("RTM1", task, ACTOR, idempotency)];
        }),
      );
      const created = results.filter((r): r is { taskId: string } => "taskId" in r).map((r) => r.taskId);
      expect(created.length).toBe(41); // 40 plain + the first with the key; the other 3 replay it
      expect(new Set(created).size).toBe(41);
      const replays = results.filter((r) => "replay" in r) as { replay: { responseBody: string } }[];
      expect(replays.length).toBe(3);
      expect(new Set(replays.map((r) => r.replay.responseBody)).size).toBe(1);
      expect(created).toContain(replays[0]!.replay.responseBody);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
      await setup.close();
      await own.drop();
    }
  });
});
