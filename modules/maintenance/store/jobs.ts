/**
 * Jobs done: the plant's maintenance history, each job with the parts it used. The list is the
 * API's hot path (100 records with nested objects), so its rows are read as arrays, by position,
 * and the parts of a whole page come in one second query, its tasks' attachments in a third (only
 * when a job of the page has a task).
 */
import type { TPage } from "@/lib/contract/common";
import type { TJobDone, TJobsDoneQuery } from "@/modules/maintenance/contract/maintenance";
import type { SqlDb } from "@/lib/platform/sql";
import { createAttachmentStore } from "./attachments";
import { ASSET_JOIN, assetFilterSql, dateRangeSql } from "./filters";
import type { Pager, Params, Row } from "./page";

export interface JobsDoneReads {
  listJobsDone(plantId: string, query: TJobsDoneQuery): Promise<TPage<TJobDone>>;
}

// In the order toJobsDone reads them.
const JOB_DONE_COLUMNS = `j.id, j.plant_id, j.job_title, j.done_date, j.due_date, j.activity_kind, j.department,
  j.total_time_used_in_hours, j.required_person_count, j.is_final, a.tag_number, a.serial_number,
  a.external_reference, j.work_order_id, j.work_order_remark, j.user_firstname, j.user_lastname, j.user_username,
  j.task_id, j.failure_code, j.cause_code, j.remedy_code,
  coalesce(j.downtime_hours, j.total_time_used_in_hours), j.checklist_results`;

export function jobsDoneReads(engine: SqlDb, page: Pager): JobsDoneReads {
  const attachments = createAttachmentStore(engine);
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
        downtimeHours: row[22] as string | null,
        checklist: row[23] === null ? null : (JSON.parse(row[23] as string) as TJobDone["checklist"]),
        attachments: row[18] === null ? null : [],
      };
    });
    const taskIds = jobs.flatMap((job) => (job.taskId ? [job.taskId] : []));
    if (taskIds.length > 0) {
      const byTask = await attachments.listForTasks(jobs[0]!.plantId, taskIds);
      for (const job of jobs) if (job.taskId) job.attachments = byTask.get(job.taskId) ?? [];
    }
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

  return {
    listJobsDone(plantId, query) {
      const params: Params = { plantId };
      const where = ["j.plant_id = @plantId", ...dateRangeSql("j.done_date", query, params), ...assetFilterSql(query, params)];
      const from = { table: "jobs_done j", assetJoin: ASSET_JOIN("j") };
      return page(from, where, params, JOB_DONE_COLUMNS, "j.done_date DESC, j.id", query, toJobsDone, true);
    },
  };
}
