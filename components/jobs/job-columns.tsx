"use client";

import { Badge } from "@/components/ui/badge";
import { columnHelper, type DataColumn } from "@/components/ui/data-table";
import { formatDate } from "@/lib/client/dates";
import type { CsvColumn } from "@/lib/client/csv";
import type { TJobDone } from "@/lib/upstream/schemas/maintenance";
import { formatHours, jobHours } from "./job-math";

const helper = columnHelper<TJobDone>();

export function jobColumns(labelFor: (kind: string) => string): DataColumn<TJobDone>[] {
  return helper.columns([
    helper.accessor("doneDate", { header: "Done", cell: (info) => <span className="whitespace-nowrap">{formatDate(info.getValue())}</span> }),
    helper.accessor("jobTitle", {
      header: "Job",
      enableHiding: false,
      cell: (info) => (
        <span className="block min-w-64 max-w-md whitespace-normal">
          <span className="font-medium">{info.getValue()}</span>
          <span className="block text-xs text-fg-muted">{info.row.original.id}</span>
        </span>
      ),
    }),
    helper.accessor("activityKind", { header: "Activity", cell: (info) => <Badge tone="accent">{labelFor(info.getValue())}</Badge> }),
    helper.accessor("department", { header: "Department" }),
    helper.accessor((job) => job.asset.tagNumber, { id: "asset", header: "Asset", cell: (info) => <span className="font-mono text-xs">{info.getValue()}</span> }),
    helper.accessor((job) => `${job.carriedOutByUser.firstname} ${job.carriedOutByUser.lastname}`, { id: "carriedOutBy", header: "Carried out by" }),
    helper.accessor((job) => jobHours(job), { id: "hours", header: "Hours", meta: { align: "right" }, cell: (info) => formatHours(info.getValue()) }),
    helper.accessor("requiredPersonCount", { header: "People", meta: { align: "right" } }),
    helper.accessor((job) => job.workOrder.id, { id: "workOrder", header: "Work order" }),
    helper.accessor("dueDate", { header: "Due", cell: (info) => <span className="whitespace-nowrap">{formatDate(info.getValue())}</span> }),
    helper.accessor("isFinal", { header: "Final", enableSorting: false, cell: (info) => (info.getValue() ? "Yes" : "No") }),
  ]);
}

/** Every field of a job, flat, in the spec's order (nested objects spelled out). */
export const JOB_CSV_COLUMNS: CsvColumn<TJobDone>[] = [
  { header: "id", value: (job) => job.id },
  { header: "plantId", value: (job) => job.plantId },
  { header: "jobTitle", value: (job) => job.jobTitle },
  { header: "doneDate", value: (job) => job.doneDate },
  { header: "dueDate", value: (job) => job.dueDate },
  { header: "activityKind", value: (job) => job.activityKind },
  { header: "department", value: (job) => job.department },
  { header: "totalTimeUsedInHours", value: (job) => job.totalTimeUsedInHours },
  { header: "requiredPersonCount", value: (job) => job.requiredPersonCount },
  { header: "isFinal", value: (job) => job.isFinal },
  { header: "asset.tagNumber", value: (job) => job.asset.tagNumber },
  { header: "asset.serialNumber", value: (job) => job.asset.serialNumber },
  { header: "asset.externalReference", value: (job) => job.asset.externalReference },
  { header: "workOrder.id", value: (job) => job.workOrder.id },
  { header: "workOrder.remark", value: (job) => job.workOrder.remark },
  { header: "carriedOutByUser.username", value: (job) => job.carriedOutByUser.username },
  { header: "carriedOutByUser.firstname", value: (job) => job.carriedOutByUser.firstname },
  { header: "carriedOutByUser.lastname", value: (job) => job.carriedOutByUser.lastname },
  { header: "partsUsed", value: (job) => job.partsUsed.map((part) => `${part.partId} x${part.quantity} ${part.unit}`).join("; ") },
];
