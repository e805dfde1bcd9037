/**
 * `POST /insights/v1/telemetry/query/table` (docs/api.md §6). Check order:
 * bearer token (401) → client's customer has telemetry (403) → cost budget (429) → body (413/415/400)
 * → plants of the customer (400) → a place among the queries running at once (429 after a short
 * wait) → the query itself (400 INVALID_QUERY / QUERY_LIMIT_EXCEEDED / QUERY_TIMEOUT; 429 when the
 * budget runs out while it runs). The time range and plants are applied beneath the query by the
 * store. docs/architecture.md ("Telemetry under load") explains the admission control.
 */
import { KqlError, KqlForbiddenError } from "@/lib/kql";
import { ZTelemetryQueryRequest, ZTelemetryQueryResponse, type TTelemetryQueryRequest } from "@/lib/contract/telemetry";
import { metrics } from "../../platform/metrics";
import { ApiError, invalidInput, type ErrorCode } from "../../contract/errors";
import { parseWith, readJsonBody } from "../../platform/http/body";
import type { Route } from "../../platform/http/router";
import type { ServiceRequest, ServiceResponse } from "../../platform/http/types";
import type { ApiContribution } from "../../platform/openapi";
import type { AccessTokens, TokenPrincipal } from "./oauth/access-tokens";
import { type AdmitOptions, costHeader, type CostThrottle, type CostWindow } from "./cost-throttle";
import type { QueryGate } from "./query-gate";
import { engineStopped, type TelemetryLimits, type TelemetryScope, type TelemetryStore, type TelemetryTable } from "./store";

import { TELEMETRY_QUERY_PATH as QUERY_PATH } from "@/lib/contract/spec-paths";

export interface QueryEndpointContext {
  store: TelemetryStore;
  tokens: AccessTokens;
  throttle: CostThrottle;
  gate: QueryGate;
  limits: TelemetryLimits;
  /** Plant ids of a customer. */
  plantsOf(customerId: string): string[];
  now?: () => Date;
}

export async function authenticate(req: ServiceRequest, tokens: AccessTokens, now: Date): Promise<TokenPrincipal> {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  if (!m) throw new ApiError("UNAUTHORIZED", "A bearer token is required: Authorization: Bearer <access_token>.");
  const principal = await tokens.verify(m[1]!, now);
  if (!principal) throw new ApiError("UNAUTHORIZED", "The access token is invalid, expired or revoked.");
  req.credentialAccepted = true;
  return principal;
}

/** Who a query runs for: the customer whose data it reads, and whose budget it spends. */
export interface QueryPrincipal {
  customerId: string;
  /** The cost budget's key: a telemetry client's id, or the dashboard's per-user key. */
  budgetKey: string;
  /** The key's own budget per minute when not the client's default, and budgets it also spends (a monitor's plant: cost-throttle.ts). */
  budget?: AdmitOptions;
}

/** A query's answer: the response body `{ data: { columns, rows, render? } }` in UTF-8 parts, and its headers. */
interface QueryAnswer {
  body: Uint8Array[];
  headers: Record<string, string>;
  rowCount: number;
  stats: QueryStats;
}

/** What one query took, for the explorer's inspector (lib/contract/explorer.ts). */
interface QueryStats {
  compileMs: number | null;
  /** Waiting for a place among the queries running at once. */
  queueMs: number;
  executeMs: number | null;
  serializeMs: number | null;
  rowsScanned: number | null;
}

/** The body around the engine's rows: the rows themselves are never parsed or copied. */
function answerBody(table: TelemetryTable): Uint8Array[] {
  const head = Buffer.from(`{"data":{"columns":${JSON.stringify(table.columns)},"rows":`);
  const tail = Buffer.from(table.render ? `,"render":${JSON.stringify(table.render)}}}` : "}}");
  return [head, ...table.rows, tail];
}

function budgetSpent(window: CostWindow, consumed: number, whileRunning: boolean): ApiError {
  const message = whileRunning
    ? `The query budget of ${window.budget} per minute ran out while the query ran; it was stopped. Retry in ${window.resetSeconds} s.`
    : `The query budget of ${window.budget} per minute is spent; retry in ${window.resetSeconds} s.`;
  return new ApiError("RATE_LIMITED", message, [], {
    "retry-after": String(window.resetSeconds),
    "x-query-cost": costHeader(consumed, window),
  });
}

/** Why a running query was told to stop by the budget (its signal's reason). */
const BUDGET_SPENT = Symbol("budget spent");

/** What one query asks of the engine, once its request has been read and checked. */
export interface EngineQuery {
  kql: string;
  /** Values of the query's `declare query_parameters(…)`. */
  parameters?: Readonly<Record<string, string>>;
  scope: TelemetryScope;
  /** Tighter limits than the service's (a Kusto client's `servertimeout`, `truncationmaxrecords`); never looser. */
  limits?: Partial<TelemetryLimits>;
  /** The query's `now()` (a Kusto client's `query_now`); the service's clock otherwise. */
  now?: Date;
  /** Count the rows the query scanned too (TelemetryQuery.countScanned). */
  countScanned?: boolean;
}

/** The engine's answer: the result table, the cost header and how long the query waited for a place. */
interface EngineAnswer {
  table: TelemetryTable;
  headers: Record<string, string>;
  queueMs: number;
}

/**
 * THE telemetry query path, for every surface that runs KQL for an authenticated principal: the
 * spec's endpoint, the dashboard's embedded client and the Kusto REST protocol (kusto/). The
 * customer's isolation (its own store, its own plants), the cost budget, the places for queries
 * running at once, the time and size limits and the mapping of engine failures to errors are all
 * here, once. `prepare` reads the request only after the budget admits it, and may throw
 * 400/403/413/415; it gets the customer's plants to check a plant filter against.
 */
export async function runTelemetryEngine(
  ctx: QueryEndpointContext,
  principal: QueryPrincipal,
  prepare: (customerPlants: readonly string[]) => EngineQuery,
  signal?: AbortSignal,
): Promise<EngineAnswer> {
  const { telemetryQueries } = metrics();
  try {
    const answer = await runEngine(ctx, principal, prepare, signal);
    telemetryQueries.inc({ outcome: "ok" });
    return answer;
  } catch (error) {
    telemetryQueries.inc({ outcome: error instanceof ApiError ? error.code : "INTERNAL_ERROR" });
    throw error;
  }
}

/** Counts a settled query's cost (the metrics' `plantdesk_telemetry_query_cost_total`). */
function charged<T extends { cost: number }>(settled: T): T {
  metrics().telemetryCost.inc(settled.cost);
  return settled;
}

async function runEngine(
  ctx: QueryEndpointContext,
  principal: QueryPrincipal,
  prepare: (customerPlants: readonly string[]) => EngineQuery,
  signal?: AbortSignal,
): Promise<EngineAnswer> {
  const clock = ctx.now?.() ?? new Date();
  const customerPlants = ctx.plantsOf(principal.customerId);
  if (customerPlants.length === 0) throw new ApiError("FORBIDDEN", "This client's customer has no telemetry.");

  const admitted = await ctx.throttle.admit(principal.budgetKey, clock.getTime(), principal.budget);
  if ("refused" in admitted) {
    metrics().telemetryThrottled.inc({ throttle: "budget" });
    throw budgetSpent(admitted.refused, 0, false);
  }
  const { reservation } = admitted;

  let query: EngineQuery;
  try {
    query = prepare(customerPlants);
  } catch (error) {
    const { cost, window } = charged(await reservation.settle());
    if (error instanceof ApiError) error.headers["x-query-cost"] = costHeader(cost, window);
    throw error;
  }

  let leave: () => void;
  const queued = performance.now();
  try {
    leave = await ctx.gate.enter(principal.budgetKey, principal.customerId, signal);
  } catch (error) {
    if (error instanceof ApiError && error.code === "RATE_LIMITED") metrics().telemetryThrottled.inc({ throttle: "places" });
    const window = await reservation.cancel();
    if (error instanceof ApiError) error.headers["x-query-cost"] = costHeader(0, window);
    throw error;
  }

  const queueMs = performance.now() - queued;
  const stop = new AbortController();
  const onClientGone = () => stop.abort(signal?.reason);
  signal?.addEventListener("abort", onClientGone, { once: true });
  // A query answered at its time limit may still be winding down in the engine: its place is held until it has.
  let stillRunning: Promise<void> | null = null;
  try {
    reservation.run((error) => stop.abort(error ?? BUDGET_SPENT));
    const table = await ctx.store.query({
      customerId: principal.customerId,
      kql: query.kql,
      ...(query.parameters ? { parameters: query.parameters } : {}),
      scope: query.scope,
      limits: tighter(ctx.limits, query.limits),
      now: query.now ?? clock,
      signal: stop.signal,
      ...(query.countScanned ? { countScanned: true } : {}),
    });
    const { cost, window } = charged(await reservation.settle(undefined, table.compileWork));
    return { table, headers: { "x-query-cost": costHeader(cost, window) }, queueMs };
  } catch (error) {
    stillRunning = engineStopped(error);
    // A refused query is charged the compile work it caused as well.
    const { cost, window } = charged(await reservation.settle(undefined, error instanceof KqlError ? error.work : 0));
    if (stop.signal.reason === BUDGET_SPENT) {
      metrics().telemetryThrottled.inc({ throttle: "budget" });
      throw budgetSpent(window, cost, true);
    }
    // The shared budget became unreachable while the query ran: it was stopped, 503.
    const failure = stop.signal.reason instanceof ApiError ? stop.signal.reason : error instanceof KqlError ? invalidQuery(error) : error;
    if (failure instanceof ApiError) failure.headers["x-query-cost"] = costHeader(cost, window);
    throw failure;
  } finally {
    signal?.removeEventListener("abort", onClientGone);
    if (stillRunning) void stillRunning.then(leave);
    else leave();
  }
}

/** The service's limits, lowered (never raised) by what a request asks for. */
function tighter(limits: TelemetryLimits, asked: Partial<TelemetryLimits> = {}): TelemetryLimits {
  return {
    maxRows: Math.min(limits.maxRows, asked.maxRows ?? Infinity),
    maxBytes: Math.min(limits.maxBytes, asked.maxBytes ?? Infinity),
    timeoutMs: Math.min(limits.timeoutMs, asked.timeoutMs ?? Infinity),
  };
}

/**
 * A query of the spec's endpoint for an authenticated principal: the HTTP endpoint's after the
 * bearer token, and the dashboard's embedded client's for its signed-in user. The request is read
 * only once the budget admits it (`request()` may throw 400/413/415).
 */
export async function runTelemetryQuery(
  ctx: QueryEndpointContext,
  principal: QueryPrincipal,
  request: () => TTelemetryQueryRequest,
  signal?: AbortSignal,
  options: { countScanned?: boolean } = {},
): Promise<QueryAnswer> {
  const { table, headers, queueMs } = await runTelemetryEngine(
    ctx,
    principal,
    (customerPlants) => {
      const body = request();
      if (body.plantIds) {
        const own = new Set(customerPlants);
        const foreign = body.plantIds.find((plantId) => !own.has(plantId));
        if (foreign !== undefined) {
          throw invalidInput(`Plant '${foreign}' is not a plant of this client's customer.`, [
            { field: "plantIds", problem: `'${foreign}' is not one of ${customerPlants.join(", ")}` },
          ]);
        }
      }
      return {
        kql: body.query,
        ...(body.parameters ? { parameters: body.parameters } : {}),
        scope: {
          start: new Date(body.startTime),
          end: new Date(body.endTime),
          // Every plant of the customer is the same as no filter: the store can skip it.
          plantIds: body.plantIds && new Set(body.plantIds).size < customerPlants.length ? [...new Set(body.plantIds)] : null,
        },
        countScanned: options.countScanned,
      };
    },
    signal,
  );
  const stats: QueryStats = {
    compileMs: table.timings?.compileMs ?? null,
    queueMs,
    executeMs: table.timings?.executeMs ?? null,
    serializeMs: table.timings?.serializeMs ?? null,
    rowsScanned: table.rowsScanned ?? null,
  };
  return { body: answerBody(table), headers, rowCount: table.rowCount, stats };
}

async function handleQuery(req: ServiceRequest, ctx: QueryEndpointContext): Promise<ServiceResponse> {
  const token = await authenticate(req, ctx.tokens, ctx.now?.() ?? new Date());
  const { body, headers } = await runTelemetryQuery(
    ctx,
    { customerId: token.customerId, budgetKey: token.clientId },
    () => parseWith(ZTelemetryQueryRequest, readJsonBody(req), "query request"),
    req.signal,
  );
  return { status: 200, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers }, body };
}

function invalidQuery(error: KqlError): ApiError {
  if (error instanceof KqlForbiddenError) return new ApiError("FORBIDDEN", error.detail);
  return new ApiError("INVALID_QUERY", `${error.detail} (line ${error.line}, column ${error.column})`, [
    { line: error.line, column: error.column, message: error.detail },
  ]);
}

export function createQueryRoutes(ctx: QueryEndpointContext): Route[] {
  return [{ method: "POST", pattern: QUERY_PATH, handler: (req) => handleQuery(req, ctx) }];
}

const QUERY_ERRORS: ErrorCode[] = [
  "UNAUTHORIZED",
  "FORBIDDEN",
  "RATE_LIMITED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "INVALID_INPUT",
  "INVALID_QUERY",
  "QUERY_LIMIT_EXCEEDED",
  "QUERY_TIMEOUT",
  "SERVICE_UNAVAILABLE",
];

export const queryApi: ApiContribution = {
  operations: [
    {
      method: "POST",
      path: QUERY_PATH,
      operationId: "queryTelemetryTable",
      summary: "Query telemetry (KQL)",
      description:
        "Runs a KQL query over `States` or `Events` of the client's customer, within `[startTime, endTime)` and the listed plants. " +
        "`INVALID_QUERY` errors give the line and column in `message` and as `data: [{ line, column, message }]`. " +
        "A query ending in `render` returns its hint as `data.render` (*extension*).",
      tag: "Telemetry",
      security: ["telemetryOAuth"],
      headers: [],
      requestBody: { schema: ZTelemetryQueryRequest },
      response: {
        schema: ZTelemetryQueryResponse,
        description: "The result table. Header `x-query-cost: consumed=<n>; remaining=<n>; budget=<n>; reset=<seconds>`.",
      },
      errors: QUERY_ERRORS,
    },
  ],
  notes: [
    "**Telemetry scope**: the range is half-open on `States.Timestamp` (`startTime <= Timestamp < endTime`); an `Events` row is in range when its incident overlaps it (`StartTime < endTime` and (`EndTime` is null or `EndTime >= startTime`)). Range and plant filters are applied beneath the query's operators; a client only ever reads its own customer's database.",
    "**Telemetry limits**: at most 500,000 result rows or 64 MB of rows (400 `QUERY_LIMIT_EXCEEDED`), 60 s per query (400 `QUERY_TIMEOUT`; the engine is interrupted); an answer is complete or an error, never a 200 with part of the rows. Each client has a budget of 300 cost units per minute: a query costs 1 plus 1 per 100 ms of engine time; `x-query-cost` reports `consumed` and `remaining`; a spent budget gives 429 `RATE_LIMITED` with `Retry-After`. Cost is reserved when a query is admitted and extended while it runs, so queries running at the same time cannot overrun the budget together: a query that would, is stopped and answered 429. At most 2 queries per client and 4 per customer run at once; a few more wait up to 2 s, the rest get 429 with `Retry-After` (all configurable).",
    "**KQL** with ADX's semantics (docs/api.md §6): `let` statements (scalars, timespans, tabular values, functions) separated by `;`; `where`, `project`, `project-away`, `project-keep`, `project-rename`, `project-reorder`, `extend`, `summarize … by …`, `order by`/`sort by`, `top`, `top-nested`, `take`/`limit`, `sample`, `distinct`, `count`, `union`, `join` (all nine kinds) and `lookup`, `make-series` with the `series_*` functions, `mv-expand`, `parse`, `as`, `getschema`, `print`, `datatable`, `range`, `render`; the aggregates and scalar functions ADX users reach for. A construct not supported yet is 400 `INVALID_QUERY` naming it, with line and column; nesting is bounded (100 levels).",
  ],
};
