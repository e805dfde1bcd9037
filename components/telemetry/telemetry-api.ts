/**
 * The browser's calls for telemetry: `POST /api/telemetry/query` (same body and response as the
 * service's query endpoint) and the user's query history. The query call keeps the response's
 * timing headers, which `apiFetch` does not expose, so the page can show how long a query took.
 */
import { ApiError, apiGet, apiSend, redirectToSignIn } from "@/lib/client/api";
import type { THistoryEntry as HistoryEntry } from "@/lib/contract/dashboard";
import { apiPath } from "@/lib/contract/api";
import type { QueryResult } from "./series";

import type { TQueryProblem as QueryProblem } from "@/lib/contract/telemetry";
import type { TExplorerQueryMeta, TExplorerQueryRequest } from "@/lib/contract/explorer";
import { loadExplorerContract } from "@/lib/client/lazy-contract";

/** What the explorer sends: the service's request, plus the chart's width and the inspector's ask. */
export type TelemetryQueryRequest = Omit<TExplorerQueryRequest, "resolution" | "inspect"> & Partial<Pick<TExplorerQueryRequest, "resolution" | "inspect">>;
export type { QueryProblem };

interface TelemetryQueryOutcome {
  result: QueryResult;
  /** The chart kind of the query's `render` (`timechart`, `piechart`, `table` …), when it has one. */
  render: string | null;
  /** Time on the server (header `x-query-duration-ms`), else the round trip measured here. */
  durationMs: number;
  roundTripMs: number;
  /** How the server reduced the answer, and the inspector's figures (null from an older server). */
  meta: TExplorerQueryMeta | null;
}


/** The longest `Retry-After` waited out once before a throttled query is reported as failed. */
const MAX_RETRY_AFTER_S = 20;

/**
 * Runs a query. A 429 (the customer's per-minute query budget is spent) is waited out once when
 * the server says it will pass soon: a chart that appears a few seconds late beats an error.
 */
export async function fetchTelemetryQuery(request: TelemetryQueryRequest, signal?: AbortSignal): Promise<TelemetryQueryOutcome> {
  try {
    return await sendQuery(request, signal);
  } catch (error) {
    const wait = error instanceof ThrottledError ? error.retryAfterSeconds : null;
    if (wait === null || wait > MAX_RETRY_AFTER_S) throw error instanceof ThrottledError ? error.cause : error;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, wait * 1000);
      signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
    });
    return sendQuery(request, signal).catch((retryError: unknown) => {
      throw retryError instanceof ThrottledError ? retryError.cause : retryError;
    });
  }
}

class ThrottledError extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    override readonly cause: ApiError,
  ) {
    super(cause.message);
  }
}

async function sendQuery(request: TelemetryQueryRequest, signal?: AbortSignal): Promise<TelemetryQueryOutcome> {
  const began = performance.now();
  // The metadata's schema (and zod) load beside the request, not in every telemetry page's first load.
  const contract = loadExplorerContract();
  let response: Response;
  try {
    response = await fetch(apiPath("telemetryQuery"), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(request),
      credentials: "same-origin",
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError("NETWORK_ERROR", "The server could not be reached. Check your connection and try again.");
  }
  const text = await response.text();
  const roundTripMs = performance.now() - began;
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // reported below by status
  }
  if (response.status === 401) redirectToSignIn();
  if (!response.ok) {
    const error = body as { status?: string; code?: string; message?: string; data?: unknown[] } | null;
    const apiError =
      error?.status === "ERROR" && error.code
        ? ApiError.received(response.status, error.code, error.message ?? "", error.data ?? [])
        : ApiError.received(response.status, `HTTP_${response.status}`, `The server answered ${response.status} ${response.statusText}.`);
    const retryAfter = Number(response.headers.get("retry-after"));
    if (response.status === 429 && Number.isFinite(retryAfter) && retryAfter >= 0) throw new ThrottledError(retryAfter, apiError);
    throw apiError;
  }
  const payload = body as { data?: { columns?: unknown; rows?: unknown; render?: unknown }; render?: unknown; meta?: unknown } | null;
  const columns = payload?.data?.columns;
  const rows = payload?.data?.rows;
  if (!Array.isArray(columns) || !Array.isArray(rows)) {
    throw ApiError.received(502, "BAD_RESPONSE", "The query answer did not have the expected columns and rows.");
  }
  const render = payload?.data?.render ?? payload?.render;
  const serverMs = Number(response.headers.get("x-query-duration-ms"));
  const { ZExplorerQueryMeta } = await contract;
  return {
    result: { columns: columns as QueryResult["columns"], rows: rows as unknown[][] },
    // The service answers `{ kind, properties }` (docs/api.md §6); a bare string is accepted too.
    render: typeof render === "string" ? render : typeof render === "object" && render !== null && typeof (render as { kind?: unknown }).kind === "string" ? (render as { kind: string }).kind : null,
    durationMs: Number.isFinite(serverMs) && response.headers.has("x-query-duration-ms") ? serverMs : roundTripMs,
    roundTripMs,
    meta: ZExplorerQueryMeta.safeParse(payload?.meta).data ?? null,
  };
}

/** The problems of an `INVALID_QUERY` error, if that is what `error` is. */
export function queryProblems(error: unknown): QueryProblem[] {
  if (!(error instanceof ApiError) || error.code !== "INVALID_QUERY") return [];
  return error.data.flatMap((item) => {
    const p = item as Partial<QueryProblem>;
    return typeof p.line === "number" && typeof p.column === "number" ? [{ line: p.line, column: p.column, message: String(p.message ?? "") }] : [];
  });
}

export type { HistoryEntry };

export async function fetchHistory(signal?: AbortSignal): Promise<HistoryEntry[]> {
  const body = await apiGet<{ data: HistoryEntry[] }>(apiPath("listQueryHistory"), undefined, signal);
  return body.data;
}

export function recordHistory(entry: { query: string; plantIds: string[]; startTime: string; endTime: string }): Promise<unknown> {
  return apiSend("POST", apiPath("saveQuery"), entry);
}

export function setHistoryStar(id: number, starred: boolean): Promise<unknown> {
  return apiSend("PATCH", apiPath("updateQuery"), { id, starred });
}

/** A KQL string literal for any text (JSON's escapes are KQL's). */
export function kqlString(text: string): string {
  return JSON.stringify(text);
}
