"use client";
/**
 * What the machine did around its maintenance: the asset's data points (from devices whose
 * `MessageMetadata.topologyReference` is the asset's tag, docs/api.md §6) over a chosen range,
 * with its jobs done, tasks, planned jobs and alarms marked on the same time axis.
 */
import dynamic from "next/dynamic";
import { useMemo } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { maintenanceClient, maintenanceKeys, useLookupLabels, useTasks } from "@/modules/maintenance/client/maintenance";
import { useFormat } from "@/lib/client/format";
import { STATUS_LABELS } from "@/modules/maintenance/components/tasks/status";
import type { TPlannedJob } from "@/modules/maintenance/contract/maintenance";
import { describeRange, formatInstant, resolveRange, type TimeRange } from "@/components/telemetry/explorer-state";
import { buildSeries, withUnits } from "@/components/telemetry/series";
import { useZoomHistory } from "@/components/telemetry/zoom-history";
import { useTimeMode } from "@/components/telemetry/time-preference";
import { taskFromAlarmHref } from "@/components/telemetry/alarm-task";
import { useCan } from "@/lib/client/me";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { kqlString, fetchTelemetryQuery } from "@/components/telemetry/telemetry-api";
import { TimeRangePicker } from "@/components/telemetry/time-range-picker";
import type { ChartMarker } from "@/components/telemetry/time-series-chart";
import { MARKER_COLORS } from "@/components/telemetry/chart-colors";
import { AutoRefreshPicker } from "@/components/telemetry/auto-refresh-picker";
import { parseRefresh, REFRESH_INTERVALS } from "@/components/telemetry/live-refresh";
import { useLiveResult } from "@/components/telemetry/use-live-result";
import { useUrlState } from "@/lib/client/url-state";
import { CurrentValues } from "./current-values";

const TimeSeriesChart = dynamic(() => import("@/components/telemetry/time-series-chart").then((m) => m.TimeSeriesChart), {
  ssr: false,
  loading: () => <Skeleton className="h-72 w-full" />,
});

/**
 * The asset's devices and data points are looked up in the last day of the shown range: devices
 * report every minute, and the metadata filter over one day is cheap where 30 days would cost a
 * third of the customer's query budget. The data itself is then read by DeviceId.
 */
const CATALOGUE_SPAN_MS = 86_400_000;
/** Longer ranges are averaged into 10-minute buckets: the chart is at most ~2,000 px wide anyway. */
const RAW_LIMIT_MS = 7 * 86_400_000;
/** Read only in query functions, never to render. */
const currentTime = () => Date.now();
/** A job done has a date, not a time: it is marked at midday UTC. */
const MIDDAY_MS = 12 * 3_600_000;

interface DataPoint {
  deviceId: string;
  name: string;
  /** `DataMetadata.Unit`: each unit gets its own axis. */
  unit: string;
}

export function AssetTelemetry({
  plantId,
  tag,
  range,
  points,
  plannedJobs,
  now,
  onRangeChange,
  onPointsChange,
}: {
  plantId: string;
  tag: string;
  range: TimeRange;
  points: string[] | null;
  plannedJobs: TPlannedJob[];
  now: number;
  onRangeChange: (range: TimeRange) => void;
  onPointsChange: (points: string[]) => void;
}) {
  const window_ = resolveRange(range, now);
  const from = Date.parse(window_.startTime);
  const to = Date.parse(window_.endTime);
  const catalogueWindow = { startTime: new Date(Math.max(from, to - CATALOGUE_SPAN_MS)).toISOString(), endTime: window_.endTime };

  const catalogue = useQuery({
    queryKey: ["asset-telemetry", plantId, tag, "catalogue", catalogueWindow],
    queryFn: async ({ signal }) => {
      const query = `States\n| where MessageMetadata.topologyReference == ${kqlString(tag)}\n| summarize by DeviceId, Name, Unit = tostring(DataMetadata.Unit)`;
      const outcome = await fetchTelemetryQuery({ query, ...catalogueWindow, plantIds: [plantId] }, signal);
      return outcome.result.rows
        .map((row): DataPoint => ({ deviceId: String(row[0]), name: String(row[1]), unit: String(row[2] ?? "") }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.deviceId.localeCompare(b.deviceId));
    },
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });

  const names = useMemo(() => [...new Set((catalogue.data ?? []).map((p) => p.name))], [catalogue.data]);
  const devices = useMemo(() => [...new Set((catalogue.data ?? []).map((p) => p.deviceId))], [catalogue.data]);
  // Without a choice in the URL, the first three data points are shown.
  const chosen = (points ?? names.slice(0, 3)).filter((p) => names.includes(p));

  // Auto-refresh (URL `refresh`, ranges that end "now" only): new samples are appended, alarms asked again.
  const { get, update } = useUrlState();
  const refresh = range.kind === "relative" ? parseRefresh(get("refresh")) : null;
  const refreshMs = refresh ? REFRESH_INTERVALS[refresh].ms : null;

  const raw = to - from <= RAW_LIMIT_MS;
  const filter = `States\n| where DeviceId in (${devices.map(kqlString).join(", ")}) and Name in (${chosen.map(kqlString).join(", ")})`;
  const dataQuery = raw
    ? `${filter}\n| project Timestamp, DeviceId, Name, Value`
    : `${filter}\n| summarize Value = avg(Value) by bin(Timestamp, 10m), DeviceId, Name`;
  const data = useQuery({
    queryKey: ["asset-telemetry", plantId, tag, "data", devices, chosen, window_],
    enabled: chosen.length > 0 && devices.length > 0,
    queryFn: ({ signal }) => fetchTelemetryQuery({ query: dataQuery, ...window_, plantIds: [plantId] }, signal),
    staleTime: 60_000,
  });
  const live = useLiveResult(data.data?.result, { start: from, end: to }, {
    intervalMs: data.isFetching ? null : refreshMs,
    spanMs: to - from,
    fetchRange: (startTime, endTime, signal) => fetchTelemetryQuery({ query: dataQuery, startTime, endTime, plantIds: [plantId] }, signal).then((o) => o.result),
  });
  const shownFrom = live.window?.start ?? from;
  const shownTo = live.window?.end ?? to;

  const alarms = useQuery({
    queryKey: ["asset-telemetry", plantId, tag, "alarms", devices, window_],
    enabled: devices.length > 0,
    refetchInterval: refreshMs ?? false,
    queryFn: async ({ signal }) => {
      const query = `Events\n| where DeviceId in (${devices.map(kqlString).join(", ")})\n| project StartTime, EndTime, Severity, Name, Message, DeviceId\n| order by StartTime asc`;
      // While auto-refreshing, the window ends at the moment of asking.
      const range_ = refreshMs ? resolveRange(range, currentTime()) : window_;
      const outcome = await fetchTelemetryQuery({ query, ...range_, plantIds: [plantId] }, signal);
      return outcome.result.rows.map((row) => ({
        start: Date.parse(String(row[0])),
        end: row[1] ? Date.parse(String(row[1])) : null,
        severity: String(row[2]),
        name: String(row[3]),
        message: String(row[4] ?? ""),
        deviceId: String(row[5] ?? ""),
      }));
    },
    staleTime: 60_000,
  });

  const startDate = window_.startTime.slice(0, 10);
  const endDate = window_.endTime.slice(0, 10);
  const jobsDone = useQuery({
    queryKey: maintenanceKeys.jobsDone(plantId, "asset", tag, startDate, endDate),
    queryFn: ({ signal }) => maintenanceClient.allJobsDone(plantId, { assetTagNumber: tag, startDate, endDate }, signal),
  });
  const tasks = useTasks(plantId);
  const lookups = useLookupLabels(plantId);
  const format = useFormat();
  const canCreateTask = useCan("tasks:create");
  // The explorer's UTC/local choice holds here too (time-preference.ts).
  const { mode: timeMode, timeZone } = useTimeMode();

  const events = (() => {
    const list: (ChartMarker & { detail: string; taskHref?: string })[] = [];
    const inRange = (x: number) => x >= shownFrom && x <= shownTo;
    for (const job of jobsDone.data ?? []) {
      const x = Date.parse(`${job.doneDate}T00:00:00Z`) + MIDDAY_MS;
      if (inRange(x)) list.push({ x, tone: "job", label: `Job done: ${job.jobTitle}`, detail: `${format.date(job.doneDate)} · ${job.totalTimeUsedInHours} h · ${lookups.label("activityKind", job.activityKind)}` });
    }
    for (const task of tasks.data ?? []) {
      if (task.asset.tagNumber !== tag) continue;
      const day = task.incidentDate ?? task.createdDate;
      const x = Date.parse(`${day}T00:00:00Z`) + MIDDAY_MS;
      if (inRange(x)) list.push({ x, tone: "task", label: `Task: ${task.taskTitle}`, detail: `${format.date(day)} · ${STATUS_LABELS[task.status]} · ${lookups.label("priority", task.priority)}` });
    }
    for (const job of plannedJobs) {
      const x = Date.parse(`${job.dueDate}T00:00:00Z`) + MIDDAY_MS;
      if (inRange(x)) list.push({ x, tone: "planned", label: `Planned: ${job.jobTitle}`, detail: `due ${format.date(job.dueDate)}` });
    }
    for (const alarm of alarms.data ?? []) {
      list.push({
        x: alarm.start,
        x2: alarm.end ?? shownTo,
        tone: "alarm",
        label: `Alarm ${alarm.severity}: ${alarm.name}`,
        detail: `${formatInstant(new Date(alarm.start).toISOString(), timeZone)}${alarm.end ? ` – ${formatInstant(new Date(alarm.end).toISOString(), timeZone)}` : " · still active"}${alarm.message ? ` · ${alarm.message}` : ""}`,
        taskHref: taskFromAlarmHref({ plantId, deviceId: alarm.deviceId, asset: tag, name: alarm.name, severity: alarm.severity, message: alarm.message, start: new Date(alarm.start).toISOString() }),
      });
    }
    return list.sort((a, b) => a.x - b.x);
  })();

  const catalogueData = catalogue.data;
  const plan = useMemo(() => {
    const built = live.result ? buildSeries(live.result) : null;
    if (!built?.ok) return built;
    const unitOf = new Map((catalogueData ?? []).map((point) => [point.name, point.unit]));
    return { ...built, series: withUnits(built.series, (name) => unitOf.get(name)) };
  }, [live.result, catalogueData]);
  const zoom = useZoomHistory(range, onRangeChange);

  const togglePoint = (name: string) => onPointsChange(chosen.includes(name) ? chosen.filter((p) => p !== name) : [...chosen, name]);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-4">
        <TimeRangePicker key={range.kind} range={range} onChange={onRangeChange} now={() => now} utc={timeMode === "utc"} />
        {range.kind === "relative" && <AutoRefreshPicker value={refresh} onChange={(next) => update({ refresh: next }, { keepPage: true, replace: true })} />}
      </div>
      {catalogue.isPending ? (
        <Skeleton className="h-10 w-full" />
      ) : catalogue.isError ? (
        <ErrorState error={catalogue.error} title="Could not look up this asset's telemetry" onRetry={() => void catalogue.refetch()} />
      ) : names.length === 0 ? (
        <EmptyState title="No telemetry for this asset">
          No device reported data with topology reference <code>{tag}</code>{" "}
          {to - from <= CATALOGUE_SPAN_MS
            ? "in this range."
            : `in the last 24 hours of this range (${formatInstant(catalogueWindow.startTime)} – ${formatInstant(catalogueWindow.endTime)}), where devices are looked up.`}
        </EmptyState>
      ) : (
        <>
          <CurrentValues plantId={plantId} devices={devices} />
          <fieldset>
            <legend className="mb-1 text-sm font-medium">Data points</legend>
            <div className="flex flex-wrap gap-x-4 gap-y-1" data-testid="data-points">
              {names.map((name) => (
                <label key={name} className="inline-flex items-center gap-1.5 text-sm">
                  <input type="checkbox" className="size-4 accent-[var(--pd-accent)]" checked={chosen.includes(name)} onChange={() => togglePoint(name)} />
                  {name}
                </label>
              ))}
            </div>
          </fieldset>
          {chosen.length === 0 ? (
            <p className="text-sm text-fg-muted">Choose a data point to draw.</p>
          ) : data.isPending ? (
            <div role="status">
              <span className="sr-only">Loading telemetry…</span>
              <Skeleton className="h-72 w-full" />
            </div>
          ) : data.isError ? (
            <ErrorState error={data.error} title="Could not load the data points" onRetry={() => void data.refetch()} />
          ) : plan && !plan.ok ? (
            <EmptyState title="No samples in this range">Nothing was recorded in {describeRange(range).toLowerCase()}. Try a wider range.</EmptyState>
          ) : plan && plan.ok ? (
            <div className={data.isFetching ? "opacity-60" : undefined}>
              <TimeSeriesChart
                series={plan.series}
                domain={[shownFrom, shownTo]}
                height={300}
                markers={events}
                label={`Data points ${chosen.join(", ")} of ${tag} with ${events.length} jobs, tasks and alarms marked`}
                onZoom={zoom.zoom}
                timeZone={timeZone}
              />
              <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-fg-muted">
                <span>{raw ? "Every sample" : "Averages per 10 minutes"} · one axis per unit · drag across the chart to zoom.</span>
                <Button size="sm" variant="ghost" onClick={zoom.undo} disabled={zoom.depth === 0}>
                  Undo zoom
                </Button>
                {zoom.depth > 1 ? (
                  <Button size="sm" variant="ghost" onClick={zoom.reset}>
                    Reset zoom
                  </Button>
                ) : null}
              </div>
            </div>
          ) : null}
        </>
      )}
      <MarkerLegend />
      <section aria-label="Jobs, tasks and alarms in this range">
        <h3 className="mb-1 text-sm font-semibold">On this time axis ({events.length})</h3>
        {events.length === 0 ? (
          <p className="text-sm text-fg-muted">No jobs, tasks or alarms in {describeRange(range).toLowerCase()}.</p>
        ) : (
          <div role="region" aria-label="Jobs, tasks and alarms list" tabIndex={0} className="max-h-60 overflow-auto rounded-md border border-line">
            <ol className="flex flex-col divide-y divide-line text-sm" data-testid="asset-events">
              {events.map((event, index) => (
                <li key={index} className="flex items-baseline gap-2 px-3 py-1.5">
                  <span aria-hidden className="inline-block size-2.5 shrink-0 rounded-full" style={{ background: MARKER_COLORS[event.tone] }} />
                  <span className="min-w-0 flex-1">
                    <span className="font-medium">{event.label}</span>
                    <span className="block text-xs text-fg-muted">{event.detail}</span>
                  </span>
                  {event.taskHref && canCreateTask ? (
                    <Link href={event.taskHref} className="shrink-0 text-xs font-medium text-accent hover:underline" aria-label={`Create task for ${event.label}`}>
                      Create task
                    </Link>
                  ) : null}
                </li>
              ))}
            </ol>
          </div>
        )}
      </section>
    </div>
  );
}

function MarkerLegend() {
  const entries: [ChartMarker["tone"], string][] = [
    ["job", "Job done"],
    ["task", "Task"],
    ["planned", "Planned job"],
    ["alarm", "Alarm (shaded while active)"],
  ];
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-fg-muted" aria-label="Marker colours">
      {entries.map(([tone, label]) => (
        <li key={tone} className="inline-flex items-center gap-1.5">
          <span aria-hidden className="inline-block h-3 w-0.5" style={{ background: MARKER_COLORS[tone] }} />
          {label}
        </li>
      ))}
    </ul>
  );
}
