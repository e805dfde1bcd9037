/* eslint-disable @typescript-eslint/no-explicit-any -- rows are read freely in assertions */
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteSql } from "@/lib/platform/sql";
import { applyMigrations, type SqliteDatabase } from "@/lib/platform/sqlite";
import { DEMO_PLANTS } from "@/lib/service/demo/catalog";
import { MAINTENANCE_MIGRATIONS } from "@/modules/maintenance/store/migrations";
import { demoMachineAssets } from "@/lib/service/demo/maintenance-assets";
import { seedMaintenance } from "./seed";
import { PEOPLE } from "@/lib/service/demo/maintenance-content";
import { checkMeterQuery } from "./plan-meter";
import { nextCalendarDate, occurrencesUntil } from "./plan-schedule";
import { demoDevices } from "@/lib/service/telemetry/demo-devices";

const databases: SqliteDatabase[] = [];

/** The seed's output in an in-memory database with the maintenance schema (as seed-postgres.ts makes it), read directly. */
async function seeded(seed: string, today: string, sizes?: Parameters<typeof seedMaintenance>[1]["sizes"]): Promise<SqliteDatabase> {
  const db = new Database(":memory:");
  databases.push(db);
  db.pragma("foreign_keys = ON");
  applyMigrations(db, MAINTENANCE_MIGRATIONS);
  await seedMaintenance(sqliteSql(db), { seed, today, sizes });
  return db;
}

const TABLES = ["customers", "plants", "lookup_values", "assets", "parts", "stock_levels", "jobs_done", "job_parts_used", "maintenance_plans", "planned_jobs", "tasks", "task_transitions"];

/** Every row of every seeded table, in a fixed order. */
function dump(db: SqliteDatabase): string {
  return JSON.stringify(TABLES.map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()));
}

afterAll(() => {
  for (const db of databases) db.close();
});

describe("maintenance demo seed", () => {
  const small = { jobsDone: 200, plans: 8, oneOffJobs: 20, tasks: 30, parts: 30 };

  it("is deterministic for a seed and a day, and differs for another seed", async () => {
    const a = dump(await seeded("alpha", "2026-06-15", small));
    expect(dump(await seeded("alpha", "2026-06-15", small))).toBe(a);
    expect(dump(await seeded("beta", "2026-06-15", small))).not.toBe(a);
  });

  it("meets the demo sizes by default, with dates relative to today", async () => {
    const today = "2026-06-15";
    const db = await seeded("plantdesk", today);
    const perPlant = (sql: string) => db.prepare(sql).all() as { plant: string; n: number }[];
    for (const row of perPlant("SELECT plant_id AS plant, count(*) AS n FROM assets GROUP BY 1")) expect(row.n).toBeGreaterThanOrEqual(130);
    for (const row of perPlant("SELECT plant_id AS plant, count(*) AS n FROM jobs_done GROUP BY 1")) expect(row.n).toBe(3000);
    for (const row of perPlant("SELECT plant_id AS plant, count(*) AS n FROM maintenance_plans GROUP BY 1")) expect(row.n).toBe(61);
    // About 400 planned jobs per plant or more, most of them the plans'.
    for (const row of perPlant("SELECT plant_id AS plant, count(*) AS n FROM planned_jobs GROUP BY 1")) expect(row.n).toBeGreaterThan(400);
    for (const row of perPlant("SELECT plant_id AS plant, count(*) AS n FROM planned_jobs WHERE plan_id IS NULL GROUP BY 1")) expect(row.n).toBe(60);
    for (const row of perPlant("SELECT plant_id AS plant, count(*) AS n FROM tasks GROUP BY 1")) expect(row.n).toBe(300);
    for (const row of perPlant("SELECT plant_id AS plant, count(*) AS n FROM parts GROUP BY 1")) expect(row.n).toBe(200);
    const range = (sql: string) => db.prepare(sql).get() as { lo: string; hi: string };
    const done = range("SELECT min(done_date) AS lo, max(done_date) AS hi FROM jobs_done");
    expect(done.lo >= "2024-06-15" && done.hi < today).toBe(true);
    // The plans' jobs lie in the next 365 days; one-off work in the next two months or the last two weeks.
    const planned = range("SELECT min(due_date) AS lo, max(due_date) AS hi FROM planned_jobs WHERE plan_id IS NOT NULL");
    expect(planned.lo >= today && planned.hi <= "2027-06-15").toBe(true);
    const oneOff = range("SELECT min(due_date) AS lo, max(due_date) AS hi FROM planned_jobs WHERE plan_id IS NULL");
    expect(oneOff.lo >= "2026-06-01" && oneOff.hi <= "2026-08-14").toBe(true);
    // A backlog: some one-off work fell due in the last two weeks and is overdue.
    const overdue = db.prepare("SELECT count(*) AS n FROM planned_jobs WHERE due_date < ?").get(today) as { n: number };
    expect(overdue.n).toBeGreaterThan(0);
    expect(overdue.n).toBeLessThan(0.3 * 3 * 60);
    const statuses = db.prepare("SELECT DISTINCT status FROM tasks").all();
    expect(statuses).toHaveLength(7);
    const short = db.prepare("SELECT count(*) AS n FROM parts WHERE is_short = 1").get() as { n: number };
    expect(short.n).toBeGreaterThan(0);
    const recurring = db.prepare("SELECT count(*) AS n FROM planned_jobs WHERE recurrence_unit IS NOT NULL").get() as { n: number };
    expect(recurring.n).toBeGreaterThan(3 * 400 * 0.7);
  });

  it("writes the recurring work as plans whose planned jobs are the occurrences the plans' evaluation schedules, and a meter plan per plant on its telemetry", async () => {
    const today = "2026-06-15";
    const db = await seeded("alpha", today, small);
    const read = (sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as Record<string, any>[];
    for (const plant of DEMO_PLANTS) {
      const plans = read("SELECT * FROM maintenance_plans WHERE plant_id = ? ORDER BY id", plant.id);
      expect(plans).toHaveLength(small.plans + 1);
      for (const plan of plans.filter((p) => p.trigger_kind === "CALENDAR")) {
        const dates = read("SELECT due_date AS d, recurrence_every AS every, recurrence_unit AS unit FROM planned_jobs WHERE plan_id = ? ORDER BY due_date", plan.id);
        // The plan's own schedule from today over the next 365 days, nothing else.
        const first = nextCalendarDate({ trigger: { kind: "CALENDAR", every: plan.trigger_every, unit: plan.trigger_unit, startDate: plan.start_date }, schedule: "FIXED", createdDate: today, lastOpened: null, anchor: null });
        expect(dates.map((row) => row.d)).toEqual(occurrencesUntil(first, plan.trigger_every, plan.trigger_unit, "2027-06-15", 400));
        expect(dates.every((row) => row.every === plan.trigger_every && row.unit === plan.trigger_unit)).toBe(true);
        expect(JSON.parse(plan.checklist).length).toBeGreaterThan(0);
      }
      const meters = plans.filter((p) => p.trigger_kind === "METER");
      expect(meters).toHaveLength(1);
      const meter = meters[0]!;
      expect(() => checkMeterQuery(meter.meter_query)).not.toThrow();
      // It reads the RunningState of the device that measures the plan's machine in the demo telemetry.
      const tag = read("SELECT tag_number AS tag FROM assets WHERE id = ?", meter.asset_id)[0]!.tag;
      const device = demoDevices("alpha", plant).find((d) => d.tagNumber === tag)!;
      expect(device.dataPoints).toContain("running");
      expect(meter.meter_query).toContain(`DeviceId == "${device.deviceId}" and Name == "RunningState"`);
      expect(read("SELECT count(*) AS n FROM planned_jobs WHERE plan_id = ?", meter.id)[0]!.n).toBe(0); // no forecast before its first reading
    }
  });

  it("names one of the plant's people as whoever moved each task, through the dashboard", async () => {
    const db = await seeded("alpha", "2026-06-15", small);
    const steps = db
      .prepare("SELECT t.plant_id AS plantId, tt.by_name AS byName, tt.client_id AS client FROM task_transitions tt JOIN tasks t ON t.id = tt.task_id")
      .all() as { plantId: string; byName: string | null; client: string | null }[];
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) {
      expect(step.client).toBe("dashboard");
      expect(PEOPLE[step.plantId]!.map(([first, last]) => `${first} ${last}`)).toContain(step.byName);
    }
  });

  it("gives most corrective job records failure, cause and remedy codes of the customer's own vocabulary, and no other job any", async () => {
    const db = await seeded("alpha", "2026-06-15", small);
    const rows = db
      .prepare(
        `SELECT j.activity_kind AS kind, j.failure_code AS failure, j.cause_code AS cause, j.remedy_code AS remedy, p.customer_id AS customer
         FROM jobs_done j JOIN plants p ON p.id = j.plant_id`,
      )
      .all() as { kind: string; failure: string | null; cause: string | null; remedy: string | null; customer: string }[];
    const codes = db.prepare("SELECT customer_id AS customer, kind, value FROM lookup_values").all() as { customer: string; kind: string; value: string }[];
    const known = (customer: string, kind: string, value: string) => codes.some((code) => code.customer === customer && code.kind === kind && code.value === value);
    const corrective = rows.filter((row) => row.failure !== null);
    expect(corrective.length).toBeGreaterThan(0.1 * rows.length);
    for (const row of corrective) {
      expect(known(row.customer, "failureCode", row.failure!) && known(row.customer, "causeCode", row.cause!) && known(row.customer, "remedyCode", row.remedy!)).toBe(true);
    }
    // Only corrective work records a failure: the kinds with codes are one activity kind per customer.
    expect(new Set(corrective.map((row) => `${row.customer}:${row.kind}`)).size).toBe(new Set(corrective.map((row) => row.customer)).size);
    expect(rows.filter((row) => row.failure === null).every((row) => row.cause === null && row.remedy === null)).toBe(true);
  });

  it("lists each plant's machine-level assets for the telemetry seed, matching the seeded tags", async () => {
    const machines = demoMachineAssets("alpha");
    const db = await seeded("alpha", "2026-06-15", small);
    for (const plant of DEMO_PLANTS) {
      const list = machines[plant.id]!;
      expect(list.length).toBeGreaterThanOrEqual(30);
      const tags = db.prepare("SELECT tag_number FROM assets WHERE plant_id = ?").pluck().all(plant.id) as string[];
      for (const machine of list) expect(tags).toContain(machine.tagNumber);
    }
  });
});
