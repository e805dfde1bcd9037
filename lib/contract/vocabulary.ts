/**
 * The contract's fixed vocabularies as plain values, without zod: task statuses and their allowed
 * moves, stock units, lookup kinds, page-size bounds. The schemas in maintenance.ts and common.ts
 * are built from these lists, and pages that only need to name a status or a unit import them
 * from here, so zod and the schemas load only where a form or an error needs them
 * (docs/architecture.md, "What the browser loads").
 */

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

export const LOOKUP_KINDS = ["activityKind", "assignedToRole", "priority"] as const;

export const PAGE_SIZE_MAX = 1000;
export const PAGE_SIZE_DEFAULT = 100;
