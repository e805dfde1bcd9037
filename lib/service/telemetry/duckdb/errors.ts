import { ApiError } from "../../../contract/errors";

/**
 * DuckDB's data errors (a value out of range, a failed conversion) are faults of the query's data,
 * not of the server: they become 400 INVALID_QUERY. Only DuckDB's first sentence is kept, since the
 * rest can quote the generated SQL, whose parameter names mean nothing to the user.
 */
const DATA_ERROR = /^(Conversion|Out of Range|Invalid Input|Overflow|Divide by Zero) Error: ([^\n]*)/;

/** DuckDB's limit on expression nesting: the query is too deeply nested, not a server fault. */
const DEPTH_ERROR = /Max expression depth limit of \d+ exceeded/;

export function evaluationError(error: unknown): ApiError | null {
  if (error instanceof Error && DEPTH_ERROR.test(error.message)) {
    const message = "The query is nested too deeply for the engine; simplify it";
    return new ApiError("INVALID_QUERY", `${message} (line 1, column 1)`, [{ line: 1, column: 1, message }]);
  }
  const match = error instanceof Error ? DATA_ERROR.exec(error.message) : null;
  if (!match) return null;
  const message = `The query failed while evaluating: ${match[2]!.replace(/\$k\d+/g, "a literal")}`;
  return new ApiError("INVALID_QUERY", `${message} (line 1, column 1)`, [{ line: 1, column: 1, message }]);
}
