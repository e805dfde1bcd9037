/**
 * The Node side of both HTTP surfaces (the service's spec paths and the dashboard's `/api/`): a
 * node:http request becomes a framework-free ServiceRequest, the surface's router answers, and
 * the ServiceResponse is written back. Used by scripts/serve.ts, the tests and the benchmarks, so
 * all three exercise the same path.
 *
 * Every input is bounded here (docs/architecture.md, "Bounded input"): a body over MAX_BODY_BYTES
 * (or the larger limit its route declares, Route.maxBodyBytes: an attachment's upload) is never passed on (the route answers 413), whether its length was declared or not; a body not
 * received within BODY_READ_TIMEOUT_MS is answered 408 and its connection closed; and the bytes of
 * an oversized body are thrown away only up to MAX_DRAIN_BYTES, after which the connection is closed.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorBody } from "../../contract/errors";
import { labelRoute } from "../metrics";
import { markCredential } from "./admission";
import { SECURITY_HEADERS } from "./security-headers";
import { bodyLength, MAX_BODY_BYTES, type ServiceRequest, type ServiceResponse } from "./types";

/** How long a client may take to send its request body. */
export const BODY_READ_TIMEOUT_MS = 10_000;
/**
 * An oversized body is read and discarded up to this much, so that a client that sends it in one go
 * can still read its 413; a larger one gets the 413 at once and the connection is closed.
 */
export const MAX_DRAIN_BYTES = 16 * 1024 * 1024;

/** The peer's address: the client's own unless a proxy stands between (see nodeListener's `clientAddress`). */
function socketAddress(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? "unknown").slice(0, 64);
}

/** The body did not arrive in time: answered 408 and the connection closed. */
class BodyTimeout extends Error {}
/** The client went away while sending: nobody to answer. */
class ClientGone extends Error {}

interface ReadBody {
  body: Uint8Array | null;
  tooLarge: boolean;
  /** Close the connection after the answer: the rest of the body is not read. */
  close: boolean;
}

/** Reads the body within the size and time limits (see the module comment). */
function readBody(req: IncomingMessage, timeoutMs: number, limit: number): Promise<ReadBody> {
  const declared = Number(req.headers["content-length"] ?? NaN);
  const drain = Math.max(MAX_DRAIN_BYTES, limit);
  if (declared > drain) {
    // Not worth reading: answer now, and stop the upload by closing the connection.
    req.pause();
    return Promise.resolve({ body: null, tooLarge: true, close: true });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: ReadBody | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > drain) {
        req.pause();
        finish({ body: null, tooLarge: true, close: true });
      } else if (size <= limit) chunks.push(chunk);
      else chunks.length = 0; // over the limit: keep reading, keep nothing
    };
    const onEnd = () => {
      const tooLarge = size > limit;
      finish({ body: tooLarge || size === 0 ? null : Buffer.concat(chunks), tooLarge, close: false });
    };
    const onClose = () => finish(new ClientGone());
    const timer = setTimeout(() => finish(new BodyTimeout()), timeoutMs);
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
  });
}

/**
 * Reads a Node request into a ServiceRequest, within the body limits. Pass the response so the
 * request's signal aborts when the client goes away before the answer.
 */
export async function fromNodeRequest(
  req: IncomingMessage,
  fallbackOrigin: string,
  res?: ServerResponse,
  bodyTimeoutMs = BODY_READ_TIMEOUT_MS,
  addressOf: (req: IncomingMessage) => string = socketAddress,
  bodyLimit: (method: string, path: string) => number = () => MAX_BODY_BYTES,
): Promise<ServiceRequest> {
  const url = new URL(req.url ?? "/", "http://localhost");
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const controller = new AbortController();

  let body: Uint8Array | null = null;
  let bodyTooLarge = false;
  if (req.method !== "GET" && req.method !== "HEAD") {
    const read = await readBody(req, bodyTimeoutMs, bodyLimit((req.method ?? "GET").toUpperCase(), url.pathname));
    body = read.body;
    bodyTooLarge = read.tooLarge;
    if (read.close) res?.setHeader("connection", "close");
  }
  // On the response, not the socket: a keep-alive socket would collect one listener per request.
  if (res) {
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
  } else req.socket.once("close", () => controller.abort());

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
    clientAddress: addressOf(req),
  };
}

export function sendNodeResponse(res: ServerResponse, response: ServiceResponse, head = false): void {
  // A 304 has no body, and its Content-Length would have to be the full answer's (RFC 9110 §8.6): none.
  const length = response.status === 304 ? {} : { "content-length": bodyLength(response.body) };
  res.writeHead(response.status, { ...SECURITY_HEADERS.api, ...response.headers, ...length });
  if (head) res.end();
  else if (typeof response.body === "string") res.end(response.body);
  else {
    // Each part is handed to the socket as it is (no copy); Node keeps them until they are sent.
    for (const part of response.body) res.write(part);
    res.end();
  }
}

function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { ...SECURITY_HEADERS.api, "content-type": "application/json; charset=utf-8", "cache-control": "no-store", connection: "close" });
  res.end(JSON.stringify(errorBody(code, message, [])));
}

/** A node:http listener for one surface's request handler. */
export function nodeListener(
  handle: ((req: ServiceRequest) => Promise<ServiceResponse>) & { bodyLimit?: (method: string, path: string) => number },
  fallbackOrigin: string,
  options: { bodyTimeoutMs?: number; clientAddress?: (req: IncomingMessage) => string } = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void (async () => {
      let request: ServiceRequest;
      try {
        request = await fromNodeRequest(req, fallbackOrigin, res, options.bodyTimeoutMs, options.clientAddress, handle.bodyLimit);
      } catch (error) {
        if (error instanceof ClientGone) return;
        if (error instanceof BodyTimeout) {
          // Slow or stalled upload: say so, and free the connection instead of holding it.
          sendError(res, 408, "REQUEST_TIMEOUT", `The request body did not arrive within ${Math.round((options.bodyTimeoutMs ?? BODY_READ_TIMEOUT_MS) / 1000)} s.`);
          res.once("finish", () => req.socket.destroy());
          return;
        }
        throw error;
      }
      try {
        const response = await handle(request);
        if (request.route) labelRoute(res, request.route);
        if (request.credentialAccepted) markCredential(res, true);
        sendNodeResponse(res, response, request.method === "HEAD");
        // The rest of an oversized body is not read: close once the 413 is out.
        if (res.getHeader("connection") === "close") res.once("finish", () => req.socket.destroy());
      } catch (error) {
        // Only reached when writing the answer fails; handlers' errors are already error bodies.
        // No request details: they may hold tokens.
        console.error(`[server] ${req.method} ${(req.url ?? "").split("?")[0]}: ${error instanceof Error ? error.message : String(error)}`);
        sendError(res, 500, "INTERNAL_ERROR", "An unexpected error occurred.");
      }
    })().catch((error: unknown) => {
      console.error(`[server] ${req.method} ${(req.url ?? "").split("?")[0]}: ${error instanceof Error ? error.message : String(error)}`);
      sendError(res, 500, "INTERNAL_ERROR", "An unexpected error occurred.");
    });
  };
}
