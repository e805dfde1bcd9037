/**
 * Whether a data point's current value is still current (docs/telemetry-ingest.md, "Primary host",
 * "Deaths"): it is stale when its edge node or device died (the newest reading is the death's, with
 * `DataMetadata.Quality` "STALE" and no value), or when no reading came for well over the interval
 * the data point reports at. The interval is read from the readings themselves (the span of the
 * looked-up readings over their count), so a device reporting every 2 s and one reporting every
 * minute are each judged by their own pace. Pure: the asset page's current values and the tests use it.
 */

/** The newest reading of a data point and how many came before it in the looked-up window. */
interface LatestReading {
  /** Time of the newest reading (ms), the death's included. */
  at: number;
  value: number | null;
  /** `DataMetadata.Quality` of the newest reading ("" when it has none). */
  quality: string;
  /** Readings with a value in the window, and the time of the first of them (ms). */
  readings: number;
  firstAt: number | null;
}

export type Freshness =
  | { state: "current"; expectedMs: number }
  | { state: "stale"; reason: "died"; since: number }
  | { state: "stale"; reason: "overdue"; since: number; expectedMs: number; lastAt: number };

/** Demo devices and most plants report once a minute: the pace assumed when too few readings tell. */
const DEFAULT_INTERVAL_MS = 60_000;
/** Missing readings tolerated before the value counts as stale: late delivery is not a dead device. */
const OVERDUE_FACTOR = 2;
/** A slack for the delay between a reading's time and its arrival in the store (the demo writes a second after the minute). */
const OVERDUE_SLACK_MS = 15_000;

/** The interval the data point reports at, from its readings in the window. */
export function expectedInterval(reading: Pick<LatestReading, "readings" | "firstAt" | "at" | "value">, lastValueAt: number): number {
  if (reading.readings < 3 || reading.firstAt === null) return DEFAULT_INTERVAL_MS;
  const span = lastValueAt - reading.firstAt;
  return span > 0 ? Math.max(1_000, span / (reading.readings - 1)) : DEFAULT_INTERVAL_MS;
}

export function freshness(reading: LatestReading, now: number): Freshness {
  if (reading.quality.toUpperCase() === "STALE" && reading.value === null) return { state: "stale", reason: "died", since: reading.at };
  const expectedMs = expectedInterval(reading, reading.at);
  const dueBy = reading.at + expectedMs * OVERDUE_FACTOR + OVERDUE_SLACK_MS;
  if (now > dueBy) return { state: "stale", reason: "overdue", since: reading.at + expectedMs, expectedMs, lastAt: reading.at };
  return { state: "current", expectedMs };
}

/** A duration in words in the reader's language ("5 minutes", "2 hours"), largest unit first. */
export function durationInWords(ms: number, locale: string): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
    seconds < 60 ? [seconds, "second"] : seconds < 90 * 60 ? [Math.round(seconds / 60), "minute"] : seconds < 36 * 3600 ? [Math.round(seconds / 3600), "hour"] : [Math.round(seconds / 86_400), "day"];
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long" }).format(value);
}

/**
 * "Stale since 14:05 (12 minutes ago)" in the reader's language and zone; the date is named when
 * it is not today there.
 */
export function staleSinceText(since: number, now: number, locale: string, timeZone: string): string {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const sameDay = day.format(since) === day.format(now);
  const when = new Intl.DateTimeFormat(locale, sameDay ? { hour: "2-digit", minute: "2-digit", timeZone } : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone }).format(since);
  const ago = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  const minutes = Math.round((now - since) / 60_000);
  const relative = minutes < 1 ? ago.format(-Math.max(0, Math.round((now - since) / 1000)), "second") : minutes < 90 ? ago.format(-minutes, "minute") : ago.format(-Math.round(minutes / 60), "hour");
  return `Stale since ${when} (${relative})`;
}

/** Why, in words: the line under the badge. */
export function staleReason(state: Extract<Freshness, { state: "stale" }>, now: number, locale: string): string {
  if (state.reason === "died") return "Its edge node or device went offline; no value since.";
  return `No reading for ${durationInWords(now - state.lastAt, locale)}; its usual interval is ${durationInWords(state.expectedMs, locale)}.`;
}
