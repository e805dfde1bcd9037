/**
 * Automatic resolution of a chart's query (issue 26; docs/explorer.md, "Automatic resolution"):
 * when a query would give a chart more points than its width can show, the query is rewritten so
 * the engine returns fewer, shape-keeping points instead of refusing the range.
 *
 * Two rewrites, both KQL text in, KQL text out (so both engines run them unchanged):
 * - **bin**: a query that bins time itself (`summarize … by bin(Timestamp, 1m)`, `make-series …
 *   step 1m`) gets a coarser bin chosen from the range and the width ("1-min data shown at 30 min").
 *   The aggregate keeps its meaning per bin (an average of a longer bin, a count of a longer bin).
 * - **min/max**: a query of raw samples (a time column, numbers, text keys) is reduced per series
 *   and per bin to the bin's lowest and highest value, a bin per two pixel columns: the envelope
 *   every sample would draw, so a one-sample spike is never lost, done by the engine so the rows
 *   never leave it.
 * Either way a series gets about one point per pixel column of the chart (POINTS_PER_PIXEL): more
 * cannot be seen, and each extra point costs the browser time to parse and draw (with 42 series at
 * two points per column the all-devices chart spent ~2 s drawing under load; bench/ui.ts, row 3b).
 * Queries with series analysis (`series_*`) are left alone: their step is part of the analysis.
 * Pure: the dashboard's server plans with it, tests check it without an engine.
 */
import type { Operator, TabularExpr } from "./ast";
import { compileKql, type CompiledQuery } from "./compile";
import { SCHEMA_ONLY_SOURCES } from "./diagnose";
import { parse } from "./parser";

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Bins a person reads at a glance, in ms: the rewrite picks the smallest that is wide enough. */
const NICE_BINS_MS = [
  SECOND, 2 * SECOND, 5 * SECOND, 10 * SECOND, 15 * SECOND, 30 * SECOND,
  MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE,
  HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR,
  DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY,
];

/** Points of a series per pixel column of the chart: one (an average per bin, or a low or a high). */
export const POINTS_PER_PIXEL = 1;

/** The smallest readable bin of at least `ms` (the largest listed one beyond them). */
export function niceBin(ms: number): number {
  return NICE_BINS_MS.find((bin) => bin >= ms) ?? Math.ceil(ms / DAY) * DAY;
}

/** A timespan literal for a whole number of ms, in the largest unit that divides it (`30m`, `1h`, `1500ms`). */
export function timespanLiteral(ms: number): string {
  for (const [unit, size] of [["d", DAY], ["h", HOUR], ["m", MINUTE], ["s", SECOND]] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${Math.round(ms)}ms`;
}

interface ChartWindow {
  /** The query's range, ms since the epoch. */
  startMs: number;
  endMs: number;
  /** Width of the chart's plot in pixels. */
  width: number;
}

interface BinPlan {
  kind: "bin";
  /** The query with its time bins made coarser (the `render` kept). */
  query: string;
  /** The query's own bin, and the bin it is shown at. */
  sourceBinMs: number;
  shownBinMs: number;
}

interface MinMaxPlan {
  kind: "minmax";
  /** Counts the query's rows per series: one row `Rows, Longest, Series` (run first, to decide). */
  countQuery: string;
  /** The query reduced to each series' low and high per bin of `binMs` (the `render` kept). */
  reduce(binMs: number): string;
}

type ResolutionPlan = BinPlan | MinMaxPlan | { kind: "none"; reason: string };

type Rewrite = { from: number; to: number; text: string };

function applyRewrites(text: string, rewrites: readonly Rewrite[]): string {
  let out = text;
  for (const r of [...rewrites].sort((a, b) => b.from - a.from)) out = out.slice(0, r.from) + r.text + out.slice(r.to);
  return out;
}

/** The operators of the query statement before its `render`, and where the render starts (or the query's end). */
function splitRender(query: TabularExpr): { operators: Operator[]; tailFrom: number } {
  const last = query.operators.at(-1);
  if (last?.kind === "render") return { operators: query.operators.slice(0, -1), tailFrom: last.span.from };
  return { operators: query.operators, tailFrom: query.span.to };
}

/** Time bins the query sets with a literal: `bin(x, 1m)` / `floor(x, 1m)` in a `summarize … by`, `make-series … step 1m`. */
function literalBins(operators: readonly Operator[], seriesAnalysis: boolean): { from: number; to: number; ms: number }[] {
  const found: { from: number; to: number; ms: number }[] = [];
  for (const op of operators) {
    if (op.kind === "summarize") {
      for (const item of op.by) {
        const expr = item.expr;
        if (expr.kind !== "call" || (expr.name !== "bin" && expr.name !== "floor") || expr.args.length !== 2) continue;
        const size = expr.args[1]!;
        if (size.kind === "literal" && size.type === "timespan" && typeof size.value === "number" && size.value > 0) {
          found.push({ from: size.span.from, to: size.span.to, ms: size.value / 1000 });
        }
      }
    }
    if (op.kind === "make-series" && !seriesAnalysis) {
      const step = op.step;
      if (step.kind === "literal" && step.type === "timespan" && typeof step.value === "number" && step.value > 0) {
        found.push({ from: step.span.from, to: step.span.to, ms: step.value / 1000 });
      }
    }
  }
  return found;
}

const NUMERIC = new Set(["real", "long", "int", "decimal"]);
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A column name as KQL text: bare when it can be, else bracket-quoted. */
export function kqlName(name: string): string {
  return PLAIN_NAME.test(name) ? name : `['${name.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}']`;
}

function compiles(text: string): CompiledQuery | null {
  try {
    return compileKql(text, { sources: SCHEMA_ONLY_SOURCES });
  } catch {
    return null;
  }
}

/**
 * How to bring a query within `window.width` points per series. `kind: "none"` when it needs no
 * rewrite or cannot be reduced (then it runs as written, under the usual row limit).
 */
export function planResolution(text: string, window: ChartWindow): ResolutionPlan {
  const { ast, diagnostics } = parse(text);
  if (diagnostics.length > 0 || !ast?.query) return { kind: "none", reason: "the query does not parse" };
  const compiled = compiles(text);
  if (!compiled) return { kind: "none", reason: "the query does not compile" };
  const spanMs = window.endMs - window.startMs;
  const budget = Math.max(1, Math.floor(window.width)) * POINTS_PER_PIXEL;
  const { operators, tailFrom } = splitRender(ast.query);
  const seriesAnalysis = /\bseries_\w+\s*\(/.test(text);

  const hasTime = compiled.columns.some((column) => column.kqlType === "datetime");
  const bins = literalBins(operators, seriesAnalysis);
  // A make-series result's time axis is an array (the chart expands it); a summarize's is a column.
  if (bins.length > 0 && (hasTime || operators.some((op) => op.kind === "make-series"))) {
    const sourceBinMs = Math.min(...bins.map((bin) => bin.ms));
    if (spanMs / sourceBinMs <= budget) return { kind: "none", reason: "the query's own bins fit the chart" };
    const shownBinMs = niceBin(spanMs / budget);
    const query = applyRewrites(
      text,
      bins.filter((bin) => bin.ms < shownBinMs).map((bin) => ({ from: bin.from, to: bin.to, text: timespanLiteral(shownBinMs) })),
    );
    return compiles(query) ? { kind: "bin", query, sourceBinMs, shownBinMs } : { kind: "none", reason: "the coarser query does not compile" };
  }
  if (operators.some((op) => op.kind === "make-series")) return { kind: "none", reason: "series analysis keeps its step" };
  if (!hasTime) return { kind: "none", reason: "the result has no time column" };

  // Raw samples: one time column, numbers (or States' dynamic Value), and text keys — nothing else.
  const datetimes = compiled.columns.filter((column) => column.kqlType === "datetime");
  const time = datetimes.find((column) => column.name === "Timestamp") ?? datetimes[0]!;
  const keys: string[] = [];
  const values: string[] = [];
  for (const column of compiled.columns) {
    if (column === time) continue;
    if (column.kqlType === "string") keys.push(column.name);
    else if (NUMERIC.has(column.kqlType) || (column.kqlType === "dynamic" && column.name === "Value")) values.push(column.name);
    else return { kind: "none", reason: `column ${column.name} (${column.kqlType}) cannot be reduced` };
  }
  if (values.length === 0) return { kind: "none", reason: "the result has no numbers to draw" };

  const head = text.slice(0, tailFrom).trimEnd();
  const tail = text.slice(tailFrom);
  const by = keys.map(kqlName);
  const countQuery = by.length
    ? `${head}\n| summarize __rows = count() by ${by.join(", ")}\n| summarize Rows = sum(__rows), Longest = max(__rows), Series = count()`
    : `${head}\n| summarize Rows = count()\n| extend Longest = Rows, Series = 1`;
  const reduce = (binMs: number) => {
    const t = kqlName(time.name);
    const aggregates = values.flatMap((name, i) => [`__lo${i} = min(todouble(${kqlName(name)}))`, `__hi${i} = max(todouble(${kqlName(name)}))`]);
    const expand = values.map((name, i) => `${kqlName(name)} = pack_array(__lo${i}, __hi${i}) to typeof(real)`);
    const order = compiled.columns.map((column) => kqlName(column.name));
    return (
      `${head}\n| summarize ${aggregates.join(", ")} by ${[`${t} = bin(${t}, ${timespanLiteral(binMs)})`, ...by].join(", ")}` +
      `\n| mv-expand ${expand.join(", ")}\n| project ${order.join(", ")}${tail ? `\n${tail}` : ""}`
    );
  };
  return { kind: "minmax", countQuery, reduce };
}

/**
 * The min/max bin for a counted query: wide enough for `width` × POINTS_PER_PIXEL points per
 * series (two per bin, its low and high), and for every series' two points per bin to stay within
 * `maxRows` together.
 */
export function minMaxBin(spanMs: number, width: number, series: number, maxRows: number): number {
  const bins = Math.max(1, Math.floor((width * POINTS_PER_PIXEL) / 2));
  const byRows = Math.max(1, Math.floor(maxRows / (2 * Math.max(1, series))));
  return niceBin(spanMs / Math.min(bins, byRows));
}
