"use client";
/** The chosen asset's completed jobs, newest first, a page at a time (server pagination). */
import Link from "next/link";
import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { TableSkeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { maintenanceClient, maintenanceKeys, useLookupLabels } from "@/modules/maintenance/client/maintenance";
import { useFormat } from "@/lib/client/format";
import { plantPath } from "@/components/shell/nav-items";

const PAGE_SIZE = 10;

export function AssetJobHistory({ plantId, tag }: { plantId: string; tag: string }) {
  const [page, setPage] = useState(1);
  const [pageOfTag, setPageOfTag] = useState(tag);
  if (pageOfTag !== tag) {
    setPageOfTag(tag);
    setPage(1);
  }
  const jobs = useQuery({
    queryKey: maintenanceKeys.jobsDone(plantId, "asset", tag, page),
    queryFn: ({ signal }) => maintenanceClient.jobsDone(plantId, { assetTagNumber: tag, includeComponents: "true", page, pageSize: PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
  const lookups = useLookupLabels(plantId);
  const format = useFormat();

  if (jobs.isPending) return <TableSkeleton rows={5} columns={3} />;
  if (jobs.isError) return <ErrorState error={jobs.error} title="Could not load the job history" onRetry={() => void jobs.refetch()} />;
  const { data, totalPages } = jobs.data;
  if (data.length === 0 && page === 1) return <EmptyState title="No jobs done yet">Nothing has been recorded for {tag}.</EmptyState>;

  return (
    <div className="flex flex-col gap-2">
      <ol className="flex flex-col divide-y divide-line rounded-md border border-line" data-testid="asset-history" aria-label={`Jobs done on ${tag}`}>
        {data.map((job) => (
          <li key={job.id} className="px-3 py-2 text-sm">
            <span className="flex flex-wrap items-center gap-2 text-xs text-fg-muted">
              <span className="tabular-nums">{format.date(job.doneDate)}</span>
              {job.doneDate > job.dueDate && <Badge tone="warning">late</Badge>}
            </span>
            <span className="block font-medium">{job.jobTitle}</span>
            <span className="block text-xs text-fg-muted">
              {lookups.label("activityKind", job.activityKind)} · {job.totalTimeUsedInHours} h · {job.carriedOutByUser.firstname} {job.carriedOutByUser.lastname}
              {job.workOrder?.id ? ` · WO ${job.workOrder.id}` : ""}
            </span>
          </li>
        ))}
      </ol>
      <nav className="flex items-center gap-2 text-sm" aria-label="Job history pages">
        <Button size="sm" onClick={() => setPage(page - 1)} disabled={page <= 1}>
          Newer
        </Button>
        <span aria-live="polite">
          Page {page} of {Math.max(totalPages, 1)}
        </span>
        <Button size="sm" onClick={() => setPage(page + 1)} disabled={page >= totalPages}>
          Older
        </Button>
        <Link className="ml-auto text-accent underline-offset-2 hover:underline" href={`${plantPath(plantId, "jobs")}?asset=${encodeURIComponent(tag)}`}>
          All in job history
        </Link>
      </nav>
    </div>
  );
}
