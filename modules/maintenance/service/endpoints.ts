/**
 * The maintenance interface as one table: each operation of the contract
 * (MAINTENANCE_OPERATIONS: method, path, schemas) with its documentation (for the OpenAPI
 * document) and its domain function (reads.ts, writes.ts). The HTTP routes authenticate the plant
 * token and call the same function the dashboard's embedded client calls.
 */
import { z } from "zod";
import { ZId } from "@/lib/contract/common";
import type { ServiceErrorCode } from "@/lib/contract/errors";
import { MAINTENANCE_OPERATIONS, type MaintenanceOperation, type MaintenanceOperationId } from "@/modules/maintenance/contract/maintenance";
import { ZAttachmentBytes } from "@/modules/maintenance/contract/attachments";
import { readJsonBody } from "@/lib/platform/http/body";
import { conditionalGet } from "@/lib/platform/http/conditional";
import { json } from "@/lib/platform/http/respond";
import type { Route } from "@/lib/platform/http/router";
import type { ApiContribution, ApiOperation } from "@/lib/platform/openapi";
import { authorizePlant, queryObject, type MaintenanceContext } from "./context";
import type { Operation } from "./operation";
import { reads } from "./reads";
import { closeOutTask, createTask, submitStockLevel, transitionTask, updatePart, updateTask } from "./writes";
import { PLAN_DOCS, planOperations } from "./plan-operations";
import { RELIABILITY_DOCS, reliabilityOperations } from "./reliability";
import { ATTACHMENT_DOCS, attachmentOperations } from "./attachments";

import { MAINTENANCE_BASE } from "@/lib/contract/spec-paths";

/** The domain function of every operation. */
export const MAINTENANCE_HANDLERS: Record<MaintenanceOperationId, Operation> = {
  ...reads,
  createTask,
  transitionTask,
  updateTask,
  closeOutTask,
  submitStockLevel,
  updatePart,
  ...planOperations,
  ...reliabilityOperations,
  ...attachmentOperations,
};

interface OperationDoc {
  summary: string;
  description: string;
  headers?: ApiOperation["headers"];
  responseDescription: string;
  errors: ServiceErrorCode[];
}

/** Every maintenance request can fail the common checks (docs/api.md §3). */
const COMMON_ERRORS: ServiceErrorCode[] = ["UNAUTHORIZED", "RATE_LIMITED", "INVALID_INPUT", "PLANT_NOT_FOUND", "FORBIDDEN", "SERVICE_UNAVAILABLE"];
const BODY_ERRORS: ServiceErrorCode[] = ["PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"];

const PATH_PARAMS = {
  plantId: { description: "Plant id; a malformed one gives 400 naming it.", schema: ZId },
  taskId: { description: "Task id.", schema: ZId },
  partId: { description: "Part id.", schema: ZId },
  planId: { description: "Maintenance plan id.", schema: ZId },
  attachmentId: { description: "Attachment id.", schema: ZId },
};

const pageOf = (what: string) => `Paginated envelope of ${what}.`;

const DOCS: Record<MaintenanceOperationId, OperationDoc> = {
  listJobsDone: {
    summary: "Completed jobs",
    description:
      "Ordered by doneDate descending, then id ascending. Date filters apply to doneDate, inclusive.",
    responseDescription: pageOf("job done records"),
    errors: [],
  },
  listJobsPlanned: {
    summary: "Planned jobs",
    description:
      "Ordered by dueDate ascending, then id. Date filters apply to dueDate, inclusive.",
    responseDescription: pageOf("planned job records"),
    errors: [],
  },
  listAssets: {
    summary: "Registered assets",
    description:
      "Ordered by tagNumber. The hierarchy is area > line > machine > component, linked by parentTagNumber.",
    responseDescription: pageOf("asset records"),
    errors: [],
  },
  listTasks: {
    summary: "Tasks",
    description:
      "Ordered by createdDate descending, then id ascending. Extension: `assignee` keeps the tasks assigned to that username (the dashboard's \"My work\"); each task carries `assignee`, `proposedDueDate` and `updatedAt`.",
    responseDescription: pageOf("task records"),
    errors: [],
  },
  createTask: {
    summary: "Create a task",
    description:
      "The new task's status is NEED_APPROVAL; `data` is `[{ id }]`. The creation is the first step of the task's history, with `by` as for transitions. Lookup-valued fields must be values configured for the plant (400 whose `data` lists `allowedValues`). An unknown asset tag gives 412 ASSET_NOT_FOUND. With `Idempotency-Key`, a retry returns the first result (header `idempotent-replayed: true`) without creating a second task; the same key with a different body gives 400.",
    headers: [
        {
          name: "Idempotency-Key",
          description: "1–200 printable ASCII characters, unique per intended task; remembered per plant.",
          schema: z.string(),
        },
      ],
    responseDescription: "Write result with `data: [{ id }]`.",
    errors: [...BODY_ERRORS, "ASSET_NOT_FOUND"],
  },
  getTask: {
    summary: "One task (extension)",
    description:
      "The task record itself, not an envelope.",
    responseDescription: "The task.",
    errors: ["TASK_NOT_FOUND"],
  },
  listTaskTransitions: {
    summary: "A task's history (extension)",
    description:
      "The task's creation (`from: null`) and every move since, oldest first, each with `at` (when), `remark`, `by` (whom the caller acted for, as it named them in the write's `by`, else the calling client) and `client` (the plant token's id that made it). Steps recorded before attribution was kept have `by` and `client` null.",
    responseDescription: pageOf("task transitions"),
    errors: ["TASK_NOT_FOUND"],
  },
  transitionTask: {
    summary: "Move a task to another status (extension)",
    description:
      "A postponement may carry `dueDate`: moving to POSTPONEMENT_NEED_APPROVAL keeps it as the task's `proposedDueDate`, moving to POSTPONED makes it (or the proposed one) the task's `dueDate`; not before today, and only with those two moves (400). Allowed: NEED_APPROVAL→PENDING|CLOSED; PENDING→POSTPONEMENT_NEED_APPROVAL|NEED_CONFIRMATION; POSTPONEMENT_NEED_APPROVAL→POSTPONED|PENDING; POSTPONED→PENDING; NEED_CONFIRMATION→CLOSED|NOT_CLOSED; NOT_CLOSED→PENDING. Any other move, including to the same status, gives 412 INVALID_TRANSITION. `data` is `[{ id, from, to }]`. Every move is kept in the task's history (GET transitions) with its remark, time and `by`: an application acting for a person names them there; without it the plant token is recorded.",
    responseDescription: "Write result with `data: [{ id, from, to }]`.",
    errors: [...BODY_ERRORS, "TASK_NOT_FOUND", "INVALID_TRANSITION"],
  },
  updateTask: {
    summary: "Edit a task (extension)",
    description:
      "Changes the members sent (taskTitle, taskDescription, activityKind, assignedToRole, priority, dueDate, incidentDate, assignee); `null` clears an optional one. Checked as at creation: lookup values of the plant, dueDate not before createdDate, incidentDate not after it (400). A closed task gives 412 TASK_CLOSED. With `ifUpdatedAt` (the task's `updatedAt` as the editor read it) an edit of a task that changed since gives 412 TASK_CHANGED, naming when, and writes nothing. The edit is kept in the task's history as a step from and to its current status, whose remark says what changed (e.g. `Assigned to Ann Smith`). `data` is `[{ id, changed }]`.",
    responseDescription: "Write result with `data: [{ id, changed }]`.",
    errors: [...BODY_ERRORS, "TASK_NOT_FOUND", "TASK_CLOSED", "TASK_CHANGED"],
  },
  closeOutTask: {
    summary: "Close out a task: job record and stock moves (extension)",
    description:
      "Closes a task in PENDING (through NEED_CONFIRMATION: two history steps), NEED_CONFIRMATION or NEED_APPROVAL, and in the same transaction writes its job-done record `<taskId>-J` (jobTitle, activityKind, asset and dueDate from the task; totalTimeUsedInHours = hoursWorked, requiredPersonCount = personCount, carriedOutByUser = carriedOutBy or the task's assignee, workOrder = `{ id: taskId, remark: note }`, partsUsed, failure/cause/remedy codes) and takes every part used off its stock, with a stock-level history row (`countedBy` = `by`). Nothing is written unless all of it is. Codes must be the plant's lookup values (`failureCode`, `causeCode`, `remedyCode`); a part used must exist (400), be counted in whole units when its unit is PCS, SET, BOX, PAIR or ROLL (400), be given in its own unit (412 UNIT_MISMATCH) and be in stock (412 INSUFFICIENT_STOCK). A task in another status gives 412 INVALID_TRANSITION, so a second close-out never writes a second record; with `Idempotency-Key` a retry answers the first result (header `idempotent-replayed: true`). `data` is `[{ id, from, to, jobId, stock: [{ partId, quantity, isShort }] }]`.",
    headers: [
      {
        name: "Idempotency-Key",
        description: "1–200 printable ASCII characters, one per close-out attempt; a retry with the same key and body answers the first result.",
        schema: z.string(),
      },
    ],
    responseDescription: "Write result with `data: [{ id, from, to, jobId, stock }]`.",
    errors: [...BODY_ERRORS, "TASK_NOT_FOUND", "INVALID_TRANSITION", "UNIT_MISMATCH", "INSUFFICIENT_STOCK"],
  },
  submitStockLevel: {
    summary: "Submit a part's stock level",
    description:
      "Body `id` must equal the path's partId (400). An unknown part gives 404 PART_NOT_FOUND, checked before the body; a unit other than the part's own gives 412 UNIT_MISMATCH. The submission becomes the part's current level and is kept as history. `isShort` defaults to quantity below the part's reorder point. Extensions: a unit counted in whole items (PCS, SET, BOX, PAIR, ROLL) takes only whole numbers (400); `by` names who counted (history `countedBy`).",
    responseDescription: "Write result with `data: [{ partId, quantity, unit, isShort, submittedAt }]`.",
    errors: [...BODY_ERRORS, "PART_NOT_FOUND", "UNIT_MISMATCH"],
  },
  updatePart: {
    summary: "Set a part's reorder level and quantity (extension)",
    description:
      "Changes the members sent: `reorderLevel` (below it the part is short) and `reorderQuantity` (how much to order then; null: unknown), each 0 to 1,000,000,000, whole numbers for a part counted in PCS, SET, BOX, PAIR or ROLL (400). The part's `isShort` is decided again from its current level and the new reorder level; its count and `updatedAt` are not changed. An unknown part gives 404 PART_NOT_FOUND. `data` is `[{ id, changed, isShort }]`.",
    responseDescription: "Write result with `data: [{ id, changed, isShort }]`.",
    errors: [...BODY_ERRORS, "PART_NOT_FOUND"],
  },
  listLookupValues: {
    summary: "Company-specific lookup values (extension)",
    description:
      "Values of activityKind, assignedToRole and priority configured for the plant's customer, ordered by kind then the customer's own order.",
    responseDescription: pageOf("lookup values"),
    errors: [],
  },
  listParts: {
    summary: "Spare parts with their current stock level (extension)",
    description:
      "Ordered by id. Each part carries `reorderLevel` (below it the part is short) and `reorderQuantity` (how much to order then).",
    responseDescription: pageOf("parts"),
    errors: [],
  },
  listStockLevels: {
    summary: "Stock-level history of a part (extension)",
    description:
      "Every accepted submission, newest first.",
    responseDescription: pageOf("stock-level submissions"),
    errors: ["PART_NOT_FOUND"],
  },
  ...PLAN_DOCS,
  getReliability: { ...RELIABILITY_DOCS.getReliability, errors: [...RELIABILITY_DOCS.getReliability.errors] },
  ...ATTACHMENT_DOCS,
};

export const maintenanceApi: ApiContribution = {
  operations: (Object.keys(MAINTENANCE_OPERATIONS) as MaintenanceOperationId[]).map((id) => {
    const operation: MaintenanceOperation = MAINTENANCE_OPERATIONS[id];
    const { method, path } = operation;
    const { responseDescription, errors, ...doc } = DOCS[id];
    return {
      ...doc,
      method,
      path: MAINTENANCE_BASE + path,
      operationId: id,
      query: operation.query as ApiOperation["query"],
      requestBody: operation.body ? { schema: operation.body } : operation.rawBody ? { schema: ZAttachmentBytes, contentTypes: operation.rawBody.contentTypes } : undefined,
      response: { schema: operation.response, description: responseDescription, contentTypes: operation.rawResponse?.contentTypes },
      tag: "Maintenance",
      security: ["plantToken"],
      pathParams: PATH_PARAMS,
      errors: [...COMMON_ERRORS, ...errors],
      // A file is answered whole each time (its ETag is its SHA-256, but no 304 is promised).
      conditional: method === "GET" && !operation.rawResponse,
    };
  }),
  securitySchemes: {
    plantToken: {
      type: "http",
      scheme: "bearer",
      description: "Opaque plant-scoped token issued with `npm run ops -- token issue --plant <plantId>`; revocable, optional expiry.",
    },
  },
  notes: [
    "**Maintenance checks**, in this order: token (401 UNAUTHORIZED with `WWW-Authenticate: Bearer`; then 429 RATE_LIMITED with `Retry-After` over the per-token budget, default 1,200 requests per minute) → plant id syntax (400) → plant exists (404 PLANT_NOT_FOUND) → token's plant is the path's plant (403 FORBIDDEN) → path resources such as the task or part (404) → parameters and body (400) → preconditions (412).",
    "**Writes**: task creation, transitions and stock levels each run in one database transaction (SQLite, or PostgreSQL when configured); a refused write changes nothing. New task ids are `<plantId>-T<6 digits>`. `Idempotency-Key` values are remembered per plant; only successful creations are remembered, so a corrected retry after a 400 or 412 can reuse its key.",
    "**Resources in the path** (task, part) are checked after the plant and before the body: an unknown part gives 404 PART_NOT_FOUND even when the body is also wrong. Dates are UTC calendar dates; `createdDate` defaults to today in UTC.",
    "**Pagination**: `page` ≥ 1 (default 1), `pageSize` 1–1000 (default 100), digits only; anything else gives 400. A page past the end gives `data: []`; `totalPages` is 0 when nothing matches. Unknown query parameters are ignored; optional fields without a value are `null`.",
  ],
};

export function createMaintenanceRoutes(ctx: MaintenanceContext): Route[] {
  return (Object.keys(MAINTENANCE_OPERATIONS) as MaintenanceOperationId[]).map((id) => {
    const contract: MaintenanceOperation = MAINTENANCE_OPERATIONS[id];
    const operation = MAINTENANCE_HANDLERS[id];
    return {
      method: contract.method,
      pattern: MAINTENANCE_BASE + contract.path,
      maxBodyBytes: contract.rawBody?.maxBytes,
      handler: async (req, params) => {
        const { plant, tokenId } = await authorizePlant(req, ctx, params.plantId!);
        const result = await operation(ctx, plant, {
          params,
          query: queryObject(req),
          body: () => readJsonBody(req),
          file: () => ({ bytes: req.body, contentType: req.headers["content-type"], tooLarge: req.bodyTooLarge ?? false }),
          idempotencyKey: req.headers["idempotency-key"],
          client: tokenId,
        });
        if (result.bytes) return { status: 200, headers: result.headers ?? {}, body: [result.bytes] };
        return conditionalGet(req, json(result.value, 200, result.headers));
      },
    };
  });
}
