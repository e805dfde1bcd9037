"use client";
/**
 * What the machine did around its maintenance: the asset's data points (from devices whose
 * `MessageMetadata.topologyReference` is the asset's tag, decisions.md §6) over a chosen range,
 * with its jobs done, tasks, planned jobs and alarms marked on the same time axis.
 */
import dynamic from "next/dynamic";
import { useMemo } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { maintenanceApi, maintenanceKeys, useTasks } from "@/lib/client/maintenance";
import { formatDate } from "@/lib/client/dates";
import type { TPlannedJob } from "@/lib/upstream/schemas/maintenance";
import { absoluteRange, describeRange, formatInstant, resolveRange, type TimeRange } from "@/components/telemetry/explorer-state";
import { buildSeries } from "@/components/telemetry/series";
import { kqlString, runTelemetryQuery } from "@/components/telemetry/telemetry-api";
import { TimeRangePicker } from "@/components/telemetry/time-range-picker";
import type { ChartMarker } from "@/components/telemetry/time-series-chart";
import { MARKER_COLORS } from "@/components/telemetry/chart-colors";

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
/** A job done has a date, not a time: it is marked at midday UTC. */
const MIDDAY_MS = 12 * 3_600_000;

interface DataPoint {
  deviceId: string;
  name: string;
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
      const query = `States\n| where MessageMetadata.topologyReference == ${kqlString(tag)}\n| distinct DeviceId, Name`;
      const outcome = await runTelemetryQuery({ query, ...catalogueWindow, plantIds: [plantId] }, signal);
      return outcome.result.rows
        .map((row): DataPoint => ({ deviceId: String(row[0]), name: String(row[1]) }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.deviceId.localeCompare(b.deviceId));
    },
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });

  const names = useMemo(() => [...new Set((catalogue.data ?? []).map((p) => p.name))], [catalogue.data]);
  const devices = useMemo(() => [...new Set((catalogue.data ?? []).map((p) => p.deviceId))], [catalogue.data]);
  // Without a choice in the URL, the first three data points are shown.
  const chosen = (points ?? names.slice(0, 3)).filter((p) => names.includes(p));

  const raw = to - from <= RAW_LIMIT_MS;
  const data = useQuery({
    queryKey: ["asset-telemetry", plantId, tag, "data", devices, chosen, window_],
    enabled: chosen.length > 0 && devices.length > 0,
    queryFn: ({ signal }) => {
      const filter = `States\n| where DeviceId in (${devices.map(kqlString).join(", ")}) and Name in (${chosen.map(kqlString).join(", ")})`;
      const query = raw
        ? `${filter}\n| project Timestamp, DeviceId, Name, Value`
        : `${filter}\n| summarize Value = avg(Value) by bin(Timestamp, 10m), DeviceId, Name`;
      return runTelemetryQuery({ query, ...window_, plantIds: [plantId] }, signal);
    },
    staleTime: 60_000,
  });

  const alarms = useQuery({
    queryKey: ["asset-telemetry", plantId, tag, "alarms", devices, window_],
    enabled: devices.length > 0,
    queryFn: async ({ signal }) => {
      const query = `Events\n| where DeviceId in (${devices.map(kqlString).join(", ")})\n| project StartTime, EndTime, Severity, Name, Message\n| order by StartTime asc`;
      const outcome = await runTelemetryQuery({ query, ...window_, plantIds: [plantId] }, signal);
      return outcome.result.rows.map((row) => ({
        start: Date.parse(String(row[0])),
        end: row[1] ? Date.parse(String(row[1])) : null,
        severity: String(row[2]),
        name: String(row[3]),
        message: String(row[4] ?? ""),
      }));
    },
    staleTime: 60_000,
  });

  const startDate = window_.startTime.slice(0, 10);
  const endDate = window_.endTime.slice(0, 10);
  const jobsDone = useQuery({
    queryKey: maintenanceKeys.jobsDone(plantId, "asset", tag, startDate, endDate),
    queryFn: ({ signal }) => maintenanceApi.allJobsDone(plantId, { assetTagNumber: tag, startDate, endDate }, signal),
  });
  const tasks = useTasks(plantId);

  const events = (() => {
    const list: (ChartMarker & { detail: string })[] = [];
    const inRange = (x: number) => x >= from && x <= to;
    for (const job of jobsDone.data ?? []) {
      const x = Date.parse(`${job.doneDate}T00:00:00Z`) + MIDDAY_MS;
      if (inRange(x)) list.push({ x, tone: "job", label: `Job done: ${job.jobTitle}`, detail: `${formatDate(job.doneDate)} · ${job.totalTimeUsedInHours} h · ${job.activityKind}` });
    }
    for (const task of tasks.data ?? []) {
      if (task.asset.tagNumber !== tag) continue;
      const day = task.incidentDate ?? task.createdDate;
      const x = Date.parse(`${day}T00:00:00Z`) + MIDDAY_MS;
      if (inRange(x)) list.push({ x, tone: "task", label: `Task: ${task.taskTitle}`, detail: `${formatDate(day)} · ${task.status.replaceAll("_", " ").toLowerCase()} · ${task.priority}` });
    }
    for (const job of plannedJobs) {
      const x = Date.parse(`${job.dueDate}T00:00:00Z`) + MIDDAY_MS;
      if (inRange(x)) list.push({ x, tone: "planned", label: `Planned: ${job.jobTitle}`, detail: `due ${formatDate(job.dueDate)}` });
    }
    for (const alarm of alarms.data ?? []) {
      list.push({
        x: alarm.start,
        x2: alarm.end ?? to,
        tone: "alarm",
        label: `Alarm ${alarm.severity}: ${alarm.name}`,
        detail: `${formatInstant(new Date(alarm.start).toISOString())}${alarm.end ? ` – ${formatInstant(new Date(alarm.end).toISOString())}` : " · still active"}${alarm.message ? ` · ${alarm.message}` : ""}`,
      });
    }
    return list.sort((a, b) => a.x - b.x);
  })();

  const plan = useMemo(() => (data.data ? buildSeries(data.data.result) : null), [data.data]);

  const togglePoint = (name: string) => onPointsChange(chosen.includes(name) ? chosen.filter((p) => p !== name) : [...chosen, name]);

  return (
    <div className="flex flex-col gap-3">
      <TimeRangePicker key={range.kind} range={range} onChange={onRangeChange} now={() => now} />
      {catalogue.isPending ? (
        <Skeleton className="h-10 w-full" />
      ) : catalogue.isError ? (
        <ErrorState error={catalogue.error} title="Could not look up this asset's telemetry" onRetry={() => void catalogue.refetch()} />
      ) : names.length === 0 ? (
        <EmptyState title="No telemetry for this asset">
          No device reported data with topology reference <code>{tag}</code> in the last day of this range.
        </EmptyState>
      ) : (
        <>
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
                domain={[from, to]}
                height={300}
                markers={events}
                label={`Data points ${chosen.join(", ")} of ${tag} with ${events.length} jobs, tasks and alarms marked`}
                onZoom={(a, b) => onRangeChange(absoluteRange(a, b))}
              />
              <p className="mt-1 text-xs text-fg-muted">
                {raw ? "Every sample" : "Averages per 10 minutes"} · drag across the chart to zoom.
              </p>
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
