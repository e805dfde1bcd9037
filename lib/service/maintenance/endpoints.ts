/**
 * The maintenance interface as one table: each endpoint's documentation (for the OpenAPI document)
 * next to its handler (for the router), so the two cannot drift apart.
 */
import { z } from "zod";
import { ZId, ZPageQuery, ZWriteResult } from "@/lib/upstream/schemas/common";
import {
  ZAssetPage,
  ZAssetsQuery,
  ZJobDonePage,
  ZJobsDoneQuery,
  ZJobsPlannedQuery,
  ZLookupValuePage,
  ZLookupValuesQuery,
  ZPartPage,
  ZPartsQuery,
  ZPlannedJobPage,
  ZStockLevel,
  ZStockLevelEntryPage,
  ZTask,
  ZTaskCreation,
  ZTaskPage,
  ZTasksQuery,
  ZTransitionRequest,
} from "@/lib/upstream/schemas/maintenance";
import type { ErrorCode } from "../errors";
import { json } from "../http/respond";
import type { Route } from "../http/router";
import type { ServiceRequest, ServiceResponse } from "../http/types";
import type { ApiContribution, ApiOperation } from "../openapi";
import type { PlantRecord } from "../store/maintenance-store";
import { authorizePlant, queryObject, type MaintenanceContext } from "./context";
import { readers } from "./reads";
import { createTask, submitStockLevel, transitionTask } from "./writes";

const BASE = "/maintenance/v1/plants/{plantId}";

type Handle = (req: ServiceRequest, ctx: MaintenanceContext, plant: PlantRecord, params: Record<string, string>) => ServiceResponse;

interface Endpoint {
  doc: Omit<ApiOperation, "tag" | "security" | "pathParams" | "errors"> & { errors: ErrorCode[] };
  handle: Handle;
}

/** Every maintenance request can fail the common checks (decisions.md §3). */
const COMMON_ERRORS: ErrorCode[] = ["UNAUTHORIZED", "RATE_LIMITED", "INVALID_INPUT", "PLANT_NOT_FOUND", "FORBIDDEN"];
const BODY_ERRORS: ErrorCode[] = ["PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"];

const PATH_PARAMS = {
  plantId: { description: "Plant id; a malformed one gives 400 naming it.", schema: ZId },
  taskId: { description: "Task id.", schema: ZId },
  partId: { description: "Part id.", schema: ZId },
};

function read(reader: (typeof readers)[keyof typeof readers]): Handle {
  return (req, ctx, plant, params) => json(reader(ctx.store, plant.id, queryObject(req), req, params));
}

const pageOf = (what: string) => ({ description: `Paginated envelope of ${what}.` });

const ENDPOINTS: Endpoint[] = [
  {
    doc: {
      method: "GET",
      path: `${BASE}/jobs-done`,
      operationId: "listJobsDone",
      summary: "Completed jobs",
      description: "Ordered by doneDate descending, then id ascending. Date filters apply to doneDate, inclusive.",
      query: ZJobsDoneQuery,
      response: { schema: ZJobDonePage, ...pageOf("job done records") },
      errors: [],
    },
    handle: read(readers.jobsDone),
  },
  {
    doc: {
      method: "GET",
      path: `${BASE}/jobs-planned`,
      operationId: "listJobsPlanned",
      summary: "Planned jobs",
      description: "Ordered by dueDate ascending, then id. Date filters apply to dueDate, inclusive.",
      query: ZJobsPlannedQuery,
      response: { schema: ZPlannedJobPage, ...pageOf("planned job records") },
      errors: [],
    },
    handle: read(readers.jobsPlanned),
  },
  {
    doc: {
      method: "GET",
      path: `${BASE}/assets`,
      operationId: "listAssets",
      summary: "Registered assets",
      description: "Ordered by tagNumber. The hierarchy is area > line > machine > component, linked by parentTagNumber.",
      query: ZAssetsQuery,
      response: { schema: ZAssetPage, ...pageOf("asset records") },
      errors: [],
    },
    handle: read(readers.assets),
  },
  {
    doc: {
      method: "GET",
      path: `${BASE}/tasks`,
      operationId: "listTasks",
      summary: "Tasks",
      description: "Ordered by createdDate descending, then id ascending.",
      query: ZTasksQuery,
      response: { schema: ZTaskPage, ...pageOf("task records") },
      errors: [],
    },
    handle: read(readers.tasks),
  },
  {
    doc: {
      method: "POST",
      path: `${BASE}/tasks`,
      operationId: "createTask",
      summary: "Create a task",
      description:
        "The new task's status is NEED_APPROVAL; `data` is `[{ id }]`. Lookup-valued fields must be values configured for the plant (400 whose `data` lists `allowedValues`). An unknown asset tag gives 412 ASSET_NOT_FOUND. With `Idempotency-Key`, a retry returns the first result (header `idempotent-replayed: true`) without creating a second task; the same key with a different body gives 400.",
      headers: [
        {
          name: "Idempotency-Key",
          description: "1–200 printable ASCII characters, unique per intended task; remembered per plant.",
          schema: z.string(),
        },
      ],
      requestBody: { schema: ZTaskCreation },
      response: { schema: ZWriteResult, description: "Write result with `data: [{ id }]`." },
      errors: [...BODY_ERRORS, "ASSET_NOT_FOUND"],
    },
    handle: (req, ctx, plant) => createTask(req, ctx, plant),
  },
  {
    doc: {
      method: "GET",
      path: `${BASE}/tasks/{taskId}`,
      operationId: "getTask",
      summary: "One task (extension)",
      description: "The task record itself, not an envelope.",
      response: { schema: ZTask, description: "The task." },
      errors: ["TASK_NOT_FOUND"],
    },
    handle: read(readers.task),
  },
  {
    doc: {
      method: "POST",
      path: `${BASE}/tasks/{taskId}/transitions`,
      operationId: "transitionTask",
      summary: "Move a task to another status (extension)",
      description:
        "Allowed: NEED_APPROVAL→PENDING|CLOSED; PENDING→POSTPONEMENT_NEED_APPROVAL|NEED_CONFIRMATION; POSTPONEMENT_NEED_APPROVAL→POSTPONED|PENDING; POSTPONED→PENDING; NEED_CONFIRMATION→CLOSED|NOT_CLOSED; NOT_CLOSED→PENDING. Any other move, including to the same status, gives 412 INVALID_TRANSITION. `data` is `[{ id, from, to }]`. Every move is kept in the task's history.",
      requestBody: { schema: ZTransitionRequest },
      response: { schema: ZWriteResult, description: "Write result with `data: [{ id, from, to }]`." },
      errors: [...BODY_ERRORS, "TASK_NOT_FOUND", "INVALID_TRANSITION"],
    },
    handle: transitionTask,
  },
  {
    doc: {
      method: "PUT",
      path: `${BASE}/parts/{partId}/stock-level`,
      operationId: "submitStockLevel",
      summary: "Submit a part's stock level",
      description:
        "Body `id` must equal the path's partId (400). An unknown part gives 404 PART_NOT_FOUND, checked before the body; a unit other than the part's own gives 412 UNIT_MISMATCH. The submission becomes the part's current level and is kept as history. `isShort` defaults to quantity below the part's reorder point.",
      requestBody: { schema: ZStockLevel },
      response: { schema: ZWriteResult, description: "Write result with `data: [{ partId, quantity, unit, isShort, submittedAt }]`." },
      errors: [...BODY_ERRORS, "PART_NOT_FOUND", "UNIT_MISMATCH"],
    },
    handle: submitStockLevel,
  },
  {
    doc: {
      method: "GET",
      path: `${BASE}/lookup-values`,
      operationId: "listLookupValues",
      summary: "Company-specific lookup values (extension)",
      description: "Values of activityKind, assignedToRole and priority configured for the plant's customer, ordered by kind then the customer's own order.",
      query: ZLookupValuesQuery,
      response: { schema: ZLookupValuePage, ...pageOf("lookup values") },
      errors: [],
    },
    handle: read(readers.lookupValues),
  },
  {
    doc: {
      method: "GET",
      path: `${BASE}/parts`,
      operationId: "listParts",
      summary: "Spare parts with their current stock level (extension)",
      description: "Ordered by id.",
      query: ZPartsQuery,
      response: { schema: ZPartPage, ...pageOf("parts") },
      errors: [],
    },
    handle: read(readers.parts),
  },
  {
    doc: {
      method: "GET",
      path: `${BASE}/parts/{partId}/stock-levels`,
      operationId: "listStockLevels",
      summary: "Stock-level history of a part (extension)",
      description: "Every accepted submission, newest first.",
      query: ZPageQuery,
      response: { schema: ZStockLevelEntryPage, ...pageOf("stock-level submissions") },
      errors: ["PART_NOT_FOUND"],
    },
    handle: read(readers.stockLevels),
  },
];

export const maintenanceApi: ApiContribution = {
  operations: ENDPOINTS.map(({ doc }) => ({
    ...doc,
    tag: "Maintenance",
    security: ["plantToken"],
    pathParams: PATH_PARAMS,
    errors: [...COMMON_ERRORS, ...doc.errors],
  })),
  securitySchemes: {
    plantToken: {
      type: "http",
      scheme: "bearer",
      description: "Opaque plant-scoped token issued with `npm run ops -- token issue --plant <plantId>`; revocable, optional expiry.",
    },
  },
  notes: [
    "**Maintenance checks**, in this order: token (401 UNAUTHORIZED with `WWW-Authenticate: Bearer`; then 429 RATE_LIMITED with `Retry-After` over the per-token budget, default 1,200 requests per minute) → plant id syntax (400) → plant exists (404 PLANT_NOT_FOUND) → token's plant is the path's plant (403 FORBIDDEN) → path resources such as the task or part (404) → parameters and body (400) → preconditions (412).",
    "**Writes**: task creation, transitions and stock levels each run in one SQLite transaction; a refused write changes nothing. New task ids are `<plantId>-T<6 digits>`. `Idempotency-Key` values are remembered per plant; only successful creations are remembered, so a corrected retry after a 400 or 412 can reuse its key.",
    "**Resources in the path** (task, part) are checked after the plant and before the body: an unknown part gives 404 PART_NOT_FOUND even when the body is also wrong. Dates are UTC calendar dates; `createdDate` defaults to today in UTC.",
    "**Pagination**: `page` ≥ 1 (default 1), `pageSize` 1–1000 (default 100), digits only; anything else gives 400. A page past the end gives `data: []`; `totalPages` is 0 when nothing matches. Unknown query parameters are ignored; optional fields without a value are `null`.",
  ],
};

export function createMaintenanceRoutes(ctx: MaintenanceContext): Route[] {
  return ENDPOINTS.map(({ doc, handle }) => ({
    method: doc.method,
    pattern: doc.path,
    handler: (req, params) => handle(req, ctx, authorizePlant(req, ctx, params.plantId!), params),
  }));
}
