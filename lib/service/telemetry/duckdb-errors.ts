import { ServiceError } from "../errors";

/**
 * DuckDB's data errors (a value out of range, a failed conversion) are faults of the query's data,
 * not of the server: they become 400 INVALID_QUERY. Only DuckDB's first sentence is kept, since the
 * rest can quote the generated SQL, whose parameter names mean nothing to the user.
 */
const DATA_ERROR = /^(Conversion|Out of Range|Invalid Input|Overflow|Divide by Zero) Error: ([^\n]*)/;

export function evaluationError(error: unknown): ServiceError | null {
  const match = error instanceof Error ? DATA_ERROR.exec(error.message) : null;
  if (!match) return null;
  const message = `The query failed while evaluating: ${match[2]!.replace(/\$k\d+/g, "a literal")}`;
  return new ServiceError("INVALID_QUERY", `${message} (line 1, column 1)`, [{ line: 1, column: 1, message }]);
}
