/**
 * Task writes before close-out: creation (numbers handed out one at a time per plant), moves and
 * edits. Each is one transaction whose SQL decides races between instances sharing a PostgreSQL
 * database: the plant lock (PLANT_WRITE_LOCK), `UPDATE … WHERE status = <from>`, and an edit that
 * only applies to the version of the row it read.
 */
import type { TPerson, TTaskStatus } from "@/modules/maintenance/contract/maintenance";
import type { SqlDb, SqlEngine, SqlExecutor } from "@/lib/platform/sql";
import { IDEMPOTENCY_BY_KEY, keepIdempotentResponse, StoredElsewhere, type IdempotencyRecord } from "./idempotency";
import type { Params } from "./page";
import { INSERT_TRANSITION, type Actor } from "./tasks";

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

export interface TaskWrites {
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
    /** More writes of the same transaction (a plan's occurrence claim); what it throws rolls the task back. */
    alongside?: (tx: SqlExecutor, taskId: string) => Promise<void>,
  ): Promise<{ taskId: string } | { replay: IdempotencyRecord }>;
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
}

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
 * Inserts a task (status NEED_APPROVAL) with its first history row inside the caller's transaction,
 * taking the plant's next task number under the plant lock; returns its id. Task creation and a
 * close-out's follow-up tasks (close-out.ts) both write tasks this way.
 */
export async function insertTask(tx: SqlExecutor, engine: SqlEngine, plantId: string, task: NewTask, actor: Actor): Promise<string> {
  const plantWriteLock = PLANT_WRITE_LOCK[engine];
  if (plantWriteLock) await tx.run(plantWriteLock, { plantId });
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
  return taskId;
}

export function taskWrites(engine: SqlDb): TaskWrites {
  return {
    // The idempotency key is inserted in the same transaction as the task; a key stored first by
    // another writer (PostgreSQL: another instance) rolls the task back and answers the stored response.
    async createTask(plantId, task, actor, idempotency, alongside) {
      try {
        return await engine.transaction(async (tx) => {
          const plantWriteLock = PLANT_WRITE_LOCK[engine.engine];
          if (plantWriteLock) await tx.run(plantWriteLock, { plantId });
          if (idempotency) {
            const stored = await tx.get<IdempotencyRecord>(IDEMPOTENCY_BY_KEY, { plantId, key: idempotency.key });
            if (stored) return { replay: stored };
          }
          const taskId = await insertTask(tx, engine.engine, plantId, task, actor);
          const now = new Date().toISOString();
          await alongside?.(tx, taskId);
          if (idempotency) {
            await keepIdempotentResponse(tx, { plantId, key: idempotency.key, requestHash: idempotency.requestHash, responseBody: idempotency.responseFor(taskId), now });
          }
          return { taskId };
        });
      } catch (error) {
        if (error instanceof StoredElsewhere) return { replay: error.record };
        throw error;
      }
    },

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
  };
}
