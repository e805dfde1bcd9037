/**
 * A task's close-out: the task closed, its job-done record `<taskId>-J`, each part used taken off
 * stock with a stock-level history row, and the idempotency key, all in one transaction, so that
 * nothing is written unless all of it is. Races are decided in SQL: the task's move only applies
 * while it is still in `from`, and a part's move only while enough is in stock.
 */
import type { TPerson, TTaskStatus } from "@/modules/maintenance/contract/maintenance";
import type { TChecklistResult } from "@/modules/maintenance/contract/maintenance-plans";
import type { SqlDb, SqlExecutor } from "@/lib/platform/sql";
import { IDEMPOTENCY_BY_KEY, keepIdempotentResponse, StoredElsewhere, type IdempotencyRecord } from "./idempotency";
import { INSERT_TRANSITION, type Actor } from "./tasks";
import { insertTask, type NewTask } from "./task-writes";

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
  /** The asset's downtime for this job (reliability), as a decimal string. */
  downtimeHours: string;
  /** The checklist's results; an out-of-range reading's follow-up task is opened with the job and named in its result. */
  checklist: { result: Omit<TChecklistResult, "followUpTaskId">; followUp: NewTask | null }[] | null;
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

export interface TaskCloseOut {
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
    /** More writes of the same transaction, after the job record (a plan's anchor, a follow-up task); what it throws rolls all back. */
    alongside?: (tx: SqlExecutor) => Promise<void>,
  ): Promise<CloseOutResult>;
}

/** Thrown inside a close-out's transaction to roll it back when a part has too little in stock. */
class OutOfStock {
  constructor(readonly short: { partId: string; inStock: number; used: number }) {}
}

export function taskCloseOut(engine: SqlDb): TaskCloseOut {
  return {
    // One transaction: the task's move (UPDATE … WHERE status = <from> decides a race: the loser
    // changes nothing), the job-done record, the stock moves (each an UPDATE that only succeeds
    // while enough is in stock), their history rows and the idempotency key.
    async closeOutTask(plantId, taskId, from, record, remark, actor, idempotency, alongside) {
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
          const results: TChecklistResult[] = [];
          for (const { result, followUp } of record.checklist ?? []) {
            results.push({ ...result, followUpTaskId: followUp ? await insertTask(tx, engine.engine, plantId, followUp, actor) : null });
          }
          await tx.run(`UPDATE jobs_done SET downtime_hours = @downtime, checklist_results = @checklist WHERE id = @jobId`, {
            jobId,
            downtime: record.downtimeHours,
            checklist: record.checklist ? JSON.stringify(results) : null,
          });
          await alongside?.(tx);
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
            await keepIdempotentResponse(tx, { plantId, key: idempotency.key, requestHash: idempotency.requestHash, responseBody: idempotency.responseFor(jobId, stock), now });
          }
          return { jobId, stock };
        });
      } catch (error) {
        if (error instanceof StoredElsewhere) return { replay: error.record };
        if (error instanceof OutOfStock) return { short: error.short };
        throw error;
      }
    },
  };
}
