/**
 * The one error type of the project, and its vocabulary (docs/api.md §4). Every non-200
 * answer — of the service, of the dashboard's `/api/`, as the browser reads it — is the body
 * `{ status: "ERROR", code, message, data }` of an ApiError. Each layer maps a code to its own
 * answer (the service sends it, the upstream client re-raises it, the browser shows its message);
 * none defines another error class. No server-only import: the browser uses it too.
 */

/** The service's codes (docs/api.md) and their HTTP statuses. */
const SERVICE_ERROR_STATUS = {
  INVALID_INPUT: 400,
  INVALID_QUERY: 400,
  QUERY_LIMIT_EXCEEDED: 400,
  QUERY_TIMEOUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PLANT_NOT_FOUND: 404,
  PART_NOT_FOUND: 404,
  TASK_NOT_FOUND: 404,
  PLAN_NOT_FOUND: 404,
  /** Extension: no such attachment in the plant (another plant's attachment is not found either). */
  ATTACHMENT_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  /** The request body did not arrive in time (answered by the server itself, before any route). */
  REQUEST_TIMEOUT: 408,
  ASSET_NOT_FOUND: 412,
  UNIT_MISMATCH: 412,
  INVALID_TRANSITION: 412,
  /** Extension: a close-out uses more of a part than is in stock (nothing is written). */
  INSUFFICIENT_STOCK: 412,
  /** Extension: a closed task cannot be edited. */
  TASK_CLOSED: 412,
  /** Extension: an edit made on a version of the task that has changed since (`ifUpdatedAt`); nothing is written. */
  TASK_CHANGED: 412,
  /** Extension: the task already has the most attachments a task may have (50). */
  TOO_MANY_ATTACHMENTS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  /** State shared by the instances (Redis) cannot be reached: refused rather than let through unchecked. */
  SERVICE_UNAVAILABLE: 503,
} as const;

/**
 * Codes of the dashboard itself, beyond the service's:
 *   UPSTREAM_UNAVAILABLE 502       the service could not be reached or kept failing (5xx)
 *   UPSTREAM_TIMEOUT 504           the service did not answer in time
 *   UPSTREAM_INVALID_RESPONSE 502  the service's answer was not JSON or broke the contract
 *   UPSTREAM_AUTH_FAILED 502       the service refused the dashboard's own credentials
 *   FEATURE_UNAVAILABLE 501        the service lacks this extension (it answered 404/405): hide it
 *   CLIENT_CLOSED_REQUEST 499      the browser went away before the answer
 *   EDIT_CONFLICT 412              someone saved the thing first (If-Match named an older version): nothing written
 *   NETWORK_ERROR 0                (browser only) the dashboard could not be reached
 */
const DASHBOARD_ERROR_STATUS = {
  UPSTREAM_UNAVAILABLE: 502,
  UPSTREAM_TIMEOUT: 504,
  UPSTREAM_INVALID_RESPONSE: 502,
  UPSTREAM_AUTH_FAILED: 502,
  FEATURE_UNAVAILABLE: 501,
  CLIENT_CLOSED_REQUEST: 499,
  EDIT_CONFLICT: 412,
  NETWORK_ERROR: 0,
} as const;

export const ERROR_STATUS = { ...SERVICE_ERROR_STATUS, ...DASHBOARD_ERROR_STATUS } as const;

export type ServiceErrorCode = keyof typeof SERVICE_ERROR_STATUS;
export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldProblem {
  field: string;
  problem: string;
}

export class ApiError extends Error {
  /** An error someone else answered with (a remote service, the dashboard seen from the browser): its status as received. */
  static received(status: number, code: string, message: string, data: unknown[] = [], headers: Record<string, string> = {}): ApiError {
    const error = new ApiError(code as ErrorCode, message, data, headers);
    (error as { status: number }).status = status;
    return error;
  }

  readonly status: number;
  /** Known codes are typed; a remote service may send others, kept as received. */
  readonly code: ErrorCode | (string & {});

  constructor(
    code: ErrorCode,
    message: string,
    readonly data: unknown[] = [],
    /** Sent with the answer, e.g. `retry-after`, `www-authenticate`, `x-query-cost`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_STATUS[code] ?? 500;
  }

  toBody() {
    return errorBody(this.code, this.message, this.data);
  }
}

/** The error body of every non-200 answer (docs/api.md §4), written here only. */
export function errorBody<D>(code: string, message: string, data: D) {
  return { status: "ERROR" as const, code, message, data };
}

/** 400 INVALID_INPUT with `{ field, problem }` items. */
export function invalidInput(message: string, problems: FieldProblem[] = []): ApiError {
  return new ApiError("INVALID_INPUT", message, problems);
}

export const forbidden = (message: string) => new ApiError("FORBIDDEN", message);
