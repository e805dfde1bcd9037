/** The writes: task creation (with Idempotency-Key), task transitions, stock-level submission. */
import { createHash } from "node:crypto";
import {
  TASK_TRANSITIONS,
  ZStockLevel,
  ZTaskCreation,
  ZTransitionRequest,
  type TLookupKind,
} from "@/lib/upstream/schemas/maintenance";
import { ServiceError, invalidInput, type FieldProblem } from "../errors";
import { parseWith, readJsonBody } from "../http/body";
import { json, writeSuccess } from "../http/respond";
import type { ServiceRequest, ServiceResponse } from "../http/types";
import type { PlantRecord } from "../store/maintenance-store";
import { checkPathId, quoteId, type MaintenanceContext } from "./context";

/** Printable ASCII, as most clients generate (UUIDs, ULIDs, random strings). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

function idempotencyKey(req: ServiceRequest): string | undefined {
  const key = req.headers["idempotency-key"];
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw invalidInput("Invalid Idempotency-Key header: 1–200 printable ASCII characters expected.", [
      { field: "Idempotency-Key", problem: "malformed" },
    ]);
  }
  return key;
}

/** The stored first answer to a key; a different body under the same key is a client bug (400). */
function replay(stored: { requestHash: string; responseBody: string }, requestHash: string): ServiceResponse {
  if (stored.requestHash !== requestHash) {
    throw invalidInput("This Idempotency-Key was already used with a different request body.", [
      { field: "Idempotency-Key", problem: "reused with a different body" },
    ]);
  }
  const response = json(null, 200, { "idempotent-replayed": "true" });
  return { ...response, body: stored.responseBody };
}

export function createTask(req: ServiceRequest, ctx: MaintenanceContext, plant: PlantRecord): ServiceResponse {
  const body = readJsonBody(req);
  const key = idempotencyKey(req);
  const requestHash = createHash("sha256").update(JSON.stringify(body)).digest("hex");
  if (key !== undefined) {
    const stored = ctx.store.findIdempotencyRecord(plant.id, key);
    if (stored) return replay(stored, requestHash);
  }

  const input = parseWith(ZTaskCreation, body, "task");
  const createdDate = input.createdDate ?? ctx.today();
  const problems: FieldProblem[] = [];
  if (input.dueDate && input.dueDate < createdDate) problems.push({ field: "dueDate", problem: `must not be before createdDate (${createdDate})` });
  if (input.incidentDate && input.incidentDate > createdDate) {
    problems.push({ field: "incidentDate", problem: `must not be after createdDate (${createdDate})` });
  }
  const lookups: [TLookupKind, string | null | undefined][] = [
    ["activityKind", input.activityKind],
    ["assignedToRole", input.assignedToRole],
    ["priority", input.priority],
  ];
  for (const [kind, value] of lookups) {
    if (value === null || value === undefined) continue;
    const allowedValues = ctx.store.allowedLookupValues(plant.id, kind);
    if (!allowedValues.includes(value)) {
      problems.push({ field: kind, problem: `not a value configured for plant ${plant.id}`, allowedValues } as FieldProblem);
    }
  }
  if (problems.length > 0) throw invalidInput(`Invalid task: ${problems[0]!.field}: ${problems[0]!.problem}`, problems);

  const assetId = ctx.store.findAssetIdByTag(plant.id, input.asset.tagNumber);
  if (!assetId) {
    throw new ServiceError("ASSET_NOT_FOUND", `No asset with tag number ${quoteId(input.asset.tagNumber)} in plant ${plant.id}.`, [
      { field: "asset.tagNumber", problem: "unknown tag number" },
    ]);
  }

  const result = ctx.store.createTask(
    plant.id,
    {
      taskTitle: input.taskTitle,
      taskDescription: input.taskDescription ?? null,
      activityKind: input.activityKind,
      assignedToRole: input.assignedToRole ?? null,
      priority: input.priority,
      createdDate,
      dueDate: input.dueDate ?? null,
      incidentDate: input.incidentDate ?? null,
      assetId,
    },
    key === undefined ? undefined : { key, requestHash, responseFor: (taskId) => writeSuccess([{ id: taskId }]).body },
  );
  // A concurrent request with the same key may have committed between the lookup and the write.
  if ("replay" in result) return replay(result.replay, requestHash);
  return writeSuccess([{ id: result.taskId }]);
}

export function transitionTask(
  req: ServiceRequest,
  ctx: MaintenanceContext,
  plant: PlantRecord,
  params: Record<string, string>,
): ServiceResponse {
  const taskId = checkPathId(params.taskId!, "taskId");
  const task = ctx.store.getTask(plant.id, taskId);
  if (!task) throw new ServiceError("TASK_NOT_FOUND", `Task ${quoteId(taskId)} does not exist in plant ${plant.id}.`);
  const { to, remark } = parseWith(ZTransitionRequest, readJsonBody(req), "transition");
  const allowed = TASK_TRANSITIONS[task.status];
  if (!allowed.includes(to) || !ctx.store.transitionTask(taskId, task.status, to, remark ?? null)) {
    const current = ctx.store.getTask(plant.id, taskId)?.status ?? task.status;
    const allowedNow = TASK_TRANSITIONS[current];
    throw new ServiceError(
      "INVALID_TRANSITION",
      `A task in ${current} cannot move to ${to}; allowed: ${allowedNow.length > 0 ? allowedNow.join(", ") : "none"}.`,
      [{ field: "to", problem: "transition not allowed", from: current, allowedValues: allowedNow }],
    );
  }
  return writeSuccess([{ id: taskId, from: task.status, to }]);
}

export function submitStockLevel(
  req: ServiceRequest,
  ctx: MaintenanceContext,
  plant: PlantRecord,
  params: Record<string, string>,
): ServiceResponse {
  const partId = checkPathId(params.partId!, "partId");
  const part = ctx.store.findPart(plant.id, partId);
  if (!part) throw new ServiceError("PART_NOT_FOUND", `Part ${quoteId(partId)} does not exist in plant ${plant.id}.`);
  const level = parseWith(ZStockLevel, readJsonBody(req), "stock level");
  if (level.id !== partId) {
    throw invalidInput(`Invalid stock level: id ${quoteId(level.id)} does not match the path's part id ${quoteId(partId)}.`, [
      { field: "id", problem: "must equal the partId of the path" },
    ]);
  }
  if (level.unit !== part.unit) {
    throw new ServiceError("UNIT_MISMATCH", `Part ${quoteId(partId)} is counted in ${part.unit}, not ${level.unit}.`, [
      { field: "unit", problem: "differs from the part's unit", allowedValues: [part.unit] },
    ]);
  }
  const submittedAt = new Date().toISOString();
  const isShort = level.isShort ?? level.quantity < part.reorderPoint;
  ctx.store.submitStockLevel(plant.id, partId, { quantity: level.quantity, unit: level.unit, remark: level.remark ?? null, isShort, submittedAt });
  return writeSuccess([{ partId, quantity: level.quantity, unit: level.unit, isShort, submittedAt }]);
}
