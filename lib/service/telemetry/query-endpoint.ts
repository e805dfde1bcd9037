/**
 * `POST /insights/v1/telemetry/query/table` (service-spec.md, decisions.md §6). Check order:
 * bearer token (401) → client's customer has telemetry (403) → cost budget (429) → body (413/415/400)
 * → plants of the customer (400) → the query itself (400 INVALID_QUERY / QUERY_LIMIT_EXCEEDED /
 * QUERY_TIMEOUT). The time range and plants are applied beneath the query by the store.
 */
import { KqlError } from "@/lib/kql";
import { ZTelemetryQueryRequest, ZTelemetryQueryResponse } from "@/lib/upstream/schemas/telemetry";
import { ServiceError, invalidInput, type ErrorCode } from "../errors";
import { parseWith, readJsonBody } from "../http/body";
import { errorResponse, json } from "../http/respond";
import type { Route } from "../http/router";
import type { ServiceRequest, ServiceResponse } from "../http/types";
import type { ApiContribution } from "../openapi";
import type { AccessTokens, TokenPrincipal } from "./auth/access-tokens";
import { costHeader, queryCost, type CostThrottle } from "./cost-throttle";
import type { TelemetryLimits, TelemetryStore } from "./store";

export const QUERY_PATH = "/insights/v1/telemetry/query/table";

export interface QueryEndpointContext {
  store: TelemetryStore;
  tokens: AccessTokens;
  throttle: CostThrottle;
  limits: TelemetryLimits;
  /** Plant ids of a customer. */
  plantsOf(customerId: string): string[];
  now?: () => Date;
}

async function authenticate(req: ServiceRequest, tokens: AccessTokens, now: Date): Promise<TokenPrincipal> {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  if (!m) throw new ServiceError("UNAUTHORIZED", "A bearer token is required: Authorization: Bearer <access_token>.");
  const principal = await tokens.verify(m[1]!, now);
  if (!principal) throw new ServiceError("UNAUTHORIZED", "The access token is invalid, expired or revoked.");
  return principal;
}

async function handleQuery(req: ServiceRequest, ctx: QueryEndpointContext): Promise<ServiceResponse> {
  const now = ctx.now?.() ?? new Date();
  const principal = await authenticate(req, ctx.tokens, now);
  const customerPlants = ctx.plantsOf(principal.customerId);
  if (customerPlants.length === 0) throw new ServiceError("FORBIDDEN", "This client's customer has no telemetry.");

  const admitted = ctx.throttle.admit(principal.clientId, now.getTime());
  if ("refused" in admitted) {
    const { refused } = admitted;
    throw new ServiceError("RATE_LIMITED", `The query budget of ${refused.budget} per minute is spent; retry in ${refused.resetSeconds} s.`, [], {
      "retry-after": String(refused.resetSeconds),
      "x-query-cost": costHeader(0, refused),
    });
  }
  const started = performance.now();
  let cost = 0;
  try {
    const body = parseWith(ZTelemetryQueryRequest, readJsonBody(req), "query request");
    if (body.plantIds) {
      const own = new Set(customerPlants);
      const foreign = body.plantIds.find((plantId) => !own.has(plantId));
      if (foreign !== undefined) {
        throw invalidInput(`Plant '${foreign}' is not a plant of this client's customer.`, [
          { field: "plantIds", problem: `'${foreign}' is not one of ${customerPlants.join(", ")}` },
        ]);
      }
    }
    const table = await ctx.store.query({
      customerId: principal.customerId,
      kql: body.query,
      scope: {
        start: new Date(body.startTime),
        end: new Date(body.endTime),
        // Every plant of the customer is the same as no filter: the store can skip it.
        plantIds: body.plantIds && new Set(body.plantIds).size < customerPlants.length ? [...new Set(body.plantIds)] : null,
      },
      limits: ctx.limits,
      now,
      signal: req.signal,
    });
    cost = queryCost(table.elapsedMs);
    const window = admitted.admission.settle(cost);
    const data = { columns: table.columns, rows: table.rows, ...(table.render ? { render: table.render } : {}) };
    return json({ data }, 200, { "x-query-cost": costHeader(cost, window) });
  } catch (error) {
    cost = queryCost(performance.now() - started);
    const window = admitted.admission.settle(cost);
    const failure = error instanceof KqlError ? invalidQuery(error) : error;
    if (failure instanceof ServiceError) {
      const response = errorResponse(failure);
      response.headers["x-query-cost"] = costHeader(cost, window);
      return response;
    }
    throw failure;
  }
}

function invalidQuery(error: KqlError): ServiceError {
  return new ServiceError("INVALID_QUERY", `${error.detail} (line ${error.line}, column ${error.column})`, [
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
    "**Telemetry limits**: at most 500,000 result rows or 64 MB of rows (400 `QUERY_LIMIT_EXCEEDED`), 60 s per query (400 `QUERY_TIMEOUT`; the engine is interrupted). Each client has a budget of 300 cost units per minute: a query costs 1 plus 1 per 100 ms of engine time; `x-query-cost` reports `consumed` and `remaining`; a spent budget gives 429 `RATE_LIMITED` with `Retry-After`.",
    "**KQL**: `where`, `project`, `project-away`, `project-rename`, `extend`, `summarize … by …` (count, countif, sum, avg, min, max, dcount, percentile, arg_max, arg_min, any, make_list), `order by`/`sort by` (default descending), `top N by`, `take`/`limit`, `distinct`, `count`, `render`; scalar functions and semantics as in decisions.md §6 (ADX's where documented).",
  ],
};
