/**
 * Auto-refresh of a result whose range ends "now" (off, 10 s, 1 min, as in Grafana): each tick asks
 * only for what is new and appends it, and the window slides. Pure helpers, used by
 * use-live-result.ts; the choice lives in the URL as `refresh=10s|1m`.
 *
 * What is new: everything from the newest time on the time axis of the result so far. That row is
 * asked for again on purpose: for `summarize … by bin(Timestamp, 1h)` it is the still-open bucket,
 * which the new answer replaces with its complete value (a bin starts at its row's time, so the
 * tick's range covers the whole bucket). Rows that leave the window are dropped.
 */
import type { QueryResult } from "./series";

export const REFRESH_INTERVALS = {
  "10s": { label: "10 s", ms: 10_000 },
  "1m": { label: "1 min", ms: 60_000 },
} as const;

export type RefreshInterval = keyof typeof REFRESH_INTERVALS;

export function parseRefresh(value: string | null | undefined): RefreshInterval | null {
  return value && Object.hasOwn(REFRESH_INTERVALS, value) ? (value as RefreshInterval) : null;
}

/** The column on the time axis (as the chart picks it: `Timestamp`, else the first datetime), or -1. */
export function timeColumn(result: QueryResult): number {
  const datetimes = result.columns.flatMap((c, i) => (c.columnType === "datetime" ? [i] : []));
  return datetimes.find((i) => result.columns[i]!.name === "Timestamp") ?? datetimes[0] ?? -1;
}

const timeOf = (row: unknown[], index: number) => (typeof row[index] === "string" ? Date.parse(row[index] as string) : Number.NaN);

/** Where the next tick's range starts: the newest time in the result, else `fallback`. */
export function nextDeltaStart(result: QueryResult, fallback: number): number {
  const index = timeColumn(result);
  if (index < 0) return fallback;
  let newest = Number.NEGATIVE_INFINITY;
  for (const row of result.rows) {
    const t = timeOf(row, index);
    if (t > newest) newest = t;
  }
  return Number.isFinite(newest) ? Math.min(newest, fallback) : fallback;
}

/**
 * `previous` with the rows of `delta` (the answer for [deltaStart, now)) appended: rows of
 * `previous` at or after `deltaStart` are replaced by the delta's, rows before `windowStart` are
 * dropped. Null when the result cannot be appended to (no time axis, other columns): then the
 * caller runs the whole range again.
 */
export function appendRows(previous: QueryResult, delta: QueryResult, deltaStart: number, windowStart: number): QueryResult | null {
  const index = timeColumn(previous);
  if (index < 0) return null;
  const same =
    delta.columns.length === previous.columns.length &&
    delta.columns.every((c, i) => c.name === previous.columns[i]!.name && c.columnType === previous.columns[i]!.columnType);
  if (!same) return null;
  const kept = previous.rows.filter((row) => {
    const t = timeOf(row, index);
    return t >= windowStart && t < deltaStart;
  });
  const added = delta.rows.filter((row) => timeOf(row, index) >= windowStart);
  return { columns: previous.columns, rows: kept.concat(added) };
}

/** "updated 12 sec. ago" in the reader's language: when live mode last brought the result up to date. */
export function updatedAgo(ms: number, locale: string): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 5) return "updated just now";
  const words = new Intl.RelativeTimeFormat(locale, { numeric: "always", style: "short" });
  if (seconds < 60) return `updated ${words.format(-seconds, "second")}`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `updated ${words.format(-minutes, "minute")}` : `updated ${words.format(-Math.floor(minutes / 60), "hour")}`;
}
