"use client";
/**
 * A plant's monitors: the list with each one's state (ok, firing, failing, off), last and next run;
 * a chosen monitor's definition, its failure in words, its firing history with the tasks they
 * opened; and, for engineers and admins, the editor, "Run now" and delete. Where its messages go is
 * the contact points and routing page (./contact-points-page.tsx), linked from the header. The chosen monitor and
 * whether it is being edited are in the URL (`?monitor=<id>|new&edit=1`).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, ButtonLink } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { plantPath } from "@/components/shell/nav-items";
import { errorMessage } from "@/lib/client/api";
import { useFormat, type Format } from "@/lib/client/format";
import { explorerLink, monitorKeys, monitorsApi, useMonitors } from "@/modules/monitors/client/monitors";
import { useCan } from "@/lib/client/me";
import { useUrlState } from "@/lib/client/url-state";
import { useLookupLabels } from "@/modules/maintenance/client/maintenance";
import type { TMonitor, TMonitorRun } from "@/modules/monitors/contract/monitors";
import { MonitorEditor } from "./monitor-editor";
import { FiringKey } from "./firing-key";
import { MonitorBadges } from "./state-badge";

export function MonitorsPage({ plantId }: { plantId: string }) {
  const { get, update } = useUrlState();
  const format = useFormat();
  const canWrite = useCan("monitors:write");
  const monitors = useMonitors(plantId);
  const selectedParam = get("monitor");
  const editing = get("edit") === "1";
  const creating = selectedParam === "new" && canWrite;
  const selected = monitors.data?.data.find((monitor) => String(monitor.id) === selectedParam) ?? null;
  const counts = (monitors.data?.data ?? []).reduce<Record<string, number>>((all, monitor) => ({ ...all, [monitor.state]: (all[monitor.state] ?? 0) + 1 }), {});

  return (
    <div className="space-y-5">
      <PageHeader
        title="Monitors"
        description={
          monitors.data
            ? `${format.number(monitors.data.data.length)} ${monitors.data.data.length === 1 ? "monitor" : "monitors"} at plant ${plantId}: ${format.number(counts.firing ?? 0)} firing, ${format.number(counts.failing ?? 0)} failing`
            : `KQL monitors that open maintenance work at plant ${plantId}`
        }
        actions={
          <>
            <ButtonLink href={plantPath(plantId, "monitors/routing")}>Contact points and routing</ButtonLink>
            {canWrite ? (
              <ButtonLink href="?monitor=new" variant="primary" scroll={false}>
                New monitor
              </ButtonLink>
            ) : null}
          </>
        }
      />
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-[22rem_1fr]">
        <Card aria-labelledby="monitor-list-title" className="min-h-40 self-start">
          <h2 id="monitor-list-title" className="sr-only">
            Monitors
          </h2>
          {monitors.error ? (
            <ErrorState error={monitors.error} onRetry={() => void monitors.refetch()} />
          ) : monitors.isPending ? (
            <div role="status" className="space-y-2 p-3">
              <span className="sr-only">Loading monitors…</span>
              {Array.from({ length: 5 }, (_, index) => (
                <Skeleton key={index} className="h-14 w-full" />
              ))}
            </div>
          ) : monitors.data.data.length === 0 ? (
            <EmptyState title="No monitors yet">
              {canWrite ? "Create one from a template: a threshold, an anomaly, a silent device or a fast change." : "Engineers and admins create monitors; they appear here."}
            </EmptyState>
          ) : (
            <ul className="divide-y divide-line" aria-label={`${monitors.data.data.length} monitors`} data-testid="monitor-list">
              {monitors.data.data.map((monitor) => (
                <li key={monitor.id}>
                  <Link
                    href={`?monitor=${monitor.id}`}
                    scroll={false}
                    aria-current={String(monitor.id) === selectedParam ? "true" : undefined}
                    className={cn("flex flex-col gap-1 px-3 py-2 text-sm hover:bg-surface-2", String(monitor.id) === selectedParam && "bg-accent-soft")}
                  >
                    <span className="flex items-center justify-between gap-2">
                      <span className="min-w-0 truncate font-medium">{monitor.name}</span>
                      <MonitorBadges monitor={monitor} />
                    </span>
                    <span className="text-xs text-fg-muted">
                      Last run {monitor.lastRunAt ? format.dateTime(monitor.lastRunAt) : "never"}
                      {monitor.nextRunAt ? ` · next ${format.dateTime(monitor.nextRunAt)}` : ""}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Card>

        <div className="min-w-0 space-y-5">
          {creating ? (
            <MonitorEditor plantId={plantId} monitor={null} onDone={(saved) => update({ monitor: saved ? saved.id : null, edit: null })} />
          ) : !selectedParam ? (
            <Card>
              <EmptyState title="Choose a monitor">Pick a monitor to see its definition and the work it opened.</EmptyState>
            </Card>
          ) : monitors.isPending ? (
            <Skeleton className="h-64 w-full" />
          ) : !selected ? (
            <Card>
              <EmptyState title="Monitor not found">There is no monitor {selectedParam} at plant {plantId}.</EmptyState>
            </Card>
          ) : editing && canWrite ? (
            <MonitorEditor key={selected.id} plantId={plantId} monitor={selected} onDone={() => update({ edit: null })} />
          ) : (
            <MonitorDetail key={selected.id} plantId={plantId} monitor={selected} canWrite={canWrite} format={format} onEdit={() => update({ edit: "1" })} onDeleted={() => update({ monitor: null, edit: null })} />
          )}
        </div>
      </div>
    </div>
  );
}

function MonitorDetail({ plantId, monitor, canWrite, format, onEdit, onDeleted }: { plantId: string; monitor: TMonitor; canWrite: boolean; format: Format; onEdit: () => void; onDeleted: () => void }) {
  const queryClient = useQueryClient();
  const labels = useLookupLabels(plantId);
  const [confirming, setConfirming] = useState(false);
  const [lastRun, setLastRun] = useState<TMonitorRun | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: monitorKeys.all(plantId) });
  const run = useMutation({
    mutationFn: () => monitorsApi.run(plantId, monitor.id),
    onSuccess: (result) => {
      setLastRun(result);
      void refresh();
    },
    onError: () => void refresh(),
  });
  const remove = useMutation({
    mutationFn: () => monitorsApi.remove(plantId, monitor.id),
    onSuccess: async () => {
      await refresh();
      onDeleted();
    },
  });
  const opened = lastRun?.firings.filter((firing) => firing.state === "opened").length ?? 0;
  const resolved = lastRun?.firings.filter((firing) => firing.state === "resolved").length ?? 0;

  return (
    <>
      <Card aria-labelledby="monitor-title">
        <CardHeader
          id="monitor-title"
          title={monitor.name}
          description={`Runs every ${monitor.every} over the last ${monitor.lookback}; one firing per ${monitor.keyColumns.join(" + ")}.`}
          actions={<MonitorBadges monitor={monitor} />}
        />
        <CardBody className="space-y-4">
          {monitor.lastError ? (
            <div role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
              <p className="font-medium">
                The last run failed{monitor.consecutiveFailures > 1 ? ` (${monitor.consecutiveFailures} times in a row)` : ""}; the next run waits longer after each failure.
              </p>
              <p className="wrap-anywhere">{monitor.lastError}</p>
            </div>
          ) : null}
          {monitor.lastNotifyError ? <p className="rounded-md bg-warning-soft px-3 py-2 text-sm text-warning wrap-anywhere">Last notification not delivered: {monitor.lastNotifyError}</p> : null}
          <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
            <Detail label="Last run" value={monitor.lastRunAt ? format.dateTime(monitor.lastRunAt) : "Never"} />
            <Detail label="Next run" value={monitor.nextRunAt ? format.dateTime(monitor.nextRunAt) : "Off"} />
            <Detail label="Open firings" value={format.number(monitor.openFirings)} />
            <Detail label="Task" value={`${monitor.task.taskTitle} · ${labels.label("priority", monitor.task.priority)} · due in ${monitor.task.dueInDays} ${monitor.task.dueInDays === 1 ? "day" : "days"}`} />
            <Detail label="Asset" value={monitor.task.assetTagNumber ?? "The asset the row's device measures"} />
            <Detail label="Notifies" value={[...monitor.notify.emails, ...(monitor.notify.webhookConfigured ? ["a webhook"] : [])].join(", ") || "Nobody"} />
            <Detail label="Created by" value={`${monitor.createdBy}, ${format.dateTime(monitor.createdAt)}`} />
          </dl>
          <pre className="max-h-48 overflow-auto rounded-md bg-surface-2 p-3 text-xs whitespace-pre-wrap wrap-anywhere" aria-label="Query">
            {monitor.query}
          </pre>
          <div className="flex flex-wrap gap-2">
            <ButtonLink href={explorerLink(plantId, monitor.query)}>Open query in explorer</ButtonLink>
            {canWrite ? (
              <>
                <Button variant="primary" onClick={() => run.mutate()} disabled={run.isPending}>
                  {run.isPending ? "Running…" : "Run now"}
                </Button>
                <Button onClick={onEdit}>Edit</Button>
                {confirming ? (
                  <>
                    <Button variant="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
                      Delete “{monitor.name}”
                    </Button>
                    <Button variant="ghost" onClick={() => setConfirming(false)}>
                      Keep it
                    </Button>
                  </>
                ) : (
                  <Button variant="danger" onClick={() => setConfirming(true)}>
                    Delete…
                  </Button>
                )}
              </>
            ) : null}
          </div>
          <div aria-live="polite" className="text-sm">
            {run.error ? <p className="text-danger">Run failed: {errorMessage(run.error)}</p> : null}
            {remove.error ? <p className="text-danger">Not deleted: {errorMessage(remove.error)}</p> : null}
            {lastRun ? (
              <p>
                Ran {format.dateTime(lastRun.evaluatedAt)}: {lastRun.firings.length - resolved} firing, {opened} opened, {resolved} resolved.
              </p>
            ) : null}
          </div>
        </CardBody>
      </Card>
      <FiringHistory plantId={plantId} monitor={monitor} format={format} />
    </>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-fg-muted">{label}</dt>
      <dd className="wrap-anywhere">{value}</dd>
    </div>
  );
}

function FiringHistory({ plantId, monitor, format }: { plantId: string; monitor: TMonitor; format: Format }) {
  const firings = useQuery({
    queryKey: [...monitorKeys.firings(plantId, monitor.id), monitor.lastRunAt],
    queryFn: ({ signal }) => monitorsApi.firings(plantId, monitor.id, signal),
  });
  return (
    <Card aria-labelledby="firing-history-title">
      <CardHeader id="firing-history-title" title="Firing history" description="Each key from the run that first returned it until the run that no longer did; newest first." />
      {firings.error ? (
        <ErrorState error={firings.error} onRetry={() => void firings.refetch()} />
      ) : firings.isPending ? (
        <TableSkeleton rows={4} columns={4} />
      ) : firings.data.data.length === 0 ? (
        <EmptyState title="Nothing has fired">When a run returns rows, each key appears here with the task it opened.</EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="firing-history">
            <caption className="sr-only">Firings of {monitor.name}</caption>
            <thead className="bg-surface-2 text-left text-fg-muted">
              <tr>
                <th scope="col" className="px-4 py-2 font-semibold">
                  Key
                </th>
                <th scope="col" className="hidden px-4 py-2 font-semibold sm:table-cell">
                  Opened
                </th>
                <th scope="col" className="px-4 py-2 font-semibold">
                  Resolved
                </th>
                <th scope="col" className="px-4 py-2 font-semibold">
                  Task
                </th>
              </tr>
            </thead>
            <tbody>
              {firings.data.data.map((firing) => (
                <tr key={firing.id} className="border-t border-line align-top">
                  <td className="min-w-40 px-4 py-2">
                    <FiringKey value={firing.key} />
                    {firing.assetTagNumber ? <span className="block text-xs text-fg-muted">Asset {firing.assetTagNumber}</span> : null}
                    <span className="block text-xs text-fg-muted sm:hidden">Opened {format.dateTime(firing.openedAt)}</span>
                  </td>
                  <td className="hidden px-4 py-2 whitespace-nowrap sm:table-cell">{format.dateTime(firing.openedAt)}</td>
                  <td className="px-4 py-2 whitespace-nowrap">{firing.resolvedAt ? format.dateTime(firing.resolvedAt) : <Badge tone="warning">Firing</Badge>}</td>
                  <td className="px-4 py-2">
                    {firing.taskId ? (
                      <Link className="font-medium text-accent hover:underline" href={`${plantPath(plantId, "tasks")}?task=${encodeURIComponent(firing.taskId)}`}>
                        {firing.taskId}
                      </Link>
                    ) : (
                      <span className="text-danger wrap-anywhere">{firing.problem ?? "—"}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
