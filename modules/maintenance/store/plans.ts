/**
 * The plans' rows (migration.ts): the plans themselves, the occurrences they opened (one row per
 * plan and occurrence, inserted in the task's own transaction), and the planned jobs written from
 * them. One SQL for SQLite and PostgreSQL (lib/platform/sql.ts).
 */
import type { TPage } from "@/lib/contract/common";
import type { TChecklistItem, TMaintenancePlanParsed, TMaintenancePlansQuery, TPlanTrigger } from "@/modules/maintenance/contract/maintenance-plans";
import type { SqlDb, SqlExecutor } from "@/lib/platform/sql";
import { createPager, type Params, type Row } from "./page";
import type { Actor, MaintenanceStore, NewTask } from ".";

/** A plan as stored, with what its schedule needs to know. */
export interface StoredPlan {
  id: string;
  plantId: string;
  assetId: string;
  assetTagNumber: string;
  title: string;
  description: string | null;
  activityKind: string;
  assignedToRole: string;
  priority: string;
  estimatedTimeInHours: number;
  requiredPersonCount: number;
  trigger: TPlanTrigger;
  leadTimeDays: number;
  schedule: "FIXED" | "FLOATING";
  checklist: TChecklistItem[];
  enabled: boolean;
  lastReading: number | null;
  lastReadingAt: string | null;
  ratePerDay: number | null;
  anchorDate: string | null;
  anchorReading: number | null;
  lastOpenedDate: string | null;
  lastOpenedReading: number | null;
  createdDate: string;
  createdAt: string;
  updatedAt: string;
}

const PLAN_COLUMNS = `p.id, p.plant_id AS "plantId", p.asset_id AS "assetId", a.tag_number AS "assetTagNumber", p.title, p.description,
  p.activity_kind AS "activityKind", p.assigned_to_role AS "assignedToRole", p.priority, p.estimated_time_in_hours AS "estimatedTimeInHours",
  p.required_person_count AS "requiredPersonCount", p.trigger_kind AS "triggerKind", p.trigger_every AS "triggerEvery", p.trigger_unit AS "triggerUnit",
  p.start_date AS "startDate", p.meter_query AS "meterQuery", p.start_reading AS "startReading", p.lead_time_days AS "leadTimeDays",
  p.schedule, p.checklist, p.enabled, p.last_reading AS "lastReading", p.last_reading_at AS "lastReadingAt", p.rate_per_day AS "ratePerDay",
  p.anchor_date AS "anchorDate", p.anchor_reading AS "anchorReading", p.created_date AS "createdDate", p.created_at AS "createdAt", p.updated_at AS "updatedAt",
  (SELECT max(o.due_date) FROM plan_occurrences o WHERE o.plan_id = p.id) AS "lastOpenedDate",
  (SELECT max(o.due_reading) FROM plan_occurrences o WHERE o.plan_id = p.id) AS "lastOpenedReading"`;

const FROM = `maintenance_plans p JOIN assets a ON a.id = p.asset_id`;

function toPlan(row: Row): StoredPlan {
  const trigger: TPlanTrigger =
    row.triggerKind === "CALENDAR"
      ? { kind: "CALENDAR", every: Number(row.triggerEvery), unit: row.triggerUnit as "DAY" | "WEEK" | "MONTH", startDate: row.startDate as string }
      : { kind: "METER", query: row.meterQuery as string, every: Number(row.triggerEvery), unit: row.triggerUnit as string, startReading: Number(row.startReading) };
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    id: row.id as string,
    plantId: row.plantId as string,
    assetId: row.assetId as string,
    assetTagNumber: row.assetTagNumber as string,
    title: row.title as string,
    description: row.description as string | null,
    activityKind: row.activityKind as string,
    assignedToRole: row.assignedToRole as string,
    priority: row.priority as string,
    estimatedTimeInHours: Number(row.estimatedTimeInHours),
    requiredPersonCount: Number(row.requiredPersonCount),
    trigger,
    leadTimeDays: Number(row.leadTimeDays),
    schedule: row.schedule as "FIXED" | "FLOATING",
    checklist: JSON.parse(row.checklist as string) as TChecklistItem[],
    enabled: Number(row.enabled) === 1,
    lastReading: num(row.lastReading),
    lastReadingAt: row.lastReadingAt as string | null,
    ratePerDay: num(row.ratePerDay),
    anchorDate: row.anchorDate as string | null,
    anchorReading: num(row.anchorReading),
    lastOpenedDate: row.lastOpenedDate as string | null,
    lastOpenedReading: num(row.lastOpenedReading),
    createdDate: row.createdDate as string,
    createdAt: row.createdAt as string,
    updatedAt: row.updatedAt as string,
  };
}

/** The checklist as stored: items numbered in the order written. */
function checklistOf(input: TMaintenancePlanParsed["checklist"]): TChecklistItem[] {
  return (input ?? []).map((item, index) => ({
    itemId: String(index + 1),
    text: item.text,
    kind: item.kind,
    unit: item.unit ?? null,
    min: item.min ?? null,
    max: item.max ?? null,
    required: item.required,
  }));
}

function planParams(plan: TMaintenancePlanParsed, assetId: string): Params {
  const trigger = plan.trigger;
  return {
    assetId,
    title: plan.title,
    description: plan.description ?? null,
    activityKind: plan.activityKind,
    assignedToRole: plan.assignedToRole,
    priority: plan.priority,
    estimatedTimeInHours: plan.estimatedTimeInHours,
    requiredPersonCount: plan.requiredPersonCount,
    triggerKind: trigger.kind,
    triggerEvery: trigger.every,
    triggerUnit: trigger.unit,
    startDate: trigger.kind === "CALENDAR" ? trigger.startDate : null,
    meterQuery: trigger.kind === "METER" ? trigger.query : null,
    startReading: trigger.kind === "METER" ? trigger.startReading : null,
    leadTimeDays: plan.leadTimeDays,
    schedule: plan.schedule,
    checklist: JSON.stringify(checklistOf(plan.checklist)),
    enabled: plan.enabled ? 1 : 0,
  };
}

/** A planned job written from a plan's occurrence. */
export interface PlannedOccurrence {
  dueDate: string;
  recurrence: { every: number; unit: "DAY" | "WEEK" | "MONTH" } | null;
}

/** The statement that writes a new plan: `insertPlan`, and the demo seed's plans (seed-plans.ts). */
export function planInsert(plantId: string, planId: string, plan: TMaintenancePlanParsed, assetId: string, today: string, now: string): readonly [string, Params] {
  return [
    `INSERT INTO maintenance_plans (id, plant_id, asset_id, title, description, activity_kind, assigned_to_role, priority, estimated_time_in_hours,
       required_person_count, trigger_kind, trigger_every, trigger_unit, start_date, meter_query, start_reading, lead_time_days, schedule, checklist,
       enabled, created_date, created_at, updated_at)
     VALUES (@id, @plantId, @assetId, @title, @description, @activityKind, @assignedToRole, @priority, @estimatedTimeInHours,
       @requiredPersonCount, @triggerKind, @triggerEvery, @triggerUnit, @startDate, @meterQuery, @startReading, @leadTimeDays, @schedule, @checklist,
       @enabled, @today, @now, @now)`,
    { ...planParams(plan, assetId), id: planId, plantId, today, now },
  ];
}

/** The statement that writes one planned job of a plan: `replacePlannedJobs`, and the demo seed's (seed-plans.ts). */
export function plannedJobInsert(plan: StoredPlan, occurrence: PlannedOccurrence): readonly [string, Params] {
  return [
    `INSERT INTO planned_jobs (id, plant_id, asset_id, job_title, due_date, activity_kind, department, estimated_time_in_hours,
       required_person_count, recurrence_every, recurrence_unit, work_order_id, work_order_remark, plan_id)
     VALUES (@id, @plantId, @assetId, @title, @dueDate, @activityKind, @department, @hours, @people, @every, @unit, NULL, NULL, @planId)`,
    {
      id: `${plan.id}-${occurrence.dueDate}`,
      plantId: plan.plantId,
      assetId: plan.assetId,
      title: plan.title,
      dueDate: occurrence.dueDate,
      activityKind: plan.activityKind,
      department: plan.assignedToRole,
      hours: String(plan.estimatedTimeInHours),
      people: plan.requiredPersonCount,
      every: occurrence.recurrence?.every ?? null,
      unit: occurrence.recurrence?.unit ?? null,
      planId: plan.id,
    },
  ];
}

/** Thrown inside a task's transaction when its occurrence is already open: the task is rolled back. */
class AlreadyOpened extends Error {}

export interface PlanStore {
  listPlans(plantId: string, query: TMaintenancePlansQuery): Promise<TPage<StoredPlan>>;
  getPlan(plantId: string, planId: string): Promise<StoredPlan | undefined>;
  /** Every enabled plan of every plant (the scheduler's tick), at most `limit`, by id after `after`. */
  enabledPlans(after: string, limit: number): Promise<StoredPlan[]>;
  insertPlan(plantId: string, planId: string, plan: TMaintenancePlanParsed, assetId: string, today: string, now: string): Promise<void>;
  /** False when the plant has no such plan. A changed trigger forgets the meter's readings. */
  updatePlan(plantId: string, planId: string, plan: TMaintenancePlanParsed, assetId: string, now: string): Promise<boolean>;
  deletePlan(plantId: string, planId: string): Promise<boolean>;
  recordReading(planId: string, reading: number, ratePerDay: number | null, at: string): Promise<void>;
  /**
   * Opens the task of one occurrence: the task and the (plan, occurrence) row in one transaction.
   * Null when the occurrence was already open (by this instance or another): nothing is written.
   */
  openOccurrence(plan: StoredPlan, occurrence: { key: string; dueDate: string | null; dueReading: number | null }, task: NewTask, actor: Actor): Promise<string | null>;
  /**
   * The plan's planned jobs are these occurrences from now on (replacing the ones written before).
   * Unless `force` (the plan was saved), nothing is written when the same dates are there already:
   * a tick rewrites a plan's jobs once a day (its horizon moves), not every minute.
   */
  replacePlannedJobs(plan: StoredPlan, occurrences: PlannedOccurrence[], force: boolean): Promise<void>;
  /**
   * In a close-out's transaction (writes.ts): a FLOATING plan counts its next occurrence from the
   * close-out of its task — its doneDate, and the meter's latest reading.
   */
  atCloseOut(tx: SqlExecutor, taskId: string, doneDate: string): Promise<void>;
}

export function createPlanStore(engine: SqlDb, tasks: Pick<MaintenanceStore, "createTask">): PlanStore {
  const page = createPager(engine);
  return {
    listPlans(plantId, query) {
      const params: Params = { plantId };
      const where = ["p.plant_id = @plantId"];
      if (query.assetTagNumber !== undefined) {
        where.push("a.tag_number = @assetTagNumber");
        params.assetTagNumber = query.assetTagNumber;
      }
      return page({ table: FROM }, where, params, PLAN_COLUMNS, "p.id", query, (rows) => rows.map(toPlan));
    },

    async getPlan(plantId, planId) {
      const row = await engine.get(`SELECT ${PLAN_COLUMNS} FROM ${FROM} WHERE p.plant_id = @plantId AND p.id = @planId`, { plantId, planId });
      return row ? toPlan(row) : undefined;
    },

    async enabledPlans(after, limit) {
      const rows = await engine.all(`SELECT ${PLAN_COLUMNS} FROM ${FROM} WHERE p.enabled = 1 AND p.id > @after ORDER BY p.id LIMIT ${Math.trunc(limit)}`, { after });
      return rows.map(toPlan);
    },

    async insertPlan(plantId, planId, plan, assetId, today, now) {
      await engine.run(...planInsert(plantId, planId, plan, assetId, today, now));
    },

    async updatePlan(plantId, planId, plan, assetId, now) {
      const { changes } = await engine.run(
        `UPDATE maintenance_plans SET asset_id = @assetId, title = @title, description = @description, activity_kind = @activityKind,
           assigned_to_role = @assignedToRole, priority = @priority, estimated_time_in_hours = @estimatedTimeInHours,
           required_person_count = @requiredPersonCount,
           last_reading = CASE WHEN trigger_kind = @triggerKind AND coalesce(meter_query, '') = coalesce(@meterQuery, '') THEN last_reading END,
           last_reading_at = CASE WHEN trigger_kind = @triggerKind AND coalesce(meter_query, '') = coalesce(@meterQuery, '') THEN last_reading_at END,
           rate_per_day = CASE WHEN trigger_kind = @triggerKind AND coalesce(meter_query, '') = coalesce(@meterQuery, '') THEN rate_per_day END,
           trigger_kind = @triggerKind, trigger_every = @triggerEvery, trigger_unit = @triggerUnit, start_date = @startDate, meter_query = @meterQuery,
           start_reading = @startReading, lead_time_days = @leadTimeDays, schedule = @schedule, checklist = @checklist, enabled = @enabled, updated_at = @now
         WHERE plant_id = @plantId AND id = @planId`,
        { ...planParams(plan, assetId), plantId, planId, now },
      );
      return changes > 0;
    },

    async deletePlan(plantId, planId) {
      return engine.transaction(async (tx) => {
        const { changes } = await tx.run(`DELETE FROM maintenance_plans WHERE plant_id = @plantId AND id = @planId`, { plantId, planId });
        if (changes > 0) await tx.run(`DELETE FROM planned_jobs WHERE plan_id = @planId`, { planId });
        return changes > 0;
      });
    },

    async recordReading(planId, reading, ratePerDay, at) {
      await engine.run(`UPDATE maintenance_plans SET last_reading = @reading, rate_per_day = @ratePerDay, last_reading_at = @at WHERE id = @planId`, { planId, reading, ratePerDay, at });
    },

    async openOccurrence(plan, occurrence, task, actor) {
      try {
        const created = await tasks.createTask(plan.plantId, task, actor, undefined, async (tx, taskId) => {
          const { changes } = await tx.run(
            `INSERT INTO plan_occurrences (plan_id, occurrence, task_id, due_date, due_reading, opened_at)
             VALUES (@planId, @key, @taskId, @dueDate, @dueReading, @now) ON CONFLICT DO NOTHING`,
            { planId: plan.id, key: occurrence.key, taskId, dueDate: occurrence.dueDate, dueReading: occurrence.dueReading, now: new Date().toISOString() },
          );
          if (changes === 0) throw new AlreadyOpened();
          await tx.run(`UPDATE tasks SET plan_id = @planId, checklist = @checklist WHERE id = @taskId`, { planId: plan.id, checklist: JSON.stringify(plan.checklist), taskId });
        });
        return "taskId" in created ? created.taskId : null;
      } catch (error) {
        if (error instanceof AlreadyOpened) return null;
        throw error;
      }
    },

    async atCloseOut(tx, taskId, doneDate) {
      await tx.run(
        `UPDATE maintenance_plans SET anchor_date = @doneDate, anchor_reading = last_reading
         WHERE id = (SELECT plan_id FROM tasks WHERE id = @taskId) AND schedule = 'FLOATING'`,
        { taskId, doneDate },
      );
    },

    async replacePlannedJobs(plan, occurrences, force) {
      // A tick moves a plan's window by an occurrence or two: only those rows change, so a plant's
      // first tick writes a few rows per plan instead of the whole year again (bench:maintenance,
      // phase 5: the reads beside a tick that opens 1,000 plans' tasks). A saved plan (`force`:
      // title, asset or trigger changed) is written again whole.
      const wanted = new Set(occurrences.map((occurrence) => occurrence.dueDate));
      const heldDates = async (db: SqlExecutor) =>
        new Set((await db.all<{ dueDate: string }>(`SELECT due_date AS "dueDate" FROM planned_jobs WHERE plan_id = @planId`, { planId: plan.id })).map((row) => row.dueDate));
      const unchanged = (held: Set<string>) => held.size === wanted.size && [...wanted].every((date) => held.has(date));
      if (!force && unchanged(await heldDates(engine))) return;
      await engine.transaction(async (tx) => {
        // Two instances writing one plan's jobs at once: the plan's row lock makes them take turns
        // (SQLite's BEGIN IMMEDIATE already does), so each diffs against what the other wrote.
        if (engine.engine === "postgres") await tx.run(`SELECT 1 FROM maintenance_plans WHERE id = @planId FOR UPDATE`, { planId: plan.id });
        if (force) await tx.run(`DELETE FROM planned_jobs WHERE plan_id = @planId`, { planId: plan.id });
        const held = force ? new Set<string>() : await heldDates(tx);
        for (const dueDate of held) if (!wanted.has(dueDate)) await tx.run(`DELETE FROM planned_jobs WHERE plan_id = @planId AND due_date = @dueDate`, { planId: plan.id, dueDate });
        for (const occurrence of occurrences) if (!held.has(occurrence.dueDate)) await tx.run(...plannedJobInsert(plan, occurrence));
      });
    },
  };
}
