/**
 * Series analysis (series_decompose*, series_outliers, series_fit_line, series_periods_detect)
 * spelled as SQL over the series' list: one expression per result, built from a handful of list
 * primitives each engine spells its own way (`ListSql`, implemented in duckdb.ts and
 * clickhouse.ts). The algorithms, with their references, are in docs/kql-series.md; every step is
 * O(n) per series except period detection (autocorrelation, O(n·n/2), bounded by the element limit
 * the analyzer checks at run time: SERIES_ANALYSIS_MAX_POINTS).
 *
 * Indices are 1-based throughout (both engines' list subscripts are).
 */

/**
 * List primitives of one engine. Lambda bodies capture only scalars: an engine may copy a captured
 * list for every element (ClickHouse does), which would make an O(n) step O(n²). Element-wise work
 * over several lists goes through `zip`.
 */
export interface ListSql {
  /** `body(name)` with `name` bound to `value` once (lambda over a one-element list). */
  bind(value: string, body: (name: string) => string): string;
  /** The list `[body(1), …, body(n)]` (empty when n ≤ 0); `body` must not index a list. */
  gen(n: string, body: (i: string) => string): string;
  map(list: string, body: (v: string) => string): string;
  /** `body(v, i)` with i the 1-based position. */
  mapIdx(list: string, body: (v: string, i: string) => string): string;
  /** Element-wise over lists of one length: `body([a_i, b_i, …], i)`. */
  zip(lists: string[], body: (values: string[], i: string) => string): string;
  filter(list: string, keep: (v: string) => string): string;
  /** Elements whose 1-based position passes. */
  filterIdx(list: string, keep: (v: string, i: string) => string): string;
  /** The non-null elements, typed as not nullable. */
  present(list: string): string;
  /** Elements a..b (1-based, inclusive; empty when b < a). */
  slice(list: string, a: string, b: string): string;
  /** `list` repeated until it has n elements (list non-empty). */
  cycle(list: string, n: string): string;
  /** `list` ordered by `keys` ascending (ties by the element). */
  sortBy(list: string, keys: string): string;
  at(list: string, i: string): string;
  len(list: string): string;
  /** Sum of the elements, 0 for an empty list. */
  sum(list: string): string;
  /** Running sums: element i is the sum of elements 1..i. */
  cumsum(list: string): string;
  /** Σ a_i·b_i of two lists of one length. */
  dot(a: string, b: string): string;
  sort(list: string): string;
  /** Largest element of a non-empty list. */
  max(list: string): string;
  /** 1-based position of the first element equal to value, 0 when none. */
  indexOf(list: string, value: string): string;
  /** Integer floor of a number. */
  floor(x: string): string;
  /** Integer division of non-negative integers. */
  idiv(a: string, b: string): string;
  /** The JSON array of a list of numbers. */
  json(list: string): string;
  /** The JSON of a number (null when NULL). */
  numberJson(x: string): string;
  /** A JSON object of JSON values, keys in order. */
  object(entries: [key: string, json: string][]): string;
  /** The numbers of a JSON array (elements that are not numbers become NULL); call only where isArray holds. */
  numbers(json: string): string;
  /** Whether a JSON value is an array. */
  isArray(json: string): string;
  /** `n`, or a failing statement when n > max (the message names the limit). */
  checked(n: string, max: number, message: string): string;
}

/** Inputs above this many points make the statement fail (period detection is quadratic). */
const SERIES_ANALYSIS_MAX_POINTS = 10_000;

type Trend = "avg" | "linefit" | "none";

/** The numbers of a JSON array with nulls (and non-numbers) as 0. */
function valuesOf(L: ListSql, json: string): string {
  return L.map(L.numbers(json), (v) => `coalesce(${v}, 0.0)`);
}

function checkedLength(L: ListSql, x: string): string {
  return L.checked(L.len(x), SERIES_ANALYSIS_MAX_POINTS, `series analysis takes at most ${SERIES_ANALYSIS_MAX_POINTS} points per series`);
}

const iff = (c: string, a: string, b: string) => `(CASE WHEN ${c} THEN ${a} ELSE ${b} END)`;

/** Mean of a list (0 when empty). */
function meanOf(L: ListSql, list: string): string {
  return L.bind(L.len(list), (c) => iff(`${c} > 0`, `${L.sum(list)} / ${c}`, "0.0"));
}

/** Least-squares slope of a list against its 1-based positions, given its mean; 0 with fewer than 2 points. */
function slopeOf(L: ListSql, list: string, mean: string): string {
  return L.bind(L.len(list), (m) =>
    iff(`${m} > 1`, `${L.sum(L.mapIdx(list, (v, i) => `(${i} - (${m} + 1) / 2.0) * (${v} - ${mean})`))} / (${m} * (${m} * ${m} - 1) / 12.0)`, "0.0"),
  );
}

/** Median of a sorted list of length c (0 when empty). */
function medianOfSorted(L: ListSql, sorted: string, c: string): string {
  return iff(`${c} > 0`, `(${L.at(sorted, L.idiv(`${c} + 1`, "2"))} + ${L.at(sorted, `${L.idiv(c, "2")} + 1`)}) / 2.0`, "0.0");
}

/** Percentile (fraction f) of a sorted list of length c, linear interpolation between closest ranks (Hyndman & Fan type 7). */
function quantileOfSorted(L: ListSql, sorted: string, c: string, f: string): string {
  return L.bind(`(1 + (${c} - 1) * ${f})`, (pos) =>
    L.bind(L.floor(pos), (lo) => `(${L.at(sorted, lo)} + (${pos} - ${lo}) * (${L.at(sorted, `least(${lo} + 1, ${c})`)} - ${L.at(sorted, lo)}))`),
  );
}

/**
 * The algorithms as stages: each stage defines named values from the operands (`op(i)`) and the
 * values of earlier stages (`r(name)`). The planner computes each stage in a SELECT of its own over
 * the previous one (`series_stage` nodes), so no SQL expression nests deeper than one stage: engines
 * bind nested lambdas in time exponential in their depth. The same stages nest into one expression
 * (`series_inline`) where a function is used inside another expression.
 */
interface StageContext {
  L: ListSql;
  r(name: string): string;
  op(i: number): string;
}
type Stage = Record<string, (c: StageContext) => string>;
interface SeriesPlan {
  stages: Stage[];
  /** Result part → the name of the value holding it (JSON or a number). */
  outputs: Record<string, string>;
}

/** Values: ok (the input is an array), x (its numbers, nulls as 0), n, m (training points). */
function inputStages(testPoints: ((c: StageContext) => string) | undefined): Stage[] {
  return [
    { ok: ({ L, op }) => L.isArray(op(0)), x: ({ L, op }) => valuesOf(L, op(0)) },
    {
      n: ({ L, r }) => checkedLength(L, r("x")),
      m: ({ L, r, ...c }) => (testPoints ? `greatest(${L.len(r("x"))} - greatest(${testPoints({ L, r, ...c })}, 0), 0)` : L.len(r("x"))),
    },
    { train: ({ L, r }) => L.slice(r("x"), "1", r("m")) },
  ];
}

/**
 * Autocorrelation of the training points after removing their least-squares line, lags
 * 1..floor(m/2): acf[k] = Σ y[i]·y[i+k] / Σ y[i]² (the biased estimator, which favours the
 * fundamental period over its multiples; all 0 when the detrended series is constant). Then per lag
 * its score when a local maximum (lags 2..lags-1) ≥ threshold within [lo, hi], else −2.
 */
function autocorrelationStages(threshold: (c: StageContext) => string, lo?: (c: StageContext) => string, hi?: (c: StageContext) => string): Stage[] {
  return [
    { mean: ({ L, r }) => meanOf(L, r("train")), lags: ({ L, r }) => L.idiv(r("m"), "2") },
    { slope: ({ L, r }) => slopeOf(L, r("train"), r("mean")) },
    { y: ({ L, r }) => L.mapIdx(r("train"), (v, i) => `(${v} - ${r("mean")} - ${r("slope")} * (${i} - (${r("m")} + 1) / 2.0))`) },
    { energy: ({ L, r }) => L.dot(r("y"), r("y")) },
    {
      // Each lag's product reads y: the one step that captures a list (O(m) per lag, as the sum itself).
      acf: ({ L, r }) => L.gen(r("lags"), (k) => iff(`${r("energy")} > 1e-12`, `${L.dot(L.slice(r("y"), "1", `${r("m")} - ${k}`), L.slice(r("y"), `1 + ${k}`, r("m")))} / ${r("energy")}`, "0.0")),
    },
    {
      peaks: (c) => {
        const { L, r } = c;
        const [acf, lags] = [r("acf"), r("lags")];
        const [min, max] = [lo ? lo(c) : "2", hi ? hi(c) : lags];
        return L.zip([L.slice(acf, "1", `${lags} - 2`), L.slice(acf, "2", `${lags} - 1`), L.slice(acf, "3", lags)], ([p, v, n], i) =>
          iff(`${v} > ${p} AND ${v} >= ${n} AND ${v} >= ${threshold(c)} AND ${i} + 1 >= ${min} AND ${i} + 1 <= ${max}`, v!, "-2.0"),
        );
      },
    },
  ];
}

/** Values through `residual` (and `baseline`, `seasonal`, `trend`): series_decompose as Microsoft orders it. */
function decomposeStages(trend: Trend, seasonality: number, testPoints: (c: StageContext) => string, threshold: (c: StageContext) => string): Stage[] {
  const stages = inputStages(testPoints);
  if (seasonality === -1) {
    stages.push(...autocorrelationStages(threshold), {
      best: ({ L, r }) => iff(`${L.len(r("peaks"))} = 0`, "-2.0", L.max(r("peaks"))),
    }, {
      p: ({ L, r }) => iff(`${r("best")} < -1`, "0", `${L.indexOf(r("peaks"), r("best"))} + 1`),
    });
  } else {
    stages.push({ p: () => String(seasonality) });
  }
  stages.push(
    {
      // Median of each phase q = 1..p over the training points (positions q, q + p, …), repeated over all n points.
      seasonal: ({ L, r }) => {
        const [p, m, n] = [r("p"), r("m"), r("n")];
        const phases = L.gen(p, (q) => L.bind(L.sort(L.filterIdx(r("train"), (_, i) => `(${i} - ${q}) % ${p} = 0`)), (phase) => medianOfSorted(L, phase, L.len(phase))));
        return iff(`${p} > 0 AND ${m} > 0`, L.cycle(phases, n), L.map(r("x"), () => "0.0"));
      },
    },
    { d: ({ L, r }) => L.zip([r("x"), r("seasonal")], ([v, s]) => `${v} - ${s}`) },
    { dtrain: ({ L, r }) => L.slice(r("d"), "1", r("m")) },
    { dmean: ({ L, r }) => meanOf(L, r("dtrain")) },
    { dslope: ({ L, r }) => (trend === "linefit" ? slopeOf(L, r("dtrain"), r("dmean")) : "0.0") },
    {
      trend: ({ L, r }) => {
        if (trend === "none") return L.map(r("d"), () => "0.0");
        return L.gen(r("n"), (i) => `${r("dmean")} + ${r("dslope")} * (${i} - (${r("m")} + 1) / 2.0)`);
      },
    },
    { baseline: ({ L, r }) => L.zip([r("seasonal"), r("trend")], ([s, t]) => `${s} + ${t}`) },
    { residual: ({ L, r }) => L.zip([r("x"), r("baseline")], ([v, b]) => `${v} - ${b}`) },
  );
  return stages;
}

/** Tukey's fences as a score of each value of `values` (nulls score 0); see docs/kql-series.md. */
function outlierStages(values: (c: StageContext) => string, lo: (c: StageContext) => string, hi: (c: StageContext) => string): Stage[] {
  return [
    { values, sorted: (c) => c.L.sort(c.L.present(values(c))) },
    { c: ({ L, r }) => L.len(r("sorted")) },
    { ql: (c) => iff(`${c.r("c")} > 0`, quantileOfSorted(c.L, c.r("sorted"), c.r("c"), lo(c)), "0.0"), qh: (c) => iff(`${c.r("c")} > 0`, quantileOfSorted(c.L, c.r("sorted"), c.r("c"), hi(c)), "0.0") },
    {
      // When Q_hi = Q_lo (to 1e-9 relative: sums leave rounding noise) the scale is the mean absolute
      // deviation from Q_lo (0 for a constant series: every score 0).
      scale: ({ L, r }) => iff(`${r("qh")} - ${r("ql")} > 1e-9 * greatest(abs(${r("qh")}), abs(${r("ql")}))`, `${r("qh")} - ${r("ql")}`, iff(`${r("c")} > 0`, `${L.sum(L.map(r("sorted"), (v) => `abs(${v} - ${r("ql")})`))} / ${r("c")}`, "0.0")),
    },
    {
      scores: ({ L, r }) =>
        L.map(r("values"), (v) => `(CASE WHEN ${v} IS NULL OR ${r("scale")} = 0 THEN 0.0 WHEN ${v} > ${r("qh")} THEN (${v} - ${r("qh")}) / ${r("scale")} WHEN ${v} < ${r("ql")} THEN (${v} - ${r("ql")}) / ${r("scale")} ELSE 0.0 END)`),
    },
  ];
}

const json = (name: string) => ({ L, r }: StageContext) => `(CASE WHEN ${r("ok")} THEN ${L.json(r(name))} END)`;

/**
 * The plan of one function (`spec`: `decompose:<trend>:<seasonality>`, `anomalies:…`,
 * `forecast:…`, `outliers`, `fit_line`, `periods`). Operands: the series first, then per function:
 * decompose/forecast (test points, seasonality threshold); anomalies (threshold, test points,
 * seasonality threshold, low and high fractions); outliers (low and high fractions); periods (min,
 * max, count).
 */
export function seriesPlan(spec: string): SeriesPlan {
  const [fn, trend, season] = spec.split(":") as [string, Trend, string];
  const op = (i: number) => (c: StageContext) => c.op(i);
  switch (fn) {
    case "decompose":
    case "forecast": {
      const stages = decomposeStages(trend, Number(season), op(1), op(2));
      stages.push({ out_baseline: json("baseline"), out_seasonal: json("seasonal"), out_trend: json("trend"), out_residual: json("residual") });
      return { stages, outputs: { baseline: "out_baseline", seasonal: "out_seasonal", trend: "out_trend", residual: "out_residual" } };
    }
    case "anomalies": {
      const stages = decomposeStages(trend, Number(season), op(2), op(3));
      stages.push(...outlierStages((c) => c.r("residual"), op(4), op(5)), {
        out_flag: (c) => json("flags")({ ...c, r: (name) => (name === "flags" ? flags(c.L, c.r("scores"), c.op(1)) : c.r(name)) }),
        out_score: json("scores"),
        out_baseline: json("baseline"),
      });
      return { stages, outputs: { ad_flag: "out_flag", ad_score: "out_score", baseline: "out_baseline" } };
    }
    case "outliers": {
      const stages: Stage[] = [{ ok: ({ L, op }) => L.isArray(op(0)) }, ...outlierStages((c) => c.L.numbers(c.op(0)), op(1), op(2))];
      stages.push({ out_score: json("scores") });
      return { stages, outputs: { score: "out_score" } };
    }
    case "fit_line": {
      const stages = inputStages(undefined);
      stages.push(
        { mean: ({ L, r }) => meanOf(L, r("x")) },
        { slope: ({ L, r }) => slopeOf(L, r("x"), r("mean")) },
        { intercept: ({ r }) => `${r("mean")} - ${r("slope")} * (${r("n")} + 1) / 2.0` },
        {
          variance: ({ L, r }) => iff(`${r("n")} > 1`, `${L.sum(L.map(r("x"), (v) => `(${v} - ${r("mean")}) * (${v} - ${r("mean")})`))} / (${r("n")} - 1)`, "0.0"),
          rvariance: ({ L, r }) => {
            const e = (v: string, i: string) => `(${v} - ${r("intercept")} - ${r("slope")} * ${i})`;
            return iff(`${r("n")} > 1`, `${L.sum(L.mapIdx(r("x"), (v, i) => `${e(v, i)} * ${e(v, i)}`))} / (${r("n")} - 1)`, "0.0");
          },
          line: ({ L, r }) => L.gen(r("n"), (i) => `(${r("intercept")} + ${r("slope")} * ${i})`),
        },
        {
          out_rsquare: ({ r }) => `(CASE WHEN ${r("ok")} THEN ${iff(`${r("variance")} > 0`, `1 - ${r("rvariance")} / ${r("variance")}`, "1.0")} END)`,
          out_slope: ({ r }) => `(CASE WHEN ${r("ok")} THEN ${r("slope")} END)`,
          out_variance: ({ r }) => `(CASE WHEN ${r("ok")} THEN ${r("variance")} END)`,
          out_rvariance: ({ r }) => `(CASE WHEN ${r("ok")} THEN ${r("rvariance")} END)`,
          out_interception: ({ r }) => `(CASE WHEN ${r("ok")} THEN ${r("intercept")} END)`,
          out_line_fit: json("line"),
        },
      );
      return { stages, outputs: Object.fromEntries(["rsquare", "slope", "variance", "rvariance", "interception", "line_fit"].map((p) => [p, `out_${p}`])) };
    }
    case "fit_2lines":
      return fit2LinesPlan(false);
    case "fit_2lines_dynamic":
      return fit2LinesPlan(true);
    case "periods": {
      const stages = inputStages(undefined);
      stages.push(...autocorrelationStages(() => "0.0", op(1), (c) => iff(`${c.op(2)} > 0`, c.op(2), c.r("lags"))), {
        periods: ({ L, r }) => L.filter(L.mapIdx(r("peaks"), (s, i) => iff(`${s} > -1`, `${i} + 1`, "0")), (k) => `${k} > 0`),
        found: ({ L, r }) => L.filter(r("peaks"), (s) => `${s} > -1`),
      }, {
        // By score, highest first (ties: the shorter period first), at most `count`.
        top_periods: ({ L, r, op }) => L.map(L.slice(L.sortBy(r("periods"), L.map(r("found"), (s) => `-${s}`)), "1", `least(${L.len(r("found"))}, ${op(3)})`), (v) => `(${v} * 1.0)`),
        top_scores: ({ L, r, op }) => L.slice(L.sortBy(r("found"), L.map(r("found"), (s) => `-${s}`)), "1", `least(${L.len(r("found"))}, ${op(3)})`),
      }, { out_periods: json("top_periods"), out_scores: json("top_scores") });
      return { stages, outputs: { periods: "out_periods", scores: "out_scores" } };
    }
    default:
      throw new Error(`unknown series analysis ${spec}`);
  }
}

/** A least-squares line's statistics of one part (the values `<p>_mean`, `<p>_slope`, …): series_fit_line's. */
function fitStages(part: string, list: (c: StageContext) => string): Stage[] {
  const v = (c: StageContext, name: string) => c.r(`${part}_${name}`);
  return [
    { [`${part}_x`]: list },
    { [`${part}_n`]: (c) => c.L.len(v(c, "x")) },
    { [`${part}_mean`]: (c) => meanOf(c.L, v(c, "x")) },
    { [`${part}_slope`]: (c) => slopeOf(c.L, v(c, "x"), v(c, "mean")) },
    { [`${part}_intercept`]: (c) => `${v(c, "mean")} - ${v(c, "slope")} * (${v(c, "n")} + 1) / 2.0` },
    {
      [`${part}_ss`]: (c) => c.L.sum(c.L.map(v(c, "x"), (x) => `(${x} - ${v(c, "mean")}) * (${x} - ${v(c, "mean")})`)),
      [`${part}_rss`]: (c) => {
        const e = (x: string, i: string) => `(${x} - ${v(c, "intercept")} - ${v(c, "slope")} * ${i})`;
        return c.L.sum(c.L.mapIdx(v(c, "x"), (x, i) => `${e(x, i)} * ${e(x, i)}`));
      },
    },
  ];
}

/**
 * series_fit_2lines: the split that leaves the least residual sum of squares over two separately
 * fitted lines (docs/kql-series.md). Every split's sums come from running sums of the centred
 * series (O(n)); the chosen split's lines are then fitted exactly, as series_fit_line fits a line.
 */
function fit2LinesPlan(bag: boolean): SeriesPlan {
  const stages = inputStages(undefined);
  stages.push(
    { mean: ({ L, r }) => meanOf(L, r("x")) },
    { y: ({ L, r }) => L.map(r("x"), (v) => `(${v} - ${r("mean")})`) },
    {
      cy: ({ L, r }) => L.cumsum(r("y")),
      ciy: ({ L, r }) => L.cumsum(L.mapIdx(r("y"), (v, i) => `${i} * ${v}`)),
      cyy: ({ L, r }) => L.cumsum(L.map(r("y"), (v) => `${v} * ${v}`)),
    },
    {
      ty: ({ L, r }) => iff(`${r("n")} > 0`, L.at(r("cy"), r("n")), "0.0"),
      tiy: ({ L, r }) => iff(`${r("n")} > 0`, L.at(r("ciy"), r("n")), "0.0"),
      tyy: ({ L, r }) => iff(`${r("n")} > 0`, L.at(r("cyy"), r("n")), "0.0"),
    },
    {
      // Split k (k = 2..n−2 points on the left): each side's residual sum of squares about its own
      // line, from its sums with the side's own positions 1..m (Σ(j·y) = Σ(i·y) − offset·Σy).
      sse: ({ L, r }) => {
        const [n, ty, tiy, tyy] = [r("n"), r("ty"), r("tiy"), r("tyy")];
        const rss = (m: string, sy: string, sjy: string, syy: string) => {
          const sxy = `(${sjy} - (${m} + 1) / 2.0 * ${sy})`;
          return `greatest(${syy} - ${sy} * ${sy} / ${m} - ${sxy} * ${sxy} / (${m} * (${m} * ${m} - 1) / 12.0), 0.0)`;
        };
        return L.zip([L.slice(r("cy"), "2", `${n} - 2`), L.slice(r("ciy"), "2", `${n} - 2`), L.slice(r("cyy"), "2", `${n} - 2`)], ([sy, siy, syy], j) => {
          const k = `(${j} + 1)`;
          const right = rss(`(${n} - ${k})`, `(${ty} - ${sy})`, `((${tiy} - ${siy}) - ${k} * (${ty} - ${sy}))`, `(${tyy} - ${syy})`);
          return `(${rss(k, sy!, siy!, syy!)} + ${right})`;
        });
      },
    },
    { least: ({ L, r }) => iff(`${L.len(r("sse"))} > 0`, `-${L.max(L.map(r("sse"), (v) => `-${v}`))}`, "0.0") },
    {
      // The first split within rounding (1e-9 of the total sum of squares) of the least: engines sum in different orders.
      k: ({ L, r }) => {
        const tolerance = `${r("least")} + 1e-9 * (${r("tyy")} - ${r("ty")} * ${r("ty")} / greatest(${r("n")}, 1))`;
        return iff(`${L.len(r("sse"))} > 0`, `(1 - ${L.max(L.mapIdx(r("sse"), (v, j) => iff(`${v} <= ${tolerance}`, `-${j}`, `-${r("n")}`)))})`, "0");
      },
    },
    ...fitStages("left", ({ L, r }) => L.slice(r("x"), "1", r("k"))),
    ...fitStages("right", ({ L, r }) => L.slice(r("x"), `${r("k")} + 1`, r("n"))),
    {
      total_ss: ({ L, r }) => L.sum(L.map(r("x"), (v) => `(${v} - ${r("mean")}) * (${v} - ${r("mean")})`)),
      line: ({ L, r }) => L.gen(r("n"), (i) => iff(`${i} <= ${r("k")}`, `(${r("left_intercept")} + ${r("left_slope")} * ${i})`, `(${r("right_intercept")} + ${r("right_slope")} * (${i} - ${r("k")}))`)),
    },
  );
  // Undefined (null) unless the input is an array of at least 4 points: each line needs two.
  const when = (r: StageContext["r"], sql: string) => `(CASE WHEN ${r("ok")} AND ${r("n")} >= 4 THEN ${sql} END)`;
  const variance = (ss: string, n: string) => `${ss} / (${n} - 1)`;
  const rsquare = (rss: string, ss: string) => iff(`${ss} > 0`, `1 - ${rss} / ${ss}`, "1.0");
  const side = (p: string): Stage => ({
    [`out_${p}_rsquare`]: ({ r }) => when(r, rsquare(r(`${p}_rss`), r(`${p}_ss`))),
    [`out_${p}_slope`]: ({ r }) => when(r, r(`${p}_slope`)),
    [`out_${p}_interception`]: ({ r }) => when(r, r(`${p}_intercept`)),
    [`out_${p}_variance`]: ({ r }) => when(r, variance(r(`${p}_ss`), r(`${p}_n`))),
    [`out_${p}_rvariance`]: ({ r }) => when(r, variance(r(`${p}_rss`), r(`${p}_n`))),
  });
  stages.push({
    out_rsquare: ({ r }) => when(r, rsquare(`(${r("left_rss")} + ${r("right_rss")})`, r("total_ss"))),
    out_split_idx: ({ r }) => when(r, r("k")),
    out_variance: ({ r }) => when(r, variance(r("total_ss"), r("n"))),
    out_rvariance: ({ r }) => when(r, variance(`(${r("left_rss")} + ${r("right_rss")})`, r("n"))),
    out_line_fit: ({ L, r }) => when(r, L.json(r("line"))),
    ...side("right"),
    ...side("left"),
  });
  const sides = ["rsquare", "slope", "interception", "variance", "rvariance"];
  const parts = ["rsquare", "split_idx", "variance", "rvariance", "line_fit", ...["right", "left"].flatMap((p) => sides.map((q) => `${p}_${q}`))];
  if (bag) {
    // series_fit_2lines_dynamic: the same results as one bag, each side's in an object of its own.
    stages.push({
      out_bag: ({ L, r }) => {
        const number = (name: string) => L.numberJson(r(`out_${name}`));
        const side = (p: string) => L.object(sides.map((q) => [q, number(`${p}_${q}`)]));
        return when(r, L.object([["rsquare", number("rsquare")], ["split_idx", number("split_idx")], ["variance", number("variance")], ["rvariance", number("rvariance")], ["line_fit", r("out_line_fit")], ["right", side("right")], ["left", side("left")]]));
      },
    });
    return { stages, outputs: { bag: "out_bag" } };
  }
  return { stages, outputs: Object.fromEntries(parts.map((p) => [p, `out_${p}`])) };
}

/** The flag of a score: 1 above the threshold, −1 below its negative, else 0. */
function flags(L: ListSql, scores: string, threshold: string): string {
  return L.map(scores, (s) => `(CASE WHEN ${s} > ${threshold} THEN 1 WHEN ${s} < -${threshold} THEN -1 ELSE 0 END)`);
}

/** Value names of each stage, in order (what the planner materializes). */
export function stageNames(spec: string): string[][] {
  return seriesPlan(spec).stages.map((stage) => Object.keys(stage));
}

/**
 * SQL of value `name` of stage `index` (op `series_stage:<spec>:<index>:<name>`): `args` are the
 * rendered operands followed by the values of all earlier stages, in order.
 */
export function stageValueSql(L: ListSql, op: string, args: string[]): string {
  const [, fn, trend, season, index, name] = op.split(":") as [string, string, string, string, string, string];
  const spec = [fn, trend, season].filter((x) => x !== "-").join(":");
  const plan = seriesPlan(spec);
  const earlier = plan.stages.slice(0, Number(index)).flatMap((stage) => Object.keys(stage));
  const operands = args.length - earlier.length;
  const r = (value: string) => {
    const at = earlier.indexOf(value);
    if (at < 0) throw new Error(`series stage ${op} reads ${value} before it is computed`);
    return args[operands + at]!;
  };
  return plan.stages[Number(index)]![name]!({ L, r, op: (i) => args[i]! });
}

/** All stages nested in one expression (op `series_inline:<spec>:<part>`; args: the operands). */
export function inlineSeriesSql(L: ListSql, op: string, args: string[]): string {
  const [, fn, trend, season, part] = op.split(":") as [string, string, string, string, string];
  const plan = seriesPlan([fn, trend, season].filter((x) => x !== "-").join(":"));
  const target = plan.outputs[part]!;
  const nest = (index: number, bound: Record<string, string>): string => {
    const r = (name: string) => bound[name]!;
    const stage = plan.stages[index]!;
    const names = Object.keys(stage);
    if (names.includes(target)) return stage[target]!({ L, r, op: (i) => args[i]! });
    const bindAll = (k: number, acc: Record<string, string>): string => {
      if (k === names.length) return nest(index + 1, acc);
      return L.bind(stage[names[k]!]!({ L, r, op: (i) => args[i]! }), (v) => bindAll(k + 1, { ...acc, [names[k]!]: v }));
    };
    return bindAll(0, bound);
  };
  return nest(0, {});
}
