/**
 * The telemetry explorer's whole state as URL search parameters, so any view can be shared and
 * reloaded: `q` (query text), `range` (a relative range) or `from`+`to` (absolute, ISO UTC),
 * `plants` (comma list), `view` (table | chart; absent: automatic), `refresh` (10s | 1m, relative
 * ranges only), `res=full` (a chart at the query's full resolution rather than the one the server
 * chooses), `compare` (1d | 7d | 30d: split view beside the same range that long before). Pure:
 * parsed and written without React.
 */
import { parseRefresh, type RefreshInterval } from "./live-refresh";

export const RELATIVE_RANGES = {
  "1h": { label: "Last 1 hour", ms: 3_600_000 },
  "24h": { label: "Last 24 hours", ms: 86_400_000 },
  "7d": { label: "Last 7 days", ms: 7 * 86_400_000 },
  "30d": { label: "Last 30 days", ms: 30 * 86_400_000 },
} as const;

export type RelativeRange = keyof typeof RELATIVE_RANGES;
export type TimeRange = { kind: "relative"; last: RelativeRange } | { kind: "absolute"; from: string; to: string };
/** `auto`: as the query's `render` or the result's shape says (chart-plan.ts); else the person's choice. */
type ResultView = "auto" | "table" | "chart";

export interface ExplorerState {
  query: string;
  range: TimeRange;
  plants: string[];
  view: ResultView;
  /** Auto-refresh of a range that ends "now"; absent: off. */
  refresh?: RefreshInterval;
  /** Draw every point the query returns (the server reduces nothing; the row limit applies). */
  full?: true;
  /** Split view: the same query over the range shifted this far back, beside it. */
  compare?: CompareShift;
}

/** How far back the split view's second range lies. */
export const COMPARE_SHIFTS = {
  "1d": { label: "1 day earlier", ms: 86_400_000 },
  "7d": { label: "1 week earlier", ms: 7 * 86_400_000 },
  "30d": { label: "30 days earlier", ms: 30 * 86_400_000 },
} as const;
export type CompareShift = keyof typeof COMPARE_SHIFTS;

/** The range `shift` before `range`, as the query endpoint's `startTime`/`endTime`. */
export function shiftedRange(window: { startTime: string; endTime: string }, shift: CompareShift): { startTime: string; endTime: string } {
  const ms = COMPARE_SHIFTS[shift].ms;
  return { startTime: new Date(Date.parse(window.startTime) - ms).toISOString(), endTime: new Date(Date.parse(window.endTime) - ms).toISOString() };
}

const DEFAULT_RANGE: TimeRange = { kind: "relative", last: "24h" };

function isRelative(value: string | null): value is RelativeRange {
  return value !== null && Object.hasOwn(RELATIVE_RANGES, value);
}

function isIsoInstant(value: string | null): value is string {
  return value !== null && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/.test(value) && !Number.isNaN(Date.parse(value));
}

/**
 * Reads the state from the URL. Anything missing or malformed falls back to a default instead of
 * failing: a hand-edited link should still open the explorer. `allowedPlants` keeps only plants
 * the user may query; none left → the page's own plant.
 */
export function parseExplorerState(
  params: URLSearchParams,
  defaults: { query: string; plantId: string; allowedPlants?: readonly string[] },
): ExplorerState {
  const from = params.get("from");
  const to = params.get("to");
  const last = params.get("range");
  let range: TimeRange = DEFAULT_RANGE;
  if (isIsoInstant(from) && isIsoInstant(to) && Date.parse(from) < Date.parse(to)) range = { kind: "absolute", from, to };
  else if (isRelative(last)) range = { kind: "relative", last };

  const allowed = defaults.allowedPlants;
  const plants = (params.get("plants") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p, i, all) => p !== "" && all.indexOf(p) === i && (!allowed || allowed.includes(p)));

  const refresh = range.kind === "relative" ? parseRefresh(params.get("refresh")) : null;
  const compare = params.get("compare");
  return {
    query: params.get("q") ?? defaults.query,
    range,
    plants: plants.length > 0 ? plants : [defaults.plantId],
    view: params.get("view") === "table" ? "table" : params.get("view") === "chart" ? "chart" : "auto",
    ...(refresh ? { refresh } : {}),
    ...(params.get("res") === "full" ? { full: true as const } : {}),
    ...(compare !== null && Object.hasOwn(COMPARE_SHIFTS, compare) ? { compare: compare as CompareShift } : {}),
  };
}

export function serializeExplorerState(state: ExplorerState): string {
  const params = new URLSearchParams();
  params.set("q", state.query);
  if (state.range.kind === "relative") params.set("range", state.range.last);
  else {
    params.set("from", state.range.from);
    params.set("to", state.range.to);
  }
  params.set("plants", state.plants.join(","));
  if (state.view !== "auto") params.set("view", state.view);
  if (state.refresh && state.range.kind === "relative") params.set("refresh", state.refresh);
  if (state.full) params.set("res", "full");
  if (state.compare) params.set("compare", state.compare);
  return params.toString();
}

/** The range as the query endpoint's `startTime`/`endTime`; relative ranges end at `now`. */
export function resolveRange(range: TimeRange, now: number): { startTime: string; endTime: string } {
  if (range.kind === "absolute") return { startTime: toIsoMillis(range.from), endTime: toIsoMillis(range.to) };
  // Whole seconds keep a shared link's results stable while the page is open.
  const end = Math.floor(now / 1000) * 1000;
  return {
    startTime: new Date(end - RELATIVE_RANGES[range.last].ms).toISOString(),
    endTime: new Date(end).toISOString(),
  };
}

function toIsoMillis(value: string): string {
  return new Date(Date.parse(value)).toISOString();
}

export function describeRange(range: TimeRange, timeZone = "UTC"): string {
  if (range.kind === "relative") return RELATIVE_RANGES[range.last].label;
  return `${formatInstant(range.from, timeZone)} – ${formatInstant(range.to, timeZone)}`;
}

const minuteFormats = new Map<string, Intl.DateTimeFormat>();

/** `2026-11-21 14:05 UTC`, or on another clock `2026-11-21 15:05 Europe/Amsterdam`. */
export function formatInstant(iso: string, timeZone = "UTC"): string {
  const ms = Date.parse(iso);
  if (timeZone === "UTC") return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  let format = minuteFormats.get(timeZone);
  if (!format) {
    // Swedish writes dates the ISO way (2026-11-21 15:05).
    format = new Intl.DateTimeFormat("sv-SE", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    minuteFormats.set(timeZone, format);
  }
  return `${format.format(ms)} ${timeZone}`;
}

/** An absolute range from two instants in ms, rounded outward to whole seconds. */
export function absoluteRange(fromMs: number, toMs: number): TimeRange {
  const from = Math.floor(Math.min(fromMs, toMs) / 1000) * 1000;
  const to = Math.max(from + 1000, Math.ceil(Math.max(fromMs, toMs) / 1000) * 1000);
  return { kind: "absolute", from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}
