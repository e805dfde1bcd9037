/**
 * Planned jobs: the plant's maintenance plan, only read here. The maintenance plans write theirs
 * (plans/store.ts, `planId`); seed.ts and the demo's roll-forward (demo-roll-forward.ts) the others.
 */
import type { TPage } from "@/lib/contract/common";
import type { TJobsPlannedQuery, TPlannedJob } from "@/modules/maintenance/contract/maintenance";
import { ASSET_JOIN, ASSET_REF_COLUMNS, assetFilterSql, assetRef, dateRangeSql } from "./filters";
import type { Pager, Params, Row } from "./page";

export interface PlannedJobReads {
  listJobsPlanned(plantId: string, query: TJobsPlannedQuery): Promise<TPage<TPlannedJob>>;
}

const PLANNED_JOB_COLUMNS = `j.id, j.plant_id AS "plantId", j.job_title AS "jobTitle", j.due_date AS "dueDate", j.activity_kind AS "activityKind",
  j.department, j.estimated_time_in_hours AS "estimatedTimeInHours", j.required_person_count AS "requiredPersonCount",
  j.recurrence_every AS "recurrenceEvery", j.recurrence_unit AS "recurrenceUnit", ${ASSET_REF_COLUMNS},
  j.work_order_id AS "workOrderId", j.work_order_remark AS "workOrderRemark", j.plan_id AS "planId"`;

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
    planId: (row.planId as string | null) ?? null,
  }));
}

export function plannedJobReads(page: Pager): PlannedJobReads {
  return {
    listJobsPlanned(plantId, query) {
      const params: Params = { plantId };
      const where = ["j.plant_id = @plantId", ...dateRangeSql("j.due_date", query, params), ...assetFilterSql(query, params)];
      const from = { table: "planned_jobs j", assetJoin: ASSET_JOIN("j") };
      return page(from, where, params, PLANNED_JOB_COLUMNS, "j.due_date, j.id", query, toPlannedJobs);
    },
  };
}
