/**
 * The compiler's own bounds (issue 19): compiling a query costs at most a constant amount of work,
 * however the query is written, so it can run on the server's event loop and in the browser's editor.
 *
 * Two things can grow faster than the query's text:
 *  - the expanded size of an expression: a `let` name or a user-function parameter stands for a
 *    whole analysed tree, so `let a1 = a0 + a0; let a2 = a1 + a1; …` doubles per line. The analyzer
 *    shares those trees (a DAG), so analysing is cheap, but the SQL repeats each use. `expandedSize`
 *    counts the terms the SQL will spell (memoised per node, so counting is linear in the DAG), and the
 *    analyzer refuses an expression above `COMPILE_LIMITS.expressionTerms` as soon as it is formed,
 *    before anything is rendered;
 *  - the work itself: every analysis step (an expression analysed, a function body re-analysed at a
 *    call, an environment copied), every expression node rendered to SQL, is one unit charged to the
 *    query's `Meter`; above `COMPILE_LIMITS.work` the compile stops. So a compile does at most
 *    `work` units plus work linear in the text (lexing, parsing), whatever the query.
 * The renderer additionally refuses any SQL fragment longer than `COMPILE_LIMITS.sqlLength` the
 * moment it is formed (a template that spells its operand twice, e.g. sqrt's guard, doubles per
 * nesting level without any `let`).
 */
import type { TExpr } from "./ir";

export const COMPILE_LIMITS = {
  /** Terms of one expression once `let` names and function calls are substituted. */
  expressionTerms: 50_000,
  /**
   * Nesting of one expression once expanded (`let a1 = a0 + 1; let a2 = a1 + 1; …` nests one level
   * per line): the renderer recurses per level and the engines refuse deep trees (DuckDB at 1,000).
   */
  expressionDepth: 250,
  /** `let` statements per query (each one copies the names in view). */
  lets: 500,
  /** Analysis steps plus rendered expression nodes per query (≈ 30–60 ms on the server's cores). */
  work: 100_000,
  /** Characters of generated SQL (the statement, or any fragment of it). */
  sqlLength: 1_000_000,
};

/** A compile's bound was reached; compileKql turns it into a KqlError at the query's position. */
export class CompileLimitError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = "CompileLimitError";
  }
}

/** The work units of one compile. */
export class Meter {
  work = 0;

  /** Adds `units` of work; true once the compile's work is spent (the caller reports where). */
  add(units = 1): boolean {
    this.work += units;
    return this.work > COMPILE_LIMITS.work;
  }

  /** Adds `units` of work; throws once the compile's work is spent. */
  charge(units = 1): void {
    if (this.add(units)) throw new CompileLimitError(WORK_SPENT);
  }
}

export const WORK_SPENT = `The query is too complex to compile: it needs more than ${COMPILE_LIMITS.work.toLocaleString("en-US")} steps once let names and function calls are expanded; simplify it`;

/** The meter of the compile in progress (compiling is synchronous: one at a time per thread). */
let active: Meter | undefined;

/** Runs `work` with `meter` charged for everything the renderer does meanwhile. */
export function metered<T>(meter: Meter, work: () => T): T {
  const saved = active;
  active = meter;
  try {
    return work();
  } finally {
    active = saved;
  }
}

/** Called by the renderer for each expression node it renders (`sql` is that node's SQL). */
export function chargeRender(sql: string): void {
  active?.charge();
  if (sql.length > COMPILE_LIMITS.sqlLength) throw tooLarge();
}

export function tooLarge(): CompileLimitError {
  return new CompileLimitError(`The query is too complex: its SQL would be longer than ${COMPILE_LIMITS.sqlLength.toLocaleString("en-US")} characters; simplify it`);
}

/** Expanded size and depth of a node (see `expandedSize`). */
interface Extent {
  size: number;
  depth: number;
}

const extents = new WeakMap<object, Extent>();

/**
 * Terms of `e` as rendered, each use of a shared sub-tree counted again, and its depth. Memoised per
 * node, so a tree built by repeated doubling costs one step per distinct node (numbers stay exact
 * far beyond any limit they are checked against). The recursion only descends into nodes not yet
 * measured: the analyzer measures every expression as it forms, so that is one level of new nodes.
 */
export function extentOf(e: TExpr): Extent {
  const node = e.node;
  const known = extents.get(node);
  if (known) return known;
  const parts: TExpr[] = "args" in node ? [...node.args] : [];
  let size = 1;
  switch (node.op) {
    case "access": {
      const { base, path } = node as { base: TExpr; path: TExpr };
      parts.push(base, path);
      break;
    }
    case "window": {
      const w = node as { partition: TExpr[]; order: { expr: TExpr }[] };
      parts.push(...w.partition, ...w.order.map((o) => o.expr));
      break;
    }
    case "subquery":
      // Its SQL is spelled again at each use: about one term per 8 characters.
      size += Math.ceil((node as { sql: string }).sql.length / 8);
      break;
  }
  let depth = 0;
  for (const part of parts) {
    const extent = extentOf(part);
    size += extent.size;
    depth = Math.max(depth, extent.depth);
  }
  const extent = { size, depth: depth + 1 };
  extents.set(node, extent);
  return extent;
}

/**
 * Bounds of the values a query builds (docs/api.md §6, "Telemetry limits"): strings built by
 * strrep, strcat, strcat_delim, replace_string and replace_regex; dynamic values built by repeat
 * and pack_array; lists built by make_list and make_set. Checked when compiling where the sizes are
 * constants (the refusal names the size), otherwise in the generated SQL before the value is built
 * (the engine's error names the function and the limit, and the service answers 400).
 */
export const VALUE_LIMITS = {
  stringBytes: 1_048_576,
  dynamicBytes: 16_777_216,
  listElements: 100_000,
};

const n = (x: number) => x.toLocaleString("en-US");

/** The compile-time refusal: the size is known. */
export function valueTooLarge(fn: string, bytes: number, limit = VALUE_LIMITS.stringBytes): string {
  return `${fn} would build a string of ${n(bytes)} bytes; the limit is ${n(limit)}`;
}

/** The engine's refusal at run time (a SQL string literal's text: no quotes). */
export function runtimeTooLarge(fn: string, what: "string" | "dynamic" | "list"): string {
  if (what === "list") return `${fn} would build a list longer than the limit of ${n(VALUE_LIMITS.listElements)} elements`;
  const limit = what === "string" ? VALUE_LIMITS.stringBytes : VALUE_LIMITS.dynamicBytes;
  return `${fn} would build a ${what === "string" ? "string" : "dynamic value"} larger than the limit of ${n(limit)} bytes`;
}

/**
 * A list-building expression refused past VALUE_LIMITS.listElements, as each engine spells it: one
 * spelling for make_list/make_set and the sketches (functions/sketches.ts). The message names `fn`.
 */
export const boundedList = {
  duckdb: (fn: string, list: string) => `CASE WHEN len(${list}) > ${VALUE_LIMITS.listElements} THEN error('${runtimeTooLarge(fn, "list")}') ELSE ${list} END`,
  clickhouse: (fn: string, list: string) => `if(throwIf(length(${list}) > ${VALUE_LIMITS.listElements}, '${runtimeTooLarge(fn, "list")}') = 0, ${list}, [])`,
};

/** Bounds that keep one query from exhausting the server (sizes of what it may build). */
export const LIMITS = {
  /** Table references and sub-queries after `let` expansion. */
  relations: 64,
  /** Generated SQL text (COMPILE_LIMITS above has the compile's other bounds: work, expanded expression size). */
  sqlLength: COMPILE_LIMITS.sqlLength,
  rangeRows: 1_000_000,
  datatableCells: 10_000,
  makeSeriesPoints: 100_000,
  regexLength: 1_000,
  operators: 300,
  /**
   * Grouping steps (summarize, count, distinct, make-series, top-nested levels) per query: DuckDB's
   * planning time grows steeply with nested GROUP BYs (20 nested take seconds to plan), and planning
   * cannot be interrupted by the query time limit.
   */
  groupings: 16,
  /**
   * Rows one row_window_session() reads. The rows are cut into runs at the rows where a session
   * certainly starts (a neighbour gap, Restart, a null Expr or the row after it); each run is one
   * fold whose accumulator holds the sessions MaxDistanceFromFirst starts in it (sessions.ts), so
   * the cost is linear in the rows plus `sessionRunWork` below; measured in docs/api.md.
   */
  sessionRows: 100_000,
  /**
   * Rows one `scan` reads: it is a recursive query, one step per row (scan.ts) that reads the input
   * again, and ClickHouse stops a recursion at 1,000 steps (max_recursive_cte_evaluation_depth).
   * 1,000 rows took 26 s on ClickHouse (chdb) and 3.7 s on DuckDB at a load average of 15.
   */
  scanRows: 500,
  /**
   * Per run of rows without such a certain start: the sum over its rows of the sessions
   * MaxDistanceFromFirst started before the row (the fold copies its list of starts at each row; at
   * most rows × sessions). 43,200 one-minute rows in 1 h sessions are 60 × (0 + … + 719) ≈ 15.5 M;
   * every row its own session stops a run near 10,000 rows.
   */
  sessionRunWork: 50_000_000,
  /**
   * The graph operators (graph.ts) plan a pattern as joins of the edges, one per edge of each length
   * a variable-length edge may take: at most this many edges per variable-length edge (`*1..8`) …
   */
  graphPathLength: 8,
  /** … and at most this many fixed-length forms of a whole pattern (the product of its edges' ranges). */
  graphPatternForms: 32,
  /** Edges in one fixed-length form of a pattern (each a join). */
  graphPatternEdges: 24,
  /**
   * graph-mark-components: rounds of label propagation (each one a pass over the edges). A component
   * whose nodes lie farther apart than this is the engine's error, never a wrong answer. DuckDB's
   * planning time doubles with each nested round (32 rounds did not plan within a minute; 16 take
   * about 0.3 s).
   */
  graphComponentRounds: 16,
};

/**
 * row_window_session() steps from start to start (one scan of the run per session) instead of from row
 * to row when the run's MaxDistanceFromFirst is one value and its sessions average at least this many
 * rows by the bound span ÷ distance; below it the per-row fold costs no more (bench/row-window-session.ts).
 */
export const SESSION_JUMP_ROWS = 16;

/** The engine's refusal when row_window_session() would read more rows (a SQL string literal's text). */
export const SCAN_ROWS_EXCEEDED = `scan reads at most ${n(LIMITS.scanRows)} rows; filter or summarize the rows before it`;
export const SESSION_ROWS_EXCEEDED = `row_window_session reads at most ${n(LIMITS.sessionRows)} rows; filter or summarize the rows before it`;

/** The engine's refusal when one run's rows × MaxDistanceFromFirst sessions would pass LIMITS.sessionRunWork (a SQL string literal's text). */
export const SESSION_RUN_EXCEEDED = `row_window_session allows at most ${n(LIMITS.sessionRunWork)} rows × sessions in one run of rows without a gap of MaxDistanceBetweenNeighbors, a restart or a null; use a larger MaxDistanceFromFirst or fewer rows`;
