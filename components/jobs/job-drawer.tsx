"use client";

import Link from "next/link";
import { plantPath } from "@/components/shell/nav-items";
import { Badge } from "@/components/ui/badge";
import { DetailList, Drawer } from "@/components/ui/drawer";
import { EmptyState } from "@/components/ui/states";
import { useFormat } from "@/lib/client/format";
import type { TJobDone } from "@/lib/contract/maintenance";
import { formatHours, jobHours } from "./job-math";

export function JobDrawer({
  plantId,
  jobId,
  job,
  isLoading,
  labelFor,
  onClose,
}: {
  plantId: string;
  jobId: string;
  job: TJobDone | undefined;
  isLoading: boolean;
  labelFor: (kind: string) => string;
  onClose: () => void;
}) {
  const format = useFormat();
  return (
    <Drawer open={Boolean(jobId)} onClose={onClose} title={job ? job.jobTitle : `Job ${jobId}`} description={job ? `Job ${job.id}` : undefined}>
      {!job ? (
        isLoading ? (
          <p role="status" className="text-sm text-fg-muted">
            Loading…
          </p>
        ) : (
          <EmptyState title="Job not found">Job {jobId} is not in the chosen date range and filters.</EmptyState>
        )
      ) : (
        <div className="space-y-6">
          <DetailList
            items={[
              { label: "Done", value: format.date(job.doneDate) },
              { label: "Due", value: format.date(job.dueDate) },
              { label: "Activity", value: <Badge tone="accent">{labelFor(job.activityKind)}</Badge> },
              { label: "Department", value: job.department },
              { label: "Hours", value: formatHours(jobHours(job), format) },
              { label: "People", value: job.requiredPersonCount },
              { label: "Final", value: job.isFinal ? "Yes" : "No" },
              {
                label: "Carried out by",
                value: (
                  <>
                    {job.carriedOutByUser.firstname} {job.carriedOutByUser.lastname} <span className="text-fg-muted">({job.carriedOutByUser.username})</span>
                  </>
                ),
              },
            ]}
          />

          <section aria-labelledby="job-asset">
            <h3 id="job-asset" className="mb-2 text-sm font-semibold">
              Asset
            </h3>
            <DetailList
              items={[
                {
                  label: "Tag",
                  value: (
                    <Link className="font-medium text-accent hover:underline" href={`${plantPath(plantId, "planned")}?asset=${encodeURIComponent(job.asset.tagNumber)}`}>
                      {job.asset.tagNumber}
                    </Link>
                  ),
                },
                { label: "Serial number", value: job.asset.serialNumber ?? "—" },
                { label: "External reference", value: job.asset.externalReference ?? "—" },
              ]}
            />
          </section>

          <section aria-labelledby="job-work-order">
            <h3 id="job-work-order" className="mb-2 text-sm font-semibold">
              Work order
            </h3>
            <DetailList
              items={[
                { label: "Number", value: job.workOrder.id },
                { label: "Remark", value: job.workOrder.remark ?? "—" },
              ]}
            />
          </section>

          <section aria-labelledby="job-parts">
            <h3 id="job-parts" className="mb-2 text-sm font-semibold">
              Parts used ({job.partsUsed.length})
            </h3>
            {job.partsUsed.length === 0 ? (
              <p className="text-sm text-fg-muted">No parts were used.</p>
            ) : (
              <table className="w-full text-sm">
                <caption className="sr-only">Parts used in job {job.id}</caption>
                <thead className="text-left text-fg-muted">
                  <tr>
                    <th scope="col" className="py-1 pr-2 font-medium">
                      Part
                    </th>
                    <th scope="col" className="py-1 pr-2 font-medium">
                      Id
                    </th>
                    <th scope="col" className="py-1 text-right font-medium">
                      Quantity
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {job.partsUsed.map((part) => (
                    <tr key={part.partId} className="border-t border-line">
                      <td className="py-1.5 pr-2">{part.name}</td>
                      <td className="py-1.5 pr-2">
                        <Link className="text-accent hover:underline" href={`${plantPath(plantId, "stock")}?part=${encodeURIComponent(part.partId)}`}>
                          {part.partId}
                        </Link>
                      </td>
                      <td className="py-1.5 text-right tabular-nums">
                        {part.quantity} {part.unit}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </div>
      )}
    </Drawer>
  );
}
