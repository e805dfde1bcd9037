/**
 * ClickHouse's errors mapped as duckdb/errors.ts maps DuckDB's (docs/api.md §4, §6): the time limit
 * → QUERY_TIMEOUT; memory, row or byte limits → QUERY_LIMIT_EXCEEDED; a fault of the query or its
 * data (syntax, types, conversions, a throwIf of the compiled query) → 400 INVALID_QUERY with
 * ClickHouse's first sentence only (the rest quotes the generated SQL). Anything else is the
 * server's problem and stays an error the endpoint answers 500.
 */
import { ApiError } from "../../../contract/errors";
import { clickhouseErrorCode } from "./executor";

export const TIMEOUT_CODES = new Set([159 /* TIMEOUT_EXCEEDED */, 394 /* QUERY_WAS_CANCELLED */]);
export const LIMIT_CODES = new Set([241 /* MEMORY_LIMIT_EXCEEDED */, 158 /* TOO_MANY_ROWS */, 307 /* TOO_MANY_BYTES */, 396 /* TOO_MANY_ROWS_OR_BYTES */]);
/** Faults of the query or its values, not of the server. */
const QUERY_CODES = new Set([
  6, 27, 32, 38, 41, 53, 69, 70, 72, 76, 153, 190, 321, 395, 407, 426, 427, // parse/convert/range/division/throwIf/regexp
  36, 42, 43, 44, 46, 47, 48, 62, 184, 215, 386, // arguments, types, unknown names, syntax, aggregates, no common type
  167, 168, 306, // too deep or too big an expression
]);

/** The first sentence of ClickHouse's message, without the SQL it quotes. */
function clickhouseMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const body = text.replace(/^[\s\S]*?DB::Exception: /, "").replace(/^Code: \d+\.\s*/, "");
  const cut = body.split(/: In scope |: while executing|\. \(|\s\(version |\n/)[0] ?? body;
  return cut.replace(/\{k\d+:[^}]*\}|_CAST\([^)]*\)/g, "a literal").slice(0, 300);
}

export function clickhouseQueryError(error: unknown): ApiError | null {
  const code = clickhouseErrorCode(error);
  if (code === null || !QUERY_CODES.has(code)) return null;
  const message = `The query failed while evaluating: ${clickhouseMessage(error)}`;
  return new ApiError("INVALID_QUERY", `${message} (line 1, column 1)`, [{ line: 1, column: 1, message }]);
}
