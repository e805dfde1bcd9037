import { ApiError } from "../../contract/errors";
import type { ServiceResponse } from "./types";

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): ServiceResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

function errorResponse(error: ApiError): ServiceResponse {
  const headers: Record<string, string> = { ...error.headers };
  if (error.status === 401 && !headers["www-authenticate"]) headers["www-authenticate"] = "Bearer";
  return json(error.toBody(), error.status, headers);
}

/**
 * Turns anything thrown by a handler into the error body. Unexpected errors are logged without the
 * request's headers or body (which may hold tokens) and answered as a bare 500.
 */
export function toErrorResponse(thrown: unknown, context: string): ServiceResponse {
  if (thrown instanceof ApiError) return errorResponse(thrown);
  const detail = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  console.error(`[service] ${context} failed: ${detail}`);
  return errorResponse(new ApiError("INTERNAL_ERROR", "An unexpected error occurred."));
}
