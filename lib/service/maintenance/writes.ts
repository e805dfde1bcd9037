/** The maintenance writes: task creation (with Idempotency-Key), task transitions, stock-level submission. */
import { createHash } from "node:crypto";
import { ApiError, invalidInput, type FieldProblem } from "@/lib/contract/errors";
import { TASK_TRANSITIONS, ZStockLevel, ZTaskCreation, ZTransitionRequest, taskDateProblems, type TLookupKind } from "@/lib/contract/maintenance";
import { parseWith } from "../platform/http/body";
import { quoteId } from "./context";
import type { Operation, OperationResult } from "./operation";
import { existingPart, reads } from "./reads";

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
  const problems: FieldProblem[] = taskDateProblems(task, createdDate);
  const lookups: [TLookupKind, string | null | undefined][] = [
    ["activityKind", task.activityKind],
    ["assignedToRole", task.assignedToRole],
    ["priority", task.priority],
  ];
  for (const [kind, value] of lookups) {
    if (value === null || value === undefined) continue;
    const allowedValues = await ctx.store.allowedLookupValues(plant.id, kind);
    if (!allowedValues.includes(value)) {
      problems.push({ field: kind, problem: `not a value configured for plant ${plant.id}`, allowedValues } as FieldProblem);
    }
  }
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

export const transitionTask: Operation = async (ctx, plant, input) => {
  const task = (await reads.getTask(ctx, plant, input)).value as { id: string; status: keyof typeof TASK_TRANSITIONS };
  const taskId = task.id;
  const { to, remark, by } = parseWith(ZTransitionRequest, input.body(), "transition");
  const allowed = TASK_TRANSITIONS[task.status];
  const actor = { by: by ?? input.client, client: input.client };
  if (!allowed.includes(to) || !(await ctx.store.transitionTask(taskId, task.status, to, remark ?? null, actor))) {
    const current = (await ctx.store.getTask(plant.id, taskId))?.status ?? task.status;
    const allowedNow = TASK_TRANSITIONS[current];
    throw new ApiError(
      "INVALID_TRANSITION",
      `A task in ${current} cannot move to ${to}; allowed: ${allowedNow.length > 0 ? allowedNow.join(", ") : "none"}.`,
      [{ field: "to", problem: "transition not allowed", from: current, allowedValues: allowedNow }],
    );
  }
  return { value: writeSuccess([{ id: taskId, from: task.status, to }]) };
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
  await ctx.store.submitStockLevel(plant.id, partId, { quantity: level.quantity, unit: level.unit, remark: level.remark ?? null, isShort, submittedAt });
  return { value: writeSuccess([{ partId, quantity: level.quantity, unit: level.unit, isShort, submittedAt }]) };
};
