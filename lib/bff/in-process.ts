import "server-only";
/**
 * The dashboard's own API called from a page's server component, in process: the request goes
 * through the same route as the browser's (lib/api-handler/handler.ts: session, same-site check, the
 * per-user rate limit, role, plant, audit), and the limits behind it are the process's one set
 * (docs/architecture.md, "One server in the process"), so a page that asks while it renders gets what its browser would have got
 * a moment later, no more. Nothing is sent over the network and no token is minted.
 */
import { bodyText } from "@/lib/platform/http/types";
import { apiHandler } from "./routes";

interface InProcessCall {
  method: "GET" | "POST";
  /** An `/api/…` path. */
  path: string;
  body?: unknown;
  /**
   * The page request's headers that the route reads: `cookie` (the session), `host`, and
   * `sec-fetch-site` (a page opened from another site may not make a POST on the reader's behalf).
   */
  headers: { cookie?: string; host?: string; "sec-fetch-site"?: string };
  /** The query string's parameters (a listing's `page`, `pageSize`). */
  query?: Record<string, string>;
  /** Ends the route's work (the upstream call) when the page stops waiting for it. */
  signal?: AbortSignal;
}

interface InProcessAnswer {
  status: number;
  /** The answer's JSON text. */
  text: string;
}

export async function callApiInProcess(call: InProcessCall): Promise<InProcessAnswer> {
  const body = call.body === undefined ? null : new TextEncoder().encode(JSON.stringify(call.body));
  const response = await apiHandler({
    method: call.method,
    path: call.path,
    query: new URLSearchParams(call.query),
    headers: { ...call.headers, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
    body,
    origin: `http://${call.headers.host ?? "localhost"}`,
    signal: call.signal,
  });
  return { status: response.status, text: bodyText(response.body) };
}
