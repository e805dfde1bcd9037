/**
 * What the modules the analyzer calls into (functions.ts, rows.ts, series.ts) and the planner's
 * side (block.ts, operators.ts, sessions.ts) may ask of the analyzer, and the shapes they share
 * with it. The class is analyze.ts's; this interface depends on nothing above the typed tree, so
 * those modules and analyze.ts import each other in one direction only (analyze.ts → them).
 */
import type { FunctionBody, Expr, FunctionParam, Name, Span, TabularExpr } from "./ast";
import type { Meter } from "./budget";
import type { TExpr } from "./ir";
import type { KqlType, SqlParams, SqlParamType } from "./types";

export type Scope = ReadonlyMap<string, TExpr>;

/** What a `let` (or `as`) name stands for. */
export type LetBinding =
  | { kind: "scalar"; expr: TExpr }
  | { kind: "tabular"; query: TabularExpr; env: Env }
  | { kind: "relation"; sql: string; columns: { name: string; expr: TExpr }[] }
  | { kind: "function"; params: FunctionParam[]; body: FunctionBody; env: Env; span: Span };
export type Env = ReadonlyMap<string, LetBinding>;

/** Where an expression stands: a plain scalar, a summarize item, or inside an aggregate's arguments. */
export type Mode = "scalar" | "aggregate" | "inAggregate";

type Call = Extract<Expr, { kind: "call" }>;

/** The analyzer (analyze.ts): each member is documented there. */
export interface Analyzer {
  readonly params: SqlParams;
  readonly meter: Meter;
  readonly nowMillis: number;
  /** The order of the serialized row set being read (set by the planner), undefined when it is not serialized. */
  serialOrder: { expr: TExpr; desc: boolean; nullsFirst: boolean }[] | undefined;
  /** Compiles a tabular expression used as a value (set by the planner). */
  subquery: (query: TabularExpr, env: Env, span: Span) => { sql: string; columns: TExpr[]; names: string[] };
  withEnv<T>(env: Env, work: () => T): T;
  typeName(name: Name): KqlType;
  nullOf(type: KqlType): TExpr;
  convert(value: TExpr, type: KqlType, span: Span): TExpr;
  constant(e: TExpr): number | string | boolean | undefined;
  bindParams(params: FunctionParam[], args: TExpr[], span: Span, into: Map<string, LetBinding>, fnEnv: Env): void;
  multiResult(ast: Expr, scope: Scope): { name: string; expr: TExpr }[] | undefined;
  multiAggregate(ast: Expr, scope: Scope): { name: string; expr: TExpr }[] | undefined;
  checkRegex(pattern: string, span: Span): void;
  error(span: Span, message: string): never;
  param(type: SqlParamType, value: string | number | boolean, kqlType: KqlType): TExpr;
  scalar(ast: Expr, scope: Scope): TExpr;
  aggregate(ast: Expr, scope: Scope): TExpr;
  predicate(ast: Expr, scope: Scope, mode?: Mode): TExpr;
  count(ast: Expr): TExpr;
  charge(span: Span, units?: number): void;
  comparable(left: TExpr, right: TExpr, span: Span): [TExpr, TExpr];
  asNumber(value: TExpr): TExpr;
  asText(value: TExpr): TExpr;
  asJson(value: TExpr): TExpr;
  op(op: string, operands: TExpr[], type: KqlType, nullable: boolean, hint?: string): TExpr;
  sizeArg(ast: Call, index: number): TExpr;
  analyze(ast: Expr, scope: Scope, mode: Mode): TExpr;
  numericArg(ast: Call, value: TExpr, allowTimespan?: boolean): TExpr;
  commonType(ast: Call, values: TExpr[]): KqlType;
  convertTo(value: TExpr, type: KqlType): TExpr;
}
