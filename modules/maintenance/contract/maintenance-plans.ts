/**
 * Maintenance plans (docs/api.md, "Maintenance plans"): what a planner writes — a recurring job on
 * an asset, due by the calendar or by a meter read from the plant's telemetry with KQL — and what
 * the service answers about it (the next due date or reading, the meter's forecast). An extension
 * of the maintenance interface: same envelope, auth and errors. No server-only import.
 */
import { z } from "@/lib/contract/zod";
import { ZDate, ZId, ZPageQuery, ZTimestamp, paginated } from "@/lib/contract/common";
import { MAX_QUERY_LENGTH } from "@/lib/contract/telemetry";
import { PLAN_LIMITS } from "@/lib/contract/vocabulary";

const RECURRENCE_UNITS = ["DAY", "WEEK", "MONTH"] as const;
const PLAN_SCHEDULES = ["FIXED", "FLOATING"] as const;
const CHECKLIST_ITEM_KINDS = ["CHECK", "READING"] as const;

const ZEvery = z.number().int("must be a whole number").min(1, "must be at least 1").max(PLAN_LIMITS.every, `must be at most ${PLAN_LIMITS.every}`);
/** A meter's figures: finite and within what a counter of hours, cycles or tonnes reaches. */
const ZMeterFigure = z.number().finite().min(0, "must be at least 0").max(1e12, "must be at most 1e12");

const ZCalendarTrigger = z
  .object({
    kind: z.literal("CALENDAR"),
    every: ZEvery,
    unit: z.enum(RECURRENCE_UNITS),
    startDate: ZDate.meta({ description: "The first occurrence; the schedule counts from it." }),
  })
  .meta({ id: "CalendarTrigger" });

const ZMeterTrigger = z
  .object({
    kind: z.literal("METER"),
    query: z
      .string()
      .refine((text) => text.trim().length > 0, "must not be empty")
      .max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`)
      .meta({ description: "KQL over the plant's telemetry whose first row's first column is the meter's reading now (running hours, cycles, tonnes). Compiled at save: bad KQL is 400 INVALID_QUERY with line and column." }),
    every: ZMeterFigure.refine((value) => value > 0, "must be more than 0").meta({ description: "Due every this much of the meter." }),
    unit: z.string().trim().min(1, "must not be empty").max(40, "must be at most 40 characters").meta({ description: "The meter's unit, e.g. `h`, `cycles`, `t`." }),
    startReading: ZMeterFigure.meta({ description: "The reading the schedule counts from; the first occurrence is at startReading + every." }),
  })
  .meta({ id: "MeterTrigger" });

const ZPlanTrigger = z.discriminatedUnion("kind", [ZCalendarTrigger, ZMeterTrigger]).meta({ id: "PlanTrigger" });

const ZChecklistItemInput = z
  .object({
    text: z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters"),
    kind: z.enum(CHECKLIST_ITEM_KINDS),
    unit: z.string().trim().max(40, "must be at most 40 characters").nullish(),
    min: z.number().finite().nullish(),
    max: z.number().finite().nullish(),
    required: z.boolean(),
  })
  .refine((item) => item.min == null || item.max == null || item.min <= item.max, { message: "must not be more than max", path: ["min"] })
  .refine((item) => item.kind === "READING" || (item.min == null && item.max == null && item.unit == null), { message: "unit, min and max belong to READING items", path: ["kind"] });

/** A checklist item as stored and answered: its id (`1`, `2`, … in the order written) is what a close-out names. */
export const ZChecklistItem = z
  .object({
    itemId: z.string(),
    text: z.string(),
    kind: z.enum(CHECKLIST_ITEM_KINDS),
    unit: z.string().nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
    required: z.boolean(),
  })
  .meta({ id: "ChecklistItem" });

export const ZMaintenancePlanInput = z
  .object({
    title: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
    description: z.string().max(4000, "must be at most 4000 characters").nullish(),
    assetTagNumber: ZId,
    activityKind: z.string().min(1, "must not be empty"),
    assignedToRole: z.string().min(1, "must not be empty"),
    priority: z.string().min(1, "must not be empty"),
    estimatedTimeInHours: z.number().finite().gt(0, "must be more than 0").max(10_000, "must be at most 10000"),
    requiredPersonCount: z.number().int("must be a whole number").min(1, "must be at least 1").max(100, "must be at most 100"),
    trigger: ZPlanTrigger,
    leadTimeDays: z.number().int("must be a whole number").min(0, "must be at least 0").max(PLAN_LIMITS.leadTimeDays, `must be at most ${PLAN_LIMITS.leadTimeDays}`),
    schedule: z.enum(PLAN_SCHEDULES).meta({ description: "FIXED: occurrences follow the schedule; FLOATING: the next one counts from the last close-out's doneDate (or the meter's reading then)." }),
    checklist: z.array(ZChecklistItemInput).max(PLAN_LIMITS.checklistItems, `must list at most ${PLAN_LIMITS.checklistItems} items`).nullish(),
    enabled: z.boolean(),
  })
  .meta({ id: "MaintenancePlanInput", description: "Body of POST and PUT maintenance-plans (extension). Unknown members are ignored." });

export const ZMaintenancePlan = z
  .object({
    id: z.string(),
    plantId: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    assetTagNumber: z.string(),
    activityKind: z.string(),
    assignedToRole: z.string(),
    priority: z.string(),
    estimatedTimeInHours: z.number(),
    requiredPersonCount: z.number().int(),
    trigger: ZPlanTrigger,
    leadTimeDays: z.number().int(),
    schedule: z.enum(PLAN_SCHEDULES),
    checklist: z.array(ZChecklistItem),
    enabled: z.boolean(),
    nextDueDate: ZDate.nullable().meta({ description: "CALENDAR: the next occurrence not yet opened; METER: the forecast date of nextDueReading at the meter's recent rate (null when the meter does not move)." }),
    lastReading: z.number().nullable().meta({ description: "METER: the meter's reading at the last evaluation; null for CALENDAR or before the first." }),
    lastReadingAt: ZTimestamp.nullable(),
    nextDueReading: z.number().nullable().meta({ description: "METER: the reading at which the next task opens." }),
    ratePerDay: z.number().nullable().meta({ description: "METER: the meter's recent rate (units per day) the forecast uses." }),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: "MaintenancePlan" });

export const ZMaintenancePlanPage = paginated(ZMaintenancePlan, "MaintenancePlanPage");

export const ZMaintenancePlansQuery = ZPageQuery.extend({
  assetTagNumber: z.string().optional().meta({ description: "Only the plans of this asset (exact)." }),
});

export const ZPlanRunResult = z
  .object({
    opened: z.array(z.string()).meta({ description: "Ids of the tasks this run opened (none when nothing was due or it was already open)." }),
    nextDueDate: ZDate.nullable(),
    nextDueReading: z.number().nullable(),
  })
  .meta({ id: "PlanRunResult", description: "Answer of POST maintenance-plans/{planId}/run." });

/** One item of a close-out's `checklist` (POST tasks/{taskId}/close-out). */
export const ZChecklistAnswer = z.object({
  itemId: z.string().min(1, "must not be empty").max(20, "must be at most 20 characters"),
  done: z.boolean(),
  reading: z.number().finite().nullish(),
  note: z.string().max(1000, "must be at most 1000 characters").nullish(),
});

/** A checklist item's result as the job record keeps it. */
export const ZChecklistResult = z
  .object({
    itemId: z.string(),
    text: z.string(),
    kind: z.enum(CHECKLIST_ITEM_KINDS),
    required: z.boolean(),
    done: z.boolean(),
    reading: z.number().nullable(),
    unit: z.string().nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
    note: z.string().nullable(),
    outOfRange: z.boolean().meta({ description: "A reading outside [min, max]: kept as read, and a follow-up task opened." }),
    followUpTaskId: z.string().nullable().meta({ description: "The corrective task an out-of-range reading opened." }),
  })
  .meta({ id: "ChecklistResult" });

export type TChecklistAnswer = z.infer<typeof ZChecklistAnswer>;
export type TChecklistResult = z.infer<typeof ZChecklistResult>;
export type TPlanTrigger = z.infer<typeof ZPlanTrigger>;
export type TChecklistItem = z.infer<typeof ZChecklistItem>;
export type TMaintenancePlanInput = z.input<typeof ZMaintenancePlanInput>;
export type TMaintenancePlanParsed = z.output<typeof ZMaintenancePlanInput>;
export type TMaintenancePlan = z.infer<typeof ZMaintenancePlan>;
export type TMaintenancePlansQuery = z.output<typeof ZMaintenancePlansQuery>;
export type TPlanRunResult = z.infer<typeof ZPlanRunResult>;
