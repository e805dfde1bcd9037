/**
 * Which value axis each chart series is drawn against, and its colour — the honest-chart rules
 * (issue 26): a column carries its data point's unit only when it is a measurement of it (the raw
 * `Value`, averages, minima, maxima, percentiles, sums); counts (`count`, `dcount`, `countif`,
 * `n` …) are unitless and get an axis of their own; any other column (an alias the chart cannot
 * read, a ratio) is drawn unitless. A chart has at most two value axes: further units share the
 * second measured axis, whose label then names every unit on it ("bar · A"), so nothing is drawn
 * against a unit it does not have without the label saying so. Colours come from a hash of the
 * series' key, so a series keeps its colour when a filter adds or removes others. Pure.
 */
import { SERIES_COLORS } from "./chart-colors";

/** Counts of rows or of distinct values, as Kusto names them by default or people alias them. */
const COUNT_COLUMN = /^(n|cnt|num|count|dcount|countif|dcountif|count_.*|dcount_.*|countif_.*|dcountif_.*|n_.*|.*_count|.*_n)$/i;
/** Aggregates (and the raw reading) whose result is in the unit of what they aggregate. */
const MEASURE_COLUMN = /(^|_)value($|_)|^(value|avg|mean|min|max|median|sum|stdev|stdevp|any|take_any|first|last|percentile|percentiles|p\d+(\.\d+)?)($|_)/i;

type AxisKind = "unit" | "count" | "plain";

export function isCountColumn(column: string): boolean {
  return COUNT_COLUMN.test(column);
}

/** Whether a column's values are in the unit of the data point they came from. */
export function carriesUnit(column: string): boolean {
  return !isCountColumn(column) && MEASURE_COLUMN.test(column);
}

export interface AxisSeries {
  key: string;
  /** Unit of the data point ("" when unknown or when the column does not carry it). */
  unit?: string;
  /** The result column the values come from; without it the series is taken as a measurement. */
  column?: string;
}

interface Axis {
  id: string;
  kind: AxisKind;
  /** Units drawn against this axis (one, unless more than two kinds of value share a chart). */
  units: string[];
  side: "left" | "right";
}

interface AxisPlan {
  axes: Axis[];
  /** Axis id of each series key. */
  axisOf: Map<string, string>;
}

export const MAX_AXES = 2;

/** What a series is measured in: a unit, a count, or nothing readable. */
function seriesKind(series: AxisSeries): { kind: AxisKind; unit: string } {
  if (series.column !== undefined && isCountColumn(series.column)) return { kind: "count", unit: "" };
  if (series.column !== undefined && !carriesUnit(series.column)) return { kind: "plain", unit: "" };
  return series.unit ? { kind: "unit", unit: series.unit } : { kind: "plain", unit: "" };
}

/**
 * The value axes for the series shown, in their order: one per unit, one for counts, one for
 * unitless values — at most `MAX_AXES`. The first group keeps the left axis; counts (then unitless
 * values) keep the second when present; any further unit joins the measured axis beside them.
 */
export function planAxes(series: readonly AxisSeries[]): AxisPlan {
  const groups: { id: string; kind: AxisKind; unit: string }[] = [];
  const groupOf = new Map<string, string>();
  for (const s of series) {
    const { kind, unit } = seriesKind(s);
    const id = kind === "unit" ? `u:${unit}` : kind;
    if (!groups.some((group) => group.id === id)) groups.push({ id, kind, unit });
    groupOf.set(s.key, id);
  }
  if (groups.length === 0) return { axes: [{ id: "plain", kind: "plain", units: [], side: "left" }], axisOf: groupOf };
  if (groups.length <= MAX_AXES) {
    const axes = groups.map((group, index): Axis => ({ id: group.id, kind: group.kind, units: group.unit ? [group.unit] : [], side: index === 0 ? "left" : "right" }));
    return { axes, axisOf: groupOf };
  }
  // Three or more groups: one measured axis (every unit, named on its label) and one for counts —
  // or for unitless values when there are no counts, which otherwise join the counts' axis. With
  // no counts nor unitless values, the first unit keeps its own axis and the others share the second.
  const measured = groups.filter((group) => group.kind === "unit");
  const second = groups.find((group) => group.kind === "count") ?? groups.find((group) => group.kind === "plain");
  const axes: Axis[] = second
    ? [
        { id: measured[0]!.id, kind: "unit", units: measured.map((group) => group.unit), side: "left" },
        { id: second.id, kind: second.kind, units: [], side: "right" },
      ]
    : [
        { id: measured[0]!.id, kind: "unit", units: [measured[0]!.unit], side: "left" },
        { id: measured[1]!.id, kind: "unit", units: measured.slice(1).map((group) => group.unit), side: "right" },
      ];
  const axisOf = new Map<string, string>();
  for (const [key, id] of groupOf) {
    const unit = id.startsWith("u:") ? id.slice(2) : null;
    axisOf.set(key, unit !== null ? axes.find((axis) => axis.units.includes(unit))!.id : axes[1]!.id);
  }
  return { axes, axisOf };
}

/**
 * Small multiples (issue 26): the series split into charts of at most MAX_AXES kinds each. The
 * first kind of value and the counts (else the unitless values, else the second unit) share the
 * main chart; every further unit gets a small chart of its own, so no unit is drawn against an
 * axis that is not its own. One kind or two: one chart, as before. Order kept within each chart.
 */
export function smallMultiples<S extends AxisSeries>(series: readonly S[]): S[][] {
  const order: string[] = [];
  const byGroup = new Map<string, S[]>();
  for (const s of series) {
    const { kind, unit } = seriesKind(s);
    const id = kind === "unit" ? `u:${unit}` : kind;
    if (!byGroup.has(id)) {
      order.push(id);
      byGroup.set(id, []);
    }
    byGroup.get(id)!.push(s);
  }
  if (order.length <= MAX_AXES) return series.length > 0 ? [[...series]] : [];
  const first = order[0]!;
  const second = order.find((id) => id !== first && id === "count") ?? order.find((id) => id !== first && id === "plain") ?? order[1]!;
  const main = series.filter((s) => {
    const { kind, unit } = seriesKind(s);
    const id = kind === "unit" ? `u:${unit}` : kind;
    return id === first || id === second;
  });
  return [main, ...order.filter((id) => id !== first && id !== second).map((id) => byGroup.get(id)!)];
}

/** The words on an axis: its units, "count", or "no unit" (plus what else was folded onto it). */
export function axisUnits(axis: Axis, plan: AxisPlan, series: readonly AxisSeries[]): string[] {
  if (axis.kind === "unit") return axis.units;
  const kinds = new Set(series.filter((s) => plan.axisOf.get(s.key) === axis.id).map((s) => seriesKind(s).kind));
  return [...(kinds.has("count") ? ["count"] : []), ...(kinds.has("plain") ? ["no unit"] : [])];
}

function colorIndex(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % SERIES_COLORS.length;
}

/** FNV-1a over the key: the same series gets the same colour whatever else is drawn. */
export function seriesColor(key: string): string {
  return SERIES_COLORS[colorIndex(key)]!;
}

/**
 * Colours for the series of one chart: each its hashed colour, except that two series never share
 * one while the palette has a free colour (the later key, in name order, takes the next free one).
 * So a series keeps its colour when others are filtered out, unless it had given way to a colliding one.
 */
export function seriesColors(keys: readonly string[]): Map<string, string> {
  const colors = new Map<string, string>();
  const used = new Set<number>();
  for (const key of [...new Set(keys)].sort()) {
    const start = colorIndex(key);
    let index = start;
    for (let step = 0; step < SERIES_COLORS.length && used.has(index); step++) index = (start + step + 1) % SERIES_COLORS.length;
    if (used.has(index)) index = start;
    used.add(index);
    colors.set(key, SERIES_COLORS[index]!);
  }
  return colors;
}
