/**
 * THE payloads of the maintenance interface (docs/api.md §3). The embedded
 * service validates with them, the dashboard's client parses with them, forms reuse them and the
 * OpenAPI document is generated from them.
 */
import { z } from "./zod";
import { ZDate, ZDecimalString, ZId, ZPageQuery, ZTimestamp, ZWriteResult, paginated } from "./common";
import { LOOKUP_KINDS, STOCK_UNITS, TASK_STATUSES } from "./vocabulary";

export { LOOKUP_KINDS, STOCK_UNITS, TASK_STATUSES, TASK_TRANSITIONS } from "./vocabulary";

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

export const ZStockLevel = z
  .object({
    id: ZId.meta({ description: "Part id; must equal the path's partId." }),
    quantity: z.number().finite().min(0, "must be at least 0"),
    unit: ZStockUnit,
    remark: z.string().max(1000, "must be at most 1000 characters").nullish(),
    isShort: z.boolean().nullish().meta({ description: "Defaults to quantity below the part's reorder point." }),
  })
  .meta({ id: "StockLevel", description: "Body of PUT stock-level." });

export const ZPart = z
  .object({
    id: z.string(),
    name: z.string(),
    unit: ZStockUnit,
    quantity: z.number(),
    isShort: z.boolean(),
    remark: z.string().nullable(),
    updatedAt: ZTimestamp,
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
  })
  .meta({ id: "StockLevelEntry", description: "One accepted stock-level submission." });

export const ZLookupValue = z
  .object({ kind: ZLookupKind, value: z.string(), label: z.string() })
  .meta({ id: "LookupValue" });

export const ZTransitionRequest = z
  .object({
    to: ZTaskStatus,
    remark: z.string().max(1000, "must be at most 1000 characters").nullish(),
    by: ZActingFor.nullish(),
  })
  .meta({ id: "TransitionRequest", description: "Body of POST transitions." });

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
});

export const ZLookupValuesQuery = ZPageQuery.extend({
  kind: ZLookupKind.optional().meta({ description: "Only values of this field; all kinds when omitted." }),
});

export const ZPartsQuery = ZPageQuery.extend({
  isShort: z.enum(["true", "false"]).optional().meta({ description: "Only parts that are (or are not) short." }),
});

export const ZStockLevelsQuery = ZPageQuery;

export type TAssetRef = z.infer<typeof ZAssetRef>;
export type TJobDone = z.infer<typeof ZJobDone>;
export type TPlannedJob = z.infer<typeof ZPlannedJob>;
export type TAsset = z.infer<typeof ZAsset>;
export type TTask = z.infer<typeof ZTask>;
export type TTaskCreation = z.input<typeof ZTaskCreation>;
export type TStockLevel = z.input<typeof ZStockLevel>;
export type TPart = z.infer<typeof ZPart>;
export type TStockLevelEntry = z.infer<typeof ZStockLevelEntry>;
export type TLookupValue = z.infer<typeof ZLookupValue>;
export type TTransitionRequest = z.input<typeof ZTransitionRequest>;
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
  method: "GET" | "POST" | "PUT";
  /** Below the plant, with `{name}` path parameters, e.g. `/tasks/{taskId}`. */
  path: string;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  extension?: string;
}

export const MAINTENANCE_OPERATIONS = {
  listJobsDone: { method: "GET", path: "/jobs-done", query: ZJobsDoneQuery, response: ZJobDonePage },
  listJobsPlanned: { method: "GET", path: "/jobs-planned", query: ZJobsPlannedQuery, response: ZPlannedJobPage },
  listAssets: { method: "GET", path: "/assets", query: ZAssetsQuery, response: ZAssetPage },
  listTasks: { method: "GET", path: "/tasks", query: ZTasksQuery, response: ZTaskPage },
  createTask: { method: "POST", path: "/tasks", body: ZTaskCreation, response: ZWriteResult },
  getTask: { method: "GET", path: "/tasks/{taskId}", response: ZTask, extension: "single-task reads" },
  listTaskTransitions: { method: "GET", path: "/tasks/{taskId}/transitions", query: ZPageQuery, response: ZTaskTransitionPage, extension: "task history" },
  transitionTask: { method: "POST", path: "/tasks/{taskId}/transitions", body: ZTransitionRequest, response: ZWriteResult, extension: "task transitions" },
  submitStockLevel: { method: "PUT", path: "/parts/{partId}/stock-level", body: ZStockLevel, response: ZWriteResult },
  listLookupValues: { method: "GET", path: "/lookup-values", query: ZLookupValuesQuery, response: ZLookupValuePage, extension: "lookup values" },
  listParts: { method: "GET", path: "/parts", query: ZPartsQuery, response: ZPartPage, extension: "the parts list" },
  listStockLevels: { method: "GET", path: "/parts/{partId}/stock-levels", query: ZStockLevelsQuery, response: ZStockLevelEntryPage, extension: "stock-level history" },
} as const satisfies Record<string, MaintenanceOperation>;

export type MaintenanceOperationId = keyof typeof MAINTENANCE_OPERATIONS;
/** What an operation answers with, as the contract types it. */
export type MaintenanceOutput<Id extends MaintenanceOperationId> = z.output<(typeof MAINTENANCE_OPERATIONS)[Id]["response"]>;

/** The values of an operation's `{name}` path parameters, in the order of its path. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

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
