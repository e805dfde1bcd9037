/**
 * The series-analysis functions of ADX (series_decompose, series_decompose_anomalies,
 * series_decompose_forecast, series_outliers, series_fit_line, series_fit_2lines, series_periods_detect): arguments,
 * defaults and result columns as Microsoft documents them, checked here; the SQL of each step is in
 * dialect/series-sql.ts and the algorithms are written down in docs/kql-series.md.
 *
 * A call that is a whole `extend` item is planned in stages (`materializeSeries`): one SELECT per
 * step over the previous one, every result column of the call computed once. A call inside another
 * expression nests the same steps into one expression (slower to plan; see series-sql.ts).
 *
 * Parameters other than the series must be constants (literals, `let` scalars of literals): they
 * choose the shape of the SQL and are range-checked here.
 */
import type { Expr } from "./ast";
import type { Analyzer, Scope } from "./analyzer-api";
import { nameOf } from "./names";
import { seriesPlan, stageNames } from "./dialect/series-sql";
import type { TExpr } from "./ir";
import type { Binding, Block, OperatorPlanner } from "./block";
import type { KqlType } from "./types";

type Call = Extract<Expr, { kind: "call" }>;

/** Result parts in ADX's order with their types. */
const OUTPUTS: Record<string, { part: string; type: KqlType }[]> = {
  series_decompose: ["baseline", "seasonal", "trend", "residual"].map((part) => ({ part, type: "dynamic" as const })),
  series_decompose_anomalies: ["ad_flag", "ad_score", "baseline"].map((part) => ({ part, type: "dynamic" as const })),
  series_fit_line: [
    { part: "rsquare", type: "real" },
    { part: "slope", type: "real" },
    { part: "variance", type: "real" },
    { part: "rvariance", type: "real" },
    { part: "interception", type: "real" },
    { part: "line_fit", type: "dynamic" },
  ],
  series_fit_2lines: [
    { part: "rsquare", type: "real" },
    { part: "split_idx", type: "long" },
    { part: "variance", type: "real" },
    { part: "rvariance", type: "real" },
    { part: "line_fit", type: "dynamic" },
    ...["right", "left"].flatMap((side) => ["rsquare", "slope", "interception", "variance", "rvariance"].map((part) => ({ part: `${side}_${part}`, type: "real" as const }))),
  ],
  series_fit_2lines_dynamic: [{ part: "bag", type: "dynamic" }],
  series_periods_detect: ["periods", "scores"].map((part) => ({ part, type: "dynamic" as const })),
  // Microsoft documents one result; Kusto.Language (ADX's own binder) gives series_decompose's four, the
  // baseline carrying the forecast: `extend f = series_decompose_forecast(…)` names the first.
  series_decompose_forecast: ["baseline", "seasonal", "trend", "residual"].map((part) => ({ part, type: "dynamic" as const })),
  series_outliers: [{ part: "score", type: "dynamic" }],
};

/** Functions yielding several columns (only in extend, as in ADX; series_decompose_forecast's baseline may also be used as a value). */
export const SERIES_MULTI = new Set(["series_decompose", "series_decompose_anomalies", "series_fit_line", "series_fit_2lines", "series_periods_detect"]);

interface SeriesCall {
  /** `<function>:<trend or ->:<seasonality or ->` of series-sql.ts's seriesPlan. */
  spec: string;
  operands: TExpr[];
  /** Default column names (`f_x_part` for several, as ADX names them) with parts and types. */
  outputs: { name: string; part: string; type: KqlType }[];
}

const ARITY: Record<string, [number, number]> = {
  series_decompose: [1, 5],
  series_decompose_anomalies: [1, 7],
  series_decompose_forecast: [2, 5],
  series_outliers: [1, 5],
  series_fit_line: [1, 1],
  series_fit_2lines: [1, 1],
  series_fit_2lines_dynamic: [1, 1],
  series_periods_detect: [4, 4],
};

/** The call's plan when `ast` is a series-analysis call, else undefined. */
export function seriesCall(analyzer: Analyzer, ast: Expr, scope: Scope): SeriesCall | undefined {
  if (ast.kind !== "call" || !OUTPUTS[ast.name]) return undefined;
  const name = ast.name;
  const [min, max] = ARITY[name]!;
  if (ast.star || ast.args.length < min || ast.args.length > max) analyzer.error(ast.span, `${name}() expects ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? "" : "s"}, got ${ast.args.length}`);
  const value = analyzer.analyze(ast.args[0]!, scope, "scalar");
  if (value.type !== "dynamic") analyzer.error(ast.args[0]!.span, `${name}() needs a dynamic array, not ${value.type}`);
  const series = analyzer.asJson(value);
  /** The i-th argument as a constant (its default when absent or a null literal). */
  const constant = <T extends number | string>(i: number, fallback: T, what: string, ok: (v: T) => boolean): T => {
    const arg = ast.args[i];
    if (!arg || (arg.kind === "literal" && arg.value === null)) return fallback;
    const v = analyzer.constant(analyzer.analyze(arg, scope, "scalar"));
    if (typeof v !== typeof fallback || !ok(v as T)) analyzer.error(arg.span, `${name}() needs ${what} here`);
    return v as T;
  };
  const long = (v: number) => analyzer.param("BIGINT", v, "long");
  const real = (v: number) => analyzer.param("DOUBLE", v, "real");
  // A constant in the spec: it decides whether the SQL detects the period at all.
  const seasonality = (i: number) => constant(i, -1, "the seasonality as a constant: -1 (detect), 0 (none) or a period in bins", (v) => Number.isInteger(v) && v >= -1 && v <= 100_000);
  const trend = (i: number, fallback: string) => constant<string>(i, fallback, "the trend 'avg', 'linefit' or 'none'", (v) => ["avg", "linefit", "none"].includes(v));
  const testPoints = (i: number) => long(constant(i, 0, "a constant, non-negative number of test points", (v) => Number.isInteger(v) && v >= 0));
  const seasonalityThreshold = (i: number) => real(constant(i, 0.6, "a constant seasonality threshold between 0 and 1", (v) => v >= 0 && v <= 1));
  const kind = (i: number) => constant<string>(i, "ctukey", "the kind 'ctukey' or 'tukey'", (v) => v === "ctukey" || v === "tukey");
  let spec: string;
  let operands: TExpr[];
  switch (name) {
    case "series_decompose": {
      const season = seasonality(1);
      spec = `decompose:${trend(2, "avg")}:${season}`;
      operands = [series, testPoints(3), seasonalityThreshold(4)];
      break;
    }
    case "series_decompose_anomalies": {
      const threshold = real(constant(1, 1.5, "a constant, positive threshold", (v) => v > 0));
      const season = seasonality(2);
      spec = `anomalies:${trend(3, "avg")}:${season}`;
      const points = testPoints(4);
      const [lo, hi] = kind(5) === "tukey" ? [0.25, 0.75] : [0.1, 0.9];
      operands = [series, threshold, points, seasonalityThreshold(6), real(lo), real(hi)];
      break;
    }
    case "series_decompose_forecast": {
      const points = testPoints(1);
      const season = seasonality(2);
      spec = `forecast:${trend(3, "linefit")}:${season}`;
      operands = [series, points, seasonalityThreshold(4)];
      break;
    }
    case "series_outliers": {
      const tukey = kind(1) === "tukey";
      const ignore = ast.args[2];
      if (ignore && !(ignore.kind === "literal" && ignore.value === null)) analyzer.error(ignore.span, "series_outliers() ignores null values only (its ignore value must be null)");
      const pct = (i: number, fallback: number) => constant(i, fallback, "a constant percentile between 2 and 98", (v) => v >= 2 && v <= 98);
      let [lo, hi] = tukey ? [25, 75] : [pct(3, 10), pct(4, 90)];
      if (lo > hi) [lo, hi] = [hi, lo];
      spec = "outliers:-:-";
      operands = [series, real(lo / 100), real(hi / 100)];
      break;
    }
    case "series_fit_line":
    case "series_fit_2lines":
    case "series_fit_2lines_dynamic":
      spec = `${name.slice(7)}:-:-`;
      operands = [series];
      break;
    default: {
      const min = constant(1, 0, "a constant minimal period (a number of bins)", (v) => v >= 0);
      const max = constant(2, 0, "a constant maximal period (a number of bins)", (v) => v >= 0);
      const count = constant(3, 0, "a constant number of periods between 0 and 100", (v) => Number.isInteger(v) && v >= 0 && v <= 100);
      spec = "periods:-:-";
      operands = [series, long(Math.max(2, Math.ceil(min))), long(Math.floor(max)), long(count)];
    }
  }
  const prefix = `${name}_${nameOf(ast.args[0]!) ?? ""}`;
  const outputs = OUTPUTS[name]!.map((o) => ({ ...o, name: OUTPUTS[name]!.length > 1 ? `${prefix}_${o.part}` : name }));
  return { spec, operands, outputs };
}

/** A single-result function inside another expression: every step nested in one expression. */
export function seriesScalar(analyzer: Analyzer, ast: Call, scope: Scope): TExpr | undefined {
  const call = seriesCall(analyzer, ast, scope);
  if (!call) return undefined;
  if (SERIES_MULTI.has(ast.name)) analyzer.error(ast.span, `${ast.name}() yields several columns: use it as a whole extend or project item, e.g. extend (a, b) = ${ast.name}(…)`);
  // Its steps nested in one expression take engines too long to plan: it is computed in stages only.
  if (ast.name === "series_fit_2lines_dynamic") analyzer.error(ast.span, "series_fit_2lines_dynamic() must be a whole extend or project item: extend d = series_fit_2lines_dynamic(y) | extend f = d.line_fit");
  const out = call.outputs[0]!;
  return { ...analyzer.op(`series_inline:${call.spec}:${out.part}`, call.operands, out.type, true), dynamic: out.type === "dynamic" ? "json" : undefined };
}

/**
 * The block with the call's results appended as `names` (a column of the same name is replaced, as
 * extend does): the operands, then each step of series-sql.ts's plan, in SELECTs over one another.
 */
export function materializeSeries(planner: OperatorPlanner, block: Block, call: SeriesCall, names: string[]): Block {
  const prefix = `__${planner.nextAlias()}_`;
  const hidden = (name: string) => `${prefix}${name}`;
  let b = planner.wrap({ ...block, columns: [...block.columns, ...call.operands.map((expr, i) => ({ name: hidden(`op${i}`), expr }))] });
  const computed: string[] = call.operands.map((_, i) => hidden(`op${i}`));
  stageNames(call.spec).forEach((values, index) => {
    const scope = new Map(b.columns.map((c) => [c.name, c.expr]));
    const args = computed.map((n) => scope.get(n)!);
    const stage: Binding[] = values.map((value) => ({
      name: hidden(value),
      expr: { type: "dynamic", dynamic: "json", nullable: true, node: { op: `series_stage:${call.spec}:${index}:${value}`, args } },
    }));
    b = planner.wrap({ ...b, columns: [...b.columns, ...stage] });
    computed.push(...values.map(hidden));
  });
  const final = new Map(b.columns.map((c) => [c.name, c.expr]));
  const outputs: Binding[] = call.outputs.map((o, i) => {
    const ref = final.get(hidden(seriesPlan(call.spec).outputs[o.part]!))!;
    return { name: names[i]!, expr: { ...ref, type: o.type, dynamic: o.type === "dynamic" ? "json" : undefined } };
  });
  const visible = b.columns.filter((c) => !c.name.startsWith(prefix) && !names.includes(c.name));
  return { ...b, columns: [...visible, ...outputs] };
}
