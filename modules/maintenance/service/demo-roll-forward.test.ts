/**
 * The maintenance demo rolled forward on a real SQLite database: a month after the seed the plant
 * still has a running plant's mix (work due ahead, a small overdue backlog, jobs done recently,
 * tasks arriving and moving only along allowed transitions), each day is rolled exactly once, and
 * the result depends only on the seed and the days. On PostgreSQL, two instances rolling at once
 * roll each day once between them, and the data is row for row what SQLite holds.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TASK_TRANSITIONS, type TTaskStatus } from "@/modules/maintenance/contract/maintenance";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { describeWithService } from "@/lib/testing/with-service";
import { openServiceSql, type ServiceSql } from "@/lib/service/database";
import { seedServiceIfEmpty } from "./seed-service";
import type { SqlDb, SqlParams } from "@/lib/platform/sql";
import { DEMO_PLANTS } from "@/lib/service/demo/catalog";
import { addDays } from "@/lib/service/demo/seeded-random";
import { rollMaintenanceForward } from "./demo-roll-forward";

const SEED_DAY = "2026-03-10";
const dirs: string[] = [];
const databases: ServiceSql[] = [];

/** A seeded SQLite database, opened as the runtime opens it. */
async function seeded(): Promise<ServiceSql> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "live-roll-"));
  dirs.push(dir);
  const db = await openServiceSql({ dataDir: dir });
  databases.push(db);
  await seedServiceIfEmpty(db, { seed: "roll", today: SEED_DAY });
  return db;
}

/** The first column of the first row. */
const count = async (db: SqlDb, sql: string, params: SqlParams = {}) => (await db.arrays(sql, params))[0]![0] as number;

/**
 * One-off planned work past its due date: the roll does it. A plan's occurrence does not wait in
 * the planned jobs: the plans' tick opens its task within its lead time (plans.test.ts), which this
 * test, rolling the data alone, does not run.
 */
function overdue(db: SqlDb, plantId: string, today: string): Promise<number> {
  return count(db, `SELECT count(*) FROM planned_jobs WHERE plant_id = @plantId AND plan_id IS NULL AND due_date < @today`, { plantId, today });
}

afterAll(async () => {
  for (const db of databases) await db.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("maintenance demo roll-forward", () => {
  it("keeps a running plant's mix of due, overdue and done work a month after the seed", async () => {
    const db = await seeded();
    const today = addDays(SEED_DAY, 30);
    const frozenOverdue = await overdue(db, "RTM1", today); // what a month-old seed would show
    const tasksBefore = await count(db, `SELECT count(*) FROM tasks WHERE plant_id = 'RTM1'`);
    const result = await rollMaintenanceForward(db, DEMO_PLANTS, { seed: "roll", today });
    expect(result.days).toBe(90); // 30 days × 3 plants

    for (const plant of DEMO_PLANTS) {
      const late = await overdue(db, plant.id, today);
      const planned = await count(db, `SELECT count(*) FROM planned_jobs WHERE plant_id = @plantId AND (plan_id IS NULL OR due_date >= @today)`, { plantId: plant.id, today });
      expect(late, plant.id).toBeGreaterThan(0);
      expect(late / planned, plant.id).toBeLessThan(0.1);
      // Work is due in the coming week, and jobs were done in the last one (one-off work: the plans'
      // occurrences are done through their tasks).
      const week = { plantId: plant.id, today, ahead: addDays(today, 7), ago: addDays(today, -7) };
      expect(await count(db, `SELECT count(*) FROM planned_jobs WHERE plant_id = @plantId AND due_date BETWEEN @today AND @ahead`, week)).toBeGreaterThan(3);
      expect(await count(db, `SELECT count(*) FROM jobs_done WHERE plant_id = @plantId AND done_date > @ago`, week)).toBeGreaterThan(5);
      // Today's tasks arrived today.
      expect(await count(db, `SELECT count(*) FROM tasks WHERE plant_id = @plantId AND created_date = @today`, week)).toBeGreaterThan(0);
    }
    expect(frozenOverdue).toBeGreaterThan((await overdue(db, "RTM1", today)) * 3);
    expect(await count(db, `SELECT count(*) FROM tasks WHERE plant_id = 'RTM1'`)).toBeGreaterThan(tasksBefore + 30);

    // Every recorded move is an allowed one, and each task's status is where its history ends.
    const moves = await db.all<{ from: TTaskStatus; to: TTaskStatus }>(
      `SELECT from_status AS "from", to_status AS "to" FROM task_transitions WHERE from_status IS NOT NULL`,
    );
    for (const move of moves) expect(TASK_TRANSITIONS[move.from], `${move.from} → ${move.to}`).toContain(move.to);
    expect(
      await count(
        db,
        `SELECT count(*) FROM tasks t WHERE t.status <> (SELECT to_status FROM task_transitions x WHERE x.task_id = t.id ORDER BY seq DESC LIMIT 1)`,
      ),
    ).toBe(0);
    // Job numbers stay unique and dense per plant.
    expect(await count(db, `SELECT count(*) - count(DISTINCT id) FROM jobs_done`)).toBe(0);
  });

  it("leaves the seed's own day as the seed drew it", async () => {
    const db = await seeded();
    const changes = async () => (await count(db, `SELECT count(*) FROM jobs_done`)) + (await count(db, `SELECT count(*) FROM task_transitions`));
    const before = await changes();
    expect((await rollMaintenanceForward(db, DEMO_PLANTS, { seed: "roll", today: SEED_DAY })).days).toBe(0);
    expect(await changes()).toBe(before);
    // A database seeded before the seed kept its day: the day is recovered from the data.
    await db.run(`DELETE FROM demo_state`);
    expect((await rollMaintenanceForward(db, DEMO_PLANTS, { seed: "roll", today: SEED_DAY })).days).toBe(0);
    expect((await rollMaintenanceForward(db, DEMO_PLANTS, { seed: "roll", today: addDays(SEED_DAY, 1) })).days).toBe(3);
  });

  it("rolls each day once, and the same days give the same data", async () => {
    const a = await seeded();
    const b = await seeded();
    const middle = addDays(SEED_DAY, 4);
    const end = addDays(SEED_DAY, 9);
    // One database rolls in two steps (a restart in between), the other in one.
    await rollMaintenanceForward(a, DEMO_PLANTS, { seed: "roll", today: middle });
    await rollMaintenanceForward(a, DEMO_PLANTS, { seed: "roll", today: end });
    await rollMaintenanceForward(b, DEMO_PLANTS, { seed: "roll", today: end });
    expect((await rollMaintenanceForward(b, DEMO_PLANTS, { seed: "roll", today: end })).days).toBe(0);
    // Row for row, leaving out the insertion sequence (the two runs roll the plants in another order).
    const [left, right] = [await dumpOf(a), await dumpOf(b)];
    for (let i = 0; i < left.length; i++) {
      expect(left[i]!.length).toBe(right[i]!.length);
      expect(left[i]!.length).toBeGreaterThan(0);
      expect(JSON.stringify(left[i]) === JSON.stringify(right[i]), `table ${i} differs`).toBe(true);
    }
  });
});

/** The tables a roll writes, row for row, leaving out the insertion sequence. */
const DUMP = [
  "SELECT * FROM jobs_done ORDER BY id",
  "SELECT * FROM planned_jobs ORDER BY id",
  "SELECT * FROM tasks ORDER BY id",
  "SELECT task_id, from_status, to_status, remark, at FROM task_transitions ORDER BY task_id, seq",
];
const dumpOf = (db: SqlDb) => Promise.all(DUMP.map((sql) => db.all(sql)));

describeWithService("postgres", "maintenance demo roll-forward on PostgreSQL", (postgres) => {
  let schema: TestSchema;
  const connections: ServiceSql[] = [];
  afterAll(async () => {
    for (const sql of connections) await sql.close();
    await schema?.drop();
  });

  // Seeding PostgreSQL and SQLite, with the plans' planned jobs: over 30 s on a loaded machine.
  it("rolls each day once between two instances rolling at once, with the same rows as SQLite", { timeout: 180_000 }, async () => {
    schema = await createTestSchema(postgres.url);
    const connect = async () => {
      const sql = await openServiceSql({ dataDir: "unused", DATABASE_URL: schema.url });
      connections.push(sql);
      return sql;
    };
    const [one, two] = [await connect(), await connect()];
    await seedServiceIfEmpty(one, { seed: "roll", today: SEED_DAY });
    const end = addDays(SEED_DAY, 6);
    const [a, b] = await Promise.all([one, two].map((db) => rollMaintenanceForward(db, DEMO_PLANTS, { seed: "roll", today: end })));
    expect(a!.days + b!.days).toBe(18); // 6 days × 3 plants, each rolled by one of them
    expect((await rollMaintenanceForward(two, DEMO_PLANTS, { seed: "roll", today: end })).days).toBe(0);

    const reference = await seeded();
    await rollMaintenanceForward(reference, DEMO_PLANTS, { seed: "roll", today: end });
    const [left, right] = [await dumpOf(one), await dumpOf(reference)];
    for (let i = 0; i < DUMP.length; i++) {
      expect(left[i]!.length, DUMP[i]).toBe(right[i]!.length);
      expect(left[i], DUMP[i]).toEqual(right[i]);
    }
  });
});
