/**
 * What a chart of series analysis draws beyond lines (issue 20), from the result alone:
 * - `render anomalychart` of `series_decompose_anomalies` output: the anomaly flags (+1 a rise,
 *   −1 a drop, 0 none; the `anomalycolumns` of the render, else columns named like `flag` or
 *   `anomalies`) become marks on their series' values, and the flags and scores are not drawn as
 *   lines of their own (as Azure Data Explorer draws it).
 * - `series_decompose_forecast(y, Points)`: the last `Points` points of the series are the
 *   forecast; the chart shades them and runs its time axis to the last one (a make-series `to`
 *   past the range's end).
 * Pure.
 */
import type { Series } from "./series";

export interface AnomalyMark {
  /** The series the mark sits on. */
  key: string;
  x: number;
  y: number;
  /** +1: higher than expected; −1: lower. */
  direction: 1 | -1;
}

/** `flag`, `ad_flag`, `anomalies_ad_flag`, `anomalies` — not the `…_ad_score` or `…_baseline` beside them. */
const FLAG_COLUMN = /(^|_)(ad_)?flags?$/i;
const ANOMALY_COLUMN = /anomal/i;
const SCORE_COLUMN = /score/i;
const isFlagName = (column: string) => FLAG_COLUMN.test(column) || (ANOMALY_COLUMN.test(column) && !/score|baseline/i.test(column));

/** A series' group (its key without the column), as buildSeries joins them: "RTM1-DEV-001 · y" → "RTM1-DEV-001". */
function groupOf(series: Series): string {
  const suffix = series.column ? ` · ${series.column}` : "";
  return suffix && series.key.endsWith(suffix) ? series.key.slice(0, -suffix.length) : series.column === series.key ? "" : series.key;
}

/**
 * The lines and the anomaly marks of an anomaly chart. `flagColumns`: the render's
 * `anomalycolumns`, when it names them. No flag column: the series unchanged and no marks.
 */
export function anomalyChart(series: readonly Series[], flagColumns: readonly string[] = []): { series: Series[]; marks: AnomalyMark[] } {
  const isFlag = (s: Series) => s.column !== undefined && (flagColumns.length > 0 ? flagColumns.includes(s.column) : isFlagName(s.column));
  const flags = series.filter(isFlag);
  if (flags.length === 0) return { series: [...series], marks: [] };
  const drawn = series.filter((s) => !isFlag(s) && !(s.column !== undefined && SCORE_COLUMN.test(s.column)));
  const marks: AnomalyMark[] = [];
  for (const flag of flags) {
    const group = groupOf(flag);
    // The values the flags are about: the group's first line that is not the baseline.
    const values = drawn.find((s) => groupOf(s) === group && !/baseline/i.test(s.column ?? "")) ?? drawn.find((s) => groupOf(s) === group);
    if (!values) continue;
    const yAt = new Map(values.points.map((p) => [p.x, p.y]));
    for (const p of flag.points) {
      const y = yAt.get(p.x);
      if (p.y !== 0 && Number.isFinite(p.y) && y !== undefined && Number.isFinite(y)) marks.push({ key: values.key, x: p.x, y, direction: p.y > 0 ? 1 : -1 });
    }
  }
  return { series: drawn, marks };
}

/** `Points` of the query's `series_decompose_forecast(…, Points)`, if it has one with a literal count. */
export function forecastPoints(query: string): number | null {
  const match = /\bseries_decompose_forecast\s*\(\s*[^,()]+(?:\([^()]*\))?[^,()]*,\s*(\d+)/.exec(query);
  const points = match ? Number(match[1]) : Number.NaN;
  return Number.isInteger(points) && points > 0 ? points : null;
}

/**
 * Where the forecast begins and the time axis must end: the time of the `points`-th last point of
 * the longest series, and its last point. Null when the series are too short to hold a forecast.
 */
export function forecastSpan(series: readonly Series[], points: number): { from: number; to: number } | null {
  const longest = series.reduce<Series | undefined>((best, s) => (!best || s.points.length > best.points.length ? s : best), undefined);
  if (!longest || longest.points.length <= points) return null;
  const sorted = longest.points;
  return { from: sorted[sorted.length - points]!.x, to: sorted[sorted.length - 1]!.x };
}
