/**
 * Every query of the maintenance interface, written once against the kernel's SQL interface
 * (lib/platform/sql.ts), which SQLite (the embedded default) and PostgreSQL (`DATABASE_URL`) both
 * implement: named parameters, list parameters, transactions and the statement cache are the
 * kernel's. What stays particular to this store is small and below: the totals cache of the list
 * queries (countTotals) and the plant lock of task creation (PLANT_WRITE_LOCK). Rows are mapped
 * straight to the API's records, so a handler only serialises.
 *
 * Several instances may write one PostgreSQL database at once, so each write rule is one
 * transaction whose SQL itself decides races (READ COMMITTED, PostgreSQL's default): a conditional
 * UPDATE, INSERT … ON CONFLICT. Text columns use the "C" collation (lib/platform/migration.ts), so
 * ids sort as plain strings on both engines.
 */
import type { TPage } from "@/lib/contract/common";
import type {
  TAsset,
  TAssetFilter,
  TAssetsQuery,
  TJobDone,
  TJobsDoneQuery,
  TJobsPlannedQuery,
  TLookupKind,
  TLookupValue,
  TLookupValuesQuery,
  TPart,
  TPartsQuery,
  TPerson,
  TPlannedJob,
  TStockLevelEntry,
  TTask,
  TTaskTransition,
  TTasksQuery,
  TTaskStatus,
} from "@/lib/contract/maintenance";
import type { SqlDb, SqlEngine, SqlExecutor, SqlParams, SqlRow } from "../../platform/sql";

export interface PlantRecord {
  id: string;
  name: string;
  customerId: string;
  /** IANA time zone of the site. */
  timeZone: string;
}

export interface CustomerRecord {
  id: string;
  name: string;
  plants: PlantRecord[];
}

export interface PartRecord extends TPart {
  reorderPoint: number;
}

/** An edit of a task (PATCH): only the members present change; `null` clears. */
export interface TaskChanges {
  taskTitle?: string;
  taskDescription?: string | null;
  activityKind?: string;
  assignedToRole?: string | null;
  priority?: string;
  dueDate?: string | null;
  incidentDate?: string | null;
  assignee?: TPerson | null;
}

/** A close-out, checked: what the job-done record and the stock moves are written from. */
export interface CloseOutRecord {
  hoursWorked: string;
  personCount: number;
  partsUsed: { partId: string; quantity: number }[];
  failureCode: string | null;
  causeCode: string | null;
  remedyCode: string | null;
  note: string | null;
  doneDate: string;
  carriedOutBy: TPerson;
}

export interface StockMove {
  partId: string;
  quantity: number;
  isShort: boolean;
}

export type CloseOutResult =
  | { jobId: string; stock: StockMove[] }
  | { replay: IdempotencyRecord }
  /** The task had left `from` (another request moved it first). */
  | { stale: true }
  /** A part has less in stock than the close-out uses: nothing was written. */
  | { short: { partId: string; inStock: number; used: number } };

export interface NewTask {
  taskTitle: string;
  taskDescription: string | null;
  activityKind: string;
  assignedToRole: string | null;
  priority: string;
  createdDate: string;
  dueDate: string | null;
  incidentDate: string | null;
  assetId: string;
}

/** Who makes a task write, as kept in its history (docs/api.md §3). */
export interface Actor {
  /** Whom the caller acts for, else the caller itself. */
  by: string;
  /** The authenticated caller: a plant token's id, or `dashboard`. */
  client: string;
}

export interface IdempotencyRecord {
  requestHash: string;
  responseBody: string;
}

export interface NewStockLevel {
  quantity: number;
  unit: string;
  remark: string | null;
  isShort: boolean;
  submittedAt: string;
  /** Who counted (extension); null when the caller did not say. */
  countedBy?: string | null;
}

export interface PageRequest {
  page: number;
  pageSize: number;
}

export interface MaintenanceStore {
  listPlants(): Promise<PlantRecord[]>;
  /** Every customer with its plants (telemetry is kept per customer). */
  listCustomers(): Promise<CustomerRecord[]>;
  findPlant(plantId: string): Promise<PlantRecord | undefined>;
  listJobsDone(plantId: string, query: TJobsDoneQuery): Promise<TPage<TJobDone>>;
  listJobsPlanned(plantId: string, query: TJobsPlannedQuery): Promise<TPage<TPlannedJob>>;
  listAssets(plantId: string, query: TAssetsQuery): Promise<TPage<TAsset>>;
  findAssetIdByTag(plantId: string, tagNumber: string): Promise<string | undefined>;
  listTasks(plantId: string, query: TTasksQuery): Promise<TPage<TTask>>;
  getTask(plantId: string, taskId: string): Promise<TTask | undefined>;
  /** A task's history, oldest first: its creation, then every move. */
  listTaskTransitions(taskId: string, page: PageRequest): Promise<TPage<TTaskTransition>>;
  /**
   * Creates a task (status NEED_APPROVAL) and returns its id. With an idempotency key the task and
   * the key's stored response are written in the same transaction; when the key is already stored,
   * nothing is written and the stored record is returned instead.
   */
  createTask(
    plantId: string,
    task: NewTask,
    actor: Actor,
    idempotency?: { key: string; requestHash: string; responseFor: (taskId: string) => string },
  ): Promise<{ taskId: string } | { replay: IdempotencyRecord }>;
  findIdempotencyRecord(plantId: string, key: string): Promise<IdempotencyRecord | undefined>;
  /**
   * Moves a task if it is still in `from`; false when another request moved it first. `dates`:
   * a postponement's asked-for due date (kept until the next move) and a new due date to set.
   */
  transitionTask(
    taskId: string,
    from: TTaskStatus,
    to: TTaskStatus,
    remark: string | null,
    actor: Actor,
    dates?: { proposedDueDate: string | null; dueDate: string | null },
  ): Promise<boolean>;
  /**
   * Changes the given fields of a task that is not closed, with a history row (from = to = its
   * status) whose remark names what changed. "closed" when the task is closed; "changed" (nothing
   * written) when `ifUpdatedAt` is given and the task changed after that instant was read.
   */
  updateTask(taskId: string, changes: TaskChanges, remark: string, actor: Actor, ifUpdatedAt?: string): Promise<"updated" | "closed" | "changed">;
  /**
   * Closes a task that is still in `from` (from PENDING through NEED_CONFIRMATION, two history
   * rows), writes its job-done record `<taskId>-J` and takes each part used off stock (with a
   * stock-level history row), all in one transaction: nothing is written unless all of it is.
   */
  closeOutTask(
    plantId: string,
    taskId: string,
    from: TTaskStatus,
    record: CloseOutRecord,
    remark: string | null,
    actor: Actor,
    idempotency?: { key: string; requestHash: string; responseFor: (jobId: string, stock: StockMove[]) => string },
  ): Promise<CloseOutResult>;
  listLookupValues(plantId: string, query: TLookupValuesQuery): Promise<TPage<TLookupValue>>;
  allowedLookupValues(plantId: string, kind: TLookupKind): Promise<string[]>;
  listParts(plantId: string, query: TPartsQuery): Promise<TPage<TPart>>;
  findPart(plantId: string, partId: string): Promise<PartRecord | undefined>;
  listStockLevels(plantId: string, partId: string, page: PageRequest): Promise<TPage<TStockLevelEntry>>;
  /** Keeps the submission as history and makes it the part's current level. */
  submitStockLevel(plantId: string, partId: string, level: NewStockLevel): Promise<void>;
  /**
   * Sets a part's reorder level and/or quantity; the shortage is decided again from the current
   * level and the new reorder level. The part's count (quantity, updatedAt) is not touched.
   */
  updatePartReorder(plantId: string, partId: string, changes: { reorderLevel?: number; reorderQuantity?: number | null }): Promise<{ isShort: boolean }>;
}

type Row = SqlRow;
type Params = SqlParams;

/**
 * Run first in a task-creating transaction so that task numbers are handed out one at a time per
 * plant (`@plantId`). PostgreSQL locks the plant's row; SQLite needs nothing, as its BEGIN IMMEDIATE
 * already excludes every other writer.
 */
const PLANT_WRITE_LOCK: Record<SqlEngine, string | null> = {
  sqlite: null,
  postgres: `SELECT 1 FROM plants WHERE id = @plantId FOR UPDATE`,
};

/**
 * The total of a list query (`SELECT count(*) AS total …`). On SQLite, totals of recent queries are
 * reused until the database changes: counting is a scan of the plant's index, and most reads repeat
 * the same filter. A change is any write on this connection (total_changes) or a commit by another
 * one, e.g. the operator CLI (data_version). PostgreSQL, shared by several instances, counts every time.
 */
function countTotals(sql: SqlExecutor): (text: string, params: Params) => Promise<number> {
  const count = async (text: string, params: Params) => (await sql.get<{ total: number }>(text, params))!.total;
  if (sql.engine !== "sqlite") return count;
  const MARKER = `SELECT total_changes() || '/' || (SELECT data_version FROM pragma_data_version) AS marker`;
  const totals = new Map<string, number>();
  let totalsMarker = "";
  return async (text, params) => {
    const { marker } = (await sql.get<{ marker: string }>(MARKER))!;
    if (marker !== totalsMarker) {
      totals.clear();
      totalsMarker = marker;
    }
    const key = `${text}\u0000${JSON.stringify(params)}`;
    let total = totals.get(key);
    if (total === undefined) {
      total = await count(text, params);
      // Kept only if nothing changed the database since `marker` as far as this cache has seen:
      // another call may have found a newer marker while this one counted.
      if (totalsMarker === marker) {
        if (totals.size >= 1000) totals.clear(); // bounded: filters are client-chosen
        totals.set(key, total);
      }
    }
    return total;
  };
}

// Aliases are quoted: PostgreSQL folds unquoted ones to lower case.
const ASSET_REF_COLUMNS = `a.tag_number AS "tagNumber", a.serial_number AS "serialNumber", a.external_reference AS "externalReference"`;

/**
 * The asset and every asset below it (`parentTagNumber` chains), as ids; `@plantId` must be set.
 * The anchor reads the column, not the parameter, so both engines type the recursion alike.
 */
const ASSET_AND_COMPONENTS = `a.id IN (
  WITH RECURSIVE below (tag) AS (
    SELECT tag_number FROM assets WHERE plant_id = @plantId AND tag_number = @assetTagNumber
    UNION SELECT c.tag_number FROM assets c JOIN below ON c.parent_tag_number = below.tag WHERE c.plant_id = @plantId
  )
  SELECT x.id FROM assets x JOIN below ON x.tag_number = below.tag WHERE x.plant_id = @plantId)`;

function assetFilterSql(filter: TAssetFilter, params: Params): string[] {
  const where: string[] = [];
  if (filter.assetTagNumber !== undefined) {
    where.push(filter.includeComponents === "true" ? ASSET_AND_COMPONENTS : "a.tag_number = @assetTagNumber");
    params.assetTagNumber = filter.assetTagNumber;
  }
  if (filter.assetSerialNumber !== undefined) {
    where.push("a.serial_number = @assetSerialNumber");
    params.assetSerialNumber = filter.assetSerialNumber;
  }
  if (filter.assetExternalReference !== undefined) {
    where.push("a.external_reference = @assetExternalReference");
    params.assetExternalReference = filter.assetExternalReference;
  }
  return where;
}

function dateRangeSql(column: string, query: { startDate?: string; endDate?: string }, params: Params): string[] {
  const where: string[] = [];
  if (query.startDate !== undefined) {
    where.push(`${column} >= @startDate`);
    params.startDate = query.startDate;
  }
  if (query.endDate !== undefined) {
    where.push(`${column} <= @endDate`);
    params.endDate = query.endDate;
  }
  return where;
}

function assetRef(row: Row) {
  return {
    tagNumber: row.tagNumber as string,
    serialNumber: row.serialNumber as string | null,
    externalReference: row.externalReference as string | null,
  };
}

function toTask(row: Row): TTask {
  return {
    id: row.id as string,
    plantId: row.plantId as string,
    taskTitle: row.taskTitle as string,
    taskDescription: row.taskDescription as string | null,
    activityKind: row.activityKind as string,
    assignedToRole: row.assignedToRole as string | null,
    priority: row.priority as string,
    status: row.status as TTaskStatus,
    createdDate: row.createdDate as string,
    dueDate: row.dueDate as string | null,
    incidentDate: row.incidentDate as string | null,
    asset: assetRef(row),
    assignee:
      row.assigneeUsername === null
        ? null
        : { username: row.assigneeUsername as string, firstname: (row.assigneeFirstname as string | null) ?? "", lastname: (row.assigneeLastname as string | null) ?? "" },
    proposedDueDate: row.proposedDueDate as string | null,
    updatedAt: row.updatedAt as string,
  };
}

function toPart(row: Row): PartRecord {
  return {
    id: row.id as string,
    name: row.name as string,
    unit: row.unit as TPart["unit"],
    quantity: row.quantity as number,
    isShort: row.isShort === 1,
    remark: row.remark as string | null,
    updatedAt: row.updatedAt as string,
    reorderLevel: row.reorderPoint as number,
    reorderQuantity: row.reorderQuantity as number | null,
    reorderPoint: row.reorderPoint as number,
  };
}

function toPlannedJobs(rows: Row[]): TPlannedJob[] {
  return rows.map((row) => ({
    id: row.id as string,
    plantId: row.plantId as string,
    jobTitle: row.jobTitle as string,
    dueDate: row.dueDate as string,
    activityKind: row.activityKind as string,
    department: row.department as string,
    estimatedTimeInHours: row.estimatedTimeInHours as string,
    requiredPersonCount: row.requiredPersonCount as number,
    recurrence:
      row.recurrenceEvery === null
        ? null
        : { every: row.recurrenceEvery as number, unit: row.recurrenceUnit as "DAY" | "WEEK" | "MONTH" },
    asset: assetRef(row),
    workOrder: row.workOrderId === null ? null : { id: row.workOrderId as string, remark: row.workOrderRemark as string | null },
  }));
}

const TASK_COLUMNS = `t.id, t.plant_id AS "plantId", t.task_title AS "taskTitle", t.task_description AS "taskDescription",
  t.activity_kind AS "activityKind", t.assigned_to_role AS "assignedToRole", t.priority, t.status,
  t.created_date AS "createdDate", t.due_date AS "dueDate", t.incident_date AS "incidentDate", ${ASSET_REF_COLUMNS},
  t.assignee_username AS "assigneeUsername", t.assignee_firstname AS "assigneeFirstname", t.assignee_lastname AS "assigneeLastname",
  t.proposed_due_date AS "proposedDueDate", t.updated_at AS "updatedAt"`;

const PART_COLUMNS = `id, name, unit, quantity, is_short AS "isShort", remark, updated_at AS "updatedAt", reorder_point AS "reorderPoint",
  reorder_quantity AS "reorderQuantity"`;

const PLANNED_JOB_COLUMNS = `j.id, j.plant_id AS "plantId", j.job_title AS "jobTitle", j.due_date AS "dueDate", j.activity_kind AS "activityKind",
  j.department, j.estimated_time_in_hours AS "estimatedTimeInHours", j.required_person_count AS "requiredPersonCount",
  j.recurrence_every AS "recurrenceEvery", j.recurrence_unit AS "recurrenceUnit", ${ASSET_REF_COLUMNS},
  j.work_order_id AS "workOrderId", j.work_order_remark AS "workOrderRemark"`;

// In the order toJobsDone reads them.
const JOB_DONE_COLUMNS = `j.id, j.plant_id, j.job_title, j.done_date, j.due_date, j.activity_kind, j.department,
  j.total_time_used_in_hours, j.required_person_count, j.is_final, a.tag_number, a.serial_number,
  a.external_reference, j.work_order_id, j.work_order_remark, j.user_firstname, j.user_lastname, j.user_username,
  j.task_id, j.failure_code, j.cause_code, j.remedy_code`;

const ASSET_COLUMNS = `a.id, a.plant_id AS "plantId", ${ASSET_REF_COLUMNS}, a.name, a.asset_type AS "assetType", a.location,
  a.parent_tag_number AS "parentTagNumber", a.manufacturer, a.model, a.criticality`;

const TRANSITION_COLUMNS = `task_id AS "taskId", from_status AS "from", to_status AS "to", remark, at, by_name AS "by", client_id AS "client"`;

const STOCK_LEVEL_COLUMNS = `part_id AS "partId", quantity, unit, remark, is_short AS "isShort", submitted_at AS "submittedAt", counted_by AS "countedBy"`;

const IDEMPOTENCY_BY_KEY = `SELECT request_hash AS "requestHash", response_body AS "responseBody" FROM idempotency_keys WHERE plant_id = @plantId AND key = @key`;

const PLANT_COLUMNS = `id, name, customer_id AS "customerId", time_zone AS "timeZone"`;

const LOOKUP_KIND_ORDER = `CASE kind WHEN 'activityKind' THEN 0 WHEN 'assignedToRole' THEN 1 WHEN 'priority' THEN 2
  WHEN 'failureCode' THEN 3 WHEN 'causeCode' THEN 4 ELSE 5 END`;

const ASSET_JOIN = (alias: string) => `JOIN assets a ON a.id = ${alias}.asset_id`;

const INSERT_TRANSITION = `INSERT INTO task_transitions (task_id, from_status, to_status, remark, at, by_name, client_id)
  VALUES (@taskId, @from, @to, @remark, @now, @by, @client)`;

/** Thrown inside a transaction to roll it back and answer a stored idempotent response instead. */
class StoredElsewhere {
  constructor(readonly record: IdempotencyRecord) {}
}

/** Thrown inside a close-out's transaction to roll it back when a part has too little in stock. */
class OutOfStock {
  constructor(readonly short: { partId: string; inStock: number; used: number }) {}
}

/** The maintenance store on the service's database, either engine (lib/service/database.ts opens it). */
export function createMaintenanceStore(engine: SqlDb): MaintenanceStore {
  const countTotal = countTotals(engine);
  /**
   * One count and one page query over the same WHERE. `from` and `where` are fixed SQL built from
   * the filter's shape, never from its values (those go in as parameters). The count skips the
   * asset join unless an asset filter needs it: counting is the larger part of a page's cost.
   * `arrays`: rows reach `map` as arrays in column order.
   */
  async function page<T>(
    from: { table: string; assetJoin?: string },
    where: string[],
    params: Params,
    columns: string,
    orderBy: string,
    request: PageRequest,
    map: (rows: Row[]) => T[] | Promise<T[]>,
    arrays = false,
  ): Promise<TPage<T>> {
    const whereSql = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
    const joined = from.assetJoin ? `${from.table} ${from.assetJoin}` : from.table;
    const countFrom = where.some((condition) => condition.startsWith("a.")) ? joined : from.table;
    const total = await countTotal(`SELECT count(*) AS total FROM ${countFrom} ${whereSql}`, params);
    const totalPages = Math.ceil(total / request.pageSize);
    const offset = (request.page - 1) * request.pageSize;
    if (offset >= total) return { data: [], page: request.page, totalPages, pageSize: request.pageSize };
    const sql = `SELECT ${columns} FROM ${joined} ${whereSql} ORDER BY ${orderBy} LIMIT @limit OFFSET @offset`;
    const pageParams = { ...params, limit: request.pageSize, offset };
    const found = arrays ? ((await engine.arrays(sql, pageParams)) as unknown as Row[]) : await engine.all(sql, pageParams);
    return { data: await map(found), page: request.page, totalPages, pageSize: request.pageSize };
  }

  // The jobs-done page is the hot path (100 records with nested objects): rows are read by position.
  async function toJobsDone(found: Row[]): Promise<TJobDone[]> {
    const partsByJob = new Map<string, TJobDone["partsUsed"]>();
    const jobs = (found as unknown as unknown[][]).map((row): TJobDone => {
      const partsUsed: TJobDone["partsUsed"] = [];
      partsByJob.set(row[0] as string, partsUsed);
      return {
        id: row[0] as string,
        plantId: row[1] as string,
        jobTitle: row[2] as string,
        doneDate: row[3] as string,
        dueDate: row[4] as string,
        activityKind: row[5] as string,
        department: row[6] as string,
        totalTimeUsedInHours: row[7] as string,
        requiredPersonCount: row[8] as number,
        isFinal: row[9] === 1,
        asset: {
          tagNumber: row[10] as string,
          serialNumber: row[11] as string | null,
          externalReference: row[12] as string | null,
        },
        workOrder: { id: row[13] as string, remark: row[14] as string | null },
        carriedOutByUser: { firstname: row[15] as string, lastname: row[16] as string, username: row[17] as string },
        partsUsed,
        taskId: row[18] as string | null,
        failureCode: row[19] as string | null,
        causeCode: row[20] as string | null,
        remedyCode: row[21] as string | null,
      };
    });
    if (jobs.length > 0) {
      const params: Params = {};
      const jobIn = engine.oneOf("u.job_id", "ids", jobs.map((job) => job.id), params);
      const used = await engine.arrays(
        `SELECT u.job_id, u.part_id, p.name, u.quantity, p.unit
         FROM job_parts_used u JOIN parts p ON p.plant_id = u.plant_id AND p.id = u.part_id
         WHERE ${jobIn} ORDER BY u.job_id, u.line_no`,
        params,
      );
      for (const part of used) {
        partsByJob.get(part[0] as string)?.push({
          partId: part[1] as string,
          name: part[2] as string,
          quantity: part[3] as number,
          unit: part[4] as TJobDone["partsUsed"][number]["unit"],
        });
      }
    }
    return jobs;
  }

  const listPlants = () => engine.all<PlantRecord>(`SELECT ${PLANT_COLUMNS} FROM plants ORDER BY id`);

  return {
    listPlants,
    async listCustomers() {
      const plants = await listPlants();
      const customers = await engine.all<{ id: string; name: string }>(`SELECT id, name FROM customers ORDER BY id`);
      return customers.map((customer) => ({ ...customer, plants: plants.filter((plant) => plant.customerId === customer.id) }));
    },
    findPlant: (plantId) => engine.get<PlantRecord>(`SELECT ${PLANT_COLUMNS} FROM plants WHERE id = @plantId`, { plantId }),

    listJobsDone(plantId, query) {
      const params: Params = { plantId };
      const where = ["j.plant_id = @plantId", ...dateRangeSql("j.done_date", query, params), ...assetFilterSql(query, params)];
      const from = { table: "jobs_done j", assetJoin: ASSET_JOIN("j") };
      return page(from, where, params, JOB_DONE_COLUMNS, "j.done_date DESC, j.id", query, toJobsDone, true);
    },

    listJobsPlanned(plantId, query) {
      const params: Params = { plantId };
      const where = ["j.plant_id = @plantId", ...dateRangeSql("j.due_date", query, params), ...assetFilterSql(query, params)];
      const from = { table: "planned_jobs j", assetJoin: ASSET_JOIN("j") };
      return page(from, where, params, PLANNED_JOB_COLUMNS, "j.due_date, j.id", query, toPlannedJobs);
    },

    listAssets(plantId, query) {
      const params: Params = { plantId };
      const where = ["a.plant_id = @plantId", ...assetFilterSql(query, params)];
      return page({ table: "assets a" }, where, params, ASSET_COLUMNS, "a.tag_number", query, (rows) => rows as unknown as TAsset[]);
    },

    async findAssetIdByTag(plantId, tagNumber) {
      const row = await engine.get<{ id: string }>(`SELECT id FROM assets WHERE plant_id = @plantId AND tag_number = @tagNumber`, { plantId, tagNumber });
      return row?.id;
    },

    listTasks(plantId, query) {
      const params: Params = { plantId };
      const where = ["t.plant_id = @plantId", ...assetFilterSql(query, params)];
      // Statuses are validated against the enum; they go in as one parameter, not as SQL.
      if (query.taskStatus) where.push(engine.oneOf("t.status", "statuses", query.taskStatus, params));
      if (query.assignee !== undefined) {
        where.push("t.assignee_username = @assignee");
        params.assignee = query.assignee;
      }
      const from = { table: "tasks t", assetJoin: ASSET_JOIN("t") };
      return page(from, where, params, TASK_COLUMNS, "t.created_date DESC, t.id", query, (rows) => rows.map(toTask));
    },

    async getTask(plantId, taskId) {
      const row = await engine.get(`SELECT ${TASK_COLUMNS} FROM tasks t ${ASSET_JOIN("t")} WHERE t.plant_id = @plantId AND t.id = @taskId`, { plantId, taskId });
      return row ? toTask(row) : undefined;
    },

    listTaskTransitions(taskId, request) {
      return page({ table: "task_transitions" }, ["task_id = @taskId"], { taskId }, TRANSITION_COLUMNS, "seq", request, (rows) =>
        rows as unknown as TTaskTransition[],
      );
    },

    // The idempotency key is inserted in the same transaction as the task; a key stored first by
    // another writer (PostgreSQL: another instance) rolls the task back and answers the stored response.
    async createTask(plantId, task, actor, idempotency) {
      try {
        return await engine.transaction(async (tx) => {
          const plantWriteLock = PLANT_WRITE_LOCK[engine.engine];
          if (plantWriteLock) await tx.run(plantWriteLock, { plantId });
          if (idempotency) {
            const stored = await tx.get<IdempotencyRecord>(IDEMPOTENCY_BY_KEY, { plantId, key: idempotency.key });
            if (stored) return { replay: stored };
          }
          const { number } = (await tx.get<{ number: number }>(`SELECT coalesce(max(number), 0) + 1 AS number FROM tasks WHERE plant_id = @plantId`, { plantId }))!;
          const taskId = `${plantId}-T${String(number).padStart(6, "0")}`;
          const now = new Date().toISOString();
          await tx.run(
            `INSERT INTO tasks (id, plant_id, number, asset_id, task_title, task_description, activity_kind, assigned_to_role, priority,
               status, created_date, due_date, incident_date, updated_at)
             VALUES (@id, @plantId, @number, @assetId, @taskTitle, @taskDescription, @activityKind, @assignedToRole, @priority,
               'NEED_APPROVAL', @createdDate, @dueDate, @incidentDate, @now)`,
            { ...task, id: taskId, plantId, number, now },
          );
          await tx.run(INSERT_TRANSITION, { taskId, from: null, to: "NEED_APPROVAL", remark: null, now, ...actor });
          if (idempotency) {
            const { changes: inserted } = await tx.run(
              `INSERT INTO idempotency_keys (plant_id, key, request_hash, response_body, created_at)
               VALUES (@plantId, @key, @requestHash, @responseBody, @now) ON CONFLICT (plant_id, key) DO NOTHING`,
              { plantId, key: idempotency.key, requestHash: idempotency.requestHash, responseBody: idempotency.responseFor(taskId), now },
            );
            if (inserted === 0) throw new StoredElsewhere((await tx.get<IdempotencyRecord>(IDEMPOTENCY_BY_KEY, { plantId, key: idempotency.key }))!);
          }
          return { taskId };
        });
      } catch (error) {
        if (error instanceof StoredElsewhere) return { replay: error.record };
        throw error;
      }
    },

    findIdempotencyRecord: (plantId, key) => engine.get<IdempotencyRecord>(IDEMPOTENCY_BY_KEY, { plantId, key }),

    // UPDATE … WHERE status = <from>: no row updated means another request moved the task first.
    transitionTask(taskId, from, to, remark, actor, dates = { proposedDueDate: null, dueDate: null }) {
      return engine.transaction(async (tx) => {
        const now = new Date().toISOString();
        const { changes: moved } = await tx.run(
          `UPDATE tasks SET status = @to, updated_at = @now, due_date = coalesce(@dueDate, due_date), proposed_due_date = @proposedDueDate
           WHERE id = @taskId AND status = @from`,
          { to, now, taskId, from, ...dates },
        );
        if (moved === 0) return false;
        await tx.run(INSERT_TRANSITION, { taskId, from, to, remark, now, ...actor });
        return true;
      });
    },

    updateTask(taskId, changes, remark, actor, ifUpdatedAt) {
      const params: Params = { taskId };
      const sets: string[] = [];
      const column = (name: string, value: unknown) => {
        sets.push(`${name} = @${name}`);
        params[name] = value;
      };
      // Column names come from this fixed list, never from the request.
      if (changes.taskTitle !== undefined) column("task_title", changes.taskTitle);
      if (changes.taskDescription !== undefined) column("task_description", changes.taskDescription);
      if (changes.activityKind !== undefined) column("activity_kind", changes.activityKind);
      if (changes.assignedToRole !== undefined) column("assigned_to_role", changes.assignedToRole);
      if (changes.priority !== undefined) column("priority", changes.priority);
      if (changes.dueDate !== undefined) column("due_date", changes.dueDate);
      if (changes.incidentDate !== undefined) column("incident_date", changes.incidentDate);
      if (changes.assignee !== undefined) {
        column("assignee_username", changes.assignee?.username ?? null);
        column("assignee_firstname", changes.assignee?.firstname ?? null);
        column("assignee_lastname", changes.assignee?.lastname ?? null);
      }
      return engine.transaction(async (tx) => {
        const now = new Date().toISOString();
        const current = await tx.get<{ status: string; updatedAt: string }>(`SELECT status, updated_at AS "updatedAt" FROM tasks WHERE id = @taskId`, { taskId });
        if (!current || current.status === "CLOSED") return "closed" as const;
        if (ifUpdatedAt !== undefined && current.updatedAt !== ifUpdatedAt) return "changed" as const;
        // The row as read: a writer in another instance that got in between makes this change nothing.
        const { changes: changed } = await tx.run(`UPDATE tasks SET ${[...sets, "updated_at = @now"].join(", ")} WHERE id = @taskId AND status = @status AND updated_at = @seen`, {
          ...params,
          now,
          status: current.status,
          seen: current.updatedAt,
        });
        if (changed === 0) return "changed" as const;
        await tx.run(INSERT_TRANSITION, { taskId, from: current.status, to: current.status, remark, now, ...actor });
        return "updated" as const;
      });
    },

    // One transaction: the task's move (UPDATE … WHERE status = <from> decides a race: the loser
    // changes nothing), the job-done record, the stock moves (each an UPDATE that only succeeds
    // while enough is in stock), their history rows and the idempotency key.
    async closeOutTask(plantId, taskId, from, record, remark, actor, idempotency) {
      const jobId = `${taskId}-J`;
      try {
        return await engine.transaction(async (tx): Promise<CloseOutResult> => {
          if (idempotency) {
            const stored = await tx.get<IdempotencyRecord>(IDEMPOTENCY_BY_KEY, { plantId, key: idempotency.key });
            if (stored) return { replay: stored };
          }
          const now = new Date().toISOString();
          const { changes: moved } = await tx.run(
            `UPDATE tasks SET status = 'CLOSED', updated_at = @now, proposed_due_date = NULL WHERE id = @taskId AND status = @from`,
            { now, taskId, from },
          );
          if (moved === 0) return { stale: true };
          const steps: [TTaskStatus, TTaskStatus][] = from === "PENDING" ? [["PENDING", "NEED_CONFIRMATION"], ["NEED_CONFIRMATION", "CLOSED"]] : [[from, "CLOSED"]];
          for (const [stepFrom, stepTo] of steps) await tx.run(INSERT_TRANSITION, { taskId, from: stepFrom, to: stepTo, remark, now, ...actor });
          await tx.run(
            `INSERT INTO jobs_done (id, plant_id, asset_id, job_title, done_date, due_date, activity_kind, department,
               total_time_used_in_hours, required_person_count, is_final, work_order_id, work_order_remark,
               user_firstname, user_lastname, user_username, task_id, failure_code, cause_code, remedy_code)
             SELECT @jobId, t.plant_id, t.asset_id, t.task_title, @doneDate, coalesce(t.due_date, @doneDate), t.activity_kind,
               coalesce((SELECT j.department FROM jobs_done j WHERE j.asset_id = t.asset_id ORDER BY j.done_date DESC, j.id LIMIT 1), 'Maintenance'),
               @hours, CAST(@personCount AS INTEGER), 1, t.id, @note, @firstname, @lastname, @username, t.id, @failureCode, @causeCode, @remedyCode
             FROM tasks t WHERE t.id = @taskId`,
            {
              jobId,
              taskId,
              doneDate: record.doneDate,
              hours: record.hoursWorked,
              personCount: record.personCount,
              note: record.note,
              firstname: record.carriedOutBy.firstname,
              lastname: record.carriedOutBy.lastname,
              username: record.carriedOutBy.username,
              failureCode: record.failureCode,
              causeCode: record.causeCode,
              remedyCode: record.remedyCode,
            },
          );
          const stock: StockMove[] = [];
          for (const [index, line] of record.partsUsed.entries()) {
            // Rounded to a millionth: 2.3 − 0.1 stays 2.2 on both engines.
            const left = await tx.get<{ quantity: number; isShort: number | boolean; unit: string }>(
              `UPDATE parts SET quantity = round((quantity - @used) * 1000000) / 1000000,
                 is_short = CASE WHEN quantity - @used < reorder_point THEN 1 ELSE 0 END,
                 updated_at = CASE WHEN updated_at > @now THEN updated_at ELSE @now END
               WHERE plant_id = @plantId AND id = @partId AND quantity >= @used
               RETURNING quantity, is_short AS "isShort", unit`,
              { plantId, partId: line.partId, used: line.quantity, now },
            );
            if (!left) {
              const held = await tx.get<{ quantity: number }>(`SELECT quantity FROM parts WHERE plant_id = @plantId AND id = @partId`, { plantId, partId: line.partId });
              throw new OutOfStock({ partId: line.partId, inStock: held?.quantity ?? 0, used: line.quantity });
            }
            const isShort = left.isShort === 1 || left.isShort === true;
            await tx.run(
              `INSERT INTO stock_levels (plant_id, part_id, quantity, unit, remark, is_short, submitted_at, counted_by)
               VALUES (@plantId, @partId, @quantity, @unit, @remark, @isShort, @now, @by)`,
              { plantId, partId: line.partId, quantity: left.quantity, unit: left.unit, remark: `Used in job ${jobId} (task ${taskId})`, isShort: isShort ? 1 : 0, now, by: actor.by },
            );
            await tx.run(`INSERT INTO job_parts_used (job_id, line_no, plant_id, part_id, quantity) VALUES (@jobId, @lineNo, @plantId, @partId, @quantity)`, {
              jobId,
              lineNo: index + 1,
              plantId,
              partId: line.partId,
              quantity: line.quantity,
            });
            stock.push({ partId: line.partId, quantity: left.quantity, isShort });
          }
          if (idempotency) {
            const { changes: inserted } = await tx.run(
              `INSERT INTO idempotency_keys (plant_id, key, request_hash, response_body, created_at)
               VALUES (@plantId, @key, @requestHash, @responseBody, @now) ON CONFLICT (plant_id, key) DO NOTHING`,
              { plantId, key: idempotency.key, requestHash: idempotency.requestHash, responseBody: idempotency.responseFor(jobId, stock), now },
            );
            if (inserted === 0) throw new StoredElsewhere((await tx.get<IdempotencyRecord>(IDEMPOTENCY_BY_KEY, { plantId, key: idempotency.key }))!);
          }
          return { jobId, stock };
        });
      } catch (error) {
        if (error instanceof StoredElsewhere) return { replay: error.record };
        if (error instanceof OutOfStock) return { short: error.short };
        throw error;
      }
    },

    listLookupValues(plantId, query) {
      const params: Params = { plantId };
      const where = ["customer_id = (SELECT customer_id FROM plants WHERE id = @plantId)"];
      if (query.kind) {
        where.push("kind = @kind");
        params.kind = query.kind;
      }
      return page({ table: "lookup_values" }, where, params, "kind, value, label", `${LOOKUP_KIND_ORDER}, position, value`, query, (rows) =>
        rows as unknown as TLookupValue[],
      );
    },

    async allowedLookupValues(plantId, kind) {
      const found = await engine.all<{ value: string }>(
        `SELECT value FROM lookup_values WHERE kind = @kind AND customer_id = (SELECT customer_id FROM plants WHERE id = @plantId) ORDER BY position, value`,
        { kind, plantId },
      );
      return found.map((row) => row.value);
    },

    listParts(plantId, query) {
      const params: Params = { plantId };
      const where = ["plant_id = @plantId"];
      if (query.isShort !== undefined) {
        where.push("is_short = @isShort");
        params.isShort = query.isShort === "true" ? 1 : 0;
      }
      return page({ table: "parts" }, where, params, PART_COLUMNS, "id", query, (rows) =>
        rows.map((row) => {
          const { reorderPoint: _, ...part } = toPart(row);
          return part;
        }),
      );
    },

    async findPart(plantId, partId) {
      const row = await engine.get(`SELECT ${PART_COLUMNS} FROM parts WHERE plant_id = @plantId AND id = @partId`, { plantId, partId });
      return row ? toPart(row) : undefined;
    },

    listStockLevels(plantId, partId, request) {
      return page(
        { table: "stock_levels" },
        ["plant_id = @plantId", "part_id = @partId"],
        { plantId, partId },
        STOCK_LEVEL_COLUMNS,
        "submitted_at DESC, seq DESC",
        request,
        (rows) => rows.map((row) => ({ ...(row as unknown as TStockLevelEntry), isShort: row.isShort === 1 })),
      );
    },

    async updatePartReorder(plantId, partId, changes) {
      const params = {
        plantId,
        partId,
        level: changes.reorderLevel ?? null,
        setQuantity: changes.reorderQuantity === undefined ? 0 : 1,
        quantity: changes.reorderQuantity ?? null,
      };
      return engine.transaction(async (tx) => {
        await tx.run(
          `UPDATE parts SET reorder_point = coalesce(@level, reorder_point),
                  reorder_quantity = CASE WHEN @setQuantity = 1 THEN @quantity ELSE reorder_quantity END,
                  is_short = CASE WHEN quantity < coalesce(@level, reorder_point) THEN 1 ELSE 0 END
           WHERE plant_id = @plantId AND id = @partId`,
          params,
        );
        const row = await tx.get<{ isShort: number | boolean }>(`SELECT is_short AS "isShort" FROM parts WHERE plant_id = @plantId AND id = @partId`, { plantId, partId });
        return { isShort: row?.isShort === 1 || row?.isShort === true };
      });
    },

    // The history row and the part's current level in one transaction; the current level only moves
    // forward in time, so of two submissions committing in either order the newer one stays current.
    async submitStockLevel(plantId, partId, level) {
      const params = {
        plantId,
        partId,
        quantity: level.quantity,
        unit: level.unit,
        remark: level.remark,
        isShort: level.isShort ? 1 : 0,
        submittedAt: level.submittedAt,
        countedBy: level.countedBy ?? null,
      };
      await engine.transaction(async (tx) => {
        await tx.run(
          `INSERT INTO stock_levels (plant_id, part_id, quantity, unit, remark, is_short, submitted_at, counted_by)
           VALUES (@plantId, @partId, @quantity, @unit, @remark, @isShort, @submittedAt, @countedBy)`,
          params,
        );
        await tx.run(
          `UPDATE parts SET quantity = @quantity, is_short = @isShort, remark = @remark, updated_at = @submittedAt
           WHERE plant_id = @plantId AND id = @partId AND updated_at <= @submittedAt`,
          params,
        );
      });
    },
  };
}
