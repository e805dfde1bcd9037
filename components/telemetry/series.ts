/**
 * Turns a telemetry query result (columns + rows, as the query endpoint returns them) into line
 * series for a chart: x from the first datetime column (`Timestamp` preferred), one series per
 * distinct `Name` — or, without a `Name`, per combination of the other string columns (the
 * `by` columns of a `summarize`) — and per numeric column. Pure, for the explorer and asset pages.
 */
import type { TTelemetryColumn, TTelemetryQueryResponse } from "@/lib/contract/telemetry";
import { carriesUnit } from "./axes";
import { columnTitle } from "./column-title";
import type { Point } from "@/lib/series/lttb";

/** What the chart reads of a column: its name and KQL type (the .NET type name when known). */
type ResultColumn = Pick<TTelemetryColumn, "name" | "columnType"> & Partial<Pick<TTelemetryColumn, "dataType">>;
/** The `data` of a query answer, as the chart reads it. */
export type QueryResult = { columns: ResultColumn[]; rows: TTelemetryQueryResponse["data"]["rows"] };

export interface Series {
  key: string;
  points: Point[];
  /** The data point (`Name`) the series shows, when the result says: it tells the unit. */
  name?: string;
  /** Unit of the values (`DataMetadata.Unit` of the data point); "" when unknown or not carried by the column. */
  unit?: string;
  /** The result column the values come from ("avg_Value", "n"): whether they carry the unit (axes.ts). */
  column?: string;
}

type ChartPlan = { ok: true; series: Series[]; xMin: number; xMax: number } | { ok: false; reason: string };

const NUMERIC_TYPES = new Set(["real", "long", "int", "decimal"]);

function toNumber(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" && value.trim() !== "") return Number(value);
  return Number.NaN;
}

export function buildSeries(result: QueryResult): ChartPlan {
  const { columns, rows } = result;
  const datetimeColumns = columns.flatMap((c, i) => (c.columnType === "datetime" ? [i] : []));
  const xIndex = datetimeColumns.find((i) => columns[i]!.name === "Timestamp") ?? datetimeColumns[0];
  if (xIndex === undefined) return { ok: false, reason: "The result has no datetime column to put on the time axis." };

  // A dynamic column counts as a value when its first non-null cell is a number (States.Value).
  const isValueColumn = (i: number) => {
    const type = columns[i]!.columnType;
    if (NUMERIC_TYPES.has(type)) return true;
    if (type !== "dynamic") return false;
    const sample = rows.find((r) => r[i] !== null && r[i] !== undefined)?.[i];
    return typeof sample === "number";
  };
  const valueColumns = columns.flatMap((_, i) => (i !== xIndex && isValueColumn(i) ? [i] : []));
  if (valueColumns.length === 0) return { ok: false, reason: "The result has no numeric column to draw." };

  const nameIndex = columns.findIndex((c) => c.name === "Name" && c.columnType === "string");
  const deviceIndex = columns.findIndex((c) => c.name === "DeviceId" && c.columnType === "string");
  // One series per Name; when two devices report the same Name, their lines must not be joined.
  const groupColumns =
    nameIndex >= 0
      ? deviceIndex >= 0 && namesSharedByDevices(rows, nameIndex, deviceIndex)
        ? [nameIndex, deviceIndex]
        : [nameIndex]
      : columns.flatMap((c, i) => (c.columnType === "string" ? [i] : []));

  const byKey = new Map<string, Point[]>();
  const nameOf = new Map<string, string>();
  const columnOf = new Map<string, string>();
  let xMin = Number.POSITIVE_INFINITY;
  let xMax = Number.NEGATIVE_INFINITY;
  for (const row of rows) {
    const x = typeof row[xIndex] === "string" ? Date.parse(row[xIndex]) : Number.NaN;
    if (Number.isNaN(x)) continue;
    if (x < xMin) xMin = x;
    if (x > xMax) xMax = x;
    const group = groupColumns.map((i) => String(row[i] ?? "")).join(" · ");
    for (const v of valueColumns) {
      const title = columnTitle(columns[v]!.name);
      const key = valueColumns.length > 1 ? (group ? `${group} · ${title}` : title) : group || title;
      let points = byKey.get(key);
      if (!points) {
        byKey.set(key, (points = []));
        columnOf.set(key, columns[v]!.name);
        if (nameIndex >= 0) nameOf.set(key, String(row[nameIndex] ?? ""));
      }
      points.push({ x, y: toNumber(row[v]) });
    }
  }
  if (byKey.size === 0) return { ok: false, reason: "No rows with a time to draw." };

  const series = [...byKey].map(([key, points]) => {
    // Queries may return newest first (sort's default is desc); charts need ascending time.
    if (!isSorted(points)) points.sort((a, b) => a.x - b.x);
    const name = nameOf.get(key);
    const column = columnOf.get(key)!;
    return name === undefined ? { key, points, column } : { key, points, name, column };
  });
  series.sort((a, b) => a.key.localeCompare(b.key));
  return { ok: true, series, xMin, xMax };
}

function isSorted(points: readonly Point[]): boolean {
  for (let i = 1; i < points.length; i++) if (points[i]!.x < points[i - 1]!.x) return false;
  return true;
}

function namesSharedByDevices(rows: readonly unknown[][], nameIndex: number, deviceIndex: number): boolean {
  const deviceOf = new Map<unknown, unknown>();
  for (const row of rows) {
    const name = row[nameIndex];
    const device = row[deviceIndex];
    const seen = deviceOf.get(name);
    if (seen === undefined) deviceOf.set(name, device);
    else if (seen !== device) return true;
  }
  return false;
}

/**
 * Each series' unit from `DataMetadata.Unit` of its data point. Without a `Name` column, a query
 * that picked exactly one data point (`where Name == "Pressure"`) still says which one it drew.
 * A column that is not a measurement of the data point (`count()`, `dcount(DeviceId)`) gets no unit.
 */
export function withUnits(series: readonly Series[], unitOf: (name: string) => string | undefined, query = ""): Series[] {
  const named = [...new Set([...query.matchAll(/\bName\s*==\s*"([^"]+)"/g)].map((match) => match[1]!))];
  const onlyName = named.length === 1 ? named[0] : undefined;
  return series.map((s) => {
    const name = s.name ?? onlyName;
    const measured = s.column === undefined || carriesUnit(s.column);
    const unit = (measured && name !== undefined ? unitOf(name) : undefined) ?? "";
    return name === undefined ? { ...s, unit } : { ...s, name, unit };
  });
}
