"use client";
/**
 * Monitors where the work shows: the monitors and firings of one asset (asset page), and, in a
 * task's drawer, the monitor that opened the task with its query in the explorer. Hidden for a
 * role that may not see monitors.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Card, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { plantPath } from "@/components/shell/nav-items";
import { useFormat } from "@/lib/client/format";
import { explorerLink, monitorKeys, monitorsApi, usePlantFirings } from "@/modules/monitors/client/monitors";
import { useCan } from "@/lib/client/me";
import { FiringKey } from "./firing-key";
import { MonitorStateBadge } from "./state-badge";

const monitorHref = (plantId: string, monitorId: number) => `${plantPath(plantId, "monitors")}?monitor=${monitorId}`;

/** On a task opened by a monitor: which monitor, and its query in the explorer. */
export function TaskMonitorOrigin({ plantId, taskId }: { plantId: string; taskId: string }) {
  const canRead = useCan("monitors:read");
  const firings = usePlantFirings(plantId, { taskId }, canRead);
  const monitors = useQuery({ queryKey: monitorKeys.all(plantId), queryFn: ({ signal }) => monitorsApi.list(plantId, signal), enabled: canRead && Boolean(firings.data?.data.length) });
  const firing = firings.data?.data[0];
  if (!canRead || !firing) return null;
  const monitor = monitors.data?.data.find((candidate) => candidate.id === firing.monitorId);
  return (
    <div className="rounded-md border border-line bg-surface-2 px-3 py-2 text-sm" data-testid="task-monitor-origin">
      <p>
        Opened by monitor{" "}
        <Link className="font-medium text-accent hover:underline" href={monitorHref(plantId, firing.monitorId)}>
          {firing.monitorName}
        </Link>{" "}
        for <FiringKey value={firing.key} />
      </p>
      {monitor ? (
        <Link className="text-accent hover:underline" href={explorerLink(plantId, monitor.query)}>
          Its query in the explorer
        </Link>
      ) : null}
    </div>
  );
}

/** The asset page's monitors: those aimed at this asset, and every firing that opened work on it. */
export function AssetMonitors({ plantId, tag }: { plantId: string; tag: string }) {
  const canRead = useCan("monitors:read");
  const format = useFormat();
  const firings = usePlantFirings(plantId, { assetTagNumber: tag }, canRead);
  const monitors = useQuery({ queryKey: monitorKeys.all(plantId), queryFn: ({ signal }) => monitorsApi.list(plantId, signal), enabled: canRead });
  if (!canRead) return null;
  const firedIds = new Set((firings.data?.data ?? []).map((firing) => firing.monitorId));
  const aimed = (monitors.data?.data ?? []).filter((monitor) => monitor.task.assetTagNumber === tag || firedIds.has(monitor.id));
  return (
    <Card aria-labelledby="asset-monitors-title">
      <CardHeader id="asset-monitors-title" title="Monitors" description={`Monitors that watch ${tag} and the work they opened.`} />
      {firings.error || monitors.error ? (
        <ErrorState error={firings.error ?? monitors.error} onRetry={() => void Promise.all([firings.refetch(), monitors.refetch()])} />
      ) : firings.isPending || monitors.isPending ? (
        <Skeleton className="m-4 h-16" />
      ) : aimed.length === 0 ? (
        <EmptyState title="No monitor has fired on this asset">Monitors whose rows name this asset (or its devices) appear here.</EmptyState>
      ) : (
        <div className="divide-y divide-line text-sm">
          <ul className="flex flex-wrap gap-2 px-4 py-3" aria-label="Monitors of this asset">
            {aimed.map((monitor) => (
              <li key={monitor.id}>
                <Link className="inline-flex items-center gap-2 rounded-md border border-line px-2 py-1 hover:bg-surface-2" href={monitorHref(plantId, monitor.id)}>
                  {monitor.name} <MonitorStateBadge state={monitor.state} />
                </Link>
              </li>
            ))}
          </ul>
          <ul aria-label="Firings on this asset">
            {(firings.data?.data ?? []).slice(0, 20).map((firing) => (
              <li key={firing.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2">
                <span className="font-medium">{firing.monitorName}</span>
                <FiringKey value={firing.key} />
                <span className="text-fg-muted">
                  {format.dateTime(firing.openedAt)} – {firing.resolvedAt ? format.dateTime(firing.resolvedAt) : "firing"}
                </span>
                {firing.taskId ? (
                  <Link className="text-accent hover:underline" href={`${plantPath(plantId, "tasks")}?task=${encodeURIComponent(firing.taskId)}`}>
                    Task {firing.taskId}
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}
