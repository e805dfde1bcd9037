/**
 * Payloads of the Kusto REST protocol (docs/api.md §7): what Azure Data Explorer's clients send to
 * `/v2/rest/query`, `/v1/rest/query` and `/v1/rest/mgmt`, and the answers they parse — the v2
 * frames, the v1 tables and ADX's error body. Shapes and names follow Microsoft's "Query V2 HTTP
 * response", "Query/management HTTP response" and "Request properties" pages.
 */
import { z } from "./zod";
import { MAX_QUERY_LENGTH } from "./telemetry";

/** Longest `db` name accepted (a customer id; ADX's own limit is 260). */
const MAX_DATABASE_NAME = 260;
/** Longest `properties` (as JSON text or object) read. */
const MAX_PROPERTIES_LENGTH = 64 * 1024;

/**
 * The client request properties, as the SDKs send them: `{ Options: {…}, Parameters: {…} }`,
 * either as an object or as that object's JSON text. Names are case-insensitive, unknown ones are
 * ignored (as ADX does). `Parameters` are the values of the query's `declare query_parameters(…)`.
 */
const ZKustoRequestProperties = z
  .preprocess(
    (value) => {
      if (typeof value !== "string") return value;
      if (value.length > MAX_PROPERTIES_LENGTH) return Symbol("too long");
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return Symbol("not JSON");
      }
    },
    z.record(z.string(), z.unknown(), { error: "must be an object, or its JSON text" }),
  )
  .meta({
    id: "KustoRequestProperties",
    description:
      "Client request properties `{ Options: { … }, Parameters: { … } }` (object or JSON text; option names case-insensitive; unknown ones ignored). " +
      "`Parameters` are the values of `declare query_parameters(…)` by name, as text (`ClientRequestProperties.setParameter`). " +
      "Honoured options: `servertimeout`, `truncationmaxrecords`, `query_now`, `query_datetimescope_from`, `query_datetimescope_to`, `query_datetimescope_column`.",
  });

export const ZKustoRequest = z
  .object({
    db: z
      .string({ error: "is required" })
      .max(MAX_DATABASE_NAME, `must be at most ${MAX_DATABASE_NAME} characters`)
      .meta({ description: "The database: the client's customer id, e.g. `CUST-ACME`." }),
    csl: z
      .string({ error: "is required" })
      .refine((text) => text.trim().length > 0, "must not be empty")
      .max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`)
      .meta({ description: "The KQL query, or a management command starting with `.`." }),
    properties: ZKustoRequestProperties.optional(),
  })
  .meta({ id: "KustoRequest", description: "A Kusto query or management command, as Microsoft's SDKs send it." });

/** The options this service honours, after case-insensitive lookup and validation. */
export interface TKustoOptions {
  servertimeoutMs?: number;
  truncationMaxRecords?: number;
  queryNow?: Date;
  scopeFrom?: Date;
  scopeTo?: Date;
  scopeColumn?: string;
  /** `Parameters`: the values of the query's `declare query_parameters(…)`, as text. */
  parameters?: Record<string, string>;
}

/** ADX's timespan text `[-][d.]hh:mm:ss[.fffffff]`, or a KQL literal such as `30s`, `5m`, `1h`, `100ms`. */
const TIMESPAN_TEXT = /^(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?$/;
const TIMESPAN_LITERAL = /^(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|seconds?|m|minutes?|h|hours?|d|days?)$/i;
const UNIT_MS: Record<string, number> = { ms: 1, millisecond: 1, milliseconds: 1, s: 1000, second: 1000, seconds: 1000, m: 60_000, minute: 60_000, minutes: 60_000, h: 3_600_000, hour: 3_600_000, hours: 3_600_000, d: 86_400_000, day: 86_400_000, days: 86_400_000 };

export function parseTimespanMs(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value !== "string") return null;
  const text = value.trim();
  const m = TIMESPAN_TEXT.exec(text);
  if (m) {
    const fraction = m[5] ? Number(`0.${m[5]}`) : 0;
    return ((Number(m[1] ?? 0) * 24 + Number(m[2])) * 3600 + Number(m[3]) * 60 + Number(m[4]) + fraction) * 1000;
  }
  const literal = TIMESPAN_LITERAL.exec(text);
  return literal ? Number(literal[1]) * UNIT_MS[literal[2]!.toLowerCase()]! : null;
}

/** A datetime option: ISO 8601 (`Z` or an offset; no zone is UTC), or `datetime(…)` around it. */
function parseInstant(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const inner = /^\s*datetime\((.*)\)\s*$/i.exec(value)?.[1] ?? value;
  const text = inner.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(text)) return null;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(text) || text.length === 10 ? text : `${text}Z`;
  const date = new Date(zoned.replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** One invalid option: its name and why (the endpoint answers 400 with it). */
export class KustoOptionError extends Error {
  constructor(
    readonly option: string,
    readonly problem: string,
  ) {
    super(`Request property '${option}' ${problem}.`);
  }
}

/** Most query parameters one request may carry. */
const MAX_PARAMETERS = 100;

/** `Parameters`: names to text; a number, bool or JSON value an SDK passes through as it is becomes its text. */
function readParameters(value: unknown): Record<string, string> {
  if (typeof value !== "object" || Array.isArray(value)) throw new KustoOptionError("Parameters", "must be an object of names to values");
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_PARAMETERS) throw new KustoOptionError("Parameters", `must hold at most ${MAX_PARAMETERS} parameters`);
  const result: Record<string, string> = {};
  for (const [name, raw] of entries) {
    if (raw === null || raw === undefined) continue;
    result[name] = typeof raw === "string" ? raw : typeof raw === "object" ? JSON.stringify(raw) : String(raw);
  }
  return result;
}

/** Reads the honoured options out of parsed properties; throws KustoOptionError for a bad value. */
export function readKustoOptions(properties: Record<string, unknown> | undefined): TKustoOptions {
  const lower = (record: Record<string, unknown>) => new Map(Object.entries(record).map(([key, value]) => [key.toLowerCase(), value]));
  const top = lower(properties ?? {});
  const nested = top.get("options");
  // The SDKs nest the options under `Options`; a hand-written request may put them at the top.
  const options = nested && typeof nested === "object" && !Array.isArray(nested) ? new Map([...top, ...lower(nested as Record<string, unknown>)]) : top;
  const result: TKustoOptions = {};

  const timeout = options.get("servertimeout");
  if (timeout !== undefined && timeout !== null) {
    const ms = parseTimespanMs(timeout);
    if (ms === null || ms <= 0) throw new KustoOptionError("servertimeout", "must be a positive timespan, e.g. 00:01:00 or 1m");
    result.servertimeoutMs = ms;
  }
  const truncation = options.get("truncationmaxrecords");
  if (truncation !== undefined && truncation !== null) {
    const records = typeof truncation === "string" && /^\d{1,15}$/.test(truncation.trim()) ? Number(truncation) : truncation;
    if (typeof records !== "number" || !Number.isInteger(records) || records < 0) {
      throw new KustoOptionError("truncationmaxrecords", "must be a non-negative integer");
    }
    result.truncationMaxRecords = records;
  }
  for (const [name, key] of [
    ["query_now", "queryNow"],
    ["query_datetimescope_from", "scopeFrom"],
    ["query_datetimescope_to", "scopeTo"],
  ] as const) {
    const value = options.get(name);
    if (value === undefined || value === null) continue;
    const instant = parseInstant(value);
    if (!instant) throw new KustoOptionError(name, "must be a datetime, e.g. 2024-05-01T00:00:00Z");
    result[key] = instant;
  }
  const column = options.get("query_datetimescope_column");
  if (column !== undefined && column !== null) {
    if (typeof column !== "string" || column.trim() === "") throw new KustoOptionError("query_datetimescope_column", "must be a column name");
    result.scopeColumn = column.trim();
  }
  const parameters = top.get("parameters");
  if (parameters !== undefined && parameters !== null) result.parameters = readParameters(parameters);
  return result;
}

// ---- answers ----

const ZColumnV2 = z.object({ ColumnName: z.string(), ColumnType: z.string().meta({ description: "ADX type: string, long, int, real, bool, datetime, timespan, dynamic, guid." }) });

const ZKustoDataTableFrame = z
  .object({
    FrameType: z.literal("DataTable"),
    TableId: z.number().int(),
    TableKind: z.enum(["QueryProperties", "PrimaryResult", "QueryCompletionInformation"]),
    TableName: z.string(),
    Columns: z.array(ZColumnV2),
    Rows: z.array(z.array(z.unknown())),
  })
  .meta({ id: "KustoDataTableFrame" });

/** ADX's error (Microsoft REST API guidelines' OneApiErrors, as ADX fills it). */
export const ZKustoError = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      "@type": z.string(),
      "@message": z.string(),
      "@permanent": z.boolean(),
      innererror: z
        .object({ code: z.string(), message: z.string(), "@line": z.string(), "@pos": z.string() })
        .optional()
        .meta({ description: "Where a query is wrong: 1-based `@line`, 0-based `@pos` within the line." }),
    }),
  })
  .meta({ id: "KustoError", description: "ADX's error body: every 4xx but 401 (which has no body), and `OneApiErrors` items." });

export const ZKustoV2Response = z
  .array(
    z.union([
      z.object({ FrameType: z.literal("DataSetHeader"), IsProgressive: z.literal(false), Version: z.literal("v2.0") }),
      ZKustoDataTableFrame,
      z.object({ FrameType: z.literal("DataSetCompletion"), HasErrors: z.boolean(), Cancelled: z.boolean(), OneApiErrors: z.array(ZKustoError).optional() }),
    ]),
  )
  .meta({
    id: "KustoV2Response",
    description:
      "Frames: `DataSetHeader`, `@ExtendedProperties` (QueryProperties), `PrimaryResult`, `QueryCompletionInformation`, `DataSetCompletion`. " +
      "A failure after the header (a limit, the time limit) ends in `DataSetCompletion { HasErrors: true, OneApiErrors }`.",
  });

const ZKustoV1Table = z
  .object({
    TableName: z.string(),
    Columns: z.array(z.object({ ColumnName: z.string(), DataType: z.string().meta({ description: ".NET type: String, Int64, Double, …" }), ColumnType: z.string() })),
    Rows: z.array(z.array(z.unknown())),
  })
  .meta({ id: "KustoV1Table" });

export const ZKustoV1Response = z
  .object({ Tables: z.array(ZKustoV1Table) })
  .meta({
    id: "KustoV1Response",
    description: "A query: `Table_0` (result), `Table_1` (@ExtendedProperties), `Table_2` (QueryStatus), `Table_3` (table of contents). A management command: `Table_0`.",
  });

export type TKustoRequest = z.output<typeof ZKustoRequest>;
export type TKustoError = z.infer<typeof ZKustoError>;
