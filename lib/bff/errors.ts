/**
 * Failures the dashboard's `/api/` routes answer with, in the spec's error body
 * `{ status: "ERROR", code, message, data }` (decisions.md §4), so the browser reads one shape
 * whether the problem was the user's, the dashboard's or the service's. Codes of the dashboard
 * itself (beyond decisions.md §4):
 *   UPSTREAM_UNAVAILABLE 502       the service could not be reached or kept failing (5xx)
 *   UPSTREAM_TIMEOUT 504           the service did not answer in time
 *   UPSTREAM_INVALID_RESPONSE 502  the service's answer was not JSON or broke the spec's schema
 *   UPSTREAM_AUTH_FAILED 502       the service refused the dashboard's own token (configuration)
 *   FEATURE_UNAVAILABLE 501        the service lacks this extension (it answered 404/405): hide it
 */
export class BffError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: unknown[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "BffError";
  }

  toBody() {
    return { status: "ERROR" as const, code: this.code, message: this.message, data: this.data };
  }
}

export const unauthorized = () => new BffError(401, "UNAUTHORIZED", "Sign in to continue.");
export const forbidden = (message: string) => new BffError(403, "FORBIDDEN", message);
export const invalidInput = (message: string, data: unknown[] = []) => new BffError(400, "INVALID_INPUT", message, data);
