/**
 * A plan evaluated at a moment (docs/api.md, "Maintenance plans"): what is due opens its task — at
 * most one per occurrence, whichever instance gets there first, since the (plan, occurrence) row is
 * written in the task's transaction — and the plan's planned jobs are written again from its next
 * occurrences. The scheduler's tick and `POST …/run` both call `evaluatePlan`.
 */
import type { TMaintenancePlan, TPlanRunResult } from "@/modules/maintenance/contract/maintenance-plans";
import type { MaintenanceContext } from "./context";
import type { PlantRecord } from "@/modules/maintenance/store";
import { readMeter } from "./plan-meter";
import { addDays, forecastDate, nextCalendarDate, nextMeterReading, occurrenceKey, occurrencesUntil, type PlanState } from "./plan-schedule";
import type { PlannedOccurrence, StoredPlan } from "@/modules/maintenance/store/plans";

/** How far ahead the planned jobs reach (docs/api.md: the spec's planned jobs, the next 365 days). */
const PLANNED_HORIZON_DAYS = 365;
/** Occurrences a plan may open in one evaluation (a FIXED plan catching up after the service was down). */
const MAX_OPENED_PER_RUN = 12;
/** Planned jobs one plan writes at most (a daily plan over the horizon). */
const MAX_PLANNED_PER_PLAN = PLANNED_HORIZON_DAYS + 1;

/** Who opened a plan's task, as the task's history records it. */
const SCHEDULER_ACTOR = (planId: string) => ({ by: `plan ${planId}`, client: "plans" });

function planState(plan: StoredPlan): PlanState {
  return {
    trigger: plan.trigger,
    schedule: plan.schedule,
    createdDate: plan.createdDate,
    lastOpened: plan.lastOpenedDate !== null || plan.lastOpenedReading !== null ? { date: plan.lastOpenedDate, reading: plan.lastOpenedReading } : null,
    anchor: plan.anchorDate !== null ? { date: plan.anchorDate, reading: plan.anchorReading } : null,
  };
}

/** The plan as the API answers it, with its next due date or reading as of `today`. */
export function planAnswer(plan: StoredPlan, today: string): TMaintenancePlan {
  const state = planState(plan);
  const meter = plan.trigger.kind === "METER";
  const nextDueReading = meter ? nextMeterReading(state) : null;
  return {
    id: plan.id,
    plantId: plan.plantId,
    title: plan.title,
    description: plan.description,
    assetTagNumber: plan.assetTagNumber,
    activityKind: plan.activityKind,
    assignedToRole: plan.assignedToRole,
    priority: plan.priority,
    estimatedTimeInHours: plan.estimatedTimeInHours,
    requiredPersonCount: plan.requiredPersonCount,
    trigger: plan.trigger,
    leadTimeDays: plan.leadTimeDays,
    schedule: plan.schedule,
    checklist: plan.checklist,
    enabled: plan.enabled,
    nextDueDate: meter ? forecastDate(plan.lastReading, plan.ratePerDay, nextDueReading!, today) : nextCalendarDate(state),
    lastReading: meter ? plan.lastReading : null,
    lastReadingAt: meter ? plan.lastReadingAt : null,
    nextDueReading,
    ratePerDay: meter ? plan.ratePerDay : null,
    createdAt: plan.createdAt,
    updatedAt: plan.updatedAt,
  };
}

/**
 * The plan's planned jobs from its next occurrence: the calendar's over the horizon, a meter's
 * forecast one. The demo seed writes its plans' first planned jobs with it too (seed-plans.ts).
 */
export function plannedOccurrences(plan: StoredPlan, today: string): PlannedOccurrence[] {
  if (!plan.enabled) return [];
  const answer = planAnswer(plan, today);
  if (answer.nextDueDate === null) return [];
  const until = addDays(today, PLANNED_HORIZON_DAYS);
  if (plan.trigger.kind === "METER") return answer.nextDueDate <= until ? [{ dueDate: answer.nextDueDate, recurrence: null }] : [];
  const { every, unit } = plan.trigger;
  return occurrencesUntil(answer.nextDueDate, every, unit, until, MAX_PLANNED_PER_PLAN).map((dueDate) => ({ dueDate, recurrence: { every, unit } }));
}

function taskOf(plan: StoredPlan, today: string, dueDate: string) {
  return {
    taskTitle: plan.title,
    taskDescription: plan.description,
    activityKind: plan.activityKind,
    assignedToRole: plan.assignedToRole,
    priority: plan.priority,
    createdDate: today,
    dueDate,
    incidentDate: null,
    assetId: plan.assetId,
  };
}

/**
 * Evaluates one plan now: opens the task of every occurrence that is due (calendar: within its
 * lead time; meter: the reading at or past the due reading), then writes its planned jobs again.
 * A disabled plan opens nothing and plans nothing.
 */
export async function evaluatePlan(ctx: MaintenanceContext, plant: Pick<PlantRecord, "id" | "customerId">, plan: StoredPlan, options: { saved?: boolean } = {}): Promise<TPlanRunResult> {
  const today = ctx.today();
  const opened: string[] = [];
  let current = plan;
  if (plan.enabled && plan.trigger.kind === "CALENDAR") {
    for (let step = 0; step < MAX_OPENED_PER_RUN; step += 1) {
      const due = nextCalendarDate(planState(current));
      if (addDays(due, -plan.leadTimeDays) > today) break;
      const taskId = await ctx.plans.openOccurrence(current, { key: occurrenceKey({ date: due }), dueDate: due, dueReading: null }, taskOf(plan, today, due), SCHEDULER_ACTOR(plan.id));
      if (taskId) opened.push(taskId);
      // FLOATING waits for the close-out of the open one; FIXED goes on along the schedule.
      if (plan.schedule === "FLOATING") break;
      current = { ...current, lastOpenedDate: due };
    }
  } else if (plan.enabled && plan.trigger.kind === "METER" && ctx.meter) {
    const at = ctx.now();
    const { reading, ratePerDay } = await readMeter(ctx.meter, plant, plan.trigger.query, at);
    if (reading !== null) {
      await ctx.plans.recordReading(plan.id, reading, ratePerDay, at.toISOString());
      current = { ...current, lastReading: reading, ratePerDay, lastReadingAt: at.toISOString() };
      const next = nextMeterReading(planState(current));
      if (reading >= next) {
        const { startReading, every } = plan.trigger;
        // FIXED: the schedule's last due reading the meter has passed (one task, however far it ran).
        const dueReading = plan.schedule === "FIXED" ? startReading + Math.floor((reading - startReading) / every) * every : next;
        const taskId = await ctx.plans.openOccurrence(current, { key: occurrenceKey({ reading: dueReading }), dueDate: null, dueReading }, taskOf(plan, today, today), SCHEDULER_ACTOR(plan.id));
        if (taskId) opened.push(taskId);
        current = { ...current, lastOpenedReading: Math.max(current.lastOpenedReading ?? -Infinity, dueReading) };
      }
    }
  }
  const fresh = (await ctx.plans.getPlan(plan.plantId, plan.id)) ?? current;
  await ctx.plans.replacePlannedJobs(fresh, plannedOccurrences(fresh, today), options.saved === true);
  const answer = planAnswer(fresh, today);
  return { opened, nextDueDate: answer.nextDueDate, nextDueReading: answer.nextDueReading };
}
