"use client";
/**
 * A plant at a glance: what got done in the last 30 days, what is late, what waits, what is short,
 * what is alarming now. Every figure is a link to the page that lists it, already filtered, and
 * each tile loads (or fails) on its own so one slow source never blanks the others.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { plantPath } from "@/components/shell/nav-items";
import { serializeExplorerState } from "@/components/telemetry/explorer-state";
import { fetchTelemetryQuery } from "@/components/telemetry/telemetry-api";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorState } from "@/components/ui/states";
import { ApiError, countRecords, errorMessage } from "@/lib/client/api";
import { addDays } from "@/lib/client/dates";
import { useFormat, useToday } from "@/lib/client/format";
import { operationApiPath } from "@/lib/contract/api";
import { maintenanceClient, maintenanceKeys, useTasks } from "@/modules/maintenance/client/maintenance";
import { useCan, useMe } from "@/lib/client/me";
import { OPEN_STATUSES, STATUS_LABELS, STATUS_TONES } from "@/modules/maintenance/components/tasks/status";
import { jobHours, formatHours } from "@/modules/maintenance/components/jobs/job-math";
import { ALARM_SEVERITIES } from "@/lib/contract/vocabulary";

const ACTIVE_ALARMS_QUERY = "Events\n| where isnull(EndTime)\n| summarize Alarms = count() by Severity";
const SEVERITY_ORDER = ALARM_SEVERITIES;
const SEVERITY_TONES: Record<string, BadgeTone> = { Critical: "danger", Major: "danger", Minor: "warning", Warning: "neutral" };

export function PlantOverview({ plantId }: { plantId: string }) {
  const me = useMe();
  const plant = me.data?.plants.find((entry) => entry.id === plantId);
  const today = useToday();
  const format = useFormat();
  const from = addDays(today, -29);

  const jobs = useQuery({
    queryKey: maintenanceKeys.jobsDone(plantId, "all", { startDate: from, endDate: today }),
    queryFn: ({ signal }) => maintenanceClient.allJobsDone(plantId, { startDate: from, endDate: today }, signal),
  });
  const overdue = useQuery({
    queryKey: maintenanceKeys.jobsPlanned(plantId, "count", { endDate: addDays(today, -1) }),
    queryFn: ({ signal }) => countRecords(operationApiPath("listJobsPlanned", { plantId }), { endDate: addDays(today, -1) }, signal),
  });
  const short = useQuery({
    queryKey: [...maintenanceKeys.parts(plantId), "short-count"],
    queryFn: ({ signal }) => countRecords(operationApiPath("listParts", { plantId }), { isShort: "true" }, signal),
  });
  const tasks = useTasks(plantId);

  const jobsHref = `${plantPath(plantId, "jobs")}?from=${from}&to=${today}`;
  const hours = jobs.data?.reduce((sum, job) => sum + jobHours(job), 0);

  return (
    <div className="space-y-6">
      <PageHeader
        title={plant ? plant.name : plantId}
        description={
          <>
            Plant {plantId} · last 30 days: {format.date(from)} – {format.date(today)}
          </>
        }
      />

      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatTile
          label="Jobs done"
          hint="last 30 days"
          href={jobsHref}
          linkLabel="Open job history for the last 30 days"
          query={jobs}
          value={(rows) => format.number(rows.length)}
        />
        <StatTile
          label="Hours worked"
          hint="last 30 days, all jobs"
          href={jobsHref}
          linkLabel="Open job history for the last 30 days"
          query={jobs}
          value={() => formatHours(hours ?? 0, format)}
        />
        <StatTile
          label="Overdue planned jobs"
          hint="due before today"
          href={`${plantPath(plantId, "planned")}?overdue=1`}
          linkLabel="Open planned work, overdue only"
          query={overdue}
          value={(count) => format.number(count)}
          tone={(count) => (count > 0 ? "danger" : "success")}
        />
        <StatTile
          label="Parts short"
          hint="below their reorder level"
          href={`${plantPath(plantId, "stock")}?short=1`}
          linkLabel="Open stock levels, short parts only"
          query={short}
          value={(count) => format.number(count)}
          tone={(count) => (count > 0 ? "warning" : "success")}
        />
      </div>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <OpenTasks plantId={plantId} tasks={tasks} />
        <ActiveAlarms plantId={plantId} />
      </div>
    </div>
  );
}

interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  refetch: () => unknown;
}

const toneText: Record<BadgeTone, string> = {
  neutral: "text-fg",
  accent: "text-accent",
  success: "text-success",
  warning: "text-warning",
  danger: "text-danger",
};

function StatTile<T>({
  label,
  hint,
  href,
  linkLabel,
  query,
  value,
  tone,
}: {
  label: string;
  hint: string;
  href: string;
  linkLabel: string;
  query: QueryLike<T>;
  value: (data: T) => string;
  tone?: (data: T) => BadgeTone;
}) {
  return (
    <Card className="relative p-4 transition-shadow focus-within:ring-2 focus-within:ring-focus hover:shadow-md">
      <h2 className="text-sm font-medium text-fg-muted">{label}</h2>
      {query.error ? (
        <p className="mt-2 text-sm text-danger" role="alert">
          {errorMessage(query.error)}
        </p>
      ) : query.data === undefined ? (
        <Skeleton className="mt-2 h-9 w-24" />
      ) : (
        <p className={cn("mt-1 text-3xl font-semibold tabular-nums", toneText[tone?.(query.data) ?? "neutral"])} data-testid={`stat-${label}`}>
          {value(query.data)}
        </p>
      )}
      <p className="mt-1 text-xs text-fg-muted">{hint}</p>
      {/* The link covers the whole tile (its ::after), so the tile is one big target. */}
      <Link href={href} className="mt-2 inline-block text-sm font-medium text-accent after:absolute after:inset-0 hover:underline focus-visible:outline-none">
        <span aria-hidden="true">View →</span>
        <span className="sr-only">{linkLabel}</span>
      </Link>
    </Card>
  );
}

function OpenTasks({ plantId, tasks }: { plantId: string; tasks: ReturnType<typeof useTasks> }) {
  const format = useFormat();
  const counts = new Map<string, number>();
  for (const task of tasks.data ?? []) counts.set(task.status, (counts.get(task.status) ?? 0) + 1);
  const open = OPEN_STATUSES.reduce((sum, status) => sum + (counts.get(status) ?? 0), 0);
  const largest = Math.max(1, ...OPEN_STATUSES.map((status) => counts.get(status) ?? 0));

  return (
    <Card aria-labelledby="open-tasks-title">
      <CardHeader
        id="open-tasks-title"
        title="Open tasks by status"
        description={tasks.data ? `${format.number(open)} open of ${format.number(tasks.data.length)} tasks` : "Loading…"}
        actions={
          <Link href={`${plantPath(plantId, "tasks")}?status=${OPEN_STATUSES.join(",")}`} className="text-sm font-medium text-accent hover:underline">
            Task board
          </Link>
        }
      />
      {tasks.error ? (
        <ErrorState error={tasks.error} onRetry={() => void tasks.refetch()} />
      ) : (
        <ul className="divide-y divide-line">
          {OPEN_STATUSES.map((status) => {
            const count = counts.get(status) ?? 0;
            return (
              <li key={status}>
                <Link href={`${plantPath(plantId, "tasks")}?status=${status}`} className="flex items-center gap-3 px-4 py-2.5 hover:bg-surface-2">
                  <span className="w-48 shrink-0 text-sm">
                    <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>
                  </span>
                  <span className="h-2 flex-1 overflow-hidden rounded-full bg-surface-2" aria-hidden="true">
                    <span className="block h-full rounded-full bg-accent" style={{ width: `${(count / largest) * 100}%` }} />
                  </span>
                  {tasks.data ? (
                    <span className="w-10 text-right text-sm font-semibold tabular-nums" data-testid={`open-${status}`}>
                      {count}
                    </span>
                  ) : (
                    <Skeleton className="h-4 w-8" />
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

/** Active alarms (Events with no EndTime), by severity. Hidden without telemetry rights or upstream support. */
function ActiveAlarms({ plantId }: { plantId: string }) {
  const canQuery = useCan("telemetry:query");
  const alarms = useQuery({
    queryKey: ["telemetry", "active-alarms", plantId],
    enabled: canQuery,
    // Incidents overlap the range when EndTime is null, so any recent window finds every active one.
    queryFn: async ({ signal }) => {
      const end = new Date();
      const start = new Date(end.getTime() - 3_600_000);
      const outcome = await fetchTelemetryQuery(
        { query: ACTIVE_ALARMS_QUERY, startTime: start.toISOString(), endTime: end.toISOString(), plantIds: [plantId] },
        signal,
      );
      const severity = outcome.result.columns.findIndex((column) => column.name === "Severity");
      const count = outcome.result.columns.findIndex((column) => column.name === "Alarms");
      return new Map(outcome.result.rows.map((row) => [String(row[severity]), Number(row[count])]));
    },
    refetchInterval: 60_000,
  });

  // An upstream without telemetry (404/405/501) is not an error the planner can act on: leave the tile out.
  const unsupported = alarms.error instanceof ApiError && [404, 405, 501].includes(alarms.error.status);
  if (!canQuery || unsupported) return null;

  const total = alarms.data ? [...alarms.data.values()].reduce((sum, value) => sum + value, 0) : undefined;
  const explorerHref = `${plantPath(plantId, "telemetry")}?${serializeExplorerState({
    query: "Events\n| where isnull(EndTime)\n| project StartTime, Severity, Name, DeviceId, Message\n| order by StartTime desc",
    range: { kind: "relative", last: "1h" },
    plants: [plantId],
    view: "table",
  })}`;

  return (
    <Card aria-labelledby="alarms-title">
      <CardHeader
        id="alarms-title"
        title="Active alarms"
        description="Alarms raised and not yet cleared"
        actions={
          <Link href={explorerHref} className="text-sm font-medium text-accent hover:underline">
            Open in explorer
          </Link>
        }
      />
      {alarms.error ? (
        <ErrorState error={alarms.error} onRetry={() => void alarms.refetch()} />
      ) : (
        <div className="flex flex-wrap items-end gap-6 p-4">
          <div>
            {total === undefined ? (
              <Skeleton className="h-10 w-16" />
            ) : (
              <p className={cn("text-4xl font-semibold tabular-nums", total > 0 ? "text-danger" : "text-success")} data-testid="active-alarms">
                {total}
              </p>
            )}
            <p className="text-xs text-fg-muted">active now</p>
          </div>
          <ul className="flex flex-wrap gap-2">
            {SEVERITY_ORDER.map((severity) => (
              <li key={severity}>
                <Badge tone={SEVERITY_TONES[severity] ?? "neutral"}>
                  {severity}: {alarms.data ? (alarms.data.get(severity) ?? 0) : "…"}
                </Badge>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}
