/**
 * How a query result is shown: as a line chart over time, as a bar, column or pie chart of
 * categories, or as a table. The query's own `render` decides when it has one (`render table`,
 * `render timechart`, `render barchart` …, as in Azure Data Explorer); otherwise the shape of the
 * result does: time plus a few values → lines; a handful of labelled values (`summarize count() by
 * Name`) → columns; anything else (raw records such as `Events | take 20`) → the table. A
 * `make-series` result (arrays of values beside an array of times) is read as its expanded rows,
 * as `mv-expand` would give them, so it is charted directly. Pure.
 */
import { ALARM_SEVERITIES } from "@/lib/contract/vocabulary";
import { buildSeries, type QueryResult, type Series } from "./series";

export type CategoryKind = "column" | "bar" | "pie";

export interface CategoryData {
  /** Name of the column the categories come from, and of each value column. */
  labelColumn: string;
  valueColumns: string[];
  /** One entry per row: its label and one value per value column. */
  rows: { label: string; values: number[] }[];
  /** Whether the labels are instants (formatted in the reader's time zone when drawn). */
  labelsAreTimes: boolean;
}

type ResultPlan =
  | { view: "table"; reason: string }
  | { view: "line"; series: Series[] }
  | { view: CategoryKind; data: CategoryData };

/** `render` kinds that mean a line chart over time (Kusto's time-based charts). */
const LINE_KINDS = new Set(["timechart", "linechart", "areachart", "stackedareachart", "scatterchart", "anomalychart"]);
const CATEGORY_KINDS: Record<string, CategoryKind> = { columnchart: "column", barchart: "bar", piechart: "pie" };

const NUMERIC_TYPES = new Set(["real", "long", "int", "decimal"]);
/** More categories than this are not readable as bars; the table shows them. */
export const MAX_CATEGORIES = 60;
/** A pie with more slices than this is drawn with the smallest ones gathered as "Other". */
export const MAX_PIE_SLICES = 12;

function isNumericColumn(result: QueryResult, index: number): boolean {
  const column = result.columns[index]!;
  if (NUMERIC_TYPES.has(column.columnType)) return true;
  if (column.columnType !== "dynamic") return false;
  const sample = result.rows.find((row) => row[index] !== null && row[index] !== undefined)?.[index];
  return typeof sample === "number";
}

/** Labels and values for bars or slices: labels from the first text (or time) column, values from the numeric ones. */
export function categoryData(result: QueryResult): CategoryData | { reason: string } {
  const { columns, rows } = result;
  const valueIndexes = columns.flatMap((_, index) => (isNumericColumn(result, index) ? [index] : []));
  if (valueIndexes.length === 0) return { reason: "The result has no numeric column to draw." };
  const labelIndex =
    columns.findIndex((column, index) => column.columnType === "string" && !valueIndexes.includes(index)) >= 0
      ? columns.findIndex((column, index) => column.columnType === "string" && !valueIndexes.includes(index))
      : columns.findIndex((column) => column.columnType === "datetime");
  if (labelIndex < 0) return { reason: "The result has no text or time column to label the bars with." };
  if (rows.length > MAX_CATEGORIES) return { reason: `${rows.length} categories are too many to compare as bars (at most ${MAX_CATEGORIES}); summarize further or use the table.` };
  // Other text columns join the label, so two rows never share one ("Pump 1 · Major").
  const extraLabels = columns.flatMap((column, index) => (column.columnType === "string" && index !== labelIndex && !valueIndexes.includes(index) ? [index] : []));
  const data = {
    labelColumn: columns[labelIndex]!.name,
    valueColumns: valueIndexes.map((index) => columns[index]!.name),
    labelsAreTimes: columns[labelIndex]!.columnType === "datetime",
    rows: rows.map((row) => ({
      label: [labelIndex, ...extraLabels].map((index) => String(row[index] ?? "")).join(" · "),
      values: valueIndexes.map((index) => {
        const value = row[index];
        return typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : 0;
      }),
    })),
  };
  return bySeverity(data);
}

/**
 * Bars of alarm severities in the vocabulary's order (Critical, Major, Minor, Warning), whatever
 * order the query sorted them in: a count's order would put Minor before Critical. Other labels
 * keep the query's order.
 */
function bySeverity(data: CategoryData): CategoryData {
  const rank = (label: string) => (ALARM_SEVERITIES as readonly string[]).indexOf(label);
  if (data.labelsAreTimes || data.rows.length === 0 || !data.rows.every((row) => rank(row.label) >= 0)) return data;
  return { ...data, rows: [...data.rows].sort((a, b) => rank(a.label) - rank(b.label)) };
}

/**
 * Whether a result looks like values over time: a time column, numbers, and at most two text
 * columns to group by — or rows of `States` itself (Timestamp, Name, Value), one line per data point.
 */
function looksLikeTimeSeries(result: QueryResult): boolean {
  const types = result.columns.map((column) => column.columnType);
  const strings = types.filter((type) => type === "string").length;
  const objects = result.columns.filter((column, index) => column.columnType === "dynamic" && !isNumericColumn(result, index)).length;
  const named = (name: string, type?: string) => result.columns.some((column) => column.name === name && (!type || column.columnType === type));
  const statesRows = named("Timestamp", "datetime") && named("Name", "string") && named("Value");
  return types.includes("datetime") && result.columns.some((_, index) => isNumericColumn(result, index)) && ((strings <= 2 && objects === 0) || statesRows);
}

/** Whether a result is a few labelled values (no time column, one or two text columns). */
function looksLikeCategories(result: QueryResult): boolean {
  const types = result.columns.map((column) => column.columnType);
  const strings = types.filter((type) => type === "string").length;
  return !types.includes("datetime") && strings >= 1 && strings <= 2 && result.rows.length <= MAX_CATEGORIES && result.columns.some((_, index) => isNumericColumn(result, index));
}

const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

function firstArray(result: QueryResult, index: number): unknown[] | null {
  const sample = result.rows.find((row) => row[index] !== null && row[index] !== undefined)?.[index];
  return Array.isArray(sample) ? sample : null;
}

/**
 * A make-series result — per row, an array of instants (the `on` axis) and arrays of numbers of
 * the same length — as one row per point: the instant, the row's text columns, the values. Null
 * for any other result.
 */
export function expandSeries(result: QueryResult): QueryResult | null {
  const arrays = result.columns.flatMap((column, index) => (column.columnType === "dynamic" && firstArray(result, index) ? [index] : []));
  const timeIndex = arrays.find((index) => firstArray(result, index)!.some((item) => typeof item === "string" && ISO_INSTANT.test(item)));
  const valueIndexes = arrays.filter((index) => index !== timeIndex && firstArray(result, index)!.some((item) => typeof item === "number"));
  if (timeIndex === undefined || valueIndexes.length === 0) return null;
  const keyIndexes = result.columns.flatMap((column, index) => (column.columnType === "string" ? [index] : []));
  const rows: unknown[][] = [];
  for (const row of result.rows) {
    const times = Array.isArray(row[timeIndex]) ? (row[timeIndex] as unknown[]) : [];
    times.forEach((time, point) => {
      rows.push([time, ...keyIndexes.map((index) => row[index]), ...valueIndexes.map((index) => (row[index] as unknown[] | null)?.[point] ?? null)]);
    });
  }
  return {
    columns: [
      { name: result.columns[timeIndex]!.name, columnType: "datetime" },
      ...keyIndexes.map((index) => result.columns[index]!),
      ...valueIndexes.map((index) => ({ name: result.columns[index]!.name, columnType: "real" })),
    ],
    rows,
  };
}

/**
 * The plan for a result. `renderKind` is the query's `render` (null without one). A chart the
 * result cannot fill becomes the table, with the reason (shown above it).
 */
export function planResult(answer: QueryResult, renderKind: string | null): ResultPlan {
  const result = expandSeries(answer) ?? answer;
  const kind = renderKind?.toLowerCase() ?? null;
  if (kind === "table" || kind === "card") return { view: "table", reason: "The query asks for a table (render table)." };
  if (kind && LINE_KINDS.has(kind)) return lineOrTable(result, `render ${kind}`);
  if (kind && CATEGORY_KINDS[kind]) return categoryOrTable(result, CATEGORY_KINDS[kind]!);
  if (looksLikeTimeSeries(result)) return lineOrTable(result, "a time series");
  if (looksLikeCategories(result)) return categoryOrTable(result, "column");
  return { view: "table", reason: "These rows are records, not values over time or per category: they are shown as a table." };
}

/**
 * The best chart for a result whatever its shape, for a person who asked for a chart: the `render`
 * kind if the query names one, else lines over time, else categories; the table only when neither fits.
 */
export function planChart(answer: QueryResult, renderKind: string | null): ResultPlan {
  const result = expandSeries(answer) ?? answer;
  const kind = renderKind?.toLowerCase() ?? null;
  if (kind && CATEGORY_KINDS[kind]) return categoryOrTable(result, CATEGORY_KINDS[kind]!);
  const line = lineOrTable(result, "a line chart");
  if (line.view !== "table") return line;
  const columns = categoryOrTable(result, "column");
  return columns.view !== "table" ? columns : line;
}

function lineOrTable(result: QueryResult, why: string): ResultPlan {
  const plan = buildSeries(result);
  return plan.ok ? { view: "line", series: plan.series } : { view: "table", reason: `Cannot draw ${why}: ${plan.reason}` };
}

function categoryOrTable(result: QueryResult, kind: CategoryKind): ResultPlan {
  const data = categoryData(result);
  return "reason" in data ? { view: "table", reason: `Cannot draw a ${kind} chart: ${data.reason}` } : { view: kind, data };
}

/** Pie slices: the largest first, the rest beyond `MAX_PIE_SLICES` gathered as "Other". */
export function pieSlices(data: CategoryData): { label: string; value: number }[] {
  const slices = data.rows.map((row) => ({ label: row.label, value: Math.max(0, row.values[0] ?? 0) })).sort((a, b) => b.value - a.value);
  if (slices.length <= MAX_PIE_SLICES) return slices;
  const kept = slices.slice(0, MAX_PIE_SLICES - 1);
  const other = slices.slice(MAX_PIE_SLICES - 1).reduce((sum, slice) => sum + slice.value, 0);
  return [...kept, { label: "Other", value: other }];
}
