/**
 * The telemetry explorer's whole state as URL search parameters, so any view can be shared and
 * reloaded: `q` (query text), `range` (a relative range) or `from`+`to` (absolute, ISO UTC),
 * `plants` (comma list), `view` (table | chart). Pure: parsed and written without React.
 */

export const RELATIVE_RANGES = {
  "1h": { label: "Last 1 hour", ms: 3_600_000 },
  "24h": { label: "Last 24 hours", ms: 86_400_000 },
  "7d": { label: "Last 7 days", ms: 7 * 86_400_000 },
  "30d": { label: "Last 30 days", ms: 30 * 86_400_000 },
} as const;

export type RelativeRange = keyof typeof RELATIVE_RANGES;
export type TimeRange = { kind: "relative"; last: RelativeRange } | { kind: "absolute"; from: string; to: string };
export type ResultView = "table" | "chart";

export interface ExplorerState {
  query: string;
  range: TimeRange;
  plants: string[];
  view: ResultView;
}

export const DEFAULT_RANGE: TimeRange = { kind: "relative", last: "24h" };

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

  return {
    query: params.get("q") ?? defaults.query,
    range,
    plants: plants.length > 0 ? plants : [defaults.plantId],
    view: params.get("view") === "table" ? "table" : "chart",
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
  params.set("view", state.view);
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

export function describeRange(range: TimeRange): string {
  if (range.kind === "relative") return RELATIVE_RANGES[range.last].label;
  return `${formatInstant(range.from)} – ${formatInstant(range.to)}`;
}

/** `2026-11-21 14:05 UTC` — telemetry is shown in UTC, like the API that returns it. */
export function formatInstant(iso: string): string {
  const d = new Date(Date.parse(iso));
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** An absolute range from two instants in ms, rounded outward to whole seconds. */
export function absoluteRange(fromMs: number, toMs: number): TimeRange {
  const from = Math.floor(Math.min(fromMs, toMs) / 1000) * 1000;
  const to = Math.max(from + 1000, Math.ceil(Math.max(fromMs, toMs) / 1000) * 1000);
  return { kind: "absolute", from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}
