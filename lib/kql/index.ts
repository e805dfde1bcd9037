/**
 * Public API of the KQL engine (pure TypeScript, no Node imports: the browser's editor uses it too).
 *
 * - `tokenize(text)`: tokens with kind and offsets, for highlighting. Never throws.
 * - `parse(text)`: `{ ast, diagnostics }`; error-tolerant: `ast` is null only when not even the table
 *   name could be read; diagnostics carry 1-based line/column and 0-based from/to.
 * - `diagnose(text)`: parse + semantic checks (unknown table/column/function, type errors), for the
 *   editor's error marks. Same diagnostic shape.
 * - `compileKql(text, { sources, now?, dialect? })`: SQL for the dialect (DuckDB unless
 *   `dialect/clickhouse.ts`'s is given), named parameters, result columns
 *   (`{ name, kqlType }` in output order; rows come back positionally) and the `render` hint; throws
 *   `KqlError { line, column, detail }` for anything wrong with the query (never anything else).
 *   `sources[table]` is the already scoped relation (time range, plants, customer) built by the
 *   telemetry store, e.g. `{ sql: 'SELECT * FROM "States" WHERE "Timestamp" >= $scope_start …',
 *   params: { scope_start: { type: "TIMESTAMP", value: 1700000000000 } } }`. The generated SQL only
 *   reads FROM that relation, so no query can escape the scope. `params` of the result holds the
 *   source's params plus the query's own (`k1`, `k2`, …; names without the `$`), only those the SQL
 *   uses (DuckDB refuses to bind others). Bind them with their `type` (TIMESTAMP values are epoch
 *   ms, BIGINT values integral numbers). Every literal of the query is a parameter; nothing the
 *   user typed is spliced into the SQL text except identifiers resolved against the schema.
 *   `now` is one instant for the whole query: `ago(1h)` becomes a TIMESTAMP parameter.
 *   A query is `let` statements (scalars, tabular values, functions) then one tabular statement,
 *   separated by `;`. Sizes are bounded (nesting depth, operators, tables, literals, range rows,
 *   datatable cells, make-series points, regex length: parser.ts MAX_NESTING, budget.ts LIMITS).
 *   So is the compile itself (budget.ts COMPILE_LIMITS): the expanded size and depth of each
 *   expression (`let` names and function calls substituted) and the work units spent, so a query
 *   of any shape compiles in bounded time; `work` of the result (and of a thrown KqlError) is what
 *   it cost, for the caller's cost budget.
 * - `completionsAt(text, offset, { dataPointNames })`: what may be typed at `offset`.
 * - `hoverAt(text, offset)`: one-line documentation of the operator or function there (catalog.ts).
 * - `toResponseColumns` (types.ts): the response's column list; each dialect's `rowJson` spells a
 *   result row as the response's JSON inside its engine.
 * - `testing/arbitrary.ts` (`kqlQuery()`): fast-check generator of pipelines, for property tests.
 *
 * Layout: lexer.ts → parser.ts (statements; the grammar in parser/: tabular.ts, operators.ts,
 * expressions.ts, literals.ts over cursor.ts) → ast.ts → analyze.ts (types, literals → params;
 * ir.ts), functions.ts, series.ts and rows.ts (the functions beyond the core; names.ts names result
 * columns; they and the planner see the analyzer through analyzer-api.ts, so none imports
 * analyze.ts back) → compile.ts (statements, sources, blocks; block.ts) and operators.ts (one
 * planner per tabular operator; sessions.ts stages row_window_session) → dialect/: dialect.ts the interface, base.ts what both engines spell alike,
 * duckdb.ts and clickhouse.ts each engine's SQL — expressions, relations, and `rowJson`, the one
 * place its result values become the response's JSON. The stores' own statements around the
 * compiled SQL (tables, limits) are in lib/service/telemetry/duckdb/ and clickhouse/. No module
 * here imports one that imports it back. Tests: conformance/* (exact rows by topic, both engines),
 * robustness.test.ts, fuzz.test.ts, property.test.ts, microsoft-reference.test.ts (Microsoft's
 * Kusto.Language as an outside reference for parsing and result schemas).
 */
export { tokenize, type Token, type TokenKind } from "./lexer";
export { parse, type Diagnostic, type ParseResult } from "./parser";
export { diagnose } from "./diagnose";
export { compileKql, type CompileOptions, type CompiledQuery, type KqlSource, type RenderHint } from "./compile";
export { completionsAt, type Completion, type CompletionResult } from "./complete";
export { hoverAt, FUNCTION_DOCS, OPERATOR_DOCS } from "./catalog";
export { KqlError, KqlForbiddenError } from "./errors";
export { COMPILE_LIMITS } from "./budget";
export { TABLES, TABLE_NAMES, isTableName, type TableName, type TableSchema, type TableColumn } from "./tables";
export { toResponseColumns, type JsonValue, type KqlType, type ResultColumn, type SqlParam, type SqlParams, type SqlParamType } from "./types";
export type { QueryAst, Operator, Expr } from "./ast";
