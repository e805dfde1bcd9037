import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_BODY_BYTES, type ServiceRequest, type ServiceResponse } from "./types";

/**
 * Reads a Node request into a ServiceRequest, stopping at MAX_BODY_BYTES (the rest is discarded).
 * Pass the response so the request's signal aborts when the client goes away before the answer.
 */
export async function fromNodeRequest(req: IncomingMessage, fallbackOrigin: string, res?: ServerResponse): Promise<ServiceRequest> {
  const url = new URL(req.url ?? "/", "http://localhost");
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const controller = new AbortController();
  // On the response, not the socket: a keep-alive socket would collect one listener per request.
  if (res) {
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
  }
  else req.socket.once("close", () => controller.abort());

  let body: Uint8Array | null = null;
  let bodyTooLarge = false;
  if (req.method !== "GET" && req.method !== "HEAD") {
    const declared = Number(headers["content-length"] ?? NaN);
    if (declared > MAX_BODY_BYTES) {
      bodyTooLarge = true;
      req.resume();
    } else {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          bodyTooLarge = true;
          continue; // keep draining so the connection stays usable for the 413
        }
        chunks.push(chunk);
      }
      body = bodyTooLarge ? null : size > 0 || chunks.length > 0 ? Buffer.concat(chunks) : null;
    }
  }
  const host = headers.host;
  const proto = headers["x-forwarded-proto"]?.split(",")[0]?.trim() ?? "http";
  return {
    method: (req.method ?? "GET").toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    headers,
    body,
    bodyTooLarge,
    origin: host ? `${proto}://${host}` : fallbackOrigin,
    signal: controller.signal,
  };
}

export function sendNodeResponse(res: ServerResponse, response: ServiceResponse, head = false): void {
  const body = head ? "" : response.body;
  res.writeHead(response.status, { ...response.headers, "content-length": Buffer.byteLength(response.body) });
  res.end(body);
}
