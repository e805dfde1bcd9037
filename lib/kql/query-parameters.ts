/**
 * `declare query_parameters(name: type [= default], …)`: names whose values come with the request
 * (the spec endpoint's `parameters`, the Kusto endpoints' `properties.Parameters`), as ADX's
 * "Query parameters declaration statement" describes. A value is text: a `string` parameter takes
 * it as it is; any other type reads it as a literal of that type (`5`, `datetime(2024-01-01)`,
 * `2024-01-01`, `1h`, `dynamic([1,2])`, `[1,2]`). The value is bound like a scalar `let`: it
 * becomes a SQL parameter, never SQL text. A value that is not a literal of the declared type is
 * refused; one the request leaves out takes the default, or null of the type.
 */
import type { Expr, FunctionParam } from "./ast";
import type { Analyzer } from "./analyze";
import type { Env } from "./analyzer-api";
import { KqlError } from "./errors";
import { isNumeric, type TExpr } from "./ir";
import { tokenize } from "./lexer";
import { Cursor, fail, ParseFailure } from "./parser/cursor";
import { parseExpr } from "./parser/expressions";
import type { KqlType } from "./types";

/** Longest parameter value read (the request body is capped too; this keeps one value's parse small). */
const MAX_PARAMETER_VALUE = 65_536;

export type QueryParameterValues = Readonly<Record<string, string>>;

/** Binds each declared parameter into the environment the query's statements see. */
export function bindQueryParameters(analyzer: Analyzer, declared: FunctionParam[], given: QueryParameterValues | undefined, env: Env): Env {
  const bound = new Map(env);
  for (const param of declared) {
    const name = param.name.text;
    if (bound.has(name)) analyzer.error(param.name.span, `A variable with the name '${name}' has already been declared`);
    const type = analyzer.typeName(param.type);
    const raw = given && Object.hasOwn(given, name) ? given[name] : undefined;
    let expr: TExpr;
    if (raw !== undefined) expr = parameterValue(analyzer, param, type, raw);
    else if (param.default) {
      if (type === "dynamic") analyzer.error(param.default.span, "A query parameter of type dynamic cannot have a default value");
      expr = widen(analyzer, param, type, analyzer.withEnv(bound, () => analyzer.scalar(param.default!, new Map())));
    } else expr = type === "string" ? analyzer.param("VARCHAR", "", "string") : analyzer.nullOf(type); // strings are never null in KQL
    bound.set(name, { kind: "scalar", expr });
  }
  return bound;
}

function parameterValue(analyzer: Analyzer, param: FunctionParam, type: KqlType, raw: string): TExpr {
  const refuse = (): never => analyzer.error(param.name.span, `Query parameter '${param.name.text}' of type ${type} could not be parsed from its value '${raw.slice(0, 100)}'`);
  if (raw.length > MAX_PARAMETER_VALUE) return analyzer.error(param.name.span, `Query parameter '${param.name.text}' is longer than ${MAX_PARAMETER_VALUE.toLocaleString("en-US")} characters`);
  if (type === "string") return analyzer.param("VARCHAR", raw, "string");
  // The value as written (`datetime(2024-01-01)`, `5`, `1h`), else wrapped in its type (`2024-01-01`, `[1, 2]`).
  const typedForm = type === "timespan" ? `time(${raw})` : `${type}(${raw})`;
  for (const text of [raw, typedForm]) {
    const ast = literalAst(text);
    if (!ast) continue;
    try {
      const value = analyzer.scalar(ast, new Map());
      if (value.type === type || value.node.op === "null" || (isNumeric(value.type) && isNumeric(type) && (type === "real" || value.type !== "real"))) return widen(analyzer, param, type, value);
    } catch (error) {
      if (!(error instanceof KqlError)) throw error;
    }
  }
  return refuse();
}

/** A declared `long` or `real` takes any number that fits (an `int` literal, a `long` for a `real`). */
function widen(analyzer: Analyzer, param: FunctionParam, type: KqlType, value: TExpr): TExpr {
  if (value.type === type || value.node.op === "null") return value.node.op === "null" ? analyzer.nullOf(type) : value;
  if (isNumeric(value.type) && isNumeric(type)) return analyzer.convert(value, type, param.name.span);
  return analyzer.error(param.name.span, `Query parameter '${param.name.text}' is declared ${type}, its default is ${value.type}`);
}

/** The literal `text` spells (possibly negated), or undefined when it is anything else. */
function literalAst(text: string): Expr | undefined {
  const cursor = new Cursor(
    tokenize(text).filter((t) => t.kind !== "comment"),
    (c) => fail(c.peek(), "not a literal"),
  );
  if (cursor.tokens.some((t) => t.kind === "error" || (t.kind === "string" && t.problem))) return undefined;
  try {
    const ast = parseExpr(cursor);
    if (cursor.peek().kind !== "eof" || cursor.diagnostics.length) return undefined;
    return isLiteral(ast) ? ast : undefined;
  } catch (error) {
    if (error instanceof ParseFailure) return undefined;
    throw error;
  }
}

function isLiteral(ast: Expr): boolean {
  if (ast.kind === "literal") return true;
  return ast.kind === "unary" && isLiteral(ast.operand);
}
