import "server-only";
/**
 * A page's server component reading what its client component would otherwise fetch first from
 * `/api/` (the task board's tasks), so the data is in the page's HTML instead of arriving after
 * hydration (docs/architecture.md, "Pages that render their data"). The read is the browser's own
 * GET, with the browser's cookie, through the `/api/` route in process (lib/bff/in-process.ts):
 * the session, the per-user rate limit, the role's permission, the plant and the upstream call (in
 * process, or to the remote service with the token held here) are the route's, not a copy of them.
 */
import { callApiInProcess } from "./in-process";

/**
 * How long a page waits for its read before it renders without it: the browser then fetches, as
 * before, behind the page's loading state (a slow remote service must not hold the whole page).
 */
const PAGE_READ_TIMEOUT_MS = 3000;

/** An answer read for a page, and when (the client's cache counts its age from then). */
export interface PageRead<T> {
  value: T;
  readAt: number;
}

export interface PageReadRequest {
  method?: "GET" | "POST";
  /** The query string's parameters. */
  query?: Record<string, string>;
  /** A POST's JSON body. */
  body?: unknown;
  /**
   * How long the read may take; null: as long as the route's own limits allow (a dashboard panel's
   * answer streams in after the page, so nothing waits for it).
   */
  timeoutMs?: number | null;
  /** Larger answers are left to the browser to ask for (they would weigh down the page's HTML). */
  maxBytes?: number;
}

/** The page's own request, as far as the /api/ route needs it (the page reads them from next/headers). */
export interface PageRequestHeaders {
  cookie: string | null;
  host: string | null;
  secFetchSite: string | null;
}

/**
 * The JSON answer of `path` as the signed-in browser would get it, or null for anything but 200
 * (no session, no access, a refusal, a timeout, an answer over `maxBytes`): the page then renders
 * without it and the browser's own fetch reports the problem in words, as it always has.
 */
export async function readApiForPage<T>(path: string, read: PageReadRequest, request: PageRequestHeaders): Promise<PageRead<T> | null> {
  const timeoutMs = read.timeoutMs === undefined ? PAGE_READ_TIMEOUT_MS : read.timeoutMs;
  try {
    const { status, text } = await callApiInProcess({
      method: read.method ?? "GET",
      path,
      query: read.query,
      body: read.body,
      headers: { cookie: request.cookie ?? undefined, host: request.host ?? undefined, "sec-fetch-site": request.secFetchSite ?? undefined },
      signal: timeoutMs === null ? undefined : AbortSignal.timeout(timeoutMs),
    });
    if (status !== 200 || (read.maxBytes !== undefined && Buffer.byteLength(text) > read.maxBytes)) return null;
    return { value: JSON.parse(text) as T, readAt: Date.now() };
  } catch {
    return null;
  }
}
