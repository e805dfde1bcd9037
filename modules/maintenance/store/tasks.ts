/**
 * Task reads (the task list, one task, a task's history) and what every task write shares: who
 * writes (Actor) and the history row each move or edit adds (INSERT_TRANSITION). The writes are in
 * task-writes.ts and close-out.ts.
 */
import type { TPage } from "@/lib/contract/common";
import type { TTask, TTaskStatus, TTaskTransition, TTasksQuery } from "@/modules/maintenance/contract/maintenance";
import type { SqlDb } from "@/lib/platform/sql";
import { ASSET_JOIN, ASSET_REF_COLUMNS, assetFilterSql, assetRef } from "./filters";
import type { PageRequest, Pager, Params, Row } from "./page";

/** Who makes a task write, as kept in its history (docs/api.md §3). */
export interface Actor {
  /** Whom the caller acts for, else the caller itself. */
  by: string;
  /** The authenticated caller: a plant token's id, or `dashboard`. */
  client: string;
}

export interface TaskReads {
  listTasks(plantId: string, query: TTasksQuery): Promise<TPage<TTask>>;
  getTask(plantId: string, taskId: string): Promise<TTask | undefined>;
  /** A task's history, oldest first: its creation, then every move. */
  listTaskTransitions(taskId: string, page: PageRequest): Promise<TPage<TTaskTransition>>;
}

export const INSERT_TRANSITION = `INSERT INTO task_transitions (task_id, from_status, to_status, remark, at, by_name, client_id)
  VALUES (@taskId, @from, @to, @remark, @now, @by, @client)`;

const TASK_COLUMNS = `t.id, t.plant_id AS "plantId", t.task_title AS "taskTitle", t.task_description AS "taskDescription",
  t.activity_kind AS "activityKind", t.assigned_to_role AS "assignedToRole", t.priority, t.status,
  t.created_date AS "createdDate", t.due_date AS "dueDate", t.incident_date AS "incidentDate", ${ASSET_REF_COLUMNS},
  t.assignee_username AS "assigneeUsername", t.assignee_firstname AS "assigneeFirstname", t.assignee_lastname AS "assigneeLastname",
  t.proposed_due_date AS "proposedDueDate", t.updated_at AS "updatedAt", t.plan_id AS "planId", t.checklist`;

const TRANSITION_COLUMNS = `task_id AS "taskId", from_status AS "from", to_status AS "to", remark, at, by_name AS "by", client_id AS "client"`;

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
    planId: (row.planId as string | null) ?? null,
    checklist: row.checklist === null || row.checklist === undefined ? null : (JSON.parse(row.checklist as string) as TTask["checklist"]),
  };
}

export function taskReads(engine: SqlDb, page: Pager): TaskReads {
  return {
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
  };
}
