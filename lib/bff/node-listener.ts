import "server-only";
/**
 * The production server's fast path for the dashboard's `/api/`: a Node request goes straight to
 * the route's handler (the same one the `app/api/` route file exports) as a WHATWG Request, and its
 * Response is written back — no Next.js request pipeline in between, as for the service's paths.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_BODY_BYTES } from "@/lib/service/http/types";
import { findApiRoute } from "./dispatch";

/** Handles the request and returns true, or returns false for Next to handle it (sign-in, unknown routes). */
export function apiListener(fallbackOrigin: string): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const url = new URL(req.url ?? "/", fallbackOrigin);
    if (!url.pathname.startsWith("/api/") || url.pathname.startsWith("/api/auth/")) return false;
    const handler = findApiRoute(req.method ?? "GET", url.pathname);
    if (!handler) return false;
    void (async () => {
      try {
        const controller = new AbortController();
        res.once("close", () => controller.abort());
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
        }
        let body: Buffer | undefined;
        if (req.method !== "GET" && req.method !== "HEAD") {
          const chunks: Buffer[] = [];
          let size = 0;
          for await (const chunk of req as AsyncIterable<Buffer>) {
            size += chunk.length;
            // One byte over the limit is enough for the handler to answer 413.
            if (size <= MAX_BODY_BYTES + 1) chunks.push(chunk);
          }
          body = Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES + 1);
        }
        const host = req.headers.host;
        const origin = host ? `http://${host}` : fallbackOrigin;
        const response = await handler(new Request(new URL(url.pathname + url.search, origin), { method: req.method, headers, body: body && new Uint8Array(body), signal: controller.signal }));
        const text = req.method === "HEAD" ? "" : await response.text();
        const outgoing: Record<string, string> = {};
        response.headers.forEach((value, name) => (outgoing[name] = value));
        res.writeHead(response.status, { ...outgoing, "content-length": Buffer.byteLength(text) });
        res.end(text);
      } catch (error) {
        console.error(`[bff] ${req.method} ${url.pathname}: ${error instanceof Error ? error.message : "failed"}`);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ status: "ERROR", code: "INTERNAL_ERROR", message: "An unexpected error occurred.", data: [] }));
      }
    })();
    return true;
  };
}
