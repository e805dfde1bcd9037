/**
 * Every query of the maintenance interface, behind one narrow interface so that a PostgreSQL store
 * can replace this SQLite one. Statements are prepared once (filtered lists: once per filter
 * combination) and rows are mapped straight to the API's records, so a handler only serialises.
 */
import type { Statement } from "better-sqlite3";
import type { TPage } from "@/lib/upstream/schemas/common";
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
  TPlannedJob,
  TStockLevelEntry,
  TTask,
  TTasksQuery,
  TTaskStatus,
} from "@/lib/upstream/schemas/maintenance";
import type { SqliteDatabase } from "./sqlite";

export interface PlantRecord {
  id: string;
  name: string;
  customerId: string;
}

export interface PartRecord extends TPart {
  reorderPoint: number;
}

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
}

export interface PageRequest {
  page: number;
  pageSize: number;
}

export interface MaintenanceStore {
  listPlants(): PlantRecord[];
  findPlant(plantId: string): PlantRecord | undefined;
  listJobsDone(plantId: string, query: TJobsDoneQuery): TPage<TJobDone>;
  listJobsPlanned(plantId: string, query: TJobsPlannedQuery): TPage<TPlannedJob>;
  listAssets(plantId: string, query: TAssetsQuery): TPage<TAsset>;
  findAssetIdByTag(plantId: string, tagNumber: string): string | undefined;
  listTasks(plantId: string, query: TTasksQuery): TPage<TTask>;
  getTask(plantId: string, taskId: string): TTask | undefined;
  /**
   * Creates a task (status NEED_APPROVAL) and returns its id. With an idempotency key the task and
   * the key's stored response are written in the same transaction; when the key is already stored,
   * nothing is written and the stored record is returned instead.
   */
  createTask(
    plantId: string,
    task: NewTask,
    idempotency?: { key: string; requestHash: string; responseFor: (taskId: string) => string },
  ): { taskId: string } | { replay: IdempotencyRecord };
  findIdempotencyRecord(plantId: string, key: string): IdempotencyRecord | undefined;
  /** Moves a task if it is still in `from`; false when another request moved it first. */
  transitionTask(taskId: string, from: TTaskStatus, to: TTaskStatus, remark: string | null): boolean;
  listLookupValues(plantId: string, query: TLookupValuesQuery): TPage<TLookupValue>;
  allowedLookupValues(plantId: string, kind: TLookupKind): string[];
  listParts(plantId: string, query: TPartsQuery): TPage<TPart>;
  findPart(plantId: string, partId: string): PartRecord | undefined;
  listStockLevels(plantId: string, partId: string, page: PageRequest): TPage<TStockLevelEntry>;
  /** Keeps the submission as history and makes it the part's current level. */
  submitStockLevel(plantId: string, partId: string, level: NewStockLevel): void;
}

type Row = Record<string, unknown>;
type Params = Record<string, unknown>;

const ASSET_REF_COLUMNS = `a.tag_number AS tagNumber, a.serial_number AS serialNumber, a.external_reference AS externalReference`;

function assetFilterSql(filter: TAssetFilter, params: Params): string[] {
  const where: string[] = [];
  if (filter.assetTagNumber !== undefined) {
    where.push("a.tag_number = @assetTagNumber");
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
    reorderPoint: row.reorderPoint as number,
  };
}

const TASK_COLUMNS = `t.id, t.plant_id AS plantId, t.task_title AS taskTitle, t.task_description AS taskDescription,
  t.activity_kind AS activityKind, t.assigned_to_role AS assignedToRole, t.priority, t.status,
  t.created_date AS createdDate, t.due_date AS dueDate, t.incident_date AS incidentDate, ${ASSET_REF_COLUMNS}`;

const PART_COLUMNS = `id, name, unit, quantity, is_short AS isShort, remark, updated_at AS updatedAt, reorder_point AS reorderPoint`;

const LOOKUP_KIND_ORDER = `CASE kind WHEN 'activityKind' THEN 0 WHEN 'assignedToRole' THEN 1 ELSE 2 END`;

export function createSqliteMaintenanceStore(db: SqliteDatabase): MaintenanceStore {
  const statements = new Map<string, Statement>();
  /** Prepared once per distinct SQL text (the filtered lists have a handful of variants). */
  function stmt(sql: string, raw = false): Statement {
    const key = raw ? `raw:${sql}` : sql;
    let prepared = statements.get(key);
    if (!prepared) {
      prepared = db.prepare(sql);
      if (raw) prepared.raw(true);
      statements.set(key, prepared);
    }
    return prepared;
  }

  // Totals of recent list queries, reused until the database changes: counting is a scan of the
  // plant's index, and most reads repeat the same filter. A change is any write on this connection
  // (total_changes) or a commit by another one, e.g. the operator CLI (data_version).
  const changeMarker = db.prepare("SELECT total_changes() || '/' || (SELECT data_version FROM pragma_data_version)").pluck();
  const totals = new Map<string, number>();
  let totalsMarker = "";
  function countRows(sql: string, params: Params): number {
    const marker = changeMarker.get() as string;
    if (marker !== totalsMarker) {
      totals.clear();
      totalsMarker = marker;
    }
    const key = `${sql}\u0000${JSON.stringify(params)}`;
    let total = totals.get(key);
    if (total === undefined) {
      total = (stmt(sql).get(params) as { total: number }).total;
      if (totals.size >= 1000) totals.clear(); // bounded: filters are client-chosen
      totals.set(key, total);
    }
    return total;
  }

  /**
   * One count and one page query over the same WHERE. `from` and `where` are fixed SQL built from
   * the filter's shape, never from its values (those go in as parameters). The count skips the
   * asset join unless an asset filter needs it: counting is the larger part of a page's cost.
   */
  function page<T>(
    from: { table: string; assetJoin?: string },
    where: string[],
    params: Params,
    columns: string,
    orderBy: string,
    request: PageRequest,
    map: (rows: Row[]) => T[],
    raw = false,
  ): TPage<T> {
    const whereSql = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
    const joined = from.assetJoin ? `${from.table} ${from.assetJoin}` : from.table;
    const countFrom = where.some((condition) => condition.startsWith("a.")) ? joined : from.table;
    const total = countRows(`SELECT count(*) AS total FROM ${countFrom} ${whereSql}`, params);
    const totalPages = Math.ceil(total / request.pageSize);
    const offset = (request.page - 1) * request.pageSize;
    if (offset >= total) return { data: [], page: request.page, totalPages, pageSize: request.pageSize };
    const rows = stmt(`SELECT ${columns} FROM ${joined} ${whereSql} ORDER BY ${orderBy} LIMIT @limit OFFSET @offset`, raw).all({
      ...params,
      limit: request.pageSize,
      offset,
    }) as Row[];
    return { data: map(rows), page: request.page, totalPages, pageSize: request.pageSize };
  }

  // The jobs-done page is the hot path (100 records with nested objects): rows come as arrays
  // (better-sqlite3's raw mode skips building a keyed object per row), read by position.
  const partsUsedOfJobs = db
    .prepare(
      `SELECT u.job_id, u.part_id, p.name, u.quantity, p.unit
       FROM job_parts_used u JOIN parts p ON p.plant_id = u.plant_id AND p.id = u.part_id
       WHERE u.job_id IN (SELECT value FROM json_each(?))
       ORDER BY u.job_id, u.line_no`,
    )
    .raw(true);

  function toJobsDone(rows: Row[]): TJobDone[] {
    const partsByJob = new Map<string, TJobDone["partsUsed"]>();
    const jobs = (rows as unknown as unknown[][]).map((row): TJobDone => {
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
      };
    });
    if (jobs.length > 0) {
      const used = partsUsedOfJobs.all(JSON.stringify(jobs.map((job) => job.id))) as unknown[][];
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

  const plantsAll = db.prepare(`SELECT id, name, customer_id AS customerId FROM plants ORDER BY id`);
  const plantById = db.prepare(`SELECT id, name, customer_id AS customerId FROM plants WHERE id = ?`);
  const assetIdByTag = db.prepare(`SELECT id FROM assets WHERE plant_id = ? AND tag_number = ?`).pluck();
  const taskById = db.prepare(`SELECT ${TASK_COLUMNS} FROM tasks t JOIN assets a ON a.id = t.asset_id WHERE t.plant_id = ? AND t.id = ?`);
  const nextTaskNumber = db.prepare(`SELECT coalesce(max(number), 0) + 1 FROM tasks WHERE plant_id = ?`).pluck();
  const insertTask = db.prepare(`INSERT INTO tasks (id, plant_id, number, asset_id, task_title, task_description, activity_kind,
    assigned_to_role, priority, status, created_date, due_date, incident_date, updated_at)
    VALUES (@id, @plantId, @number, @assetId, @taskTitle, @taskDescription, @activityKind, @assignedToRole, @priority,
    'NEED_APPROVAL', @createdDate, @dueDate, @incidentDate, @now)`);
  const insertTransition = db.prepare(
    `INSERT INTO task_transitions (task_id, from_status, to_status, remark, at) VALUES (?, ?, ?, ?, ?)`,
  );
  const idempotencyByKey = db.prepare(
    `SELECT request_hash AS requestHash, response_body AS responseBody FROM idempotency_keys WHERE plant_id = ? AND key = ?`,
  );
  const insertIdempotency = db.prepare(
    `INSERT INTO idempotency_keys (plant_id, key, request_hash, response_body, created_at) VALUES (?, ?, ?, ?, ?)`,
  );
  const moveTask = db.prepare(`UPDATE tasks SET status = ?, updated_at = ? WHERE id = ? AND status = ?`);
  const lookupValuesOfKind = db
    .prepare(
      `SELECT value FROM lookup_values WHERE kind = ? AND customer_id = (SELECT customer_id FROM plants WHERE id = ?) ORDER BY position, value`,
    )
    .pluck();
  const partById = db.prepare(`SELECT ${PART_COLUMNS} FROM parts WHERE plant_id = ? AND id = ?`);
  const insertStockLevel = db.prepare(`INSERT INTO stock_levels (plant_id, part_id, quantity, unit, remark, is_short, submitted_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const updatePartLevel = db.prepare(
    `UPDATE parts SET quantity = ?, is_short = ?, remark = ?, updated_at = ? WHERE plant_id = ? AND id = ?`,
  );

  return {
    listPlants: () => plantsAll.all() as PlantRecord[],
    findPlant: (plantId) => plantById.get(plantId) as PlantRecord | undefined,

    listJobsDone(plantId, query) {
      const params: Params = { plantId };
      const where = ["j.plant_id = @plantId", ...dateRangeSql("j.done_date", query, params), ...assetFilterSql(query, params)];
      return page(
        { table: "jobs_done j", assetJoin: "JOIN assets a ON a.id = j.asset_id" },
        where,
        params,
        // In the order toJobsDone reads them.
        `j.id, j.plant_id, j.job_title, j.done_date, j.due_date, j.activity_kind, j.department,
         j.total_time_used_in_hours, j.required_person_count, j.is_final, a.tag_number, a.serial_number,
         a.external_reference, j.work_order_id, j.work_order_remark, j.user_firstname, j.user_lastname, j.user_username`,
        "j.done_date DESC, j.id",
        query,
        toJobsDone,
        true,
      );
    },

    listJobsPlanned(plantId, query) {
      const params: Params = { plantId };
      const where = ["j.plant_id = @plantId", ...dateRangeSql("j.due_date", query, params), ...assetFilterSql(query, params)];
      return page(
        { table: "planned_jobs j", assetJoin: "JOIN assets a ON a.id = j.asset_id" },
        where,
        params,
        `j.id, j.plant_id AS plantId, j.job_title AS jobTitle, j.due_date AS dueDate, j.activity_kind AS activityKind,
         j.department, j.estimated_time_in_hours AS estimatedTimeInHours, j.required_person_count AS requiredPersonCount,
         j.recurrence_every AS recurrenceEvery, j.recurrence_unit AS recurrenceUnit, ${ASSET_REF_COLUMNS},
         j.work_order_id AS workOrderId, j.work_order_remark AS workOrderRemark`,
        "j.due_date, j.id",
        query,
        toPlannedJobs,
      );
    },

    listAssets(plantId, query) {
      const params: Params = { plantId };
      const where = ["a.plant_id = @plantId", ...assetFilterSql(query, params)];
      return page(
        { table: "assets a" },
        where,
        params,
        `a.id, a.plant_id AS plantId, ${ASSET_REF_COLUMNS}, a.name, a.asset_type AS assetType, a.location,
         a.parent_tag_number AS parentTagNumber, a.manufacturer, a.model, a.criticality`,
        "a.tag_number",
        query,
        (rows) => rows as unknown as TAsset[],
      );
    },

    findAssetIdByTag: (plantId, tagNumber) => assetIdByTag.get(plantId, tagNumber) as string | undefined,

    listTasks(plantId, query) {
      const params: Params = { plantId };
      const where = ["t.plant_id = @plantId", ...assetFilterSql(query, params)];
      if (query.taskStatus) {
        // Statuses are validated against the enum; they go in as one JSON parameter, not as SQL.
        where.push("t.status IN (SELECT value FROM json_each(@statuses))");
        params.statuses = JSON.stringify(query.taskStatus);
      }
      return page({ table: "tasks t", assetJoin: "JOIN assets a ON a.id = t.asset_id" }, where, params, TASK_COLUMNS, "t.created_date DESC, t.id", query, (rows) =>
        rows.map(toTask),
      );
    },

    getTask(plantId, taskId) {
      const row = taskById.get(plantId, taskId) as Row | undefined;
      return row ? toTask(row) : undefined;
    },

    createTask(plantId, task, idempotency) {
      // IMMEDIATE takes the write lock first, so the task number is not read by two writers at once.
      return db
        .transaction((): { taskId: string } | { replay: IdempotencyRecord } => {
          if (idempotency) {
            const existing = idempotencyByKey.get(plantId, idempotency.key) as IdempotencyRecord | undefined;
            if (existing) return { replay: existing };
          }
          const number = nextTaskNumber.get(plantId) as number;
          const taskId = `${plantId}-T${String(number).padStart(6, "0")}`;
          const now = new Date().toISOString();
          insertTask.run({ ...task, id: taskId, plantId, number, now });
          insertTransition.run(taskId, null, "NEED_APPROVAL", null, now);
          if (idempotency) {
            insertIdempotency.run(plantId, idempotency.key, idempotency.requestHash, idempotency.responseFor(taskId), now);
          }
          return { taskId };
        })
        .immediate();
    },

    findIdempotencyRecord: (plantId, key) => idempotencyByKey.get(plantId, key) as IdempotencyRecord | undefined,

    transitionTask(taskId, from, to, remark) {
      return db
        .transaction(() => {
          const now = new Date().toISOString();
          if (moveTask.run(to, now, taskId, from).changes === 0) return false;
          insertTransition.run(taskId, from, to, remark, now);
          return true;
        })
        .immediate();
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

    allowedLookupValues: (plantId, kind) => lookupValuesOfKind.all(kind, plantId) as string[],

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

    findPart(plantId, partId) {
      const row = partById.get(plantId, partId) as Row | undefined;
      return row ? toPart(row) : undefined;
    },

    listStockLevels(plantId, partId, request) {
      return page(
        { table: "stock_levels" },
        ["plant_id = @plantId", "part_id = @partId"],
        { plantId, partId },
        "part_id AS partId, quantity, unit, remark, is_short AS isShort, submitted_at AS submittedAt",
        "submitted_at DESC, seq DESC",
        request,
        (rows) => rows.map((row) => ({ ...(row as unknown as TStockLevelEntry), isShort: row.isShort === 1 })),
      );
    },

    submitStockLevel(plantId, partId, level) {
      db.transaction(() => {
        const isShort = level.isShort ? 1 : 0;
        insertStockLevel.run(plantId, partId, level.quantity, level.unit, level.remark, isShort, level.submittedAt);
        updatePartLevel.run(level.quantity, isShort, level.remark, level.submittedAt, plantId, partId);
      })();
    },
  };
}
