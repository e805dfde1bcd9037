/**
 * One KQL function as data: its name, signatures, result type, null rule, each engine's spelling
 * and the editor's one-line documentation. The family files next to this one (math.ts,
 * strings.ts, …) list the entries; table.ts gathers them; the analyzer (declared.ts) checks calls
 * against the signatures and yields a typed `call` node (ir.ts); each dialect only spells that
 * node with the entry's spelling for its engine. How to add a function: docs/kql-functions.md.
 */
import type { TExpr } from "../ir";
import type { KqlType } from "../types";

export type Engine = "duckdb" | "clickhouse";

/**
 * A parameter's type: a KQL type, `number` (long, int or real, kept as given), `any`, or `text`
 * (any scalar as its tostring() text).
 */
type ParamType = KqlType | "number" | "any" | "text";

export interface Param {
  name: string;
  type: ParamType;
  optional: boolean;
  /** The last parameter may repeat (`strcat(a, b, …)`). */
  variadic: boolean;
  /** Must be a literal: its value is known when spelling (`datetime_part("year", …)`). */
  constant: boolean;
}

/**
 * The result type: a KQL type, `$0`-style "the type of argument 0", or a rule over the
 * (converted) arguments.
 */
type ResultRule = KqlType | `$${number}` | ((args: readonly TExpr[]) => KqlType);

/**
 * Null rule: `propagate` — null when an argument is null (SQL's own rule); `never` — never null;
 * `may` — may be null even for non-null arguments (log of a negative number). A string result is
 * never null in KQL: the renderer makes a null string ''.
 */
type NullRule = "propagate" | "never" | "may";

/** What a spelling function gets: the arguments' SQL and types, literal arguments' values. */
export interface SpellInput {
  args: string[];
  types: KqlType[];
  /** Per argument: its literal value for `constant` parameters, else undefined. */
  consts: readonly unknown[];
  result: KqlType;
  /** A volatile function's distinct argument (a bound parameter): spell it into the call so that equal calls stay distinct. */
  salt?: string;
}

/** A SQL template (`$0`, `$1`, … the arguments' SQL; `$*` all of them joined by ", ") or a function. */
export type Spelling = string | ((input: SpellInput) => string);

export interface FunctionEntry {
  name: string;
  kind: "scalar" | "aggregate";
  /** The editor's documentation: `name(args): type — what it does`. */
  doc: string;
  /**
   * Accepted argument lists; the first that fits the call is used. Absent: the function is
   * analyzed by hand (special-analysis.ts or analyze.ts) and the table carries its documentation only.
   */
  signatures?: readonly Signature[];
  nulls?: NullRule;
  /** Each engine's spelling (both are required for a declared function: no default dialect). */
  sql?: Readonly<Record<Engine, Spelling>>;
  /** The result column's name when none is given (aggregates: `${name}_${arg}` by default), from the first argument's name and the literal arguments. */
  column?: (argName: string, consts: readonly unknown[]) => string;
  /** A different value on every call (rand, new_guid). */
  volatile?: true;
  /** Checks the literal arguments' values: an error message for the user, or undefined. */
  checkConsts?: (consts: readonly unknown[]) => string | undefined;
}

export interface Signature {
  params: readonly Param[];
  result: ResultRule;
}

/**
 * Parses a compact parameter list: `x: real, digits?: long, parts...: string, part: const string`
 * (`?` optional, `...` variadic, `const` a literal).
 */
function params(text: string): Param[] {
  if (!text.trim()) return [];
  return text.split(",").map((piece) => {
    const match = /^\s*(\w+)(\?|\.\.\.)?\s*:\s*(const\s+)?(\w+)\s*$/.exec(piece);
    if (!match) throw new Error(`Bad parameter '${piece}'`);
    return { name: match[1]!, type: match[4] as ParamType, optional: match[2] === "?", variadic: match[2] === "...", constant: Boolean(match[3]) };
  });
}

interface Declared {
  /** One or several parameter lists (see params()). */
  args: string | readonly string[];
  result: ResultRule;
  sql: Readonly<Record<Engine, Spelling>> | Spelling;
  doc: string;
  nulls?: NullRule;
  column?: (argName: string, consts: readonly unknown[]) => string;
  volatile?: true;
  checkConsts?: (consts: readonly unknown[]) => string | undefined;
}

/** The result type as the documentation writes it. */
function resultText(result: ResultRule, list: string): string {
  if (typeof result === "function") return "by the arguments";
  if (result.startsWith("$")) return params(list)[Number(result.slice(1))]?.type ?? "any";
  return result;
}

function declared(kind: FunctionEntry["kind"], name: string, d: Declared): FunctionEntry {
  const lists = typeof d.args === "string" ? [d.args] : d.args;
  const sql = typeof d.sql === "object" ? d.sql : { duckdb: d.sql, clickhouse: d.sql };
  return {
    name,
    kind,
    doc: `${name}(${lists[0]}): ${resultText(d.result, lists[0]!)} — ${d.doc}`,
    signatures: lists.map((l) => ({ params: params(l), result: d.result })),
    nulls: d.nulls ?? "propagate",
    sql,
    column: d.column,
    ...(d.volatile ? { volatile: true as const } : {}),
    ...(d.checkConsts ? { checkConsts: d.checkConsts } : {}),
  };
}

/** A scalar function declared in full (the same SQL on both engines when `sql` is one spelling). */
export function scalar(name: string, d: Declared): FunctionEntry {
  return declared("scalar", name, d);
}

export function aggregate(name: string, d: Declared): FunctionEntry {
  return declared("aggregate", name, d);
}

/** A function analyzed by hand (not yet declared in full): its documentation only. */
export function documented(kind: FunctionEntry["kind"], name: string, doc: string): FunctionEntry {
  return { name, kind, doc };
}
