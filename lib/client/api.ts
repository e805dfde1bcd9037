/**
 * The browser's client of the dashboard's own `/api/` routes (never of the service: tokens stay on
 * the server). Failures become `ApiError` carrying the spec's error body (code, message, data), so
 * pages can show the server's own words. A 401 means the session ended: go to sign-in and come back.
 */
import type { TErrorBody, TPage as Page } from "@/lib/contract/common";
import { ApiError } from "@/lib/contract/errors";
import { loadCommonContract } from "./lazy-contract";
import { PAGE_SIZE_MAX } from "@/lib/contract/vocabulary";

export { ApiError } from "@/lib/contract/errors";

export type QueryValue = string | number | boolean | null | undefined;

export function withQuery(path: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * The answer as the contract's error body, or null. Every failure, and a write answered 200 with
 * `status: "ERROR"`, is checked with the one `ZErrorBody` schema; the schema (and zod with it) is
 * loaded only then, so pages that merely read never download it (docs/architecture.md, "What the
 * browser loads").
 */
async function errorBodyOf(body: unknown, failed: boolean): Promise<TErrorBody | null> {
  const saysError = typeof body === "object" && body !== null && (body as { status?: unknown }).status === "ERROR";
  if (!failed && !saysError) return null;
  const { ZErrorBody } = await loadCommonContract();
  const parsed = ZErrorBody.safeParse(body);
  return parsed.success ? parsed.data : null;
}

/** Sends the browser to sign-in, remembering where it was. */
export function redirectToSignIn(): void {
  const back = window.location.pathname + window.location.search;
  // A full page load on purpose: the session is gone, so nothing of this page's state is worth keeping.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign(`/signin?callbackUrl=${encodeURIComponent(back)}`);
}

export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set("accept", "application/json");
  if (init.body !== undefined) headers.set("content-type", "application/json");
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers, credentials: "same-origin" });
  } catch {
    throw new ApiError("NETWORK_ERROR", "The server could not be reached. Check your connection and try again.");
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page, say): reported below by status.
  }
  if (response.status === 401 && typeof window !== "undefined") redirectToSignIn();
  // Writes answer 200 with a write result; an ERROR result is a failure too.
  const error = await errorBodyOf(body, !response.ok);
  if (error) throw ApiError.received(response.status, error.code, error.message, error.data);
  if (!response.ok) throw ApiError.received(response.status, "HTTP_" + response.status, `The server answered ${response.status} ${response.statusText}.`);
  return body as T;
}

export function apiGet<T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<T> {
  return apiFetch<T>(withQuery(path, query), { signal });
}

export function apiSend<T>(method: "POST" | "PUT" | "PATCH", path: string, body: unknown, headers?: HeadersInit): Promise<T> {
  return apiFetch<T>(path, { method, body: JSON.stringify(body), headers });
}

/** The spec's paginated envelope. */
export type { TPage as Page } from "@/lib/contract/common";

/** The largest page the service allows: fewest requests when every row is needed. */
const MAX_PAGE_SIZE = PAGE_SIZE_MAX;

/**
 * Every record of a paginated listing, page after page (CSV export, charts over a whole range).
 * Pages after the first are fetched two at a time: quick, without flooding the rate limit.
 */
export async function fetchAllPages<T>(
  path: string,
  query: Record<string, QueryValue> = {},
  signal?: AbortSignal,
  onProgress?: (done: number, total: number) => void,
): Promise<T[]> {
  const first = await apiGet<Page<T>>(path, { ...query, page: 1, pageSize: MAX_PAGE_SIZE }, signal);
  const rows = [...first.data];
  onProgress?.(1, Math.max(first.totalPages, 1));
  const rest: number[] = [];
  for (let page = 2; page <= first.totalPages; page += 1) rest.push(page);
  let done = 1;
  for (let index = 0; index < rest.length; index += 2) {
    const batch = rest.slice(index, index + 2);
    const pages = await Promise.all(
      batch.map((page) => apiGet<Page<T>>(path, { ...query, page, pageSize: MAX_PAGE_SIZE }, signal)),
    );
    for (const result of pages) rows.push(...result.data);
    done += batch.length;
    onProgress?.(done, first.totalPages);
  }
  return rows;
}

/** How many records a listing holds, from one tiny request: with pageSize 1, totalPages is the count. */
export async function countRecords(path: string, query: Record<string, QueryValue> = {}, signal?: AbortSignal): Promise<number> {
  const page = await apiGet<Page<unknown>>(path, { ...query, page: 1, pageSize: 1 }, signal);
  return page.totalPages;
}

/** A readable sentence for any thrown value (for error states and toasts). */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}
