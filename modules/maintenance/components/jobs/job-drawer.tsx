"use client";

import Link from "next/link";
import { plantPath } from "@/components/shell/nav-items";
import { Badge } from "@/components/ui/badge";
import { DetailList, Drawer } from "@/components/ui/drawer";
import { EmptyState } from "@/components/ui/states";
import { AttachmentList } from "@/modules/maintenance/components/attachments/attachment-list";
import { useFormat } from "@/lib/client/format";
import type { TJobDone } from "@/modules/maintenance/contract/maintenance";
import { formatHours, jobHours } from "./job-math";
import type { CodeLabel } from "./job-columns";

export function JobDrawer({
  plantId,
  jobId,
  job,
  isLoading,
  labelFor,
  codeLabel = (_kind, code) => code,
  onClose,
}: {
  plantId: string;
  jobId: string;
  job: TJobDone | undefined;
  isLoading: boolean;
  labelFor: (kind: string) => string;
  codeLabel?: CodeLabel;
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
          <EmptyState title="Job not found">The job {jobId} is not in the chosen date range and filters.</EmptyState>
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
              ...(job.taskId
                ? [
                    {
                      label: "Task",
                      value: (
                        <Link className="font-medium text-accent hover:underline" href={`${plantPath(plantId, "tasks")}?task=${encodeURIComponent(job.taskId)}`}>
                          {job.taskId}
                        </Link>
                      ),
                    },
                  ]
                : []),
            ]}
          />

          {job.failureCode || job.causeCode || job.remedyCode || job.downtimeHours != null ? (
            <section aria-labelledby="job-codes">
              <h3 id="job-codes" className="mb-2 text-sm font-semibold">
                Failure and repair
              </h3>
              <DetailList
                items={[
                  { label: "Failure", value: job.failureCode ? codeLabel("failureCode", job.failureCode) : "—" },
                  { label: "Cause", value: job.causeCode ? codeLabel("causeCode", job.causeCode) : "—" },
                  { label: "Remedy", value: job.remedyCode ? codeLabel("remedyCode", job.remedyCode) : "—" },
                  { label: "Downtime", value: job.downtimeHours != null ? formatHours(Number(job.downtimeHours), format) : "—" },
                ]}
              />
            </section>
          ) : null}

          {job.checklist?.length ? (
            <section aria-labelledby="job-checklist">
              <h3 id="job-checklist" className="mb-2 text-sm font-semibold">
                Checklist
              </h3>
              <ol className="space-y-1 text-sm" data-testid="job-checklist">
                {job.checklist.map((item) => (
                  <li key={item.itemId} className="flex flex-wrap items-baseline gap-x-2">
                    <span aria-hidden="true">{item.done ? "✓" : "✗"}</span>
                    <span className="sr-only">{item.done ? "Done:" : "Not done:"}</span>
                    <span className="min-w-0 wrap-anywhere">{item.text}</span>
                    {item.reading !== null ? (
                      <span className={item.outOfRange ? "font-medium text-danger" : "text-fg-muted"}>
                        {format.number(item.reading)}
                        {item.unit ? ` ${item.unit}` : ""}
                        {item.outOfRange ? " — out of range" : ""}
                      </span>
                    ) : null}
                    {item.followUpTaskId ? (
                      <Link className="text-accent hover:underline" href={`${plantPath(plantId, "tasks")}?task=${encodeURIComponent(item.followUpTaskId)}`}>
                        follow-up {item.followUpTaskId}
                      </Link>
                    ) : null}
                    {item.note ? <span className="basis-full pl-5 text-xs text-fg-muted wrap-anywhere">{item.note}</span> : null}
                  </li>
                ))}
              </ol>
            </section>
          ) : null}

          {job.attachments?.length ? (
            <section aria-labelledby="job-attachments">
              <h3 id="job-attachments" className="mb-2 text-sm font-semibold">
                Photos and files ({job.attachments.length})
              </h3>
              <AttachmentList plantId={plantId} attachments={job.attachments} testId="job-attachments" />
            </section>
          ) : null}

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
