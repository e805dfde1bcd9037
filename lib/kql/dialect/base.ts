/**
 * The SQL rendering both engines share, written once. A dialect (duckdb.ts, clickhouse.ts) extends
 * SqlRenderer with its spellings (type names, function names, casts, string building) and with
 * `special`: the constructs whose SQL is shaped differently in that engine. Everything the two
 * engines render alike (NULL-safe comparisons, IN lists, conversions by type, timespan text, the
 * SELECT block, joins, make-series' plan of CTEs) lives here, so a fix to KQL's meaning is made once
 * and both engines keep giving the same answers (the conformance suite runs every case on both).
 */
import type { ComponentsSpec, JoinType, MakeSeriesSpec, RowWindowSessionSpec, SelectBlock, SqlDialect } from "./dialect";
import type { FunctionNames } from "./function-names";
import { chargeRender } from "../budget";
import { args, type CallNode, type TExpr } from "../ir";
import type { Engine, SpellInput } from "../functions/entry";
import { functionEntry } from "../functions/table";
import type { KqlType, SqlParamType } from "../types";

/** A term of `has` is a maximal run of ASCII letters and digits (docs/api.md §6). */
const TERM_EDGE_BEFORE = `'(^|[^0-9A-Za-z])'`;
const TERM_EDGE_AFTER = `'($|[^0-9A-Za-z])'`;

/** ADX's `[-][d.]hh:mm[:ss[.fffffff]]`, as a regular expression (backslashes not yet escaped for SQL). */
const TIMESPAN_TEXT = String.raw`^\s*(-?)(?:(\d+)\.)?(\d+):(\d+)(?::(\d+)(?:\.(\d{1,7}))?)?\s*$`;

/** KQL's datetime functions that read one date part (named as datetime_part names it). */
const DATE_FUNCTIONS: Record<string, string> = { hourofday: "hour", dayofmonth: "day", dayofyear: "dayofyear", monthofyear: "month", getyear: "year", weekofyear: "week_of_year" };
const COMPARISONS: Record<string, string> = { lt: "<", le: "<=", gt: ">", ge: ">=" };
const ARITHMETIC: Record<string, string> = { add: "+", sub: "-", mul: "*" };
/** Microseconds per unit of a timespan's text. */
const US = { day: "86400000000", hour: "3600000000", minute: "60000000", second: "1000000" };

/**
 * The engine's spelling of the small SQL forms the shared renderer composes: one entry a form,
 * so a dialect is a table of templates rather than a page of one-line methods.
 */
export interface Spelling {
  /** A regular expression literal (the engine's string escaping applied). */
  regexLiteral(pattern: string): string;
  /** Rows numbered 0 … count-1: the FROM clause and the number's SQL. */
  counter(count: string): { from: string; i: string };
  /** The same for a count known only when the query runs (ClickHouse's numbers() needs a constant). */
  runtimeCounter(count: string): { from: string; i: string };
  param(name: string, type: SqlParamType): string;
  /** A NULL of the given SQL type. */
  nullOf(sqlType: string): string;
  /** Case-sensitive substring test. */
  contains(text: string, part: string): string;
  /** Whether `text` matches the regular expression made of `parts` (SQL strings) in sequence. */
  matches(text: string, parts: string[], ci: boolean): string;
  /** `value` when `condition` holds, else NULL. */
  orNull(condition: string, value: string): string;
  /** Integer conversion giving NULL where the value does not fit (or is not a number). */
  tryInteger(x: string, sqlType: string): string;
  /** A 128-bit integer, so that whole-number arithmetic cannot overflow before tryInteger checks it. */
  wide(x: string): string;
  toReal(x: string): string;
  /** Text → real, NULL when it is not a number. */
  parseReal(text: string): string;
  /** Text → long, NULL when it is empty or not a whole number. */
  parseLong(text: string): string;
  toText(x: string): string;
  /** Strings joined; NULL when any part is NULL. */
  concat(parts: string[]): string;
  intDiv(x: string, y: string): string;
  epochUs(datetime: string): string;
  /** A datetime moved by a number of microseconds. */
  plusUs(datetime: string, us: string): string;
  /** Group `i` of `pattern`'s match in `text` ('' when there is none). */
  regexGroup(text: string, pattern: string, i: number): string;
  /** A window function's or count's value as a KQL long. */
  asLong(x: string): string;
  isoText(datetime: string): string;
  parseDatetime(text: string): string;
  access(base: string, path: string): string;
  /** `IS NOT DISTINCT FROM`. */
  same(x: string, y: string): string;
  /** A whole number (already in range) as a long. */
  toLong(x: string): string;
  /** A string as the engine's `dynamic` JSON. */
  asJson(x: string): string;
  /** KQL's gettype of a JSON `dynamic`. */
  jsonTypeName(json: string): string;
}

/** One node's SQL, for one set of the attributes its rendering reads. */
interface Rendering {
  type: KqlType;
  nullable: boolean;
  dynamic: TExpr["dynamic"];
  predicate: boolean;
  sql: string;
}

/** Engine-specific spelling of the shared constructs, and the constructs shaped differently. */
export abstract class SqlRenderer {
  /** For error messages: "DuckDB", "ClickHouse". */
  protected abstract readonly engine: string;
  /** Which spelling of the function table's entries this renderer takes. */
  protected abstract readonly key: Engine;
  protected abstract readonly sqlTypes: Record<KqlType, string>;
  /** The engine's names of semi and anti joins (the other join types are spelled alike). */
  protected abstract readonly semiJoins: { semi: string; anti: string };
  /** Function names that differ only by name (function-names.ts). */
  protected abstract readonly names: FunctionNames;
  /** KQL date parts (hourofday, getyear, datetime_part's names) → the engine's function of a datetime. */
  protected abstract readonly dateParts: Record<string, (x: string) => string>;

  /** The small forms, each spelled once per engine. */
  protected abstract readonly spell: Spelling;

  /** @param special the engine's own renderings of `e` (given its operands `a`); undefined: the shared one. */
  constructor(private readonly special: (e: TExpr, a: TExpr[], predicate: boolean) => string | undefined) {}

  protected abstract dynamicText(value: TExpr): string;
  protected abstract dynamicNumber(value: TExpr): string;
  protected abstract dynamicJson(value: TExpr): string;
  /** isnull of a JSON `dynamic` (JSON null counts as null). */
  protected abstract jsonIsNull(value: TExpr): string;
  /** A branch of a `case`/`coalesce` in the representation of the whole (ClickHouse mixes no numbers with JSON text). */
  protected branch(_whole: TExpr, part: TExpr): string {
    return this.expression(part, false);
  }
  /** GROUP BY keys by their position in the select list (DuckDB refuses a bare parameter there). */
  protected readonly positionalGroupBy: boolean = false;
  /** Wraps the rendering of a SELECT block's clauses (ClickHouse: mv-expand's row index). */
  protected withColumns(_columns: TExpr[], render: () => string): string {
    return render();
  }
  /** make-series: spelling of the pieces its plan needs. */
  protected abstract readonly series: {
    /** The bin of an axis value (datetime: from ADX's origin). */
    binOf(value: string, step: string, datetime: boolean): string;
    /** A count (make-series' points, range's rows), raising the error `message` above `max`. */
    checkedPoints(points: string, max: number, message: string): string;
    /** `k` = 0 … n-1 per group, from the grid's `(groups) AS g, bounds AS b`. */
    gridRows(groups: string): string;
    /** A JSON array of `value`s of one group, in the order of `grid.k`. */
    jsonList(value: string, numbers: boolean): string;
    /** Axis text of one point (a JSON value). */
    axisText(value: string, axisType: MakeSeriesSpec["axisType"]): string;
  };

  quoteIdentifier(name: string): string {
    return `"${name.replace(/"/g, '""')}"`;
  }

  /**
   * Renderings of the current context by node: a template that spells an operand twice (sqrt's
   * guard, has's pre-test) renders it once, so nesting such calls costs one step a level, not a
   * doubling. A SELECT block is a context of its own (ClickHouse renders mv-expand's row index per block).
   */
  private renderings = new WeakMap<object, Rendering[]>();

  /** Each node rendered is charged to the compile's work, and no fragment may outgrow a statement (budget.ts). */
  expression(e: TExpr, predicate: boolean): string {
    const known = this.renderings.get(e.node);
    const same = known?.find((r) => r.type === e.type && r.nullable === e.nullable && r.dynamic === e.dynamic && r.predicate === predicate);
    if (same) return same.sql;
    const a = args(e);
    const sql = e.node.op === "call" ? this.declared(e) : (this.special(e, a, predicate) ?? this.shared(e, a, predicate));
    chargeRender(sql);
    const rendering = { type: e.type, nullable: e.nullable, dynamic: e.dynamic, predicate, sql };
    if (known) known.push(rendering);
    else this.renderings.set(e.node, [rendering]);
    return sql;
  }

  /** A declared function's call, spelled by its table entry for this engine (functions/entry.ts). */
  private declared(e: TExpr): string {
    const node = e.node as CallNode;
    const entry = functionEntry(node.fn, node.scalarTwin ? "scalar" : undefined);
    const spelling = entry?.sql?.[this.key];
    if (spelling === undefined) throw new Error(`${this.engine} dialect: no spelling for '${node.fn}'`);
    const args = node.args.map((x) => this.expression(x, false));
    const types = node.args.map((x) => x.type);
    const salt = node.volatile ? args.pop() : undefined;
    if (salt !== undefined) types.pop();
    const input: SpellInput = { args, types, consts: node.consts, result: e.type, ...(salt !== undefined ? { salt } : {}) };
    const sql = typeof spelling === "string" ? spelling.replace(/\$(\d+|\*)/g, (_, i: string) => (i === "*" ? input.args.join(", ") : input.args[Number(i)] ?? "NULL")) : spelling(input);
    // A string is never null in KQL (entry.ts NullRule).
    return e.type === "string" && entry!.nulls !== "never" ? `coalesce(${sql}, '')` : sql;
  }

  /** The SQL of operand `i`. */
  protected sub(a: TExpr[], i: number, predicate = false): string {
    return this.expression(a[i]!, predicate);
  }

  protected list(a: TExpr[]): string {
    return a.map((x) => this.expression(x, false)).join(", ");
  }

  /**
   * A comparison that must not yield NULL: `whenNull` replaces it, except in a filter, where NULL
   * already means false (so `==` stays a plain, pushdown-friendly comparison there).
   */
  protected nullSafe(operands: TExpr[], predicate: boolean, sql: string, whenNull: "false" | "true"): string {
    const nullable = operands.some((operand) => operand.nullable);
    return nullable && (!predicate || whenNull === "true") ? `coalesce(${sql}, ${whenNull})` : sql;
  }

  /**
   * `==`/`!=` as ADX: null when both sides are null, `whenOneNull` (false/true) when one is
   * (docs: null values). In a filter a null and false both drop the row, so `==` stays plain there.
   */
  private equality(a: TExpr[], predicate: boolean, sqlOp: "=" | "<>", whenOneNull: "false" | "true"): string {
    const [l, r] = [this.sub(a, 0), this.sub(a, 1)];
    const test = `(${l} ${sqlOp} ${r})`;
    if (!a[0]!.nullable && !a[1]!.nullable) return test;
    if (predicate && whenOneNull === "false") return test;
    if (!a[0]!.nullable || !a[1]!.nullable) return `coalesce(${test}, ${whenOneNull})`;
    return `CASE WHEN ${l} IS NULL AND ${r} IS NULL THEN NULL ELSE coalesce(${test}, ${whenOneNull}) END`;
  }

  /** An aggregate of a string gives '' rather than NULL on no rows, as KQL's do. */
  protected emptyIfNull(e: TExpr, value: string): string {
    return e.type === "string" ? `coalesce(${value}, '')` : value;
  }

  /** Operators of one argument that convert it, each by its method below. */
  private readonly conversions = new Map<string, (x: TExpr) => string>([
    ["dyn_str", (x) => this.dynamicText(x)],
    ["dyn_num", (x) => this.dynamicNumber(x)],
    ["dyn_json", (x) => this.dynamicJson(x)],
    ["to_double", (x) => this.toDouble(x)],
    ["to_long", (x) => this.toInteger(x, "long")],
    ["to_int", (x) => this.toInteger(x, "int")],
    ["to_string", (x) => this.toString(x)],
    ["to_datetime", (x) => this.toDatetime(x)],
    ["to_bool", (x) => this.toBool(x)],
  ]);

  private shared(e: TExpr, a: TExpr[], predicate: boolean): string {
    const node = e.node;
    const op = node.op;
    const conversion = this.conversions.get(op);
    if (conversion) return conversion(a[0]!);
    const s = (i: number, p = false) => this.sub(a, i, p);
    const { names } = this;
    const lower = (x: string) => `${names.lower}(${x})`;
    const fold = (ci: boolean) => (x: string) => (ci ? lower(x) : x);
    const ci = !op.endsWith("_cs");
    if (op.startsWith("dt_part:")) return this.dateParts[op.slice(8)]!(s(0));
    if (op in DATE_FUNCTIONS) return this.dateParts[DATE_FUNCTIONS[op]!]!(s(0));
    if (op.startsWith("ts_part:")) return this.timespanPart(op.slice(8), s(0));
    // An ordering with a null is null, as in SQL and ADX (docs: null values).
    if (op in COMPARISONS) return `(${s(0)} ${COMPARISONS[op]} ${s(1)})`;
    if (op === "eq" || op === "ne") return this.equality(a, predicate, op === "eq" ? "=" : "<>", op === "eq" ? "false" : "true");
    if (op in ARITHMETIC) {
      // Whole numbers are computed wide and an overflow gives null (DuckDB would raise, ClickHouse wrap around).
      if (e.type === "long" || e.type === "int") return this.spell.tryInteger(`${this.spell.wide(s(0))} ${ARITHMETIC[op]} ${s(1)}`, this.sqlTypes[e.type]);
      return `(${s(0)} ${ARITHMETIC[op]} ${s(1)})`;
    }
    switch (op) {
      case "ref": {
        const ref = node as { relation: string; name: string };
        return `${this.quoteIdentifier(ref.relation)}.${this.quoteIdentifier(ref.name)}`;
      }
      case "param": {
        const param = node as { name: string; paramType: SqlParamType };
        return this.spell.param(param.name, param.paramType);
      }
      case "null":
        return this.spell.nullOf(e.type === "dynamic" && e.dynamic === "double" ? this.sqlTypes.real : this.sqlTypes[e.type]);
      case "access": {
        const { base, path } = node as { base: TExpr; path: TExpr };
        return this.spell.access(this.expression(base, false), this.expression(path, false));
      }
      case "subquery":
        return `(SELECT * FROM (${(node as { sql: string }).sql}) LIMIT 1)`;
      case "window": {
        const w = node as { fn: "row_number" | "rank"; partition: TExpr[]; order: { expr: TExpr; desc: boolean }[] };
        const partition = w.partition.length ? `PARTITION BY ${this.list(w.partition)}` : "";
        const order = w.order.length ? ` ORDER BY ${w.order.map((o) => `${this.expression(o.expr, false)} ${o.desc ? "DESC" : "ASC"} NULLS LAST`).join(", ")}` : "";
        return this.spell.asLong(`${w.fn === "rank" ? "rank" : "row_number"}() OVER (${partition}${order})`);
      }
      case "eq_ci":
        return `(${lower(s(0))} = ${lower(s(1))})`;
      case "ne_ci":
        return `(${lower(s(0))} <> ${lower(s(1))})`;
      case "has":
      case "has_cs":
        // The substring test first: cheap, and it lets the engine skip the regular expression.
        return `(${this.spell.contains(fold(ci)(s(0)), fold(ci)(s(1)))} AND ${this.spell.matches(s(0), [TERM_EDGE_BEFORE, `${names.quoteMeta}(${s(1)})`, TERM_EDGE_AFTER], ci)})`;
      case "hasprefix":
      case "hasprefix_cs":
        return this.spell.matches(s(0), [TERM_EDGE_BEFORE, `${names.quoteMeta}(${s(1)})`], ci);
      case "hassuffix":
      case "hassuffix_cs":
        return this.spell.matches(s(0), [`${names.quoteMeta}(${s(1)})`, TERM_EDGE_AFTER], ci);
      case "contains":
      case "contains_cs":
        return this.spell.contains(fold(ci)(s(0)), fold(ci)(s(1)));
      case "startswith":
      case "startswith_cs":
        return `${names.startsWith}(${fold(ci)(s(0))}, ${fold(ci)(s(1))})`;
      case "endswith":
      case "endswith_cs":
        return `${names.endsWith}(${fold(ci)(s(0))}, ${fold(ci)(s(1))})`;
      case "regex_match":
        return `${names.regexMatch}(${s(0)}, ${s(1)})`;
      case "in":
      case "in_ci":
      case "notin":
      case "notin_ci":
        return this.inList(op, a, predicate);
      case "between":
        return this.nullSafe(a, predicate, `(${s(0)} BETWEEN ${s(1)} AND ${s(2)})`, "false");
      case "notbetween":
        return this.nullSafe(a, predicate, `(NOT (${s(0)} BETWEEN ${s(1)} AND ${s(2)}))`, "true");
      case "and":
      case "or":
        // n-ary: a chain of thousands of terms is one flat list for the engine too.
        return `(${a.map((x) => this.expression(x, predicate)).join(op === "and" ? " AND " : " OR ")})`;
      case "not":
        return `(NOT ${s(0)})`;
      case "neg":
        return `(- ${s(0)})`;
      case "dt_add":
        return this.spell.plusUs(s(0), s(1));
      case "dt_sub":
        return this.spell.plusUs(s(0), `(- ${s(1)})`);
      case "dt_diff":
        return `(${this.spell.epochUs(s(0))} - ${this.spell.epochUs(s(1))})`;
      case "to_timespan": {
        const v = a[0]!;
        if (v.type === "timespan") return s(0);
        if (v.type === "string") return this.parseTimespanText(s(0));
        if (v.type === "dynamic") return this.parseTimespanText(this.dynamicText(v));
        return this.spell.nullOf(this.sqlTypes.timespan);
      }
      case "isnull":
        return this.isNull(a[0]!);
      case "isnotnull":
        return `(NOT ${this.isNull(a[0]!)})`;
      case "isempty":
        return this.isEmpty(a[0]!);
      case "isnotempty":
        return `(NOT ${this.isEmpty(a[0]!)})`;
      case "case": {
        const parts: string[] = [];
        for (let i = 0; i + 1 < a.length; i += 2) parts.push(`WHEN ${s(i, true)} THEN ${this.branch(e, a[i + 1]!)}`);
        return `CASE ${parts.join(" ")} ELSE ${this.branch(e, a[a.length - 1]!)} END`;
      }
      case "coalesce":
        return `coalesce(${a.map((x) => this.branch(e, x)).join(", ")})`;
      case "json":
        return this.spell.asJson(s(0));
      case "same":
        return `(${this.spell.same(s(0), s(1))})`;
      case "random":
        return `${names.random}()`;
      case "empty_string":
        return "''";
      case "coalesce_empty":
        return `coalesce(${s(0)}, '')`;
      case "empty_to_null":
        return `${names.nullIf}(${s(0)}, '')`;
      case "tolower":
        return lower(s(0));
      case "toupper":
        return `${names.upper}(${s(0)})`;
      case "trim":
        return this.trimEnd(s(0), this.trimStart(s(0), s(1)));
      case "trim_start":
        return this.trimStart(s(0), s(1));
      case "trim_end":
        return this.trimEnd(s(0), s(1));
      case "reverse":
        return `${names.reverse}(${s(0)})`;
      case "substring": {
        const start = `greatest(${s(1)}, 0) + 1`;
        return a.length > 2 ? `${names.substring}(${s(0)}, ${start}, greatest(${s(2)}, 0))` : `${names.substring}(${s(0)}, ${start})`;
      }
      case "abs":
        return `abs(${s(0)})`;
      case "ceiling":
        return e.type === "real" ? `ceil(${s(0)})` : s(0);
      case "min":
      case "max":
      case "any":
      case "minif":
      case "maxif":
      case "anyif":
        return this.emptyIfNull(e, this.aggregate(op, a));
      case "gettype":
        if (a[0]!.type !== "dynamic") return `'${a[0]!.type}'`;
        if (a[0]!.dynamic === "double") return `CASE WHEN ${s(0)} IS NULL THEN 'null' ELSE 'real' END`;
        return this.spell.jsonTypeName(s(0));
    }
    throw new Error(`${this.engine} dialect: no rendering for '${op}'`);
  }

  /** min/max/any (and their -if forms) without the empty-string rule: the engine's spelling. */
  protected abstract aggregate(op: string, a: TExpr[]): string;

  /** `x in (…)`, `x !in (…)` and the case-insensitive forms, over a list of values or a subquery. */
  private inList(op: string, a: TExpr[], predicate: boolean): string {
    const ci = op.endsWith("_ci");
    const negated = op.startsWith("not");
    const wrap = (x: string) => (ci ? `${this.names.lower}(${x})` : x);
    const listItem = a[1]?.node.op === "subquery" ? (a[1].node as { sql: string; mode: string }) : undefined;
    if (listItem?.mode === "list") {
      const inner = ci ? `SELECT ${wrap(this.spell.toText(this.allColumns))} FROM (${listItem.sql})` : listItem.sql;
      const test = `${wrap(this.sub(a, 0))} IN (${inner})`;
      if (negated) return `coalesce(NOT (${test}), true)`;
      return predicate ? `(${test})` : `coalesce(${test}, false)`;
    }
    const test = `${wrap(this.sub(a, 0))} IN (${a.slice(1).map((item) => wrap(this.expression(item, false))).join(", ")})`;
    if (negated) return a[0]!.nullable ? `coalesce(NOT (${test}), true)` : `(NOT (${test}))`;
    return a[0]!.nullable && !predicate ? `coalesce(${test}, false)` : `(${test})`;
  }

  /** The one column of a subquery, whatever its name. */
  protected abstract readonly allColumns: string;

  /** KQL prints whole reals without a fraction (`tostring(2.0)` is "2"). */
  protected realText(sql: string): string {
    return `CASE WHEN ${sql} = trunc(${sql}) AND abs(${sql}) < 1e15 THEN ${this.spell.toText(this.spell.toLong(sql))} ELSE ${this.spell.toText(sql)} END`;
  }

  protected boolText(sql: string): string {
    return `CASE WHEN ${sql} THEN 'true' WHEN NOT ${sql} THEN 'false' END`;
  }

  private toDouble(value: TExpr): string {
    const sql = this.expression(value, false);
    switch (value.type) {
      case "real":
        return sql;
      case "long":
      case "int":
      case "bool":
        return this.spell.toReal(sql);
      case "string":
        return this.spell.parseReal(sql);
      case "dynamic":
        return this.dynamicNumber(value);
      case "timespan":
        return this.spell.toReal(`${sql} * 10`);
      case "datetime":
        return this.spell.nullOf(this.sqlTypes.real);
    }
  }

  /** KQL truncates toward zero (`tolong(2.7)` is 2); a cast would round. */
  private toInteger(value: TExpr, type: "long" | "int"): string {
    const sql = this.expression(value, false);
    const sqlType = this.sqlTypes[type];
    switch (value.type) {
      case "long":
      case "int":
        return value.type === type ? sql : this.spell.tryInteger(sql, sqlType);
      case "real":
        return this.spell.tryInteger(`trunc(${sql})`, sqlType);
      case "bool":
        return this.spell.tryInteger(sql, sqlType);
      case "string":
        return this.spell.tryInteger(`trunc(${this.spell.parseReal(sql)})`, sqlType);
      case "dynamic":
        return this.spell.tryInteger(`trunc(${this.dynamicNumber(value)})`, sqlType);
      case "timespan":
        return this.spell.tryInteger(`${this.spell.wide(sql)} * 10`, sqlType);
      case "datetime":
        // .NET ticks since 0001-01-01, as ADX's tolong(datetime).
        return this.spell.tryInteger(`${this.spell.wide(this.spell.epochUs(sql))} * 10 + 621355968000000000`, sqlType);
    }
  }

  /** KQL's tostring(): a string as it is, anything else as text, null as "" (KQL strings are never null). */
  private toString(value: TExpr): string {
    return value.type === "string" ? this.expression(value, false) : `coalesce(${this.textOf(value)}, '')`;
  }

  /** A non-string value as ADX writes it as text; NULL for null. */
  private textOf(value: TExpr): string {
    if (value.type === "dynamic") return this.dynamicText(value);
    const sql = this.expression(value, false);
    if (value.type === "real") return this.realText(sql);
    if (value.type === "bool") return this.boolText(sql);
    if (value.type === "datetime") return this.spell.isoText(sql);
    if (value.type === "timespan") return this.timespanText(sql);
    return this.spell.toText(sql);
  }

  private toDatetime(value: TExpr): string {
    switch (value.type) {
      case "datetime":
        return this.expression(value, false);
      case "string":
        return this.spell.parseDatetime(this.expression(value, false));
      case "dynamic":
        return this.spell.parseDatetime(this.dynamicText(value));
      default:
        return this.spell.nullOf(this.sqlTypes.datetime);
    }
  }

  private toBool(value: TExpr): string {
    const sql = this.expression(value, false);
    if (value.type === "bool") return sql;
    if (value.type === "string" || value.type === "dynamic") {
      const text = `${this.names.lower}(${this.names.trim}(${value.type === "string" ? sql : this.dynamicText(value)}))`;
      return `CAST(CASE WHEN ${text} IN ('true', '1') THEN true WHEN ${text} IN ('false', '0') THEN false END AS ${this.nullable(this.sqlTypes.bool)})`;
    }
    if (value.type === "long" || value.type === "int" || value.type === "real") return `(${sql} <> 0)`;
    return this.spell.nullOf(this.sqlTypes.bool);
  }

  /** The type that holds NULL (ClickHouse: Nullable(T)). */
  protected nullable(sqlType: string): string {
    return sqlType;
  }

  private isNull(value: TExpr): string {
    if (value.type === "string") return "false";
    if (value.type === "dynamic" && value.dynamic === "json") return this.jsonIsNull(value);
    return `(${this.expression(value, false)} IS NULL)`;
  }

  private isEmpty(value: TExpr): string {
    if (value.type === "string") return `(${this.expression(value, false)} = '')`;
    if (value.type === "dynamic" && value.dynamic === "json") return `(coalesce(${this.dynamicText(value)}, '') = '')`;
    return `(${this.expression(value, false)} IS NULL)`;
  }

  /** `text` without leading repeats of the regular expression `pattern`. */
  private trimStart(pattern: string, text: string): string {
    return `${this.names.regexReplace}(${text}, ${this.spell.concat(["'^(?:'", pattern, "')+'"])}, '')`;
  }

  private trimEnd(pattern: string, text: string): string {
    return `${this.names.regexReplace}(${text}, ${this.spell.concat(["'(?:'", pattern, "')+$'"])}, '')`;
  }

  private pad(value: string, width: number): string {
    return `${this.names.leftPad}(${this.spell.toText(value)}, ${width}, '0')`;
  }

  /** ADX's timespan text `[-][d.]hh:mm:ss[.fffffff]` from microseconds. */
  timespanText(sql: string): string {
    const abs = `abs(${sql})`;
    const clock = (unit: string, modulo: number) => this.pad(`${this.spell.intDiv(abs, unit)} % ${modulo}`, 2);
    return this.spell.concat([
      `CASE WHEN ${sql} < 0 THEN '-' ELSE '' END`,
      `CASE WHEN ${abs} >= ${US.day} THEN ${this.spell.concat([this.spell.toText(this.spell.intDiv(abs, US.day)), "'.'"])} ELSE '' END`,
      clock(US.hour, 24),
      "':'",
      clock(US.minute, 60),
      "':'",
      clock(US.second, 60),
      `CASE WHEN ${abs} % ${US.second} <> 0 THEN ${this.spell.concat(["'.'", this.pad(`${abs} % ${US.second} * 10`, 7)])} ELSE '' END`,
    ]);
  }

  /** One piece of format_timespan: days, hours, minutes, seconds or fraction digits, zero-padded. */
  private timespanPart(spec: string, sql: string): string {
    const abs = `abs(${sql})`;
    const width = spec.length;
    switch (spec[0]) {
      case "d":
        return this.pad(this.spell.intDiv(abs, US.day), width);
      case "h":
      case "H":
        return this.pad(`${this.spell.intDiv(abs, US.hour)} % 24`, width);
      case "m":
        return this.pad(`${this.spell.intDiv(abs, US.minute)} % 60`, width);
      case "s":
        return this.pad(`${this.spell.intDiv(abs, US.second)} % 60`, width);
      default:
        // f…: the first `width` of the 7 fraction digits (ticks).
        return `left(${this.pad(`${abs} % ${US.second} * 10`, 7)}, ${width})`;
    }
  }

  /** ADX's `[-][d.]hh:mm[:ss[.fffffff]]` text → microseconds (NULL when it is not one). */
  private parseTimespanText(text: string): string {
    const pattern = this.spell.regexLiteral(TIMESPAN_TEXT);
    const group = (i: number) => this.spell.regexGroup(text, pattern, i);
    const number = (i: number) => `coalesce(${this.spell.parseLong(group(i))}, 0)`;
    const fraction = this.spell.intDiv(`coalesce(${this.spell.parseLong(`${this.names.rightPad}(${group(6)}, 7, '0')`)}, 0)`, "10");
    const total = `${number(2)} * ${US.day} + ${number(3)} * ${US.hour} + ${number(4)} * ${US.minute} + ${number(5)} * ${US.second} + ${fraction}`;
    return `CASE WHEN ${this.names.regexMatch}(${text}, ${pattern}) THEN (CASE WHEN ${group(1)} = '-' THEN -1 ELSE 1 END) * (${total}) END`;
  }

  select(block: SelectBlock): string {
    const outer = this.renderings;
    this.renderings = new WeakMap();
    try {
      return this.selectIn(block);
    } finally {
      this.renderings = outer;
    }
  }

  private selectIn(block: SelectBlock): string {
    return this.withColumns(
      block.columns.map((c) => c.expr),
      () => {
        const columns = block.columns.map((c) => `${this.expression(c.expr, false)} AS ${this.quoteIdentifier(c.alias)}`);
        let sql = `SELECT ${block.distinct ? "DISTINCT " : ""}${columns.join(", ")}${block.from ? ` FROM ${block.from}` : ""}`;
        if (block.where.length) sql += ` WHERE ${block.where.map((w) => this.expression(w, true)).join(" AND ")}`;
        if (block.groupBy.length) {
          const keys = block.groupBy.map((g) => {
            const position = this.positionalGroupBy ? block.columns.findIndex((c) => c.expr === g) : -1;
            return position >= 0 ? String(position + 1) : this.expression(g, false);
          });
          sql += ` GROUP BY ${keys.join(", ")}`;
        }
        if (block.qualify?.length) sql += ` QUALIFY ${block.qualify.map((q) => this.expression(q, true)).join(" AND ")}`;
        if (block.orderBy.length) {
          const keys = block.orderBy.map((k) => `${this.expression(k.expr, false)} ${k.desc ? "DESC" : "ASC"} NULLS ${k.nullsFirst ? "FIRST" : "LAST"}`);
          sql += ` ORDER BY ${keys.join(", ")}`;
        }
        if (block.limit) sql += ` LIMIT ${this.expression(block.limit, false)}`;
        return sql;
      },
    );
  }

  join(type: JoinType, left: string, right: string, condition: TExpr): string {
    const joins: Record<JoinType, string> = { inner: "INNER JOIN", left: "LEFT JOIN", right: "RIGHT JOIN", full: "FULL JOIN", ...this.semiJoins };
    return `${left} ${joins[type]} ${right} ON ${this.expression(condition, true)}`;
  }

  subquery(sql: string, alias: string): string {
    return `(${sql}) AS ${this.quoteIdentifier(alias)}`;
  }

  /** `start + i * step` for i in 0 … n-1 (n checked by the planner). */
  range(start: TExpr, stop: TExpr, step: TExpr, type: KqlType, alias: string, maxRows?: number): string {
    const [lo, hi, by] = [this.expression(start, false), this.expression(stop, false), this.expression(step, false)];
    const distance = type === "datetime" ? `(${this.spell.epochUs(hi)} - ${this.spell.epochUs(lo)})` : `(${hi} - ${lo})`;
    const count = `greatest(${this.spell.toLong(`floor(${distance} / ${by})`)} + 1, 0)`;
    const { from, i } = maxRows === undefined ? this.spell.counter(count) : this.spell.runtimeCounter(this.series.checkedPoints(count, maxRows, `range would produce more than ${maxRows} rows`));
    const value = type === "datetime" ? this.spell.plusUs(lo, `${i} * ${by}`) : type === "real" ? `(${this.spell.toReal(lo)} + ${i} * ${by})` : `(${lo} + ${i} * ${by})`;
    return `SELECT ${value} AS ${this.quoteIdentifier(alias)} FROM ${from}`;
  }

  /**
   * make-series: aggregates per (group, bin) joined onto the full grid of bins, then one ordered list
   * per group (missing bins get the default), as JSON arrays; the axis as a JSON array too.
   */
  makeSeries(spec: MakeSeriesSpec): string {
    const q = (name: string) => this.quoteIdentifier(name);
    const x = this.expression(spec.axis, false);
    const step = this.expression(spec.step, false);
    const datetime = spec.axisType === "datetime";
    const { series } = this;
    const offset = (value: string, from: string) => (datetime ? `(${this.spell.epochUs(value)} - ${this.spell.epochUs(from)})` : `(${value} - ${from})`);
    const plus = (from: string, k: string) => (datetime ? this.spell.plusUs(from, this.spell.toLong(`${k} * ${step}`)) : `(${from} + ${k} * ${step})`);
    const hi = spec.end ? this.expression(spec.end, false) : plus("lo", `(floor(${offset("mx", "lo")} / ${step}) + 1)`);
    // Bounds taken from the data are read in one scan (min and max together).
    let bounds0: string;
    if (spec.start) bounds0 = `SELECT ${this.expression(spec.start, false)} AS lo${spec.end ? "" : `, (SELECT max(${x}) FROM ${spec.from}) AS mx`}`;
    else bounds0 = `SELECT ${series.binOf(`min(${x})`, step, datetime)} AS lo, max(${x}) AS mx FROM ${spec.from}`;
    const groups = spec.by.map((b, i) => ({ sql: this.expression(b.expr, false), name: `g${i}`, alias: b.alias }));
    const aggs = spec.aggregates.map((a, i) => ({ sql: this.expression(a.expr, false), name: `a${i}`, alias: a.alias, fallback: this.expression(a.default, false) }));
    const points = this.spell.toLong(`ceil(${offset("hi", "lo")} / ${step})`);
    const always = spec.nonEmpty && spec.start && spec.end;
    const grid = groups.length ? `SELECT DISTINCT ${groups.map((g) => g.name).join(", ")} FROM agg` : `SELECT 1 AS g${always ? "" : " FROM agg LIMIT 1"}`;
    const joinKeys = ["grid.k = agg.k", ...groups.map((g) => this.spell.same(`grid.${g.name}`, `agg.${g.name}`))].join(" AND ");
    return (
      `WITH bounds0 AS (${bounds0}), bounds1 AS (SELECT lo, ${hi} AS hi FROM bounds0), ` +
      `bounds AS (SELECT lo, hi, ${series.checkedPoints(points, spec.maxPoints, `make-series would build more than ${spec.maxPoints} points per series`)} AS n FROM bounds1), ` +
      `agg AS (SELECT ${[...groups.map((g) => `${g.sql} AS ${g.name}`), `${this.spell.toLong(`floor(${offset(x, "b.lo")} / ${step})`)} AS k`, ...aggs.map((a) => `${a.sql} AS ${a.name}`)].join(", ")} ` +
      `FROM ${spec.from}, bounds AS b WHERE ${x} >= b.lo AND ${x} < b.hi GROUP BY ALL), ` +
      `grid AS (${series.gridRows(grid)}) ` +
      `SELECT ${[
        ...groups.map((g) => `grid.${g.name} AS ${q(g.alias)}`),
        ...aggs.map((a) => `${series.jsonList(`coalesce(agg.${a.name}, ${a.fallback})`, true)} AS ${q(a.alias)}`),
        `${series.jsonList(series.axisText(plus("grid.lo", "grid.k"), spec.axisType), false)} AS ${q(spec.axisAlias)}`,
      ].join(", ")} FROM grid LEFT JOIN agg ON ${joinKeys}` +
      ` GROUP BY ${[...groups.map((g) => `grid.${g.name}`), "grid.lo"].join(", ")}` +
      ` HAVING count(*) > 0`
    );
  }

  abstract rowWindowSession(spec: RowWindowSessionSpec): string;
  /**
   * graph-mark-components (graph.ts): each node of `nodes` (column `k`) with its weakly connected
   * component over `edges` (columns `f`, `t`), numbered 0, 1, … in the order of each component's
   * smallest node id. Labels propagate along the edges both ways, one round per nested SELECT (two
   * window minimums over the edge rows, so each round reads the one before once); after `rounds`
   * an edge whose ends still differ means a component wider than that: the engine raises `message`.
   */
  checkedCount(value: string, max: number, message: string): string {
    return this.series.checkedPoints(value, max, message);
  }

  connectedComponents(spec: ComponentsSpec): string {
    const q = (name: string) => this.quoteIdentifier(name);
    const [f, t, k, l, id, bad] = ["f", "t", "k", "l", "id", "bad"].map(q) as [string, string, string, string, string, string];
    // Round i reads labels a{i}, b{i} (of f, of t) and gives a{i+1}, b{i+1}: no alias shadows a column it reads (ClickHouse substitutes aliases).
    const [a, b] = [(i: number) => q(`a${i}`), (i: number) => q(`b${i}`)];
    const least = (x: string, y: string) => `least(${x}, ${y})`;
    let rounds = `SELECT ${f}, ${t}, ${f} AS ${a(0)}, ${t} AS ${b(0)} FROM (${spec.edges}) AS ${q("e1")} UNION ALL SELECT ${t}, ${f}, ${t}, ${f} FROM (${spec.edges}) AS ${q("e2")}`;
    for (let i = 0; i < spec.rounds; i++) {
      rounds = `SELECT ${f}, ${t}, ${least(a(i), `min(${b(i)}) OVER (PARTITION BY ${f})`)} AS ${a(i + 1)}, ${least(b(i), `min(${a(i)}) OVER (PARTITION BY ${t})`)} AS ${b(i + 1)} FROM (${rounds}) AS ${q(`r${i}`)}`;
    }
    const [lf, lt] = [a(spec.rounds), b(spec.rounds)];
    const labels = `SELECT ${f} AS ${k}, min(${lf}) AS ${l}, max(CASE WHEN ${lf} <> ${lt} THEN 1 ELSE 0 END) AS ${bad} FROM (${rounds}) AS ${q("r")} GROUP BY ${f}`;
    const checked = `SELECT ${k}, ${l} FROM (${labels}) AS ${q("lb")} WHERE ${this.series.checkedPoints(bad, 0, spec.message)} = 0`;
    const all = `SELECT ${q("n")}.${k} AS ${q("nk")}, coalesce(${q("c")}.${l}, ${q("n")}.${k}) AS ${q("nl")} FROM (${spec.nodes}) AS ${q("n")} LEFT JOIN (${checked}) AS ${q("c")} ON ${q("n")}.${k} = ${q("c")}.${k}`;
    const ids = `SELECT ${q("nl")} AS ${q("dl")}, ${this.spell.asLong(`row_number() OVER (ORDER BY ${q("nl")})`)} - 1 AS ${id} FROM (SELECT DISTINCT ${q("nl")} FROM ${q(spec.name)}) AS ${q("d")}`;
    return `WITH ${q(spec.name)} AS (${all}) SELECT ${q("g")}.${q("nk")} AS ${k}, ${q("h")}.${id} AS ${id} FROM ${q(spec.name)} AS ${q("g")} INNER JOIN (${ids}) AS ${q("h")} ON ${q("g")}.${q("nl")} = ${q("h")}.${q("dl")}`;
  }

  abstract unionAll(selects: string[]): string;
  abstract values(rows: TExpr[][], aliases: string[]): string;
  abstract rowJson(types: readonly KqlType[], column: (index: number) => string): string;
}

/** The SqlDialect of a renderer, its methods bound (callers may pass them around). */
export function dialectOf(renderer: SqlRenderer): SqlDialect {
  return {
    quoteIdentifier: (name) => renderer.quoteIdentifier(name),
    subquery: (sql, alias) => renderer.subquery(sql, alias),
    select: (block) => renderer.select(block),
    expression: (e, predicate) => renderer.expression(e, predicate),
    unionAll: (selects) => renderer.unionAll(selects),
    join: (type, left, right, condition) => renderer.join(type, left, right, condition),
    range: (start, stop, step, type, alias, maxRows) => renderer.range(start, stop, step, type, alias, maxRows),
    values: (rows, aliases) => renderer.values(rows, aliases),
    makeSeries: (spec) => renderer.makeSeries(spec),
    rowWindowSession: (spec) => renderer.rowWindowSession(spec),
    connectedComponents: (spec) => renderer.connectedComponents(spec),
    checkedCount: (value, max, message) => renderer.checkedCount(value, max, message),
    rowJson: (types, column) => renderer.rowJson(types, column),
  };
}
