/**
 * The maintenance writes: task creation (with Idempotency-Key), task transitions, task edits, the
 * close-out (job record and stock moves), stock-level submission.
 */
import { createHash } from "node:crypto";
import { ApiError, invalidInput, type FieldProblem } from "@/lib/contract/errors";
import {
  CLOSE_OUT_FROM,
  COUNTED_UNITS,
  TASK_TRANSITIONS,
  ZCloseOut,
  ZPartUpdate,
  ZStockLevel,
  ZTaskCreation,
  ZTaskUpdate,
  ZTransitionRequest,
  taskDateProblems,
  type TLookupKind,
  type TTask,
  type TTaskStatus,
} from "@/modules/maintenance/contract/maintenance";
import { parseWith } from "@/lib/platform/http/body";
import type { MaintenanceContext } from "./context";
import { quoteId } from "./context";
import type { Operation, OperationResult } from "./operation";
import { existingPart, existingTask } from "./reads";
import type { TaskChanges } from "@/modules/maintenance/store";
import { checklistAtCloseOut } from "./plan-checklist";

/** Printable ASCII, as most clients generate (UUIDs, ULIDs, random strings). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw invalidInput("Invalid Idempotency-Key header: 1–200 printable ASCII characters expected.", [
      { field: "Idempotency-Key", problem: "malformed" },
    ]);
  }
  return key;
}

/** The stored first answer to a key; a different body under the same key is a client bug (400). */
function replay(stored: { requestHash: string; responseBody: string }, requestHash: string): OperationResult {
  if (stored.requestHash !== requestHash) {
    throw invalidInput("This Idempotency-Key was already used with a different request body.", [
      { field: "Idempotency-Key", problem: "reused with a different body" },
    ]);
  }
  return { value: JSON.parse(stored.responseBody), headers: { "idempotent-replayed": "true" } };
}

/** The write result of a success (status and code SUCCESS, message null). */
export function writeSuccess(data: unknown[] = []) {
  return { status: "SUCCESS" as const, code: "SUCCESS" as const, message: null, data };
}

/** The lookup-valued fields among `fields` whose value is not configured for the plant. */
export async function lookupProblems(ctx: MaintenanceContext, plantId: string, fields: [TLookupKind, string | null | undefined][]): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  for (const [kind, value] of fields) {
    if (value === null || value === undefined) continue;
    const allowedValues = await ctx.store.allowedLookupValues(plantId, kind);
    if (!allowedValues.includes(value)) {
      problems.push({ field: kind, problem: `not a value configured for plant ${plantId}`, allowedValues } as FieldProblem);
    }
  }
  return problems;
}

function requestHashOf(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex");
}

/** 412 for a move the task's current status does not allow, naming the status and what it allows. */
function invalidTransition(current: TTaskStatus, to: string): ApiError {
  const allowedNow = TASK_TRANSITIONS[current];
  return new ApiError(
    "INVALID_TRANSITION",
    `A task in ${current} cannot move to ${to}; allowed: ${allowedNow.length > 0 ? allowedNow.join(", ") : "none"}.`,
    [{ field: "to", problem: "transition not allowed", from: current, allowedValues: allowedNow }],
  );
}

function currentTask(ctx: MaintenanceContext, plantId: string, input: { params: Record<string, string> }): Promise<TTask> {
  return existingTask(ctx.store, plantId, input.params);
}

export const createTask: Operation = async (ctx, plant, input) => {
  const body = input.body();
  const key = checkIdempotencyKey(input.idempotencyKey);
  const requestHash = createHash("sha256").update(JSON.stringify(body)).digest("hex");
  if (key !== undefined) {
    const stored = await ctx.store.findIdempotencyRecord(plant.id, key);
    if (stored) return replay(stored, requestHash);
  }

  const task = parseWith(ZTaskCreation, body, "task");
  const createdDate = task.createdDate ?? ctx.today();
  const problems: FieldProblem[] = [
    ...taskDateProblems(task, createdDate),
    ...(await lookupProblems(ctx, plant.id, [
      ["activityKind", task.activityKind],
      ["assignedToRole", task.assignedToRole],
      ["priority", task.priority],
    ])),
  ];
  if (problems.length > 0) throw invalidInput(`Invalid task: ${problems[0]!.field}: ${problems[0]!.problem}`, problems);

  const assetId = await ctx.store.findAssetIdByTag(plant.id, task.asset.tagNumber);
  if (!assetId) {
    throw new ApiError("ASSET_NOT_FOUND", `No asset with tag number ${quoteId(task.asset.tagNumber)} in plant ${plant.id}.`, [
      { field: "asset.tagNumber", problem: "unknown tag number" },
    ]);
  }

  const result = await ctx.store.createTask(
    plant.id,
    {
      taskTitle: task.taskTitle,
      taskDescription: task.taskDescription ?? null,
      activityKind: task.activityKind,
      assignedToRole: task.assignedToRole ?? null,
      priority: task.priority,
      createdDate,
      dueDate: task.dueDate ?? null,
      incidentDate: task.incidentDate ?? null,
      assetId,
    },
    { by: task.by ?? input.client, client: input.client },
    key === undefined ? undefined : { key, requestHash, responseFor: (taskId) => JSON.stringify(writeSuccess([{ id: taskId }])) },
  );
  // A concurrent request with the same key may have committed between the lookup and the write.
  if ("replay" in result) return replay(result.replay, requestHash);
  return { value: writeSuccess([{ id: result.taskId }]) };
};

const POSTPONING: readonly TTaskStatus[] = ["POSTPONEMENT_NEED_APPROVAL", "POSTPONED"];

export const transitionTask: Operation = async (ctx, plant, input) => {
  const task = await currentTask(ctx, plant.id, input);
  const taskId = task.id;
  const { to, remark, by, dueDate } = parseWith(ZTransitionRequest, input.body(), "transition");
  if (dueDate && !POSTPONING.includes(to)) {
    throw invalidInput("Invalid transition: dueDate: only a postponement takes a new due date.", [{ field: "dueDate", problem: `only with to ${POSTPONING.join(" or ")}` }]);
  }
  if (dueDate && dueDate < ctx.today()) {
    throw invalidInput(`Invalid transition: dueDate: must not be before today (${ctx.today()}).`, [{ field: "dueDate", problem: `must not be before today (${ctx.today()})` }]);
  }
  // The asked-for date is kept until the next move; an approved postponement sets it as the due date.
  const dates = {
    proposedDueDate: to === "POSTPONEMENT_NEED_APPROVAL" ? (dueDate ?? null) : null,
    dueDate: to === "POSTPONED" ? (dueDate ?? task.proposedDueDate ?? null) : null,
  };
  const actor = { by: by ?? input.client, client: input.client };
  if (!TASK_TRANSITIONS[task.status].includes(to) || !(await ctx.store.transitionTask(taskId, task.status, to, remark ?? null, actor, dates))) {
    const current = (await ctx.store.getTask(plant.id, taskId))?.status ?? task.status;
    throw invalidTransition(current, to);
  }
  return { value: writeSuccess([{ id: taskId, from: task.status, to }]) };
};

function taskClosed(taskId: string): ApiError {
  return new ApiError("TASK_CLOSED", `Task ${quoteId(taskId)} is closed; a closed task cannot be edited.`, [{ field: "status", problem: "task is CLOSED" }]);
}

/** How an edit reads in the task's history: what changed, and to whom it was assigned. */
function describeChanges(changes: TaskChanges): string {
  const fields = Object.keys(changes).filter((field) => field !== "assignee");
  const parts: string[] = [];
  if (changes.assignee !== undefined) {
    const person = changes.assignee;
    parts.push(person ? `Assigned to ${`${person.firstname} ${person.lastname}`.trim() || person.username}` : "Unassigned");
  }
  if (fields.length > 0) parts.push(`Edited: ${fields.join(", ")}`);
  return parts.join("; ");
}

/** The refusal of an edit made on a stale reading of the task: nothing was written. */
function taskChanged(taskId: string, seen: string, now: TTask | undefined): ApiError {
  return new ApiError(
    "TASK_CHANGED",
    `Task ${quoteId(taskId)} was changed${now?.updatedAt ? ` at ${now.updatedAt}` : ""}, after the version this edit was made on (${seen}); nothing was saved. Read the task again and repeat the edit.`,
    [{ field: "ifUpdatedAt", problem: `task changed${now?.updatedAt ? ` at ${now.updatedAt}` : ""}` }],
  );
}

export const updateTask: Operation = async (ctx, plant, input) => {
  const task = await currentTask(ctx, plant.id, input);
  const { by, ifUpdatedAt, ...update } = parseWith(ZTaskUpdate, input.body(), "task update");
  if (task.status === "CLOSED") throw taskClosed(task.id);
  const problems: FieldProblem[] = [
    ...taskDateProblems(update, task.createdDate),
    ...(await lookupProblems(ctx, plant.id, [
      ["activityKind", update.activityKind],
      ["assignedToRole", update.assignedToRole],
      ["priority", update.priority],
    ])),
  ];
  if (problems.length > 0) throw invalidInput(`Invalid task update: ${problems[0]!.field}: ${problems[0]!.problem}`, problems);
  const changes = Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined)) as TaskChanges;
  if (changes.taskTitle === null || changes.activityKind === null || changes.priority === null) {
    throw invalidInput("Invalid task update: taskTitle, activityKind and priority cannot be cleared.", [{ field: "taskTitle", problem: "required" }]);
  }
  const actor = { by: by ?? input.client, client: input.client };
  const outcome = await ctx.store.updateTask(task.id, changes, describeChanges(changes), actor, ifUpdatedAt ?? undefined);
  if (outcome === "closed") throw taskClosed(task.id);
  if (outcome === "changed") throw taskChanged(task.id, ifUpdatedAt ?? task.updatedAt ?? "", await ctx.store.getTask(plant.id, task.id));
  return { value: writeSuccess([{ id: task.id, changed: Object.keys(changes) }]) };
};

export const closeOutTask: Operation = async (ctx, plant, input) => {
  const task = await currentTask(ctx, plant.id, input);
  const body = input.body();
  const offeredKey = checkIdempotencyKey(input.idempotencyKey);
  // Scoped to the operation and task, so a key reused elsewhere never replays this answer.
  const key = offeredKey === undefined ? undefined : `close-out:${task.id}:${offeredKey}`;
  const requestHash = requestHashOf(body);
  if (key !== undefined) {
    const stored = await ctx.store.findIdempotencyRecord(plant.id, key);
    if (stored) return replay(stored, requestHash);
  }
  const closeOut = parseWith(ZCloseOut, body, "close-out");
  if (!(CLOSE_OUT_FROM as readonly string[]).includes(task.status)) throw invalidTransition(task.status, "CLOSED");

  const today = ctx.today();
  const doneDate = closeOut.doneDate ?? today;
  const problems: FieldProblem[] = await lookupProblems(ctx, plant.id, [
    ["failureCode", closeOut.failureCode],
    ["causeCode", closeOut.causeCode],
    ["remedyCode", closeOut.remedyCode],
  ]);
  if (doneDate > today) problems.push({ field: "doneDate", problem: `must not be after today (${today})` });
  if (doneDate < task.createdDate) problems.push({ field: "doneDate", problem: `must not be before the task's createdDate (${task.createdDate})` });
  const carriedOutBy = closeOut.carriedOutBy ?? task.assignee ?? null;
  if (!carriedOutBy) problems.push({ field: "carriedOutBy", problem: "required: the task has no assignee" });
  const mismatches: FieldProblem[] = [];
  for (const [index, line] of closeOut.partsUsed.entries()) {
    const field = `partsUsed[${index}]`;
    const part = await ctx.store.findPart(plant.id, line.partId);
    if (!part) {
      problems.push({ field: `${field}.partId`, problem: `no part ${quoteId(line.partId)} in plant ${plant.id}` });
      continue;
    }
    if (COUNTED_UNITS.includes(part.unit) && !Number.isInteger(line.quantity)) {
      problems.push({ field: `${field}.quantity`, problem: `must be a whole number: ${part.id} is counted in ${part.unit}` });
    }
    if (line.unit && line.unit !== part.unit) {
      mismatches.push({ field: `${field}.unit`, problem: `part ${part.id} is counted in ${part.unit}, not ${line.unit}`, allowedValues: [part.unit] } as FieldProblem);
    }
  }
  const assetId = (await ctx.store.findAssetIdByTag(plant.id, task.asset.tagNumber))!;
  const checklist = checklistAtCloseOut(task, closeOut.checklist, { assetId, today, activityKinds: await ctx.store.allowedLookupValues(plant.id, "activityKind") });
  problems.push(...checklist.problems);
  if (problems.length > 0) throw invalidInput(`Invalid close-out: ${problems[0]!.field}: ${problems[0]!.problem}`, problems);
  if (mismatches.length > 0) throw new ApiError("UNIT_MISMATCH", `Invalid close-out: ${mismatches[0]!.problem}.`, mismatches);

  const by = closeOut.by ?? input.client;
  const result = await ctx.store.closeOutTask(
    plant.id,
    task.id,
    task.status,
    {
      hoursWorked: closeOut.hoursWorked,
      personCount: closeOut.personCount,
      partsUsed: closeOut.partsUsed.map(({ partId, quantity }) => ({ partId, quantity })),
      failureCode: closeOut.failureCode ?? null,
      causeCode: closeOut.causeCode ?? null,
      remedyCode: closeOut.remedyCode ?? null,
      note: closeOut.note ?? null,
      doneDate,
      carriedOutBy: carriedOutBy!,
      downtimeHours: closeOut.downtimeHours === null || closeOut.downtimeHours === undefined ? closeOut.hoursWorked : String(closeOut.downtimeHours),
      checklist: checklist.entries,
    },
    closeOut.note ?? null,
    { by, client: input.client },
    key === undefined
      ? undefined
      : { key, requestHash, responseFor: (jobId, stock) => JSON.stringify(writeSuccess([{ id: task.id, from: task.status, to: "CLOSED", jobId, stock }])) },
    (tx) => ctx.plans.atCloseOut(tx, task.id, doneDate),
  );
  if ("replay" in result) return replay(result.replay, requestHash);
  if ("stale" in result) {
    // Another request moved the task first: a retry of this very attempt (PostgreSQL: committed
    // while this one waited on the task's row) answers its stored result.
    const stored = key === undefined ? undefined : await ctx.store.findIdempotencyRecord(plant.id, key);
    if (stored) return replay(stored, requestHash);
    throw invalidTransition((await ctx.store.getTask(plant.id, task.id))?.status ?? task.status, "CLOSED");
  }
  if ("short" in result) {
    const { partId, inStock, used } = result.short;
    const index = closeOut.partsUsed.findIndex((line) => line.partId === partId);
    throw new ApiError("INSUFFICIENT_STOCK", `Part ${quoteId(partId)} has ${inStock} in stock; the close-out uses ${used}. Count the stock first.`, [
      { field: `partsUsed[${index}].quantity`, problem: "more than in stock", partId, inStock },
    ]);
  }
  return { value: writeSuccess([{ id: task.id, from: task.status, to: "CLOSED", jobId: result.jobId, stock: result.stock }]) };
};

export const submitStockLevel: Operation = async (ctx, plant, input) => {
  const { partId, part } = await existingPart(ctx.store, plant.id, input.params);
  const level = parseWith(ZStockLevel, input.body(), "stock level");
  if (level.id !== partId) {
    throw invalidInput(`Invalid stock level: id ${quoteId(level.id)} does not match the path's part id ${quoteId(partId)}.`, [
      { field: "id", problem: "must equal the partId of the path" },
    ]);
  }
  if (level.unit !== part.unit) {
    throw new ApiError("UNIT_MISMATCH", `Part ${quoteId(partId)} is counted in ${part.unit}, not ${level.unit}.`, [
      { field: "unit", problem: "differs from the part's unit", allowedValues: [part.unit] },
    ]);
  }
  const submittedAt = new Date().toISOString();
  const isShort = level.isShort ?? level.quantity < part.reorderPoint;
  await ctx.store.submitStockLevel(plant.id, partId, {
    quantity: level.quantity,
    unit: level.unit,
    remark: level.remark ?? null,
    isShort,
    submittedAt,
    countedBy: level.by ?? input.client,
  });
  return { value: writeSuccess([{ partId, quantity: level.quantity, unit: level.unit, isShort, submittedAt }]) };
};

export const updatePart: Operation = async (ctx, plant, input) => {
  const { partId, part } = await existingPart(ctx.store, plant.id, input.params);
  const update = parseWith(ZPartUpdate, input.body(), "part update");
  if (COUNTED_UNITS.includes(part.unit)) {
    const problems = (["reorderLevel", "reorderQuantity"] as const)
      .filter((field) => typeof update[field] === "number" && !Number.isInteger(update[field]))
      .map((field) => ({ field, problem: `must be a whole number: ${part.id} is counted in ${part.unit}` }));
    if (problems.length > 0) throw invalidInput(`Invalid part update: ${problems[0]!.field}: ${problems[0]!.problem}`, problems);
  }
  const { isShort } = await ctx.store.updatePartReorder(plant.id, partId, update);
  return { value: writeSuccess([{ id: partId, changed: Object.keys(update), isShort }]) };
};
