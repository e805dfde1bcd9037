/**
 * Azure Data Explorer's REST query protocol (docs/api.md §7), so that Kusto clients — Microsoft's
 * SDKs, notebooks — connect unchanged with a Plantdesk telemetry access token:
 *
 *   GET  /v1/rest/auth/metadata   404 in JSON: the SDKs then use their defaults (a redirect breaks them)
 *   POST /v2/rest/query           a query, answered in v2 frames
 *   POST /v1/rest/query           a query, answered in ADX's four v1 tables
 *   POST /v1/rest/mgmt            a management command (management.ts), answered in one v1 table
 *
 * Every query and command runs through runTelemetryEngine, the spec endpoint's own path: the same
 * token check, customer isolation (`db` must be the token's customer), cost budget, places, limits
 * and time limit. Only the request's reading and the answer's wire form are this module's.
 */
import {
  KustoOptionError,
  readKustoOptions,
  ZKustoError,
  ZKustoRequest,
  ZKustoV1Response,
  ZKustoV2Response,
  type TKustoOptions,
  type TKustoRequest,
} from "@/lib/contract/kusto";
import { parse } from "@/lib/kql";
import { ApiError, invalidInput } from "../../../contract/errors";
import { parseWith, readJsonBody } from "../../../platform/http/body";
import { json } from "../../../platform/http/respond";
import type { Route } from "../../../platform/http/router";
import type { ServiceRequest, ServiceResponse } from "../../../platform/http/types";
import type { ApiContribution } from "../../../platform/openapi";
import { authenticate, runTelemetryEngine, type EngineQuery, type QueryEndpointContext } from "../query-endpoint";
import type { TelemetryScope } from "../store";
import { commandQuery, reportColumns, type CommandQuery } from "./management";
import { adxErrorResponse, correlationHeaders, correlationOf, notSupported, v1CommandTable, v1QueryTables, v2FailedFrames, v2Frames } from "./protocol";

const KUSTO_PATHS = { metadata: "/v1/rest/auth/metadata", v2Query: "/v2/rest/query", v1Query: "/v1/rest/query", mgmt: "/v1/rest/mgmt" } as const;

type Kind = "v2" | "v1" | "mgmt";

/**
 * A query without a time scope sees the customer's whole data (under the usual limits). The scope
 * is a range, so "whole" is the widest both engines store: ClickHouse's DateTime64 spans 1900–2299.
 */
const WHOLE_RANGE = { start: new Date(Date.UTC(1900, 0, 1)), end: new Date(Date.UTC(2299, 11, 31)) } as const;

/** Names a client may send as `db` for "my default database" (ADX's own default is NetDefaultDB). */
const DEFAULT_DATABASES = new Set(["", "netdefaultdb"]);

/** The time scope of ADX's `query_datetimescope_*` properties, on `Timestamp` (Events: by overlap). */
function scopeOf(options: TKustoOptions): TelemetryScope {
  if (options.scopeColumn !== undefined && options.scopeColumn !== "Timestamp") {
    throw invalidInput(`Request property 'query_datetimescope_column' must be Timestamp: the scope applies to States.Timestamp and to Events by overlap.`, [
      { field: "properties.Options.query_datetimescope_column", problem: "must be Timestamp" },
    ]);
  }
  const start = options.scopeFrom ?? WHOLE_RANGE.start;
  // `query_datetimescope_to` is inclusive; the scope's end is exclusive and values are milliseconds.
  const end = options.scopeTo ? new Date(options.scopeTo.getTime() + 1) : WHOLE_RANGE.end;
  if (!(start < end)) {
    throw invalidInput("Request property 'query_datetimescope_to' must not be before query_datetimescope_from.", [
      { field: "properties.Options.query_datetimescope_to", problem: "must not be before query_datetimescope_from" },
    ]);
  }
  return { start, end, plantIds: null };
}

function readOptions(request: TKustoRequest): TKustoOptions {
  try {
    return readKustoOptions(request.properties);
  } catch (error) {
    if (error instanceof KustoOptionError) throw invalidInput(error.message, [{ field: error.option === "Parameters" ? "properties.Parameters" : `properties.Options.${error.option}`, problem: error.problem }]);
    throw error;
  }
}

/**
 * An INVALID_QUERY as ADX reports it: syntax or semantic (ADX's SYN/SEM codes; the parser alone
 * tells them apart), and for a piped command its position moved from the generated query back to
 * what the client typed (`shift` characters on the first line).
 */
function locateQueryError(error: ApiError, kql: string, shift: number): ApiError {
  const where = error.data[0] as { line: number; column: number; message: string } | undefined;
  if (!where) return error;
  const column = where.line === 1 ? Math.max(1, where.column - shift) : where.column;
  const kind = parse(kql).diagnostics.length > 0 ? "syntax" : "semantic";
  return new ApiError("INVALID_QUERY", `${where.message} (line ${where.line}, column ${column})`, [{ ...where, column, kind }], error.headers);
}

async function handle(kind: Kind, req: ServiceRequest, ctx: QueryEndpointContext): Promise<ServiceResponse> {
  const correlation = correlationOf(req.headers);
  const context = `POST ${kind}`;
  let command: CommandQuery | undefined;
  let kql = "";
  try {
    const token = await authenticate(req, ctx.tokens, ctx.now?.() ?? new Date());
    const prepare = (): EngineQuery => {
      const request = parseWith(ZKustoRequest, readJsonBody(req), "Kusto request");
      const database = request.db.trim();
      if (!DEFAULT_DATABASES.has(database.toLowerCase()) && database.toLowerCase() !== token.customerId.toLowerCase()) {
        throw new ApiError("FORBIDDEN", `Principal is not authorized to read database '${database.slice(0, 100)}'.`);
      }
      const options = readOptions(request);
      const limits = {
        ...(options.servertimeoutMs !== undefined ? { timeoutMs: options.servertimeoutMs } : {}),
        ...(options.truncationMaxRecords !== undefined ? { maxRows: options.truncationMaxRecords } : {}),
      };
      const isCommand = request.csl.trimStart().startsWith(".");
      // ADX also runs a command sent to v1's query path (Grafana's ADX data source tests its connection
      // with `.show databases schema` there); v2's query path stays for queries.
      if (kind === "mgmt" || (kind === "v1" && isCommand)) {
        if (!isCommand) throw notSupported("A query on the management endpoint (send it to /v2/rest/query)");
        command = commandQuery(request.csl.trimStart(), { customerId: token.customerId, database });
        kql = command.kql;
        return { kql: command.kql, scope: scopeOf({}), limits, ...(options.queryNow ? { now: options.queryNow } : {}) };
      }
      if (isCommand) throw notSupported("A management command on the query endpoint (send it to /v1/rest/mgmt)");
      kql = request.csl;
      return {
        kql: request.csl,
        scope: scopeOf(options),
        limits,
        ...(options.queryNow ? { now: options.queryNow } : {}),
        ...(options.parameters ? { parameters: options.parameters } : {}),
      };
    };
    const { table, headers } = await runTelemetryEngine(ctx, { customerId: token.customerId, budgetKey: token.clientId }, prepare, req.signal);
    const columns = command ? reportColumns(table.columns, command.reportedTypes) : table.columns;
    const at = ctx.now?.() ?? new Date();
    const body = kind === "v2" ? v2Frames(table, columns, correlation, at) : kind === "v1" ? v1QueryTables(table, columns, correlation, at) : v1CommandTable(table, columns);
    return { status: 200, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers, ...correlationHeaders(correlation) }, body };
  } catch (thrown) {
    let error = thrown;
    if (error instanceof ApiError && error.code === "INVALID_QUERY") error = locateQueryError(error, kql, command?.offsetShift ?? 0);
    // ADX reports a failure while the query runs after the 200 and the header, as the query's last frame.
    if (kind === "v2" && error instanceof ApiError && (error.code === "QUERY_LIMIT_EXCEEDED" || error.code === "QUERY_TIMEOUT")) {
      return { status: 200, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...error.headers, ...correlationHeaders(correlation) }, body: v2FailedFrames(error) };
    }
    return adxErrorResponse(error, correlation, context);
  }
}

function metadata(req: ServiceRequest): ServiceResponse {
  const response = json(
    new ApiError("NOT_FOUND", "No cloud metadata: this service issues its own access tokens (POST /oauth2/v2.0/token); connect with an access token.").toBody(),
    404,
  );
  return { ...response, headers: { ...response.headers, ...correlationHeaders(correlationOf(req.headers)) } };
}

export function createKustoRoutes(ctx: QueryEndpointContext): Route[] {
  return [
    { method: "GET", pattern: KUSTO_PATHS.metadata, handler: metadata },
    { method: "POST", pattern: KUSTO_PATHS.v2Query, handler: (req) => handle("v2", req, ctx) },
    { method: "POST", pattern: KUSTO_PATHS.v1Query, handler: (req) => handle("v1", req, ctx) },
    { method: "POST", pattern: KUSTO_PATHS.mgmt, handler: (req) => handle("mgmt", req, ctx) },
  ];
}

const KUSTO_ERRORS = {
  400: "Bad request, bad query (with `innererror`), command not supported",
  403: "`db` is not the token's customer",
  404: "Table not found",
  413: "Body over 1 MiB",
  415: "Body not JSON",
  429: "Cost budget spent or too many queries at once (`Retry-After`)",
  500: "Unexpected failure",
  503: "Shared state unreachable",
};

function kustoOperation(path: string, operationId: string, summary: string, description: string, response: typeof ZKustoV2Response | typeof ZKustoV1Response) {
  return {
    method: "POST" as const,
    path,
    operationId,
    summary,
    description: `${description} 401 has no body. Headers \`x-ms-client-request-id\` (echoed) and \`x-ms-activity-id\` on every answer.`,
    tag: "Kusto protocol",
    security: ["telemetryOAuth"],
    requestBody: { schema: ZKustoRequest },
    response: { schema: response, description: "The answer (header `x-query-cost` as the telemetry query's)." },
    errors: [],
    otherResponses: {
      ...Object.fromEntries(Object.entries(KUSTO_ERRORS).map(([status, description]) => [Number(status), { schema: ZKustoError, description }])),
      401: { description: "No valid bearer token: no body (as ADX), `WWW-Authenticate: Bearer`." },
    },
  };
}

export const kustoApi: ApiContribution = {
  operations: [
    {
      method: "GET",
      path: KUSTO_PATHS.metadata,
      operationId: "kustoAuthMetadata",
      summary: "Kusto cloud metadata (none)",
      description: "Always 404 `NOT_FOUND`: no Entra ID metadata; Microsoft's SDKs then use their defaults and send the access token they were given.",
      tag: "Kusto protocol",
      security: [],
      response: { schema: ZKustoError, description: "Not answered: this service has no cloud metadata and always answers 404 (below)." },
      errors: ["NOT_FOUND"],
    },
    kustoOperation(KUSTO_PATHS.v2Query, "kustoQueryV2", "Kusto query (v2 frames)", "A KQL query over the token's customer database, as ADX's `/v2/rest/query`.", ZKustoV2Response),
    kustoOperation(KUSTO_PATHS.v1Query, "kustoQueryV1", "Kusto query (v1 tables)", "A KQL query, as ADX's `/v1/rest/query`.", ZKustoV1Response),
    kustoOperation(KUSTO_PATHS.mgmt, "kustoManagement", "Kusto management command", "`.show version`, `.show databases`, `.show tables`, `.show table T schema as json`, `.show database X schema as json`, `.show databases schema as json`, `.show functions`, each optionally piped into KQL.", ZKustoV1Response),
  ],
  notes: [
    "**Kusto protocol** (*extension*, docs/api.md §7): `/v2/rest/query`, `/v1/rest/query` and `/v1/rest/mgmt` speak Azure Data Explorer's REST protocol for Microsoft's Kusto SDKs, with a telemetry access token as the bearer token and the customer id as `db`. They run on the telemetry query's engine, isolation, budget and limits; without `query_datetimescope_from/_to` a query sees the customer's whole data. Errors use ADX's body `{ error: { code, message, @type, @message, @permanent, innererror? } }`.",
  ],
};
