/**
 * THE payloads of the maintenance interface (docs/api.md §3). The embedded
 * service validates with them, the dashboard's client parses with them, forms reuse them and the
 * OpenAPI document is generated from them.
 */
import { z } from "@/lib/contract/zod";
import type { Permission } from "@/lib/contract/roles";
import { MAINTENANCE_ROUTES, type MaintenanceRouteId } from "@/lib/contract/routes";
import { ZDate, ZDecimalString, ZId, ZPageQuery, ZTimestamp, ZWriteResult, paginated } from "@/lib/contract/common";
import { ZChecklistAnswer, ZChecklistItem, ZChecklistResult, ZMaintenancePlan, ZMaintenancePlanInput, ZMaintenancePlanPage, ZMaintenancePlansQuery, ZPlanRunResult } from "./maintenance-plans";
import { ZReliability, ZReliabilityQuery } from "./reliability";
import { ZAttachment, ZAttachmentBytes, ZAttachmentPage, ZAttachmentUploadQuery, ZAttachmentsQuery } from "./attachments";
import { ATTACHMENT_MEDIA_TYPES, MAX_ATTACHMENT_BYTES } from "./attachment-files";
import { COUNTED_UNITS, LOOKUP_KINDS, STOCK_UNITS, TASK_STATUSES } from "@/lib/contract/vocabulary";

export { CLOSE_OUT_FROM, COUNTED_UNITS, LOOKUP_KINDS, OPEN_TASK_STATUSES, STOCK_UNITS, TASK_STATUSES, TASK_TRANSITIONS } from "@/lib/contract/vocabulary";

export const ZTaskStatus = z.enum(TASK_STATUSES).meta({ id: "TaskStatus" });
export type TTaskStatus = z.infer<typeof ZTaskStatus>;

export const ZStockUnit = z.enum(STOCK_UNITS).meta({ id: "StockUnit" });

export const ZLookupKind = z.enum(LOOKUP_KINDS).meta({ id: "LookupKind" });
export type TLookupKind = z.infer<typeof ZLookupKind>;

export const ZAssetRef = z
  .object({
    tagNumber: z.string(),
    serialNumber: z.string().nullable(),
    externalReference: z.string().nullable(),
  })
  .meta({ id: "AssetRef", description: "Reference to an asset; serial number and external reference are null when the asset has none." });

export const ZWorkOrder = z.object({ id: z.string(), remark: z.string().nullable() }).meta({ id: "WorkOrder" });

export const ZPartUsed = z
  .object({ partId: z.string(), name: z.string(), quantity: z.number(), unit: ZStockUnit })
  .meta({ id: "PartUsed" });

/**
 * A person as the spec's job record names them (`carriedOutByUser`); also a task's assignee. The
 * service keeps what the calling application sends: the dashboard sends its own users.
 */
export const ZPerson = z
  .object({
    username: z.string().trim().min(1, "must not be empty").max(320, "must be at most 320 characters"),
    firstname: z.string().max(100, "must be at most 100 characters"),
    lastname: z.string().max(100, "must be at most 100 characters"),
  })
  .meta({ id: "Person" });
export type TPerson = z.infer<typeof ZPerson>;

/** What every record of a plant begins with: its own id and its plant's. */
const ZPlantRecord = z.object({ id: z.string(), plantId: z.string() });

export const ZJobDone = ZPlantRecord
  .extend({
    jobTitle: z.string(),
    doneDate: ZDate,
    dueDate: ZDate,
    activityKind: z.string(),
    department: z.string(),
    totalTimeUsedInHours: ZDecimalString,
    requiredPersonCount: z.number().int().min(0),
    isFinal: z.boolean(),
    asset: ZAssetRef,
    workOrder: ZWorkOrder,
    carriedOutByUser: z.object({ firstname: z.string(), lastname: z.string(), username: z.string() }),
    partsUsed: z.array(ZPartUsed),
    taskId: z.string().nullish().meta({ description: "Extension: the task whose close-out wrote this record; null for other jobs." }),
    failureCode: z.string().nullish().meta({ description: "Extension: failure code (lookup value `failureCode`) of the close-out." }),
    causeCode: z.string().nullish().meta({ description: "Extension: cause code (lookup value `causeCode`)." }),
    remedyCode: z.string().nullish().meta({ description: "Extension: remedy code (lookup value `remedyCode`)." }),
    downtimeHours: ZDecimalString.nullish().meta({ description: "Extension: the asset's downtime the close-out gave (default its hours worked); null for other jobs." }),
    checklist: z.array(ZChecklistResult).nullish().meta({ description: "Extension: the task's checklist as closed out; null when it had none." }),
    attachments: z.array(ZAttachment).nullish().meta({ description: "Extension: the files attached to the task whose close-out wrote this record, oldest first; null for other jobs." }),
  })
  .meta({ id: "JobDone" });

export const ZRecurrence = z
  .object({ every: z.number().int().min(1), unit: z.enum(["DAY", "WEEK", "MONTH"]) })
  .meta({ id: "Recurrence" });

export const ZPlannedJob = ZPlantRecord
  .extend({
    jobTitle: z.string(),
    dueDate: ZDate,
    activityKind: z.string(),
    department: z.string(),
    estimatedTimeInHours: ZDecimalString,
    requiredPersonCount: z.number().int().min(0),
    recurrence: ZRecurrence.nullable(),
    asset: ZAssetRef,
    workOrder: ZWorkOrder.nullable(),
    planId: z.string().nullish().meta({ description: "Extension: the maintenance plan this occurrence is of; null for planned jobs written otherwise." }),
  })
  .meta({ id: "PlannedJob" });

export const ZAsset = ZPlantRecord
  .extend({
    tagNumber: z.string(),
    serialNumber: z.string().nullable(),
    externalReference: z.string().nullable(),
    name: z.string(),
    assetType: z.string().meta({ description: "AREA, LINE, or the kind of machine or component." }),
    location: z.string(),
    parentTagNumber: z.string().nullable(),
    manufacturer: z.string().nullable(),
    model: z.string().nullable(),
    criticality: z.enum(["A", "B", "C"]),
  })
  .meta({ id: "Asset" });

export const ZTask = ZPlantRecord
  .extend({
    taskTitle: z.string(),
    taskDescription: z.string().nullable(),
    activityKind: z.string(),
    assignedToRole: z.string().nullable(),
    priority: z.string(),
    status: ZTaskStatus,
    createdDate: ZDate,
    dueDate: ZDate.nullable(),
    incidentDate: ZDate.nullable(),
    asset: ZAssetRef,
    assignee: ZPerson.nullish().meta({ description: "Extension: the person the task is assigned to; null when nobody is." }),
    proposedDueDate: ZDate.nullish().meta({ description: "Extension: the new due date a pending postponement asks for (status POSTPONEMENT_NEED_APPROVAL)." }),
    updatedAt: ZTimestamp.nullish().meta({ description: "Extension: when the task last changed (a move or an edit)." }),
    planId: z.string().nullish().meta({ description: "Extension: the maintenance plan that opened the task; null for others." }),
    checklist: z.array(ZChecklistItem).nullish().meta({ description: "Extension: the checklist to answer at close-out (the plan's when it opened the task); null when none." }),
  })
  .meta({ id: "Task" });

/**
 * Whom a write is done for, as the calling application names them (the dashboard: its signed-in
 * user, `Name <e-mail>`). An extension member of the task creation and transition bodies; the
 * service records it in the task's history, unverified, beside the authenticated client.
 */
export const ZActingFor = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(320, "must be at most 320 characters")
  .regex(/^\P{Cc}*$/u, "must not contain control characters")
  .meta({
    description:
      "Extension: the person the calling application acts for, recorded in the task's history as `by` (as given, not verified). Omitted: the calling client is recorded.",
  });

/**
 * Task creation (docs/api.md §3). Date order against the default createdDate (today, UTC) is
 * checked by the service, which knows "today"; lookup values are checked against the plant's.
 */
export const ZTaskCreation = z
  .object({
    taskTitle: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
    taskDescription: z.string().max(4000, "must be at most 4000 characters").nullish(),
    activityKind: z.string().min(1, "must not be empty"),
    assignedToRole: z.string().min(1, "must not be empty").nullish(),
    priority: z.string().min(1, "must not be empty"),
    createdDate: ZDate.nullish().meta({ description: "Defaults to today (UTC)." }),
    dueDate: ZDate.nullish().meta({ description: "On or after createdDate." }),
    incidentDate: ZDate.nullish().meta({ description: "On or before createdDate." }),
    asset: z.object({
      tagNumber: ZId,
      serialNumber: z.string().nullish(),
      externalReference: z.string().nullish(),
    }),
    by: ZActingFor.nullish(),
  })
  .meta({ id: "TaskCreation", description: "Body of POST tasks. Unknown members are ignored." });

/**
 * Extension: an edit of a task that is not closed (PATCH tasks/{taskId}); members left out stay as
 * they are, `null` clears an optional one. Lookup values and dates are checked as at creation.
 */
export const ZTaskUpdate = z
  .object({
    taskTitle: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters").optional(),
    taskDescription: z.string().max(4000, "must be at most 4000 characters").nullish(),
    activityKind: z.string().min(1, "must not be empty").optional(),
    assignedToRole: z.string().min(1, "must not be empty").nullish(),
    priority: z.string().min(1, "must not be empty").optional(),
    dueDate: ZDate.nullish().meta({ description: "On or after the task's createdDate." }),
    incidentDate: ZDate.nullish().meta({ description: "On or before the task's createdDate." }),
    assignee: ZPerson.nullish().meta({ description: "Whom the task is assigned to; null unassigns." }),
    ifUpdatedAt: ZTimestamp.nullish().meta({
      description: "The task's `updatedAt` as the editor read it: if the task changed since, the edit is refused (412 TASK_CHANGED) and nothing is written. Omitted: last writer wins.",
    }),
    by: ZActingFor.nullish(),
  })
  .refine((update) => Object.keys(update).some((key) => key !== "by" && key !== "ifUpdatedAt"), { message: "names no field to change", path: [] })
  .meta({ id: "TaskUpdate", description: "Body of PATCH tasks/{taskId} (extension). Unknown members are ignored." });

export const ZStockLevel = z
  .object({
    id: ZId.meta({ description: "Part id; must equal the path's partId." }),
    quantity: z.number().finite().min(0, "must be at least 0"),
    unit: ZStockUnit,
    remark: z.string().max(1000, "must be at most 1000 characters").nullish(),
    isShort: z.boolean().nullish().meta({ description: "Defaults to quantity below the part's reorder point." }),
    by: ZActingFor.nullish().meta({ description: "Extension: who counted, kept in the history as `countedBy` (as given, not verified). Omitted: the calling client." }),
  })
  .refine((level) => !COUNTED_UNITS.includes(level.unit) || Number.isInteger(level.quantity), {
    message: `must be a whole number for items counted in ${COUNTED_UNITS.join(", ")}`,
    path: ["quantity"],
  })
  .meta({ id: "StockLevel", description: "Body of PUT stock-level." });

const ZReorderFigure = z.number().finite().min(0, "must be at least 0").max(1_000_000_000, "must be at most 1,000,000,000");

/**
 * PATCH parts/{partId} (extension): a part's reorder level (below it the part is short) and reorder
 * quantity (how much to order then). Whole numbers for parts counted in items (checked by the service).
 */
export const ZPartUpdate = z
  .object({
    reorderLevel: ZReorderFigure.optional(),
    reorderQuantity: ZReorderFigure.nullable().optional().meta({ description: "null: no reorder quantity known." }),
  })
  .refine((update) => update.reorderLevel !== undefined || update.reorderQuantity !== undefined, { message: "names no field to change", path: [] })
  .meta({ id: "PartUpdate", description: "Body of PATCH parts/{partId} (extension). Unknown members are ignored." });

export const ZPart = z
  .object({
    id: z.string(),
    name: z.string(),
    unit: ZStockUnit,
    quantity: z.number(),
    isShort: z.boolean(),
    remark: z.string().nullable(),
    updatedAt: ZTimestamp,
    reorderLevel: z.number().nullish().meta({ description: "Extension: below this level the part is short and should be ordered." }),
    reorderQuantity: z.number().nullish().meta({ description: "Extension: how much to order when the part falls below its reorder level." }),
  })
  .meta({ id: "Part" });

export const ZStockLevelEntry = z
  .object({
    partId: z.string(),
    quantity: z.number(),
    unit: ZStockUnit,
    remark: z.string().nullable(),
    isShort: z.boolean(),
    submittedAt: ZTimestamp,
    countedBy: z.string().nullish().meta({ description: "Extension: who counted (the submission's `by`, else the calling client); for a close-out's stock move, who closed the task. Null for history recorded before it was kept." }),
  })
  .meta({ id: "StockLevelEntry", description: "One accepted stock-level submission, or a stock move written by a close-out." });

export const ZLookupValue = z
  .object({ kind: ZLookupKind, value: z.string(), label: z.string() })
  .meta({ id: "LookupValue" });

export const ZTransitionRequest = z
  .object({
    to: ZTaskStatus,
    remark: z.string().max(1000, "must be at most 1000 characters").nullish(),
    dueDate: ZDate.nullish().meta({
      description:
        "Extension, for postponements: with `to: POSTPONEMENT_NEED_APPROVAL` the new due date asked for (kept as the task's proposedDueDate); with `to: POSTPONED` the new due date (default: the one asked for). Not before today (UTC).",
    }),
    by: ZActingFor.nullish(),
  })
  .meta({ id: "TransitionRequest", description: "Body of POST transitions." });

/** Hours worked: a positive decimal with at most two decimals, up to 10,000 (docs/api.md §3, close-out). */
const ZHoursWorked = z
  .union([z.number(), z.string()])
  .transform((value, ctx) => {
    const text = typeof value === "number" ? String(value) : value.trim();
    if (!/^\d{1,5}(\.\d{1,2})?$/.test(text) || Number(text) <= 0 || Number(text) > 10_000) {
      ctx.addIssue({ code: "custom", message: "must be a number of hours above 0 and at most 10000, with at most two decimals" });
      return z.NEVER;
    }
    return String(Number(text));
  })
  .meta({ description: "Hours worked, e.g. `2.5` or `\"2.5\"`; recorded as the job's totalTimeUsedInHours." });

export const ZPartUsedLine = z.object({
  partId: ZId,
  quantity: z.number().finite().gt(0, "must be more than 0").max(1_000_000, "must be at most 1000000"),
  unit: ZStockUnit.nullish().meta({ description: "Must be the part's own unit when given (412 UNIT_MISMATCH otherwise)." }),
});

/**
 * Extension: the close-out of a task (POST tasks/{taskId}/close-out): the task moves to CLOSED,
 * a job-done record is written and the stock of every part used goes down, in one transaction.
 */
export const ZCloseOut = z
  .object({
    hoursWorked: ZHoursWorked,
    personCount: z.number().int("must be a whole number").min(1, "must be at least 1").max(100, "must be at most 100"),
    partsUsed: z
      .array(ZPartUsedLine)
      .max(50, "must list at most 50 parts")
      .default([])
      .refine((lines) => new Set(lines.map((line) => line.partId)).size === lines.length, { message: "names a part twice; give each part once with its total" }),
    failureCode: z.string().min(1, "must not be empty").nullish(),
    causeCode: z.string().min(1, "must not be empty").nullish(),
    remedyCode: z.string().min(1, "must not be empty").nullish(),
    note: z.string().max(4000, "must be at most 4000 characters").nullish().meta({ description: "Recorded as the job's workOrder.remark." }),
    doneDate: ZDate.nullish().meta({ description: "When the work was done; defaults to today (UTC), not after it." }),
    carriedOutBy: ZPerson.nullish().meta({ description: "Who did the work; defaults to the task's assignee (one of the two is required)." }),
    downtimeHours: z
      .number()
      .finite()
      .min(0, "must be at least 0")
      .max(10_000, "must be at most 10000")
      .nullish()
      .meta({ description: "Hours the asset was down for this job (reliability's downtime); defaults to hoursWorked." }),
    checklist: z
      .array(ZChecklistAnswer)
      .max(100, "must list at most 100 items")
      .nullish()
      .meta({ description: "The answers to the task's checklist, by itemId: every required item done, every required READING with a number." }),
    by: ZActingFor.nullish(),
  })
  .meta({ id: "CloseOut", description: "Body of POST tasks/{taskId}/close-out (extension)." });

export const ZTaskTransition = z
  .object({
    taskId: z.string(),
    from: ZTaskStatus.nullable().meta({ description: "Null for the task's creation." }),
    to: ZTaskStatus,
    remark: z.string().nullable(),
    at: ZTimestamp,
    by: z.string().nullable().meta({
      description: "Who made this step: the `by` of the request, else the calling client (as in `client`). Null for history recorded before it was kept.",
    }),
    client: z.string().nullable().meta({
      description: "The authenticated caller: the id of the plant token used, or `dashboard` for the embedded dashboard. Null for history recorded before it was kept.",
    }),
  })
  .meta({ id: "TaskTransition", description: "One step of a task's history: its creation (from null) or a move, with who made it and when." });

export const ZJobDonePage = paginated(ZJobDone, "JobDonePage");
export const ZPlannedJobPage = paginated(ZPlannedJob, "PlannedJobPage");
export const ZAssetPage = paginated(ZAsset, "AssetPage");
export const ZTaskPage = paginated(ZTask, "TaskPage");
export const ZPartPage = paginated(ZPart, "PartPage");
export const ZStockLevelEntryPage = paginated(ZStockLevelEntry, "StockLevelEntryPage");
export const ZLookupValuePage = paginated(ZLookupValue, "LookupValuePage");
export const ZTaskTransitionPage = paginated(ZTaskTransition, "TaskTransitionPage");

// ---- query parameters (the dashboard's BFF accepts the same ones) ----

const ZDateRangeQuery = z.object({
  startDate: ZDate.optional().meta({ description: "Inclusive lower bound." }),
  endDate: ZDate.optional().meta({ description: "Inclusive upper bound; not before startDate." }),
});

export const ZAssetFilterQuery = z.object({
  assetTagNumber: z.string().optional().meta({ description: "Exact match; filters are ANDed." }),
  assetSerialNumber: z.string().optional().meta({ description: "Exact match." }),
  assetExternalReference: z.string().optional().meta({ description: "Exact match." }),
  includeComponents: z.enum(["true", "false"]).optional().meta({
    description: "Extension: `true` widens `assetTagNumber` to the asset and every asset below it (its components), e.g. a pump with its motor, bearing and seal.",
  }),
});

function withDateOrder<T extends z.ZodObject>(schema: T) {
  return schema.refine(
    (q) => {
      const { startDate, endDate } = q as { startDate?: string; endDate?: string };
      return !startDate || !endDate || startDate <= endDate;
    },
    { message: "must not be after endDate", path: ["startDate"] },
  );
}

export const ZJobsDoneQuery = withDateOrder(ZPageQuery.extend(ZDateRangeQuery.shape).extend(ZAssetFilterQuery.shape));
export const ZJobsPlannedQuery = ZJobsDoneQuery;
export const ZAssetsQuery = ZPageQuery.extend(ZAssetFilterQuery.shape);

export const ZTaskStatusList = z
  .string()
  .transform((value, ctx) => {
    const statuses = value.split(",").map((s) => s.trim());
    for (const status of statuses) {
      if (!(TASK_STATUSES as readonly string[]).includes(status)) {
        ctx.addIssue({ code: "custom", message: `unknown status '${status.slice(0, 40)}'; one of ${TASK_STATUSES.join(", ")}` });
        return z.NEVER;
      }
    }
    return statuses as TTaskStatus[];
  })
  .pipe(z.array(ZTaskStatus));

export const ZTasksQuery = ZPageQuery.extend(ZAssetFilterQuery.shape).extend({
  taskStatus: ZTaskStatusList.optional().meta({ description: "One status or a comma-separated list." }),
  assignee: z.string().max(320).optional().meta({ description: "Extension: only tasks assigned to this username (exact)." }),
});

export const ZLookupValuesQuery = ZPageQuery.extend({
  kind: ZLookupKind.optional().meta({ description: "Only values of this field; all kinds when omitted." }),
});

export const ZPartsQuery = ZPageQuery.extend({
  isShort: z.enum(["true", "false"]).optional().meta({ description: "Only parts that are (or are not) short." }),
});

export const ZStockLevelsQuery = ZPageQuery;

export type TJobDone = z.infer<typeof ZJobDone>;
export type TPlannedJob = z.infer<typeof ZPlannedJob>;
export type TAsset = z.infer<typeof ZAsset>;
export type TTask = z.infer<typeof ZTask>;
export type TTaskCreation = z.input<typeof ZTaskCreation>;
export type TStockLevel = z.input<typeof ZStockLevel>;
export type TPart = z.infer<typeof ZPart>;
export type TStockLevelEntry = z.infer<typeof ZStockLevelEntry>;
export type TLookupValue = z.infer<typeof ZLookupValue>;
export type TTaskUpdate = z.input<typeof ZTaskUpdate>;
export type TCloseOut = z.input<typeof ZCloseOut>;
export type TPartUpdate = z.input<typeof ZPartUpdate>;
export type TTaskTransition = z.infer<typeof ZTaskTransition>;
export type TJobsDoneQuery = z.output<typeof ZJobsDoneQuery>;
export type TJobsPlannedQuery = z.output<typeof ZJobsPlannedQuery>;
export type TAssetsQuery = z.output<typeof ZAssetsQuery>;
export type TTasksQuery = z.output<typeof ZTasksQuery>;
export type TLookupValuesQuery = z.output<typeof ZLookupValuesQuery>;
export type TPartsQuery = z.output<typeof ZPartsQuery>;
export type TAssetFilter = z.output<typeof ZAssetFilterQuery>;

// ---- the maintenance operations, as one table ----

/**
 * One operation of the maintenance interface: where it lives below `/maintenance/v1/plants/{plantId}`
 * and what it takes and answers. The service routes and documents each operation from this table,
 * the dashboard's upstream clients call it by id (remote: over HTTP to `path`; embedded: the
 * service's domain function of the same id), and `/api/` mirrors the same paths below
 * `/api/plants/{plantId}`. `extension` names an operation the spec does not have: a remote service
 * may lack it, and the dashboard then hides the feature.
 */
export interface MaintenanceOperation {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Below the plant, with `{name}` path parameters, e.g. `/tasks/{taskId}`. */
  path: string;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  extension?: string;
  /** What the dashboard's user needs to call it (`/api/plants/{plantId}…`); plant tokens reach every operation of their plant. */
  permission: Permission;
  /** A write's audit row: its action and a few non-secret body fields (the dashboard writes it). */
  audit?: { action: string; fields?: readonly string[] };
  /** The body is a file, not JSON: sent as is under one of these media types, up to `maxBytes` (`body` is then absent). */
  rawBody?: { contentTypes: readonly string[]; maxBytes: number };
  /** The answer is a file, not JSON (`response` describes its bytes). */
  rawResponse?: { contentTypes: readonly string[] };
}

export const MAINTENANCE_OPERATIONS = {
  listJobsDone: { ...MAINTENANCE_ROUTES.listJobsDone, query: ZJobsDoneQuery, response: ZJobDonePage, permission: "maintenance:read" },
  listJobsPlanned: { ...MAINTENANCE_ROUTES.listJobsPlanned, query: ZJobsPlannedQuery, response: ZPlannedJobPage, permission: "maintenance:read" },
  listAssets: { ...MAINTENANCE_ROUTES.listAssets, query: ZAssetsQuery, response: ZAssetPage, permission: "maintenance:read" },
  listTasks: { ...MAINTENANCE_ROUTES.listTasks, query: ZTasksQuery, response: ZTaskPage, permission: "maintenance:read" },
  createTask: { ...MAINTENANCE_ROUTES.createTask, body: ZTaskCreation, response: ZWriteResult, permission: "tasks:create", audit: { action: "task.create", fields: ["assetTagNumber", "priority"] } },
  getTask: { ...MAINTENANCE_ROUTES.getTask, response: ZTask, extension: "single-task reads", permission: "maintenance:read" },
  listTaskTransitions: { ...MAINTENANCE_ROUTES.listTaskTransitions, query: ZPageQuery, response: ZTaskTransitionPage, extension: "task history", permission: "maintenance:read" },
  transitionTask: { ...MAINTENANCE_ROUTES.transitionTask, body: ZTransitionRequest, response: ZWriteResult, extension: "task transitions", permission: "tasks:transition", audit: { action: "task.transition", fields: ["to", "dueDate"] } },
  updateTask: { ...MAINTENANCE_ROUTES.updateTask, body: ZTaskUpdate, response: ZWriteResult, extension: "task edits", permission: "tasks:edit", audit: { action: "task.update", fields: ["taskTitle", "priority", "dueDate", "assigneeUsername"] } },
  // Anyone who reads the plant may ask; the dashboard lets supervisors close out any task and others only their own.
  closeOutTask: { ...MAINTENANCE_ROUTES.closeOutTask, body: ZCloseOut, response: ZWriteResult, extension: "task close-out", permission: "maintenance:read", audit: { action: "task.close-out", fields: ["hoursWorked", "personCount", "failureCode"] } },
  submitStockLevel: { ...MAINTENANCE_ROUTES.submitStockLevel, body: ZStockLevel, response: ZWriteResult, permission: "stock:submit", audit: { action: "stock-level.submit", fields: ["quantity", "unit", "isShort"] } },
  updatePart: { ...MAINTENANCE_ROUTES.updatePart, body: ZPartUpdate, response: ZWriteResult, extension: "reorder levels", permission: "parts:reorder", audit: { action: "part.update", fields: ["reorderLevel", "reorderQuantity"] } },
  listLookupValues: { ...MAINTENANCE_ROUTES.listLookupValues, query: ZLookupValuesQuery, response: ZLookupValuePage, extension: "lookup values", permission: "maintenance:read" },
  listParts: { ...MAINTENANCE_ROUTES.listParts, query: ZPartsQuery, response: ZPartPage, extension: "the parts list", permission: "maintenance:read" },
  listStockLevels: { ...MAINTENANCE_ROUTES.listStockLevels, query: ZStockLevelsQuery, response: ZStockLevelEntryPage, extension: "stock-level history", permission: "maintenance:read" },
  listMaintenancePlans: { ...MAINTENANCE_ROUTES.listMaintenancePlans, query: ZMaintenancePlansQuery, response: ZMaintenancePlanPage, extension: "maintenance plans", permission: "maintenance:read" },
  createMaintenancePlan: { ...MAINTENANCE_ROUTES.createMaintenancePlan, body: ZMaintenancePlanInput, response: ZWriteResult, extension: "maintenance plans", permission: "plans:write", audit: { action: "plan.create", fields: ["title", "assetTagNumber", "enabled"] } },
  getMaintenancePlan: { ...MAINTENANCE_ROUTES.getMaintenancePlan, response: ZMaintenancePlan, extension: "maintenance plans", permission: "maintenance:read" },
  updateMaintenancePlan: { ...MAINTENANCE_ROUTES.updateMaintenancePlan, body: ZMaintenancePlanInput, response: ZWriteResult, extension: "maintenance plans", permission: "plans:write", audit: { action: "plan.update", fields: ["title", "assetTagNumber", "enabled"] } },
  deleteMaintenancePlan: { ...MAINTENANCE_ROUTES.deleteMaintenancePlan, response: ZWriteResult, extension: "maintenance plans", permission: "plans:write", audit: { action: "plan.delete" } },
  getReliability: { ...MAINTENANCE_ROUTES.getReliability, query: ZReliabilityQuery, response: ZReliability, extension: "reliability", permission: "maintenance:read" },
  runMaintenancePlan: { ...MAINTENANCE_ROUTES.runMaintenancePlan, response: ZPlanRunResult, extension: "maintenance plans", permission: "plans:write", audit: { action: "plan.run" } },
  // Anyone who reads the plant may ask; the dashboard lets whoever may edit or close out the task attach (lib/bff/routes.ts).
  uploadTaskAttachment: {
    ...MAINTENANCE_ROUTES.uploadTaskAttachment,
    query: ZAttachmentUploadQuery,
    rawBody: { contentTypes: ATTACHMENT_MEDIA_TYPES, maxBytes: MAX_ATTACHMENT_BYTES },
    response: ZAttachment,
    extension: "attachments",
    permission: "maintenance:read",
    audit: { action: "task.attach", fields: ["name", "contentType", "size"] },
  },
  listTaskAttachments: { ...MAINTENANCE_ROUTES.listTaskAttachments, query: ZAttachmentsQuery, response: ZAttachmentPage, extension: "attachments", permission: "maintenance:read" },
  getAttachment: { ...MAINTENANCE_ROUTES.getAttachment, response: ZAttachmentBytes, rawResponse: { contentTypes: ATTACHMENT_MEDIA_TYPES }, extension: "attachments", permission: "maintenance:read" },
} as const satisfies Record<MaintenanceRouteId, MaintenanceOperation>;

export type MaintenanceOperationId = keyof typeof MAINTENANCE_OPERATIONS;
/** What an operation answers with, as the contract types it. */
export type MaintenanceOutput<Id extends MaintenanceOperationId> = z.output<(typeof MAINTENANCE_OPERATIONS)[Id]["response"]>;

/**
 * The task creation's date rules, which need "today": dueDate on or after createdDate, incidentDate
 * on or before it (createdDate defaults to today, UTC). The service refuses a task that breaks
 * them; the create-task form checks them before sending.
 */
export function taskDateProblems(task: { dueDate?: string | null; incidentDate?: string | null }, createdDate: string): { field: "dueDate" | "incidentDate"; problem: string }[] {
  const problems: { field: "dueDate" | "incidentDate"; problem: string }[] = [];
  if (task.dueDate && task.dueDate < createdDate) problems.push({ field: "dueDate", problem: `must not be before createdDate (${createdDate})` });
  if (task.incidentDate && task.incidentDate > createdDate) problems.push({ field: "incidentDate", problem: `must not be after createdDate (${createdDate})` });
  return problems;
}
