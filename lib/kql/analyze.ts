/**
 * Semantic analysis of scalar and aggregate expressions: resolves columns against the current
 * scope, checks and infers KQL types, turns literals into parameters, and yields the typed tree
 * (ir.ts) the dialect renders. KQL's rules that decide types live here; SQL spelling does not.
 */
import type { Expr, FunctionParam, LetStatement, Name, Span, TabularExpr } from "./ast";
import type { Analyzer as AnalyzerApi, Env, LetBinding, Mode, Scope } from "./analyzer-api";
import { COMPILE_LIMITS, extentOf, Meter, VALUE_LIMITS, WORK_SPENT } from "./budget";
import { KqlError } from "./errors";
import { isNumeric, type TExpr } from "./ir";
import { inSerialOrder } from "./rows";
import { NAME_PASSING, nameOf } from "./names";
import { positionOf } from "./parser";
import { KQL_TYPES, type KqlType, type SqlParamType, type SqlParams } from "./types";
import { callExtension, multiAggregate, multiResult } from "./functions/special-analysis";
import { declaredCall } from "./functions/declared";
import { AGGREGATE_FUNCTIONS, functionEntry, hasScalarTwin } from "./functions/table";


/** Literals per query (each one is a bound parameter). */
const MAX_LITERALS = 5_000;

const TYPE_ALIASES: Record<string, KqlType> = { double: "real", boolean: "bool", date: "datetime", time: "timespan", int64: "long", int32: "int" };

const WEEK_MICROS = 7 * 86_400_000_000;
/** bin() sizes that are one calendar unit, by their microseconds: the op of such a datetime bin. */
const CALENDAR_BINS: Record<number, string> = { 60_000_000: "bin_dt_minute", 3_600_000_000: "bin_dt_hour", 86_400_000_000: "bin_dt_day" };

const CORE_SCALARS = [
  "ago", "now", "bin", "floor", "todouble", "toreal", "tolong", "toint", "tostring", "todatetime", "isnull", "isnotnull",
  "isempty", "isnotempty", "iff", "iif", "case", "strlen", "tolower", "toupper", "abs", "round", "not",
];
const AGGREGATES = new Set<string>(AGGREGATE_FUNCTIONS);
const SCALARS = new Set<string>(CORE_SCALARS);

const STRING_OPS: Record<string, string> = {
  has: "has", has_cs: "has_cs", contains: "contains", contains_cs: "contains_cs",
  hasprefix: "hasprefix", hasprefix_cs: "hasprefix_cs", hassuffix: "hassuffix", hassuffix_cs: "hassuffix_cs",
  startswith: "startswith", startswith_cs: "startswith_cs", endswith: "endswith", endswith_cs: "endswith_cs",
};

/** The IR op converting a value to each scalar type (string and dynamic have their own paths). */
/** percentile_tdigest's and extract_json's typeof(T) argument: the conversion function of T. */
const TYPEOF_CONVERSIONS: Readonly<Record<string, string>> = { long: "tolong", int: "toint", real: "todouble", double: "todouble", string: "tostring", bool: "tobool", datetime: "todatetime", dynamic: "dynamic" };

/** A JSONPath of names and indexes (`$.a.b[0]`, `$['a']`) as member steps; undefined for other paths. */
function jsonPathSteps(path: string): (string | number)[] | undefined {
  if (!path.startsWith("$")) return undefined;
  const steps: (string | number)[] = [];
  const step = /^(?:\.([A-Za-z_][\w-]*)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\])/;
  for (let rest = path.slice(1); rest; ) {
    const m = step.exec(rest);
    if (!m) return undefined;
    steps.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? m[3] ?? m[4])!);
    rest = rest.slice(m[0].length);
  }
  return steps;
}
const CONVERT_OPS: Partial<Record<KqlType, string>> = { real: "to_double", long: "to_long", int: "to_int", datetime: "to_datetime", bool: "to_bool", timespan: "to_timespan" };

/** The type each conversion function gives (a value already of that type passes unchanged). */
const TO_FUNCTIONS: Record<string, KqlType> = { todouble: "real", toreal: "real", tolong: "long", toint: "int", todatetime: "datetime" };

/** An operand's type in an arithmetic rule: a KQL type, or any numeric one. */
type Side = KqlType | "number";

/**
 * Arithmetic by operator: the IR op on two numbers, whether the result may be null whatever the
 * operands (a zero divisor), and the other operand types it takes, as [left, right, IR op, result
 * type, "swap" when the IR op wants them the other way round].
 */
const ARITHMETIC: Record<string, { numeric: string; nullable?: true; mixed: [Side, Side, string, KqlType, "swap"?][] }> = {
  "+": { numeric: "add", mixed: [["datetime", "timespan", "dt_add", "datetime"], ["timespan", "datetime", "dt_add", "datetime", "swap"], ["timespan", "timespan", "add", "timespan"]] },
  "-": { numeric: "sub", mixed: [["datetime", "timespan", "dt_sub", "datetime"], ["datetime", "datetime", "dt_diff", "timespan"], ["timespan", "timespan", "sub", "timespan"]] },
  "*": { numeric: "mul", mixed: [["timespan", "number", "ts_mul", "timespan"], ["number", "timespan", "ts_mul", "timespan", "swap"]] },
  "/": { numeric: "div", nullable: true, mixed: [["timespan", "timespan", "ts_ratio", "real"], ["timespan", "number", "ts_div", "timespan"]] },
  "%": { numeric: "mod", nullable: true, mixed: [] },
};

export class Analyzer implements AnalyzerApi {
  readonly params: SqlParams = {};
  /** The compile's work (budget.ts): one unit per expression analysed, plus environments copied. */
  readonly meter = new Meter();
  private counter = 0;
  private env: Env = new Map();
  /** The order of the serialized row set being read (set by the planner), undefined when it is not serialized. */
  serialOrder: { expr: TExpr; desc: boolean; nullsFirst: boolean }[] | undefined;
  /** Compiles a tabular expression used as a value (set by the planner). */
  subquery: (query: TabularExpr, env: Env, span: Span) => { sql: string; columns: TExpr[]; names: string[] } = (_q, _e, span) => this.error(span, "Sub-queries are not available here");
  /** Binds a function body's own `let` statements (set by the planner, which binds every `let`). */
  bindLets: (lets: LetStatement[], env: Env) => Env = (lets) => this.error(lets[0]!.span, "let statements are not available here");

  /** Whether the query read `now()` (now, ago, …): its SQL's values then depend on the instant. */
  readsNow = false;

  /** The database the query runs in (CompileOptions.database; '' when compiled without one): current_database(). */
  database = "";

  constructor(
    readonly text: string,
    private readonly nowAt: number,
  ) {}

  get nowMillis(): number {
    this.readsNow = true;
    return this.nowAt;
  }

  /** Runs `work` with `env` as the `let` names in view. */
  withEnv<T>(env: Env, work: () => T): T {
    const saved = this.env;
    this.env = env;
    try {
      return work();
    } finally {
      this.env = saved;
    }
  }

  /** A KQL type name (`long`, `string`, `double`, …). */
  typeName(name: Name): KqlType {
    const type = TYPE_ALIASES[name.text] ?? name.text;
    if (!(KQL_TYPES as readonly string[]).includes(type)) this.error(name.span, name.text === "decimal" || name.text === "guid" ? `The ${name.text} type is not supported` : `Unknown type '${name.text}'`);
    return type as KqlType;
  }

  /** A typed null. */
  nullOf(type: KqlType): TExpr {
    return { type, nullable: true, dynamic: type === "dynamic" ? "json" : undefined, node: { op: "null" } };
  }

  /** `value` as `type` (datatable cells, typed parse columns, mv-expand's typeof): null when it does not convert. */
  convert(value: TExpr, type: KqlType, span: Span): TExpr {
    if (value.type === type) return value;
    if (value.node.op === "null") return this.nullOf(type);
    if (type === "string") return this.asText(value);
    if (type === "dynamic") return this.asJson(value);
    const op = CONVERT_OPS[type];
    if (!op) return this.error(span, `Cannot convert ${value.type} to ${type}`);
    return this.op(op, [value], type, true);
  }

  /** The value of an expression made only of literals (params), for bounds checked at compile time. */
  constant(e: TExpr): number | string | boolean | undefined {
    const node = e.node;
    if (node.op === "param") return this.params[(node as { name: string }).name]?.value ?? undefined;
    const a = "args" in node ? node.args.map((x) => this.constant(x)) : [];
    if (a.some((x) => typeof x !== "number")) return undefined;
    const [x, y] = a as number[];
    switch (node.op) {
      case "neg":
        return -x!;
      case "add":
        return x! + y!;
      case "sub":
        return x! - y!;
      case "mul":
      case "ts_mul":
        return x! * y!;
      case "dt_add":
        return x! + y! / 1000;
      case "dt_sub":
        return x! - y! / 1000;
      default:
        return undefined;
    }
  }

  /** Binds a user function's parameters to argument values in `into`. */
  bindParams(params: FunctionParam[], args: TExpr[], span: Span, into: Map<string, LetBinding>, fnEnv: Env): void {
    if (args.length > params.length) this.error(span, `The function takes ${params.length} argument${params.length === 1 ? "" : "s"}, got ${args.length}`);
    params.forEach((param, i) => {
      let value = args[i];
      if (!value) {
        if (!param.default) this.error(span, `Missing argument '${param.name.text}'`);
        value = this.withEnv(fnEnv, () => this.scalar(param.default!, new Map()));
      }
      const type = this.typeName(param.type);
      if (value.type !== type && !(isNumeric(value.type) && isNumeric(type)) && value.node.op !== "null" && type !== "dynamic") {
        this.error(span, `Argument '${param.name.text}' must be ${type}, not ${value.type}`);
      }
      into.set(param.name.text, { kind: "scalar", expr: value });
    });
  }

  /** `series_stats(x)` and other functions yielding several columns; undefined for any other expression. */
  multiResult(ast: Expr, scope: Scope): { name: string; expr: TExpr }[] | undefined {
    return multiResult(this, ast, scope);
  }

  /** `percentiles(x, 50, 90)`: several aggregate columns; undefined for any other expression. */
  multiAggregate(ast: Expr, scope: Scope): { name: string; expr: TExpr }[] | undefined {
    return multiAggregate(this, ast, scope);
  }

  /** A regular expression the user wrote (or a parse pattern): must compile and stay short. */
  checkRegex(pattern: string, span: Span): void {
    if (pattern.length > 1000) this.error(span, "The regular expression is longer than 1,000 characters");
    try {
      new RegExp(pattern.replace(/^\(\?[a-z]+\)/, ""), "u");
    } catch {
      try {
        new RegExp(pattern.replace(/^\(\?[a-z]+\)/, ""));
      } catch {
        this.error(span, "Invalid regular expression");
      }
    }
  }

  error(span: Span, message: string): never {
    const { line, column } = positionOf(this.text, span.from);
    throw new KqlError(message, line, column, span.from, span.to);
  }

  param(type: SqlParamType, value: string | number | boolean, kqlType: KqlType): TExpr {
    if (type === "VARCHAR" && typeof value === "string" && value.length > 1_000_000) throw new KqlError("A string literal is longer than 1,000,000 characters", 1, 1);
    const name = `k${++this.counter}`;
    this.params[name] = { type, value };
    return { type: kqlType, nullable: false, node: { op: "param", name, paramType: type } };
  }

  private nowParam(): TExpr {
    return this.param("TIMESTAMP", this.nowMillis, "datetime");
  }

  /** A scalar expression (no aggregates). */
  scalar(ast: Expr, scope: Scope): TExpr {
    return this.expr(ast, scope, "scalar");
  }

  /** A summarize item: aggregates allowed; columns only inside them. */
  aggregate(ast: Expr, scope: Scope): TExpr {
    const result = this.expr(ast, scope, "aggregate");
    if (!result.aggregate) this.error(ast.span, "summarize needs an aggregation function here, such as count() or avg(x)");
    return result;
  }

  /** A boolean predicate (where, countif, iff conditions). */
  predicate(ast: Expr, scope: Scope, mode: Mode = "scalar"): TExpr {
    const result = this.expr(ast, scope, mode);
    if (result.type !== "bool") this.error(ast.span, `Expected a boolean expression but found ${result.type}`);
    return result;
  }

  /** A non-negative integer literal (take, top). */
  count(ast: Expr): TExpr {
    // A literal, or a `let` name / function parameter bound to one.
    const bound = ast.kind === "column" ? this.env.get(ast.name) : undefined;
    if (bound?.kind === "scalar" && (bound.expr.type === "long" || bound.expr.type === "int")) {
      const value = this.constant(bound.expr);
      if (typeof value === "number" && Number.isInteger(value) && value >= 0) return this.param("BIGINT", value, "long");
    }
    if (ast.kind !== "literal" || ast.type !== "long" || typeof ast.value !== "number" || ast.value < 0) {
      this.error(ast.span, "Expected a non-negative whole number");
    }
    return this.param("BIGINT", ast.value as number, "long");
  }

  /**
   * Every expression is analysed here, so the compile's bounds are checked as each one forms: one
   * unit of work per step (a function body is analysed again at each call), and the expanded
   * size and depth of its tree (a `let` name or parameter stands for a whole tree).
   */
  private expr(ast: Expr, scope: Scope, mode: Mode): TExpr {
    this.charge(ast.span);
    const result = this.exprOf(ast, scope, mode);
    const { size, depth } = extentOf(result);
    if (size > COMPILE_LIMITS.expressionTerms) {
      this.error(ast.span, `This expression expands to ${size.toLocaleString("en-US")} terms once let names and function calls are substituted; at most ${COMPILE_LIMITS.expressionTerms.toLocaleString("en-US")} are allowed`);
    }
    if (depth > COMPILE_LIMITS.expressionDepth) {
      this.error(ast.span, `This expression nests ${depth.toLocaleString("en-US")} levels deep once let names and function calls are substituted; at most ${COMPILE_LIMITS.expressionDepth} are allowed`);
    }
    return result;
  }

  /** Charges `units` of compile work, refusing the query at `span` once its work is spent. */
  charge(span: Span, units = 1): void {
    if (this.meter.add(units)) this.error(span, WORK_SPENT);
  }

  private exprOf(ast: Expr, scope: Scope, mode: Mode): TExpr {
    switch (ast.kind) {
      case "literal":
        return this.literal(ast);
      case "column": {
        const column = scope.get(ast.name);
        if (!column) {
          const bound = this.env.get(ast.name);
          if (bound?.kind === "scalar") return { ...bound.expr, hint: ast.name, aggregate: false };
          if (bound) this.error(ast.span, bound.kind === "function" ? `'${ast.name}' is a function: call it with ()` : `'${ast.name}' is a table, not a value`);
          this.error(ast.span, `Unknown column '${ast.name}'`);
        }
        if (mode === "aggregate") this.error(ast.span, `Column '${ast.name}' must be used inside an aggregation function`);
        return { ...column!, hint: ast.name, aggregate: false };
      }
      case "logical": {
        const operands = ast.operands.map((operand) => {
          const value = this.expr(operand, scope, mode);
          if (value.type !== "bool") this.error(operand.span, `'${ast.op}' needs boolean operands, not ${value.type}`);
          return value;
        });
        return this.op(ast.op, operands, "bool", false);
      }
      case "hasSet": {
        const target = this.asText(this.expr(ast.target, scope, mode));
        const items = this.listItems(ast.list, scope, mode).map((item) => this.asText(item));
        const tests = items.map((item) => this.op("has", [target, item], "bool", false));
        return tests.length === 1 ? tests[0]! : this.op(ast.op === "has_any" ? "or" : "and", tests, "bool", false);
      }
      case "subquery": {
        const { sql, columns } = this.subquery(ast.query, this.env, ast.span);
        const first = columns[0]!;
        return { type: first.type, nullable: true, dynamic: first.dynamic, node: { op: "subquery", sql, mode: "scalar" } };
      }
      case "member":
        return this.member(ast, scope, mode);
      case "unary": {
        const operand = this.expr(ast.operand, scope, mode);
        if (ast.op === "+") return operand;
        const value = operand.type === "dynamic" ? this.asNumber(operand) : operand;
        if (!isNumeric(value.type) && value.type !== "timespan") this.error(ast.span, `Cannot negate a ${value.type}`);
        return this.op("neg", [value], value.type, value.nullable);
      }
      case "binary":
        return this.binary(ast, scope, mode);
      case "in": {
        const target = this.expr(ast.target, scope, mode);
        if (ast.list.length === 1 && ast.list[0]!.kind === "subquery") {
          const sub = ast.list[0];
          const { sql, columns } = this.subquery(sub.query, this.env, sub.span);
          const item: TExpr = { type: columns[0]!.type, nullable: true, dynamic: columns[0]!.dynamic, node: { op: "subquery", sql, mode: "list" } };
          const [l, r] = ast.caseInsensitive ? [this.asText(target), this.asText(item)] : this.comparable(target, item, sub.span);
          return this.op((ast.negated ? "notin" : "in") + (ast.caseInsensitive ? "_ci" : ""), [l, r], "bool", false);
        }
        const items = this.listItems(ast.list, scope, mode);
        let left = target;
        const right = items.map((item) => {
          const [l, r] = ast.caseInsensitive ? [this.asText(target), this.asText(item)] : this.comparable(target, item, ast.span);
          left = l;
          return r;
        });
        const op = (ast.negated ? "notin" : "in") + (ast.caseInsensitive ? "_ci" : "");
        return this.op(op, [left, ...right], "bool", false);
      }
      case "between": {
        const target = this.expr(ast.target, scope, mode);
        const [t, low] = this.comparable(target, this.expr(ast.low, scope, mode), ast.low.span);
        let highValue = this.expr(ast.high, scope, mode);
        // ADX: `datetime between (start .. 1h)` means up to start + 1h.
        if (t.type === "datetime" && highValue.type === "timespan") highValue = this.op("dt_add", [low, highValue], "datetime", low.nullable || highValue.nullable);
        const [, high] = this.comparable(target, highValue, ast.high.span);
        if (t.type === "string" || t.type === "bool") this.error(ast.span, `between needs numbers, datetimes or timespans, not ${t.type}`);
        return this.op(ast.negated ? "notbetween" : "between", [t, low, high], "bool", false);
      }
      case "call":
        return this.call(ast, scope, mode);
    }
  }

  private literal(ast: Extract<Expr, { kind: "literal" }>): TExpr {
    // DuckDB's planning time grows faster than linearly with thousands of bound values.
    if (this.counter >= MAX_LITERALS) this.error(ast.span, `A query may hold at most ${MAX_LITERALS.toLocaleString("en-US")} literals`);
    const type = ast.type === "null" ? "dynamic" : ast.type;
    if (ast.value === null) {
      return { type, nullable: true, dynamic: type === "dynamic" ? "json" : undefined, node: { op: "null" } };
    }
    switch (ast.type) {
      case "string":
        return this.param("VARCHAR", ast.value as string, "string");
      case "long":
      case "int":
        return this.param("BIGINT", ast.value as number, "long");
      case "real":
        return this.param("DOUBLE", ast.value as number, "real");
      case "bool":
        return this.param("BOOLEAN", ast.value as boolean, "bool");
      case "datetime":
        return this.param("TIMESTAMP", ast.value as number, "datetime");
      case "timespan":
        return this.param("BIGINT", ast.value as number, "timespan");
      case "dynamic":
        return { ...this.op("json", [this.param("VARCHAR", ast.value as string, "string")], "dynamic", false), dynamic: "json" };
      default:
        return this.error(ast.span, `Unsupported literal`);
    }
  }

  private member(ast: Extract<Expr, { kind: "member" }>, scope: Scope, mode: Mode): TExpr {
    const keys: (string | number)[] = [];
    let base: Expr = ast;
    while (base.kind === "member") {
      keys.unshift(base.key);
      base = base.target;
    }
    if (keys.some((key) => key === "")) this.error(ast.keySpan, "A property name cannot be empty");
    const target = this.expr(base, scope, mode);
    if (target.type !== "dynamic") this.error(ast.span, `'${keys.join(".")}' can only be read from a dynamic value, not a ${target.type}`);
    const hint = [target.hint ?? "", ...keys].filter(Boolean).join("_");
    if (target.dynamic === "double") {
      // A number has no properties: the access yields null, as in KQL.
      return { type: "dynamic", dynamic: "json", nullable: true, node: { op: "null" }, hint, aggregate: target.aggregate };
    }
    const path = "$" + keys.map((key) => (typeof key === "number" ? `[${key}]` : `.${JSON.stringify(key)}`)).join("");
    const pathParam = this.param("VARCHAR", path, "string");
    return { type: "dynamic", dynamic: "json", nullable: true, node: { op: "access", base: target, path: pathParam }, hint, aggregate: target.aggregate };
  }

  private binary(ast: Extract<Expr, { kind: "binary" }>, scope: Scope, mode: Mode): TExpr {
    if (ast.left.kind === "column" && ast.left.name === "*") return this.anyColumn(ast, scope, mode);
    const left = this.expr(ast.left, scope, mode);
    const right = this.expr(ast.right, scope, mode);
    const op = ast.op;
    if (op === "and" || op === "or") {
      for (const [side, e] of [[ast.left, left], [ast.right, right]] as const) {
        if (e.type !== "bool") this.error(side.span, `'${op}' needs boolean operands, not ${e.type}`);
      }
      return this.op(op, [left, right], "bool", false);
    }
    if (op === "==" || op === "!=" || op === "<" || op === "<=" || op === ">" || op === ">=") {
      const [l, r] = this.comparable(left, right, ast.span);
      if (l.type === "bool" && op !== "==" && op !== "!=") this.error(ast.opSpan, `'${op}' cannot order booleans`);
      const name = { "==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge" }[op]!;
      // ADX: == and != of two nulls is null (of one null false/true); an ordering with a null is null (docs: null values).
      const nullable = name === "eq" || name === "ne" ? l.nullable && r.nullable : l.nullable || r.nullable;
      return this.op(name, [l, r], "bool", nullable);
    }
    if (op === "matches regex") {
      const pattern = ast.right;
      if (pattern.kind === "literal" && typeof pattern.value === "string") this.checkRegex(pattern.value, pattern.span);
      return this.op("regex_match", [this.asText(left), this.asText(right)], "bool", false);
    }
    if (op === "=~" || op === "!~") {
      return this.op(op === "=~" ? "eq_ci" : "ne_ci", [this.asText(left), this.asText(right)], "bool", false);
    }
    const negated = op.startsWith("!");
    const stringOp = STRING_OPS[negated ? op.slice(1) : op];
    if (stringOp) {
      const test = this.op(stringOp, [this.asText(left), this.asText(right)], "bool", false);
      return negated ? this.op("not", [test], "bool", false) : test;
    }
    return this.arithmetic(ast, left, right);
  }

  /**
   * `* has "x"` (and the other string operators, `* matches regex`): true when any column's value
   * as text passes (ADX). `$table` (search's) and hidden columns are not searched.
   */
  private anyColumn(ast: Extract<Expr, { kind: "binary" }>, scope: Scope, mode: Mode): TExpr {
    const op = ast.op;
    if (op.startsWith("!")) this.error(ast.opSpan, `'* ${op}' is not supported; write not(* ${op.slice(1)} …)`);
    const right = this.asText(this.expr(ast.right, scope, mode));
    if (op === "matches regex" && ast.right.kind === "literal" && typeof ast.right.value === "string") this.checkRegex(ast.right.value, ast.right.span);
    const test = (column: TExpr) => this.op(op === "matches regex" ? "regex_match" : STRING_OPS[op]!, [this.asText(column), right], "bool", false);
    const columns = [...scope].filter(([name]) => name !== "$table" && !name.startsWith("__")).map(([, e]) => e);
    if (!columns.length) return this.param("BOOLEAN", false, "bool");
    return columns.map(test).reduce((a, b) => this.op("or", [a, b], "bool", false));
  }

  private arithmetic(ast: Extract<Expr, { kind: "binary" }>, leftIn: TExpr, rightIn: TExpr): TExpr {
    const left = leftIn.type === "dynamic" ? this.asNumber(leftIn) : leftIn;
    const right = rightIn.type === "dynamic" ? this.asNumber(rightIn) : rightIn;
    const [lt, rt] = [left.type, right.type];
    const bad = (): never => this.error(ast.opSpan, `Operator '${ast.op}' cannot combine ${lt} and ${rt}`);
    const rule = ARITHMETIC[ast.op];
    if (!rule) return bad();
    // Division and modulo yield null on a zero divisor, whatever the operands.
    const nullable = rule.nullable || left.nullable || right.nullable;
    if (isNumeric(lt) && isNumeric(rt)) {
      const numericType: KqlType = lt === "real" || rt === "real" ? "real" : lt === "long" || rt === "long" ? "long" : "int";
      return this.op(rule.numeric, [left, right], numericType, nullable);
    }
    const fits = (side: Side, type: KqlType) => side === type || (side === "number" && isNumeric(type));
    const mixed = rule.mixed.find(([l, r]) => fits(l, lt) && fits(r, rt));
    if (!mixed) return bad();
    const [, , op, type, swap] = mixed;
    return this.op(op, swap ? [right, left] : [left, right], type, nullable);
  }

  /** Brings two operands of a comparison to one domain (dynamic adapts to the other side). */
  comparable(left: TExpr, right: TExpr, span: Span): [TExpr, TExpr] {
    if (left.type === "dynamic" && right.type !== "dynamic") return [this.dynamicAs(left, right.type, span), right];
    if (right.type === "dynamic" && left.type !== "dynamic") return [left, this.dynamicAs(right, left.type, span)];
    if (left.type === "dynamic" && right.type === "dynamic") {
      if (left.dynamic === "double" || right.dynamic === "double") return [this.asNumber(left), this.asNumber(right)];
      return [this.op("dyn_str", [left], "string", true), this.op("dyn_str", [right], "string", true)];
    }
    if (left.type === right.type) return [left, right];
    if (isNumeric(left.type) && isNumeric(right.type)) return [left, right];
    if (left.node.op === "null") return [{ ...left, type: right.type }, right];
    if (right.node.op === "null") return [left, { ...right, type: left.type }];
    return this.error(span, `Cannot compare ${left.type} with ${right.type}`);
  }

  private dynamicAs(value: TExpr, type: KqlType, span: Span): TExpr {
    switch (type) {
      case "string":
        return this.op("dyn_str", [value], "string", true);
      case "long":
      case "int":
      case "real":
        return this.asNumber(value);
      case "datetime":
        return this.op("to_datetime", [value], "datetime", true);
      case "bool":
        return this.op("eq", [this.op("dyn_str", [value], "string", true), this.param("VARCHAR", "true", "string")], "bool", false);
      default:
        return this.error(span, `Cannot compare dynamic with ${type}`);
    }
  }

  asNumber(value: TExpr): TExpr {
    if (value.type !== "dynamic" || value.dynamic === "double") return value.type === "dynamic" ? { ...value, type: "real" } : value;
    return this.op("dyn_num", [value], "real", true, value.hint);
  }

  asText(value: TExpr): TExpr {
    return value.type === "string" ? value : this.op("to_string", [value], "string", false, value.hint);
  }

  /** A dynamic value as JSON (for results, iff branches mixing kinds). */
  asJson(value: TExpr): TExpr {
    if (value.type === "dynamic" && value.dynamic === "json") return value;
    return { ...this.op("dyn_json", [value], "dynamic", value.nullable, value.hint), dynamic: "json" };
  }

  op(op: string, operands: TExpr[], type: KqlType, nullable: boolean, hint?: string): TExpr {
    const dynamic = type === "dynamic" ? (operands[0]?.dynamic ?? "json") : undefined;
    return { type, nullable, dynamic, node: { op, args: operands }, hint, aggregate: operands.some((o) => o.aggregate) };
  }

  /** `column_names_of(T)`: the names of T's columns as a dynamic array, known when compiling (the table is planned for its schema). */
  private columnNamesOf(ast: Extract<Expr, { kind: "call" }>): TExpr {
    const arg = ast.args[0];
    const query: TabularExpr | undefined =
      arg?.kind === "subquery" ? arg.query
      : arg?.kind === "column" ? { source: { kind: "name", name: { text: arg.name, span: arg.span }, span: arg.span }, operators: [], span: arg.span }
      : arg?.kind === "call" ? { source: { kind: "call", name: { text: arg.name, span: arg.nameSpan }, args: arg.args, tabularArgs: [], span: arg.span }, operators: [], span: arg.span }
      : undefined;
    if (ast.args.length !== 1 || !query) this.error(ast.span, "column_names_of() takes a table: column_names_of(T)");
    const { names } = this.subquery(query!, this.env, arg!.span);
    return this.literal({ kind: "literal", type: "dynamic", value: JSON.stringify(names), span: ast.span });
  }

  private call(ast: Extract<Expr, { kind: "call" }>, scope: Scope, mode: Mode): TExpr {
    const name = ast.name;
    // A name that is also a scalar function (hll_merge(a, b)) is the scalar outside summarize or with several arguments.
    if (AGGREGATES.has(name) && !(hasScalarTwin(name) && (mode !== "aggregate" || ast.args.length > 1))) {
      if (mode !== "aggregate") {
        this.error(ast.nameSpan, mode === "inAggregate" ? `Aggregation '${name}' cannot be nested in another aggregation` : `Aggregation '${name}' can only be used in summarize`);
      }
      if (name === "arg_max" || name === "arg_min") this.error(ast.nameSpan, `${name} must be a whole summarize item (for example: summarize ${name}(Timestamp, *) by DeviceId)`);
      return { ...this.aggregateCall(ast, scope), aggregate: true };
    }
    const bound = this.env.get(name);
    if (bound?.kind === "function") {
      if (bound.body.kind !== "scalar") this.error(ast.nameSpan, `'${name}' is a tabular function: use it as a query source`);
      if (bound.params.some((p) => p.tabular)) this.error(ast.nameSpan, `'${name}' has a tabular parameter: a scalar function's arguments are values`);
      const args = ast.args.map((a) => this.expr(a, scope, mode));
      this.charge(ast.span, bound.env.size);
      const inner = new Map(bound.env);
      this.bindParams(bound.params, args, ast.span, inner, bound.env);
      const body = bound.body.expr;
      const env = bound.body.lets ? this.bindLets(bound.body.lets, inner) : inner;
      return this.withEnv(env, () => this.expr(body, new Map(), mode === "aggregate" ? "scalar" : mode));
    }
    if (name === "column_names_of") return this.columnNamesOf(ast);
    if (name === "extract_json" || name === "extractjson") {
      // extract_json("$.a.b[0]", text [, typeof(T)]): parse_json(text).a.b[0] as a string, or as T.
      const [path, text, type] = ast.args;
      const steps = path?.kind === "literal" && typeof path.value === "string" ? jsonPathSteps(path.value) : undefined;
      if (!steps || !text || ast.args.length > 3) return this.error(ast.span, `${name}() takes a JSONPath literal ('$.a.b[0]'), a string and optionally typeof(T)`);
      const to = type === undefined ? "tostring" : type.kind === "call" && type.name === "typeof" && type.args[0]?.kind === "column" ? TYPEOF_CONVERSIONS[type.args[0].name] : undefined;
      if (!to) return this.error(type!.span, `${name}()'s third argument is typeof(string), typeof(long), typeof(int), typeof(real), typeof(bool), typeof(datetime) or typeof(dynamic)`);
      let target: Expr = { ...ast, name: "parse_json", args: [text] };
      for (const key of steps) target = { kind: "member", target, key, keySpan: path!.span, bracket: true, span: ast.span };
      return to === "dynamic" ? this.expr(target, scope, mode) : this.call({ ...ast, name: to, args: [target] }, scope, mode);
    }
    if (name === "bag_pack_columns") {
      // bag_pack_columns(a, b) is bag_pack("a", a, "b", b): each argument a column, named by it.
      const pairs = ast.args.flatMap((arg) => {
        if (arg.kind !== "column") return this.error(arg.span, "bag_pack_columns() takes columns");
        return [{ kind: "literal" as const, type: "string" as const, value: arg.name, span: arg.span }, arg];
      });
      return this.call({ ...ast, name: "bag_pack", args: pairs }, scope, mode);
    }
    if (name === "column_ifexists") {
      // The column when the row has it, else the default (its type then the default's).
      const [column, fallback] = ast.args;
      if (ast.args.length !== 2 || column?.kind !== "literal" || typeof column.value !== "string") return this.error(ast.span, "column_ifexists() takes a column name as a string literal and a default value");
      if (scope.has(column.value)) return this.expr({ kind: "column", name: column.value, span: column.span }, scope, mode);
      return this.expr(fallback!, scope, mode);
    }
    if (name === "percentile_tdigest" && ast.args.length === 3) {
      // percentile_tdigest(d, P, typeof(T)): the percentile converted to T (the digest holds numbers: functions/sketches.ts).
      const t = ast.args[2]!;
      const to = t.kind === "call" && t.name === "typeof" && t.args.length === 1 && t.args[0]!.kind === "column" && ["long", "int", "real", "double"].includes(t.args[0]!.name) ? TYPEOF_CONVERSIONS[t.args[0]!.name] : undefined;
      if (!to) this.error(t.span, "percentile_tdigest()'s third argument is typeof(long), typeof(int) or typeof(real)");
      return this.call({ ...ast, name: to!, args: [{ ...ast, args: ast.args.slice(0, 2) }] }, scope, mode);
    }
    if (name === "current_database" || name === "cursor_current") {
      // The query's context (functions/adx-context.ts): its database, and now() as ADX's cursor (100-ns ticks since 0001-01-01).
      if (ast.args.length) this.error(ast.span, `${name}() takes no arguments`);
      const value = name === "current_database" ? this.database : String(BigInt(this.nowMillis) * 10_000n + 621_355_968_000_000_000n);
      return this.literal({ kind: "literal", type: "string", value, span: ast.span });
    }
    const entry = functionEntry(name, "scalar");
    if (entry?.signatures) return declaredCall(this, entry, ast, scope, mode);
    if (!SCALARS.has(name)) {
      const extension = callExtension(this, ast, scope, mode);
      if (extension) return extension;
      this.error(ast.nameSpan, `Unknown function '${name}'`);
    }
    const operands = ast.args.map((a) => this.expr(a, scope, mode));
    const arity = (min: number, max = min) => {
      if (ast.star) this.error(ast.span, `'*' is not an argument of ${name}()`);
      if (operands.length < min || operands.length > max) {
        this.error(ast.span, `${name}() expects ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? "" : "s"}, got ${operands.length}`);
      }
    };
    const hint = NAME_PASSING.has(name) && ast.args[0] ? nameOf(ast.args[0]) : undefined;
    const [a, b] = operands;
    switch (name) {
      case "now":
        arity(0, 1);
        return a ? this.timeShift("dt_add", this.nowParam(), a, ast) : this.nowParam();
      case "ago": {
        arity(1);
        const span = ast.args[0]!;
        if (span.kind === "literal" && span.type === "timespan" && typeof span.value === "number") {
          // One instant for the whole query: fold to a datetime parameter so the filter stays a plain comparison.
          return this.param("TIMESTAMP", this.nowMillis - Math.round(span.value / 1000), "datetime");
        }
        return this.timeShift("dt_sub", this.nowParam(), a!, ast);
      }
      case "bin":
      case "floor":
        arity(2);
        return this.bin(ast, a!, b!);
      case "todouble":
      case "toreal":
      case "tolong":
      case "toint":
      case "todatetime": {
        arity(1);
        const type = TO_FUNCTIONS[name]!;
        return a!.type === type ? { ...a!, hint } : this.op(CONVERT_OPS[type]!, [a!], type, true, hint);
      }
      case "tostring":
        arity(1);
        return this.op("to_string", [a!], "string", false, hint);
      case "isnull":
      case "isnotnull":
      case "isempty":
      case "isnotempty":
        arity(1);
        return this.op(name, [a!], "bool", false);
      case "not":
        arity(1);
        if (a!.type !== "bool") this.error(ast.args[0]!.span, `not() needs a boolean, not ${a!.type}`);
        return this.op("not", [a!], "bool", false);
      case "iff":
      case "iif":
        arity(3);
        return this.caseOf(ast, operands);
      case "case":
        if (operands.length < 3 || operands.length % 2 === 0) this.error(ast.span, "case() expects condition/value pairs and a final else value");
        return this.caseOf(ast, operands);
      case "strlen":
        arity(1);
        return this.op("strlen", [this.asText(a!)], "long", false);
      case "tolower":
      case "toupper":
        arity(1);
        return this.op(name, [this.asText(a!)], "string", false);
      case "abs": {
        arity(1);
        const value = this.numericArg(ast, a!, true);
        return this.op("abs", [value], value.type, value.nullable);
      }
      case "round": {
        arity(1, 2);
        const value = this.numericArg(ast, a!);
        const digits = b ? this.numericArg(ast, b) : undefined;
        if (digits && digits.type === "real") this.error(ast.args[1]!.span, "round() takes a whole number of digits");
        return this.op("round", digits ? [value, digits] : [value], value.type, value.nullable);
      }
      default:
        return this.error(ast.nameSpan, `Unknown function '${name}'`);
    }
  }

  /** A constant, positive whole-number argument (sizes such as make_list's). */
  sizeArg(ast: Extract<Expr, { kind: "call" }>, index: number): TExpr {
    const arg = ast.args[index]!;
    if (arg.kind !== "literal" || arg.type !== "long" || typeof arg.value !== "number" || arg.value < 1) this.error(arg.span, `${ast.name}() needs a positive whole number here`);
    return this.param("BIGINT", Math.min(arg.value as number, VALUE_LIMITS.listElements), "long");
  }

  /** Items of an `in`/`has_any` list: `dynamic([…])` literals and array-valued `let` names spread into their elements. */
  private listItems(list: Expr[], scope: Scope, mode: Mode): TExpr[] {
    const items: TExpr[] = [];
    for (const item of list) {
      if (item.kind === "subquery") this.error(item.span, "A sub-query must be the only item of the list");
      const array = item.kind === "literal" && item.type === "dynamic" ? item.value : item.kind === "column" && !scope.has(item.name) ? this.arrayLet(item.name) : undefined;
      if (typeof array === "string") {
        const values = JSON.parse(array) as unknown;
        if (Array.isArray(values)) {
          for (const v of values) {
            if (typeof v === "string") items.push(this.param("VARCHAR", v, "string"));
            else if (typeof v === "number") items.push(Number.isInteger(v) ? this.param("BIGINT", v, "long") : this.param("DOUBLE", v, "real"));
            else if (typeof v === "boolean") items.push(this.param("BOOLEAN", v, "bool"));
            else this.error(item.span, "The list may hold only strings, numbers and booleans");
          }
          continue;
        }
      }
      items.push(this.expr(item, scope, mode));
    }
    if (!items.length) this.error(list[0]?.span ?? { from: 0, to: 0 }, "Expected at least one value in the list");
    return items;
  }

  private arrayLet(name: string): string | undefined {
    const bound = this.env.get(name);
    if (bound?.kind !== "scalar" || bound.expr.node.op !== "json") return undefined;
    const param = (bound.expr.node as { args: TExpr[] }).args[0]!.node as { name: string };
    const value = this.params[param.name]?.value;
    return typeof value === "string" ? value : undefined;
  }

  /** Runs `expr` analysis for helper modules (functions.ts). */
  analyze(ast: Expr, scope: Scope, mode: Mode): TExpr {
    return this.expr(ast, scope, mode);
  }

  numericArg(ast: Extract<Expr, { kind: "call" }>, value: TExpr, allowTimespan = false): TExpr {
    const v = value.type === "dynamic" ? this.asNumber(value) : value;
    if (!isNumeric(v.type) && !(allowTimespan && v.type === "timespan")) this.error(ast.span, `${ast.name}() needs a number, not ${v.type}`);
    return v;
  }

  private timeShift(op: "dt_add" | "dt_sub", base: TExpr, span: TExpr, ast: Extract<Expr, { kind: "call" }>): TExpr {
    if (span.type !== "timespan") this.error(ast.span, `${ast.name}() needs a timespan, not ${span.type}`);
    return this.op(op, [base, span], "datetime", span.nullable);
  }

  private bin(ast: Extract<Expr, { kind: "call" }>, valueIn: TExpr, size: TExpr): TExpr {
    const hint = ast.args[0] ? nameOf(ast.args[0]) : undefined;
    const sizeAst = ast.args[1]!;
    const literalSize = sizeAst.kind === "literal" && typeof sizeAst.value === "number" ? sizeAst.value : undefined;
    if (literalSize !== undefined && literalSize <= 0) this.error(sizeAst.span, `${ast.name}() needs a positive bin size`);
    const value = valueIn.type === "dynamic" ? this.asNumber(valueIn) : valueIn;
    if (value.type === "datetime") {
      if (size.type !== "timespan") this.error(sizeAst.span, `${ast.name}() of a datetime needs a timespan bin size`);
      const aligned = literalSize !== undefined && literalSize > 0 && WEEK_MICROS % literalSize === 0;
      // A minute, an hour or a day: a calendar unit an engine may truncate to directly (dialects).
      const unit = literalSize === undefined ? undefined : CALENDAR_BINS[literalSize];
      return this.op(unit ?? (aligned ? "bin_dt" : "bin_dt_adx"), [value, size], "datetime", true, hint);
    }
    if (value.type === "timespan" && size.type === "timespan") return this.op("bin_num", [value, size], "timespan", true, hint);
    if (isNumeric(value.type) && isNumeric(size.type)) {
      const type = value.type === "real" || size.type === "real" ? "real" : value.type;
      return this.op("bin_num", [value, size], type, true, hint);
    }
    return this.error(ast.span, `${ast.name}() cannot bin a ${value.type} by a ${size.type}`);
  }

  private caseOf(ast: Extract<Expr, { kind: "call" }>, operands: TExpr[]): TExpr {
    const values: TExpr[] = [];
    for (let i = 0; i + 1 < operands.length; i += 2) {
      if (operands[i]!.type !== "bool") this.error(ast.args[i]!.span, `${ast.name}() needs a boolean condition, not ${operands[i]!.type}`);
      values.push(operands[i + 1]!);
    }
    values.push(operands[operands.length - 1]!);
    const type = this.commonType(ast, values);
    const converted = values.map((v) => this.convertTo(v, type));
    const allDouble = type === "dynamic" && converted.every((v) => v.dynamic === "double");
    const items: TExpr[] = [];
    for (let i = 0; i + 1 < operands.length; i += 2) items.push(operands[i]!, converted[i / 2]!);
    items.push(converted[converted.length - 1]!);
    const result = this.op("case", items, type, converted.some((v) => v.nullable));
    return type === "dynamic" ? { ...result, dynamic: allDouble ? "double" : "json" } : result;
  }

  commonType(ast: Extract<Expr, { kind: "call" }>, values: TExpr[]): KqlType {
    const typed = values.filter((v) => v.node.op !== "null");
    const types = new Set(typed.map((v) => v.type));
    if (types.size === 0) return values[0]!.type;
    if (types.size === 1) return [...types][0]!;
    if ([...types].every(isNumeric)) return types.has("real") ? "real" : types.has("long") ? "long" : "int";
    if (types.has("dynamic")) return "dynamic";
    return this.error(ast.span, `${ast.name}() branches have different types: ${[...types].join(", ")}`);
  }

  convertTo(value: TExpr, type: KqlType): TExpr {
    if (value.type === type) return value;
    if (value.node.op === "null") return { ...value, type, dynamic: type === "dynamic" ? "json" : undefined };
    if (type === "dynamic") return this.asJson(value);
    return value; // numeric widening is implicit in SQL
  }

  private aggregateCall(ast: Extract<Expr, { kind: "call" }>, scope: Scope): TExpr {
    const name = ast.name;
    const entry = functionEntry(name);
    if (entry?.signatures) return declaredCall(this, entry, ast, scope, "aggregate", ast.args[0] ? (nameOf(ast.args[0]) ?? firstColumn(ast.args[0]) ?? "") : "");
    const operands = ast.args.map((a) => this.expr(a, scope, "inAggregate"));
    const argName = ast.args[0] ? (nameOf(ast.args[0]) ?? firstColumn(ast.args[0]) ?? "") : "";
    const arity = (min: number, max = min) => {
      if (operands.length < min || operands.length > max || ast.star) {
        this.error(ast.span, `${name}() expects ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? "" : "s"}`);
      }
    };
    const [a] = operands;
    switch (name) {
      case "count":
        arity(0);
        return this.op("count", [], "long", false, "count_");
      case "countif":
        arity(1);
        if (a!.type !== "bool") this.error(ast.args[0]!.span, `countif() needs a boolean, not ${a!.type}`);
        return this.op("countif", [a!], "long", false, "countif_");
      case "sum": {
        arity(1);
        const value = a!.type === "dynamic" ? this.asNumber(a!) : a!;
        if (!isNumeric(value.type) && value.type !== "timespan") this.error(ast.span, `sum() needs numbers, not ${value.type}`);
        return this.op("sum", [value], value.type === "int" ? "long" : value.type, false, `sum_${argName}`);
      }
      case "avg": {
        arity(1);
        const value = a!.type === "dynamic" ? this.asNumber(a!) : a!;
        if (!isNumeric(value.type)) this.error(ast.span, `avg() needs numbers, not ${value.type}`);
        return this.op("avg", [value], "real", true, `avg_${argName}`);
      }
      case "min":
      case "max": {
        arity(1);
        const value = a!.type === "dynamic" ? this.asNumber(a!) : a!;
        return this.op(name, [value], value.type, value.type !== "string", `${name}_${argName}`);
      }
      case "dcount": {
        arity(1, 2);
        const value = a!.type === "dynamic" ? this.op("dyn_str", [a!], "string", true) : a!;
        return this.op("dcount", [value], "long", false, `dcount_${argName}`);
      }
      case "percentile": {
        arity(2);
        const p = ast.args[1]!;
        if (p.kind !== "literal" || typeof p.value !== "number" || p.value < 0 || p.value > 100) {
          this.error(p.span, "percentile() needs a constant percentage between 0 and 100");
        }
        const value = a!.type === "dynamic" ? this.asNumber(a!) : a!;
        if (value.type === "string" || value.type === "bool") this.error(ast.span, `percentile() needs numbers, not ${value.type}`);
        const percent = p.value as number;
        const fraction = this.param("DOUBLE", percent / 100, "real");
        return this.op("percentile", [value, fraction], value.type, true, `percentile_${argName}_${String(percent).replace(/[.-]/g, "_")}`);
      }
      case "any":
        arity(1);
        return { ...this.op("any", [a!], a!.type, a!.type !== "string", `any_${argName}`), dynamic: a!.dynamic };
      case "make_list": {
        arity(1, 2);
        const value = a!.type === "dynamic" ? this.asJson(a!) : a!;
        const size = operands[1] ? [this.sizeArg(ast, 1)] : [];
        return inSerialOrder(this, { ...this.op("make_list", [value, ...size], "dynamic", false, `list_${argName}`), dynamic: "json" });
      }
      default: {
        const extension = callExtension(this, ast, scope, "aggregate", operands, argName);
        if (extension) return extension;
        return this.error(ast.nameSpan, `Unknown function '${name}'`);
      }
    }
  }
}

function firstColumn(ast: Expr): string | undefined {
  switch (ast.kind) {
    case "column":
    case "member":
      return nameOf(ast);
    case "call":
      for (const a of ast.args) {
        const found = firstColumn(a);
        if (found) return found;
      }
      return undefined;
    case "unary":
      return firstColumn(ast.operand);
    case "binary":
      return firstColumn(ast.left) ?? firstColumn(ast.right);
    case "in":
    case "between":
      return firstColumn(ast.target);
    default:
      return undefined;
  }
}
