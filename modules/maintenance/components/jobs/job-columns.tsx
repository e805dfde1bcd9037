"use client";

import { Badge } from "@/components/ui/badge";
import { columnHelper, type DataColumn } from "@/components/ui/data-table";
import type { Format } from "@/lib/client/format";
import type { CsvColumn } from "@/lib/client/csv";
import type { TJobDone } from "@/modules/maintenance/contract/maintenance";
import { formatHours, jobHours } from "./job-math";

const helper = columnHelper<TJobDone>();

export type CodeLabel = (kind: "failureCode" | "causeCode" | "remedyCode", code: string) => string;

/** A close-out's failure, cause and remedy codes in words, under the job's title; nothing for a job without them. */
function JobCodes({ job, codeLabel }: { job: TJobDone; codeLabel: CodeLabel }) {
  const parts = [
    job.failureCode ? `Failure: ${codeLabel("failureCode", job.failureCode)}` : null,
    job.causeCode ? `Cause: ${codeLabel("causeCode", job.causeCode)}` : null,
    job.remedyCode ? `Remedy: ${codeLabel("remedyCode", job.remedyCode)}` : null,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return (
    <span className="mt-0.5 block text-xs text-danger" data-testid="job-codes">
      {parts.join(" · ")}
    </span>
  );
}

/** The job table's columns; dates in the reader's language (`format`). */
export function jobColumns(labelFor: (kind: string) => string, format: Format, codeLabel: CodeLabel = (_kind, code) => code): DataColumn<TJobDone>[] {
  return helper.columns([
    helper.accessor("doneDate", { header: "Done", cell: (info) => <span className="whitespace-nowrap">{format.date(info.getValue())}</span> }),
    helper.accessor("jobTitle", {
      header: "Job",
      enableHiding: false,
      cell: (info) => (
        <span className="block max-w-sm min-w-48 whitespace-normal wrap-anywhere">
          <span className="font-medium">{info.getValue()}</span>
          <span className="block text-xs text-fg-muted">{info.row.original.id}</span>
          <JobCodes job={info.row.original} codeLabel={codeLabel} />
        </span>
      ),
    }),
    helper.accessor("activityKind", { header: "Activity", cell: (info) => <Badge tone="accent">{labelFor(info.getValue())}</Badge> }),
    helper.accessor("department", { header: "Department", meta: { wrap: true } }),
    helper.accessor((job) => job.asset.tagNumber, { id: "asset", header: "Asset", cell: (info) => <span className="font-mono text-xs">{info.getValue()}</span> }),
    helper.accessor((job) => `${job.carriedOutByUser.firstname} ${job.carriedOutByUser.lastname}`, { id: "carriedOutBy", header: "Carried out by", meta: { wrap: true } }),
    helper.accessor((job) => jobHours(job), { id: "hours", header: "Hours", meta: { align: "right" }, cell: (info) => formatHours(info.getValue(), format) }),
    helper.accessor("requiredPersonCount", { header: "People", meta: { align: "right" } }),
    helper.accessor((job) => job.workOrder.id, { id: "workOrder", header: "Work order" }),
    helper.accessor("dueDate", { header: "Due", cell: (info) => <span className="whitespace-nowrap">{format.date(info.getValue())}</span> }),
    helper.accessor("isFinal", { header: "Final", enableSorting: false, cell: (info) => (info.getValue() ? "Yes" : "No") }),
  ]);
}

/**
 * The CSV: headed by the titles people read in the table (the API keeps the field names), the
 * table's columns first, then every other field of a job spelled out. Dates stay `YYYY-MM-DD`
 * and hours plain decimals, so a spreadsheet sorts and sums them.
 */
export function jobCsvColumns(labelFor: (kind: string) => string, codeLabel: CodeLabel = (_kind, code) => code): CsvColumn<TJobDone>[] {
  return [
    { header: "Done", value: (job) => job.doneDate },
    { header: "Job", value: (job) => job.jobTitle },
    { header: "Job id", value: (job) => job.id },
    { header: "Activity", value: (job) => labelFor(job.activityKind) },
    { header: "Department", value: (job) => job.department },
    { header: "Asset", value: (job) => job.asset.tagNumber },
    { header: "Carried out by", value: (job) => `${job.carriedOutByUser.firstname} ${job.carriedOutByUser.lastname}` },
    { header: "Hours", value: (job) => job.totalTimeUsedInHours },
    { header: "People", value: (job) => job.requiredPersonCount },
    { header: "Work order", value: (job) => job.workOrder.id },
    { header: "Due", value: (job) => job.dueDate },
    { header: "Final", value: (job) => (job.isFinal ? "Yes" : "No") },
    { header: "Plant", value: (job) => job.plantId },
    { header: "Asset serial number", value: (job) => job.asset.serialNumber },
    { header: "Asset external reference", value: (job) => job.asset.externalReference },
    { header: "Work order remark", value: (job) => job.workOrder.remark },
    { header: "User name", value: (job) => job.carriedOutByUser.username },
    { header: "Parts used", value: (job) => job.partsUsed.map((part) => `${part.partId} x${part.quantity} ${part.unit}`).join("; ") },
    { header: "Failure", value: (job) => (job.failureCode ? codeLabel("failureCode", job.failureCode) : null) },
    { header: "Cause", value: (job) => (job.causeCode ? codeLabel("causeCode", job.causeCode) : null) },
    { header: "Remedy", value: (job) => (job.remedyCode ? codeLabel("remedyCode", job.remedyCode) : null) },
    { header: "Downtime hours", value: (job) => job.downtimeHours ?? null },
    { header: "Task", value: (job) => job.taskId ?? null },
  ];
}
