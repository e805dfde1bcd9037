import "server-only";
/**
 * A page's server component reading what its client component would otherwise fetch first from
 * `/api/` (the task board's tasks), so the data is in the page's HTML instead of arriving after
 * hydration (docs/architecture.md, "Pages that render their data"). The read is the browser's own
 * GET, with the browser's cookie, through the `/api/` route in process (lib/bff/in-process.ts):
 * the session, the per-user rate limit, the role's permission, the plant and the upstream call (in
 * process, or to the remote service with the token held here) are the route's, not a copy of them.
 */
import { headers } from "next/headers";
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

/**
 * The JSON answer of `GET path?query` as the signed-in browser would get it, or null for anything
 * but 200 (no session, no access, a refusal, a timeout): the page then renders without it and the
 * browser's own fetch reports the problem in words, as it always has.
 */
export async function readApiForPage<T>(path: string, query: Record<string, string> = {}): Promise<PageRead<T> | null> {
  const request = await headers();
  try {
    const { status, text } = await callApiInProcess({
      method: "GET",
      path,
      query,
      headers: { cookie: request.get("cookie") ?? undefined, host: request.get("host") ?? undefined, "sec-fetch-site": request.get("sec-fetch-site") ?? undefined },
      signal: AbortSignal.timeout(PAGE_READ_TIMEOUT_MS),
    });
    return status === 200 ? { value: JSON.parse(text) as T, readAt: Date.now() } : null;
  } catch {
    return null;
  }
}
