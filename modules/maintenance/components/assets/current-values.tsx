"use client";
/**
 * The asset's data points as they stand now: the newest reading of each (of the asset's devices,
 * whatever sent it: the demo plant or an edge node over MQTT), and a "Stale since …" badge where the
 * value is no longer current — its edge node or device died (a death's reading, Quality "STALE"),
 * or no reading came for well over its usual interval (components/telemetry/staleness.ts).
 * Refreshed every 30 s, so a node that dies while the page is open is marked without a reload.
 * Times are in the reader's own language and time zone.
 */
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorState } from "@/components/ui/states";
import { useFormat } from "@/lib/client/format";
import { kqlString, fetchTelemetryQuery } from "@/components/telemetry/telemetry-api";
import { freshness, staleReason, staleSinceText, type Freshness } from "@/components/telemetry/staleness";

/** How far back the newest reading is looked for (and the pace of each data point read from). */
const LOOKBACK_MS = 86_400_000;
const REFRESH_MS = 30_000;
/** Data points listed at most; an asset has a handful of devices with five to a few dozen each. */
const MAX_POINTS = 200;

interface CurrentValue {
  deviceId: string;
  name: string;
  at: number;
  value: number | null;
  unit: string;
  freshness: Freshness;
}

function currentValuesQuery(devices: readonly string[]): string {
  return [
    "States",
    `| where DeviceId in (${devices.map(kqlString).join(", ")})`,
    "| extend Quality = tostring(DataMetadata.Quality), Unit = tostring(DataMetadata.Unit)",
    "| summarize arg_max(Timestamp, Value, Quality, Unit), Readings = countif(isnotnull(Value)), First = minif(Timestamp, isnotnull(Value)) by DeviceId, Name",
    `| take ${MAX_POINTS + 1}`,
  ].join("\n");
}

export function CurrentValues({ plantId, devices }: { plantId: string; devices: readonly string[] }) {
  const format = useFormat();
  const current = useQuery({
    queryKey: ["asset-telemetry", plantId, "current", devices],
    enabled: devices.length > 0,
    refetchInterval: REFRESH_MS,
    queryFn: async ({ signal }) => {
      const now = Date.now();
      const outcome = await fetchTelemetryQuery(
        { query: currentValuesQuery(devices), startTime: new Date(now - LOOKBACK_MS).toISOString(), endTime: new Date(now + 60_000).toISOString(), plantIds: [plantId] },
        signal,
      );
      const column = (name: string) => outcome.result.columns.findIndex((c) => c.name === name);
      const [device, name, time, value, quality, unit, readings, first] = ["DeviceId", "Name", "Timestamp", "Value", "Quality", "Unit", "Readings", "First"].map(column) as number[];
      const values = outcome.result.rows.map((row): CurrentValue => {
        const at = Date.parse(String(row[time!]));
        const raw = row[value!];
        const reading = {
          at,
          value: typeof raw === "number" ? raw : null,
          quality: String(row[quality!] ?? ""),
          readings: Number(row[readings!] ?? 0),
          firstAt: row[first!] ? Date.parse(String(row[first!])) : null,
        };
        return { deviceId: String(row[device!]), name: String(row[name!]), at, value: reading.value, unit: String(row[unit!] ?? ""), freshness: freshness(reading, now) };
      });
      // Stale ones first: they are what the reader needs to see.
      values.sort((a, b) => Number(b.freshness.state === "stale") - Number(a.freshness.state === "stale") || a.name.localeCompare(b.name) || a.deviceId.localeCompare(b.deviceId));
      return { values, checkedAt: now };
    },
  });

  if (devices.length === 0) return null;
  return (
    <section aria-labelledby="current-values-title" className="flex flex-col gap-2">
      <h3 id="current-values-title" className="text-sm font-semibold">
        Current values
      </h3>
      {current.isPending ? (
        <div role="status">
          <span className="sr-only">Loading current values…</span>
          <Skeleton className="h-16 w-full" />
        </div>
      ) : current.isError ? (
        <ErrorState error={current.error} title="Could not load the current values" onRetry={() => void current.refetch()} />
      ) : current.data.values.length === 0 ? (
        <p className="text-sm text-fg-muted">No reading from this asset&apos;s devices in the last 24 hours.</p>
      ) : (
        <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2 xl:grid-cols-3" data-testid="current-values">
          {current.data.values.slice(0, MAX_POINTS).map((point) => {
            const state = point.freshness;
            return (
              <li key={`${point.deviceId}/${point.name}`} className="min-w-0 rounded-md border border-line px-3 py-2" data-testid="current-value" data-state={state.state}>
                <div className="flex flex-wrap items-baseline justify-between gap-x-2">
                  <span className="min-w-0 font-medium [overflow-wrap:anywhere]">{point.name}</span>
                  <span className="text-lg font-semibold tabular-nums">
                    {point.value === null ? <span className="text-fg-muted">no value</span> : `${format.number(point.value)}${point.unit && point.unit !== "bool" ? ` ${point.unit}` : ""}`}
                  </span>
                </div>
                <p className="text-xs text-fg-muted [overflow-wrap:anywhere]">
                  {point.deviceId} · {state.state === "stale" && state.reason === "died" ? "went offline" : "read"} {format.dateTime(point.at)}
                </p>
                {state.state === "stale" ? (
                  <div className="mt-1 flex flex-col items-start gap-0.5">
                    <Badge tone="warning" wrap>
                      {staleSinceText(state.since, current.data.checkedAt, format.locale, format.timeZone)}
                    </Badge>
                    <p className="text-xs text-fg-muted">{staleReason(state, current.data.checkedAt, format.locale)}</p>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {current.data && current.data.values.length > MAX_POINTS ? <p className="text-xs text-fg-muted">Showing the first {MAX_POINTS} data points.</p> : null}
    </section>
  );
}
