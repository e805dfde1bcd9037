/**
 * The Kusto REST protocol's wire forms (docs/api.md §7): ADX's error body, the v2 frames and the v1
 * tables around a result table of the telemetry engine. The engine's rows (JSON text rendered by
 * the store) are placed into the frames as they are: never parsed, never copied.
 */
import { randomUUID } from "node:crypto";
import type { RenderHint } from "@/lib/kql";
import type { TKustoError } from "@/lib/contract/kusto";
import { ApiError } from "../../../contract/errors";
import type { ServiceResponse } from "../../../platform/http/types";
import type { TelemetryColumn, TelemetryTable } from "../store";

/** Correlation headers ADX sends on every answer: the client's request id echoed, a fresh activity id. */
interface Correlation {
  clientRequestId: string;
  activityId: string;
}

const MAX_CLIENT_REQUEST_ID = 256;

export function correlationOf(headers: Record<string, string | undefined>): Correlation {
  const sent = headers["x-ms-client-request-id"];
  // Echoed only when it is a sane header value; otherwise a fresh one, as ADX makes when none is sent.
  const clientRequestId = sent && sent.length <= MAX_CLIENT_REQUEST_ID && /^[\x21-\x7e][\x20-\x7e]*$/.test(sent) ? sent : `unspecified;${randomUUID()}`;
  return { clientRequestId, activityId: randomUUID() };
}

export function correlationHeaders(correlation: Correlation): Record<string, string> {
  return { "x-ms-client-request-id": correlation.clientRequestId, "x-ms-activity-id": correlation.activityId };
}

/** How each of the service's errors reads in ADX's vocabulary. */
interface AdxErrorKind {
  code: string;
  message: string;
  type: string;
  permanent: boolean;
}

const BAD_REQUEST: AdxErrorKind = {
  code: "BadRequest",
  message: "Request is invalid and cannot be executed.",
  type: "Kusto.Data.Exceptions.KustoBadRequestException",
  permanent: true,
};

const ADX_ERRORS: Partial<Record<string, AdxErrorKind>> = {
  INVALID_INPUT: BAD_REQUEST,
  UNSUPPORTED_MEDIA_TYPE: BAD_REQUEST,
  INVALID_QUERY: { ...BAD_REQUEST, code: "General_BadRequest" },
  NOT_SUPPORTED: { ...BAD_REQUEST, code: "General_BadRequest", type: "Kusto.Data.Exceptions.KustoRequestNotSupportedException" },
  QUERY_LIMIT_EXCEEDED: { code: "LimitsExceeded", message: "Request is invalid and cannot be executed.", type: "Kusto.Data.Exceptions.KustoServicePartialQueryFailureLimitsExceededException", permanent: true },
  QUERY_TIMEOUT: { code: "RequestExecutionTimeout", message: "Request execution timed out.", type: "Kusto.Data.Exceptions.KustoRequestTimeoutException", permanent: false },
  FORBIDDEN: { code: "Forbidden", message: "Caller is not authorized to perform this action", type: "Kusto.DataNode.Exceptions.UnauthorizedDatabaseAccessException", permanent: true },
  NOT_FOUND: { code: "NotFound", message: "Request references a non-existing entity.", type: "Kusto.Data.Exceptions.EntityNotFoundException", permanent: true },
  PAYLOAD_TOO_LARGE: { code: "PayloadTooLarge", message: "Request payload exceeded limits.", type: "Kusto.Data.Exceptions.KustoRequestPayloadTooLargeException", permanent: true },
  RATE_LIMITED: { code: "TooManyRequests", message: "Request is denied due to throttling.", type: "Kusto.Data.Exceptions.KustoRequestThrottledException", permanent: false },
  SERVICE_UNAVAILABLE: { code: "ServiceUnavailable", message: "Service is unavailable.", type: "Kusto.Data.Exceptions.KustoServiceException", permanent: false },
};

const INTERNAL: AdxErrorKind = { code: "InternalServiceError", message: "Service found an error while processing the request.", type: "Kusto.Data.Exceptions.KustoServiceException", permanent: false };

/**
 * A request this service does not run (a management command beyond the ones it knows): 400 with
 * ADX's "not supported" error. The code is this protocol's own, so it is made as a code "received"
 * (kept as given, status 400) rather than added to the service's vocabulary of docs/api.md §4.
 */
export function notSupported(what: string): ApiError {
  return ApiError.received(400, "NOT_SUPPORTED", `${what} is not supported by this service.`);
}

/** ADX's prefix and code of a query error, by kind (endpoints.ts tells syntax from semantic). */
const QUERY_ERROR_KINDS = { syntax: { prefix: "Syntax error", code: "SYN0002" }, semantic: { prefix: "Semantic error", code: "SEM0100" } } as const;

/**
 * The body of an ApiError in ADX's shape. A query error reads as ADX's ("Request is invalid and
 * cannot be processed: Semantic error: …") and carries its position as `innererror`.
 */
function adxError(error: ApiError): TKustoError {
  const kind = ADX_ERRORS[error.code] ?? (error.status >= 500 ? INTERNAL : BAD_REQUEST);
  const where =
    error.code === "INVALID_QUERY" ? (error.data[0] as { line?: number; column?: number; message?: string; kind?: keyof typeof QUERY_ERROR_KINDS } | undefined) : undefined;
  const queryKind = QUERY_ERROR_KINDS[where?.kind ?? "semantic"];
  const detail = where ? `${queryKind.prefix}: ${queryKind.code}: ${error.message}` : error.message;
  const lead = kind.permanent && kind.code.includes("BadRequest") ? "Request is invalid and cannot be processed" : kind.message.replace(/\.$/, "");
  return {
    error: {
      code: kind.code,
      message: kind.message,
      "@type": kind.type,
      "@message": `${lead}: ${detail}`,
      "@permanent": kind.permanent,
      ...(where?.line !== undefined && where.column !== undefined
        ? { innererror: { code: queryKind.code, message: where.message ?? error.message, "@line": String(where.line), "@pos": String(where.column - 1) } }
        : {}),
    },
  };
}

/** Anything thrown while answering, as ADX answers it: 401 without a body, others the error body. */
export function adxErrorResponse(thrown: unknown, correlation: Correlation, context: string): ServiceResponse {
  let error: ApiError;
  if (thrown instanceof ApiError) error = thrown;
  else {
    // No request details: they may hold tokens.
    console.error(`[kusto] ${context} failed: ${thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown)}`);
    error = new ApiError("INTERNAL_ERROR", "An unexpected error occurred.");
  }
  const headers = { "cache-control": "no-store", ...error.headers, ...correlationHeaders(correlation) };
  if (error.status === 401) return { status: 401, headers: { "www-authenticate": 'Bearer realm="plantdesk"', ...headers }, body: "" };
  return { status: error.status, headers: { ...headers, "content-type": "application/json; charset=utf-8" }, body: JSON.stringify(adxError(error)) };
}

// ---- result tables ----

/** ADX's `Visualization` property (the `render` operator's hint), as its clients read it. */
const VISUALIZATION_KEYS = [
  "Visualization",
  "Title",
  "XColumn",
  "Series",
  "YColumns",
  "AnomalyColumns",
  "XTitle",
  "YTitle",
  "XAxis",
  "YAxis",
  "Legend",
  "YSplit",
  "Accumulate",
  "IsQuerySorted",
  "Kind",
  "Ymin",
  "Ymax",
  "Xmin",
  "Xmax",
] as const;

function visualizationJson(render: RenderHint): string {
  const given = new Map(Object.entries(render.properties).map(([key, value]) => [key.toLowerCase(), value]));
  const value: Record<string, unknown> = {};
  for (const key of VISUALIZATION_KEYS) {
    const defaultValue = key === "Accumulate" || key === "IsQuerySorted" ? false : key === "Ymin" || key === "Ymax" ? "NaN" : null;
    value[key] = key === "Visualization" ? render.kind : (given.get(key.toLowerCase()) ?? defaultValue);
  }
  return JSON.stringify(value);
}

/** The ADX type a result column is reported with (KQL here has no `guid`: a management column may declare it). */
export type ReportedColumn = Pick<TelemetryColumn, "name" | "columnType" | "dataType">;

const utf8 = (text: string) => Buffer.from(text);

/** A DataTable frame whose Rows are the engine's JSON text, as it is. */
function dataTableFrame(id: number, kind: string, name: string, columns: readonly ReportedColumn[], rows: readonly Uint8Array[]): Uint8Array[] {
  const head = { FrameType: "DataTable", TableId: id, TableKind: kind, TableName: name, Columns: columns.map((c) => ({ ColumnName: c.name, ColumnType: c.columnType })) };
  const text = JSON.stringify(head);
  return [utf8(`${text.slice(0, -1)},"Rows":`), ...rows, utf8("}")];
}

const jsonRows = (rows: unknown[][]) => [utf8(JSON.stringify(rows))];

const QUERY_PROPERTIES_COLUMNS: ReportedColumn[] = [
  { name: "TableId", columnType: "int", dataType: "Int32" },
  { name: "Key", columnType: "string", dataType: "String" },
  { name: "Value", columnType: "dynamic", dataType: "Object" },
];

const COMPLETION_COLUMNS: ReportedColumn[] = [
  ["Timestamp", "datetime"],
  ["ClientRequestId", "string"],
  ["ActivityId", "guid"],
  ["SubActivityId", "guid"],
  ["ParentActivityId", "guid"],
  ["Level", "int"],
  ["LevelName", "string"],
  ["StatusCode", "int"],
  ["StatusCodeName", "string"],
  ["EventType", "int"],
  ["EventTypeName", "string"],
  ["Payload", "string"],
].map(([name, columnType]) => ({ name: name!, columnType: columnType!, dataType: "" }));

/** ADX's completion rows: the query's outcome (Info) and its resource use (Stats); no row is an error. */
function completionRows(table: TelemetryTable, correlation: Correlation, at: Date): unknown[][] {
  const ids = [correlation.clientRequestId, correlation.activityId, randomUUID(), randomUUID()];
  return [
    [at.toISOString(), ...ids, 4, "Info", 0, "S_OK (0)", 4, "QueryInfo", JSON.stringify({ Count: 1, Text: "Query completed successfully" })],
    [
      at.toISOString(),
      ...ids,
      6,
      "Stats",
      0,
      "S_OK (0)",
      0,
      "QueryResourceConsumption",
      JSON.stringify({ ExecutionTime: table.elapsedMs / 1000, dataset_statistics: [{ table_row_count: table.rowCount, table_size: table.bytes }] }),
    ],
  ];
}

const DATASET_HEADER = utf8(JSON.stringify({ FrameType: "DataSetHeader", IsProgressive: false, Version: "v2.0" }));

/** A successful v2 answer: header, @ExtendedProperties, PrimaryResult, QueryCompletionInformation, completion. */
export function v2Frames(table: TelemetryTable, columns: readonly ReportedColumn[], correlation: Correlation, at: Date): Uint8Array[] {
  const properties = table.render ? [[1, "Visualization", visualizationJson(table.render)]] : [];
  const comma = utf8(",");
  return [
    utf8("["),
    DATASET_HEADER,
    comma,
    ...dataTableFrame(0, "QueryProperties", "@ExtendedProperties", QUERY_PROPERTIES_COLUMNS, jsonRows(properties)),
    comma,
    ...dataTableFrame(1, "PrimaryResult", "PrimaryResult", columns, table.rows),
    comma,
    ...dataTableFrame(2, "QueryCompletionInformation", "QueryCompletionInformation", COMPLETION_COLUMNS, jsonRows(completionRows(table, correlation, at))),
    comma,
    utf8(JSON.stringify({ FrameType: "DataSetCompletion", HasErrors: false, Cancelled: false })),
    utf8("]"),
  ];
}

/** A v2 answer whose query failed after the header (a limit, the time limit): ADX's partial failure. */
export function v2FailedFrames(error: ApiError): string {
  return JSON.stringify([
    { FrameType: "DataSetHeader", IsProgressive: false, Version: "v2.0" },
    { FrameType: "DataSetCompletion", HasErrors: true, Cancelled: error.code === "QUERY_TIMEOUT", OneApiErrors: [adxError(error)] },
  ]);
}

/** One v1 table whose Rows are JSON text as it is. */
function v1Table(name: string, columns: readonly ReportedColumn[], rows: readonly Uint8Array[]): Uint8Array[] {
  const head = JSON.stringify({ TableName: name, Columns: columns.map((c) => ({ ColumnName: c.name, DataType: c.dataType, ColumnType: c.columnType })) });
  return [utf8(`${head.slice(0, -1)},"Rows":`), ...rows, utf8("}")];
}

const QUERY_STATUS_COLUMNS: ReportedColumn[] = [
  { name: "Timestamp", columnType: "datetime", dataType: "DateTime" },
  { name: "Severity", columnType: "int", dataType: "Int32" },
  { name: "SeverityName", columnType: "string", dataType: "String" },
  { name: "StatusCode", columnType: "int", dataType: "Int32" },
  { name: "StatusDescription", columnType: "string", dataType: "String" },
  { name: "Count", columnType: "int", dataType: "Int32" },
  { name: "RequestId", columnType: "guid", dataType: "Guid" },
  { name: "ActivityId", columnType: "guid", dataType: "Guid" },
  { name: "SubActivityId", columnType: "guid", dataType: "Guid" },
  { name: "ClientActivityId", columnType: "string", dataType: "String" },
];

const TOC_COLUMNS: ReportedColumn[] = [
  { name: "Ordinal", columnType: "long", dataType: "Int64" },
  { name: "Kind", columnType: "string", dataType: "String" },
  { name: "Name", columnType: "string", dataType: "String" },
  { name: "Id", columnType: "string", dataType: "String" },
  { name: "PrettyName", columnType: "string", dataType: "String" },
];

/** A v1 query answer: the result, @ExtendedProperties, QueryStatus and the table of contents (ADX's four tables). */
export function v1QueryTables(table: TelemetryTable, columns: readonly ReportedColumn[], correlation: Correlation, at: Date): Uint8Array[] {
  const extended = table.render ? [[visualizationJson(table.render)]] : [];
  const status = [[at.toISOString(), 4, "Info", 0, "Query completed successfully", 1, randomUUID(), correlation.activityId, randomUUID(), correlation.clientRequestId]];
  const toc = [
    [0, "QueryResult", "PrimaryResult", randomUUID(), ""],
    [1, "QueryProperties", "@ExtendedProperties", randomUUID(), ""],
    [2, "QueryStatus", "QueryStatus", randomUUID(), ""],
  ];
  const comma = utf8(",");
  return [
    utf8('{"Tables":['),
    ...v1Table("Table_0", columns, table.rows),
    comma,
    ...v1Table("Table_1", [{ name: "Value", columnType: "string", dataType: "String" }], jsonRows(extended)),
    comma,
    ...v1Table("Table_2", QUERY_STATUS_COLUMNS, jsonRows(status)),
    comma,
    ...v1Table("Table_3", TOC_COLUMNS, jsonRows(toc)),
    utf8("]}"),
  ];
}

/** A management command's answer: one table, `Table_0`. */
export function v1CommandTable(table: TelemetryTable, columns: readonly ReportedColumn[]): Uint8Array[] {
  return [utf8('{"Tables":['), ...v1Table("Table_0", columns, table.rows), utf8("]}")];
}
