/**
 * Framework-free request and response shapes of both routers (the service's and /api/'s). The one
 * adapter (node-adapter.ts) turns Node's IncomingMessage into a ServiceRequest; handlers never see
 * it, so tests can call a router with a plain object.
 */
export interface ServiceRequest {
  method: string;
  /** Path without query string, e.g. `/maintenance/v1/plants/P1/tasks`. */
  path: string;
  query: URLSearchParams;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** Raw body bytes; null when the request had none. */
  body: Uint8Array | null;
  /** True when the body exceeded the adapter's limit and was not read whole. */
  bodyTooLarge?: boolean;
  /** The origin the request was addressed to (scheme://host:port), used for OAuth metadata. */
  origin: string;
  /** Aborted when the client goes away; long telemetry queries are interrupted through it. */
  signal?: AbortSignal;
  /**
   * The client's address, as the server decides it (the socket's, or with TRUST_PROXY the last
   * X-Forwarded-For entry): what per-address throttles count. Absent for in-process callers.
   */
  clientAddress?: string;
  /** The pattern of the route that took the request, set by the router (metrics and logs label by it). */
  route?: string;
  /**
   * Set by the route that checked the request's credential and accepted it (session, plant token,
   * access token): the front door then gives that credential a pool of its own (admission.ts).
   */
  credentialAccepted?: boolean;
}

export interface ServiceResponse {
  status: number;
  headers: Record<string, string>;
  /**
   * Already serialised body: text, or UTF-8 parts written one after the other (a telemetry result,
   * which is never joined into one string or buffer on the event loop).
   */
  body: ResponseBody;
}

type ResponseBody = string | readonly Uint8Array[];

/** Length in bytes of a response body. */
export function bodyLength(body: ResponseBody): number {
  if (typeof body === "string") return Buffer.byteLength(body);
  let length = 0;
  for (const part of body) length += part.byteLength;
  return length;
}

/** A body as one string (tests and in-process callers that want to read it). */
export function bodyText(body: ResponseBody): string {
  return typeof body === "string" ? body : Buffer.concat(body).toString("utf8");
}

/** Largest request body the service reads (docs/api.md §4: over 1 MiB → 413). */
export const MAX_BODY_BYTES = 1024 * 1024;
