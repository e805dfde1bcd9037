import "server-only";
/**
 * How a request reaches the service: in-process (embedded mode: the service's own handler, same
 * ServiceRequest/ServiceResponse interface, no socket) or over HTTP (remote mode). Everything above
 * this module — auth, retries, timeouts, validation — is the same in both modes.
 */
import type { ServiceRequest, ServiceResponse } from "@/lib/service/http/types";

export interface UpstreamRequest {
  method: string;
  /** Path on the service, e.g. `/maintenance/v1/plants/RTM1/tasks`. */
  path: string;
  query?: URLSearchParams;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface UpstreamResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export type Transport = (request: UpstreamRequest) => Promise<UpstreamResponse>;

const encoder = new TextEncoder();

export function inProcessTransport(handle: (request: ServiceRequest) => Promise<ServiceResponse>): Transport {
  return async (request) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
    const response = await handle({
      method: request.method,
      path: request.path,
      query: request.query ?? new URLSearchParams(),
      headers,
      body: request.body === undefined ? null : encoder.encode(request.body),
      origin: "http://localhost",
      signal: request.signal,
    });
    return { status: response.status, headers: lowerCase(response.headers), body: response.body };
  };
}

export function httpTransport(baseUrl: string): Transport {
  return async (request) => {
    const query = request.query?.toString();
    const url = `${baseUrl}${request.path}${query ? `?${query}` : ""}`;
    const response = await fetch(url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
      redirect: "error",
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return { status: response.status, headers, body: await response.text() };
  };
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) result[name.toLowerCase()] = value;
  return result;
}
