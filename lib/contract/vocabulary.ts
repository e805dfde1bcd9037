/**
 * The contract's fixed vocabularies as plain values, without zod: task statuses and their allowed
 * moves, stock units, lookup kinds, page-size bounds. The schemas in maintenance.ts and common.ts
 * are built from these lists, and pages that only need to name a status or a unit import them
 * from here, so zod and the schemas load only where a form or an error needs them
 * (docs/architecture.md, "What the browser loads").
 */

/** Plant ids, part ids, task ids and asset tag numbers (docs/api.md §2): the one pattern, also for configuration and the user store. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const TASK_STATUSES = [
  "PENDING",
  "POSTPONED",
  "NEED_CONFIRMATION",
  "POSTPONEMENT_NEED_APPROVAL",
  "NEED_APPROVAL",
  "CLOSED",
  "NOT_CLOSED",
] as const;

type TaskStatus = (typeof TASK_STATUSES)[number];

/** Allowed task moves (docs/api.md §3); everything else is 412 INVALID_TRANSITION. */
export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  NEED_APPROVAL: ["PENDING", "CLOSED"],
  PENDING: ["POSTPONEMENT_NEED_APPROVAL", "NEED_CONFIRMATION"],
  POSTPONEMENT_NEED_APPROVAL: ["POSTPONED", "PENDING"],
  POSTPONED: ["PENDING"],
  NEED_CONFIRMATION: ["CLOSED", "NOT_CLOSED"],
  NOT_CLOSED: ["PENDING"],
  CLOSED: [],
};

export const STOCK_UNITS = ["PCS", "SET", "BOX", "PAIR", "ROLL", "KG", "G", "L", "ML", "M", "MM"] as const;

/**
 * The lookup-valued fields: the task's three of the spec, and (extension) the failure, cause and
 * remedy codes a close-out records on its job.
 */
export const LOOKUP_KINDS = ["activityKind", "assignedToRole", "priority", "failureCode", "causeCode", "remedyCode"] as const;

/**
 * Units counted in whole items: a stock level or a part used in one of these must be a whole
 * number (2.5 PCS is refused); the others are measured and take decimals.
 */
export const COUNTED_UNITS: readonly string[] = ["PCS", "SET", "BOX", "PAIR", "ROLL"];

/** Statuses in which a task is still work to do ("My work" lists these). */
export const OPEN_TASK_STATUSES = ["NEED_APPROVAL", "PENDING", "POSTPONEMENT_NEED_APPROVAL", "POSTPONED", "NEED_CONFIRMATION", "NOT_CLOSED"] as const;

/** Statuses from which a close-out may close a task (PENDING through NEED_CONFIRMATION, in one transaction). */
export const CLOSE_OUT_FROM = ["PENDING", "NEED_CONFIRMATION", "NEED_APPROVAL"] as const;

export const PAGE_SIZE_MAX = 1000;
export const PAGE_SIZE_DEFAULT = 100;

/** The most rows a telemetry answer may have (docs/api.md §6); the explorer names it in its messages. */
export const MAX_RESULT_ROWS = 500_000;

/** The alarms' (`Events.Severity`) severities, most severe first: charts and lists order them so. */
export const ALARM_SEVERITIES = ["Critical", "Major", "Minor", "Warning"] as const;

/** A maintenance plan's bounds: checklist items, days of lead time, the recurrence's "every". */
export const PLAN_LIMITS = { checklistItems: 100, leadTimeDays: 365, every: 10_000 } as const;

/** The reliability record's longest window, in days. */
export const RELIABILITY_MAX_DAYS = 3660;
