/**
 * Calls of declared functions (entry.ts): the first signature the arguments fit is taken, each
 * argument converted to its parameter's type as KQL converts implicitly (a number widens, a
 * dynamic value is read as the type wanted, a string parses as a datetime), the result typed by
 * the signature's rule and nulls by the entry's null rule. The result is one typed `call` node;
 * no SQL is decided here.
 */
import type { Expr } from "../ast";
import type { Analyzer, Mode, Scope } from "../analyzer-api";
import { isNumeric, type TExpr } from "../ir";
import type { KqlType } from "../types";
import type { FunctionEntry, Param, Signature } from "./entry";
import { hasScalarTwin } from "./table";

type Call = Extract<Expr, { kind: "call" }>;

/** The argument converted to the parameter's type, or undefined when it does not fit. */
function fit(analyzer: Analyzer, param: Param, value: TExpr): TExpr | undefined {
  const t = value.type;
  if (value.node.op === "null" && param.type !== "any" && param.type !== "number") return analyzer.nullOf(param.type === "text" ? "string" : param.type);
  switch (param.type) {
    case "any":
      return value;
    case "number":
      if (isNumeric(t)) return value;
      return t === "dynamic" ? analyzer.asNumber(value) : undefined;
    case "real":
      if (isNumeric(t)) return t === "real" ? value : analyzer.op("to_double", [value], "real", value.nullable, value.hint);
      return t === "dynamic" ? analyzer.asNumber(value) : undefined;
    case "long":
    case "int": {
      const number = t === "dynamic" ? analyzer.asNumber(value) : value;
      if (!isNumeric(number.type)) return undefined;
      if (number.type === "real") return analyzer.op(param.type === "long" ? "to_long" : "to_int", [number], param.type, true, value.hint);
      return number;
    }
    case "string":
      return t === "string" || t === "dynamic" ? analyzer.asText(value) : undefined;
    case "text":
      return t === "string" || t === "dynamic" ? analyzer.asText(value) : analyzer.op("to_string", [value], "string", false, value.hint);
    case "dynamic":
      return analyzer.asJson(value);
    case "datetime":
      if (t === "datetime") return value;
      return t === "string" || t === "dynamic" ? analyzer.op("to_datetime", [value], "datetime", true) : undefined;
    case "timespan":
      return t === "timespan" ? value : undefined;
    case "bool":
      return t === "bool" ? value : undefined;
  }
}

/** The parameter an argument at `index` is given to, if any. */
function paramAt(params: readonly Param[], index: number): Param | undefined {
  if (index < params.length) return params[index];
  const last = params[params.length - 1];
  return last?.variadic ? last : undefined;
}

function arityFits(params: readonly Param[], count: number): boolean {
  const required = params.filter((p) => !p.optional && !p.variadic).length + (params.some((p) => p.variadic && !p.optional) ? 1 : 0);
  const unbounded = params.some((p) => p.variadic);
  return count >= required && (unbounded || count <= params.length);
}

function resultType(signature: Signature, args: readonly TExpr[]): KqlType {
  const rule = signature.result;
  if (typeof rule === "function") return rule(args);
  if (rule.startsWith("$")) return args[Number(rule.slice(1))]!.type;
  return rule as KqlType;
}

/** Argument counts the signatures accept, for the error message. */
function expected(entry: FunctionEntry): string {
  return entry.signatures!.map((s) => `${entry.name}(${s.params.map((p) => `${p.name}${p.optional ? "?" : ""}${p.variadic ? "…" : ""}: ${p.type}`).join(", ")})`).join(" or ");
}

export function declaredCall(analyzer: Analyzer, entry: FunctionEntry, ast: Call, scope: Scope, mode: Mode, argName = ""): TExpr {
  if (ast.star) analyzer.error(ast.span, `'*' is not an argument of ${entry.name}()`);
  const inner: Mode = entry.kind === "aggregate" ? "inAggregate" : mode;
  const values = ast.args.map((a) => analyzer.analyze(a, scope, inner));
  for (const signature of entry.signatures!) {
    if (!arityFits(signature.params, values.length)) continue;
    const converted: TExpr[] = [];
    const consts: unknown[] = [];
    let fits = true;
    for (let i = 0; i < values.length && fits; i++) {
      const param = paramAt(signature.params, i)!;
      const value = fit(analyzer, param, values[i]!);
      if (!value) fits = false;
      else {
        const literal = ast.args[i]!;
        if (param.constant) {
          // A dynamic literal's value is its JSON text.
          const known = literal.kind === "literal" && literal.type === "dynamic" ? literal.value ?? undefined : analyzer.constant(value);
          if (known === undefined || literal.kind !== "literal") {
            // A later signature may take the value from a column (datetime_utc_to_local's zone).
            if (signature !== entry.signatures!.at(-1)) {
              fits = false;
              continue;
            }
            return analyzer.error(literal.span, `${entry.name}() needs ${param.name} as a literal`);
          }
          consts[i] = known;
        }
        converted.push(value);
      }
    }
    if (!fits) continue;
    const problem = entry.checkConsts?.(consts);
    if (problem) analyzer.error(ast.span, problem);
    const type = resultType(signature, converted);
    const twin = entry.kind === "scalar" && hasScalarTwin(entry.name);
    // A volatile call gets a distinct hidden argument (SpellInput.salt): ClickHouse computes equal
    // expressions once, so two new_guid() in one row would otherwise be the same.
    if (entry.volatile) converted.push(analyzer.param("BIGINT", Object.keys(analyzer.params).length, "long"));
    const nulls = entry.nulls ?? "propagate";
    // A string is never null in KQL: the renderer spells a null string as '' (base.ts).
    const nullable = type === "string" || nulls === "never" ? false : nulls === "may" ? true : converted.some((v) => v.nullable);
    const result: TExpr = {
      type,
      nullable,
      dynamic: type === "dynamic" ? "json" : undefined,
      node: { op: "call", fn: entry.name, args: converted, consts, ...(entry.volatile ? { volatile: true as const } : {}), ...(twin ? { scalarTwin: true as const } : {}) },
      aggregate: entry.kind === "aggregate" || converted.some((v) => v.aggregate),
    };
    if (entry.kind === "aggregate") result.hint = entry.column ? entry.column(argName, consts) : `${entry.name}_${argName}`;
    return result;
  }
  const given = values.map((v) => v.type).join(", ");
  return analyzer.error(ast.span, `${entry.name}() does not take (${given}): expected ${expected(entry)}`);
}
