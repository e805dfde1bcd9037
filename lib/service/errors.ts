/**
 * The service's error vocabulary (decisions.md §4). Every non-200 answer of the embedded service is
 * built from a ServiceError, so the body is always `{ status: "ERROR", code, message, data }`.
 */
export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  INVALID_QUERY: 400,
  QUERY_LIMIT_EXCEEDED: 400,
  QUERY_TIMEOUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PLANT_NOT_FOUND: 404,
  PART_NOT_FOUND: 404,
  TASK_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  ASSET_NOT_FOUND: 412,
  UNIT_MISMATCH: 412,
  INVALID_TRANSITION: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldProblem {
  field: string;
  problem: string;
}

export class ServiceError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data: unknown[] = [],
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ServiceError";
    this.status = ERROR_STATUS[code];
    this.headers = headers;
  }
}

/** 400 INVALID_INPUT with `{ field, problem }` items. */
export function invalidInput(message: string, problems: FieldProblem[] = []): ServiceError {
  return new ServiceError("INVALID_INPUT", message, problems);
}
