import { MAX_BODY_BYTES, type ServiceRequest, type ServiceResponse } from "./types";

/** Reads a WHATWG Request (Next.js route handlers) into a ServiceRequest. */
export async function fromWebRequest(request: Request): Promise<ServiceRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string | undefined> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  let body: Uint8Array | null = null;
  let bodyTooLarge = false;
  if (request.method !== "GET" && request.method !== "HEAD" && request.body) {
    const declared = Number(headers["content-length"] ?? NaN);
    if (declared > MAX_BODY_BYTES) {
      bodyTooLarge = true;
    } else {
      const bytes = new Uint8Array(await request.arrayBuffer());
      if (bytes.byteLength > MAX_BODY_BYTES) bodyTooLarge = true;
      else if (bytes.byteLength > 0) body = bytes;
    }
  }
  return {
    method: request.method.toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    headers,
    body,
    bodyTooLarge,
    origin: url.origin,
    signal: request.signal,
  };
}

export function toWebResponse(response: ServiceResponse): Response {
  return new Response(response.body, { status: response.status, headers: response.headers });
}
