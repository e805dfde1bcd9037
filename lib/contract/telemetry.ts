/**
 * Payloads of the telemetry interface and its OAuth server (docs/api.md §5–§6):
 * validated by the embedded service, the dashboard's client and the explorer's form, and written
 * into the OpenAPI document. No server-only import: the browser uses these too.
 */
import { z } from "./zod";
import { ZId } from "./common";
import { MAX_RESULT_ROWS } from "./vocabulary";

export { MAX_RESULT_ROWS };
/** Longest query range (docs/api.md §6). */
const MAX_QUERY_RANGE_DAYS = 400;
export const MAX_QUERY_LENGTH = 65_536;
const MAX_QUERY_PLANTS = 100;

const ZUtcInstant = z.iso
  .datetime({ offset: false, error: "must be an ISO 8601 UTC timestamp ending in Z, e.g. 2024-05-01T00:00:00.000Z" })
  .meta({ id: "UtcInstant", description: "ISO 8601 UTC instant ending in `Z`, e.g. `2024-05-01T00:00:00.000Z`." });

/** Most query parameters one request may send (ADX's `declare query_parameters` names). */
const MAX_QUERY_PARAMETERS = 100;

/**
 * Values of the query's `declare query_parameters(…)`, as ADX's clients send them: text, read as a
 * literal of the declared type (a string parameter takes the text as it is); numbers and bools are
 * taken as their text. Names the query does not declare are ignored, as in ADX.
 */
const ZQueryParameters = z
  .record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, "must be a KQL name"),
    z.union([z.string().max(MAX_QUERY_LENGTH), z.number(), z.boolean()]).transform(String),
  )
  .refine((values) => Object.keys(values).length <= MAX_QUERY_PARAMETERS, `must hold at most ${MAX_QUERY_PARAMETERS} parameters`)
  .meta({ id: "QueryParameters", description: "Values of `declare query_parameters(…)` by name, e.g. `{ \"threshold\": \"90\", \"since\": \"datetime(2024-05-01)\" }`; never spliced into SQL." });

/** The fields of a query request, shared by the service's endpoint and the dashboard's /api/ (lib/contract/explorer.ts). */
export const TELEMETRY_QUERY_FIELDS = {
  query: z
    .string({ error: "is required" })
    .refine((text) => text.trim().length > 0, "must not be empty")
    .max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`)
    .meta({ description: "KQL: `States` or `Events` followed by `|`-separated operators (see the API notes)." }),
  startTime: ZUtcInstant.meta({ description: "Inclusive start of the range." }),
  endTime: ZUtcInstant.meta({ description: "Exclusive end of the range; after startTime, at most 400 days later." }),
  plantIds: z
    .array(ZId)
    .max(MAX_QUERY_PLANTS)
    .optional()
    .meta({ description: "Plants to query; omitted → every plant of the client's customer. A plant of another customer gives 400." }),
  parameters: ZQueryParameters.optional(),
};

/** The range rule of a query request: end after start, at most MAX_QUERY_RANGE_DAYS later. */
export function checkQueryRange(value: { startTime: string; endTime: string }, ctx: z.RefinementCtx): void {
  const start = Date.parse(value.startTime);
  const end = Date.parse(value.endTime);
  if (!(start < end)) ctx.addIssue({ code: "custom", path: ["endTime"], message: "must be after startTime" });
  else if (end - start > MAX_QUERY_RANGE_DAYS * 86_400_000) {
    ctx.addIssue({ code: "custom", path: ["endTime"], message: `must be at most ${MAX_QUERY_RANGE_DAYS} days after startTime` });
  }
}

export const ZTelemetryQueryRequest = z
  .object(TELEMETRY_QUERY_FIELDS)
  .superRefine(checkQueryRange)
  .meta({ id: "TelemetryQueryRequest", description: "A telemetry query over `[startTime, endTime)`." });

export const ZTelemetryColumn = z
  .object({
    name: z.string(),
    columnType: z.string().meta({ description: "KQL type: string, datetime, dynamic, real, long, int, bool, timespan." }),
    dataType: z.string().meta({ description: "String, DateTime, Object, Double, Int64, Int32, Boolean, TimeSpan." }),
  })
  .meta({ id: "TelemetryColumn" });

export const ZRenderHint = z
  .object({
    kind: z.string().meta({ description: "Chart kind named by `render`, e.g. `timechart`." }),
    properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  })
  .meta({ id: "RenderHint", description: "*Extension*: present when the query ends in `render`; a display hint only." });

export const ZTelemetryQueryResponse = z
  .object({
    data: z.object({
      columns: z.array(ZTelemetryColumn),
      rows: z.array(z.array(z.unknown())).meta({ description: "One array per row, values in column order." }),
      render: ZRenderHint.optional(),
    }),
  })
  .meta({ id: "TelemetryQueryResponse" });

/** RFC 6749 §5.2's codes, and `temporarily_unavailable` (§4.1.2.1) for a throttled client (429). */
const OAUTH_ERRORS = ["invalid_request", "invalid_client", "unsupported_grant_type", "invalid_scope", "temporarily_unavailable"] as const;

export const ZTokenRequest = z
  .object({
    grant_type: z.literal("client_credentials"),
    scope: z.string().meta({ description: "`<TELEMETRY_RESOURCE_ID>/.default`; embedded default `api://plant-telemetry/.default`." }),
    client_id: z.string().optional().meta({ description: "With client_secret: client_secret_post. Or use HTTP Basic." }),
    client_secret: z.string().optional(),
  })
  .meta({ id: "TokenRequest", description: "Form-encoded client-credentials grant." });

export const ZTokenResponse = z
  .object({
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().meta({ description: "Seconds; 3600." }),
    access_token: z.string().min(1),
  })
  .meta({ id: "TokenResponse" });

export const ZOAuthError = z
  .object({ error: z.enum(OAUTH_ERRORS), error_description: z.string() })
  .meta({ id: "OAuthError", description: "RFC 6749 §5.2 error of the token endpoint." });

export const ZOpenIdConfiguration = z
  .object({
    issuer: z.string(),
    token_endpoint: z.string(),
    jwks_uri: z.string(),
    grant_types_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
  })
  .loose()
  .meta({ id: "OpenIdConfiguration", description: "Authorization server metadata (RFC 8414 fields)." });

export const ZJsonWebKeySet = z
  .object({ keys: z.array(z.record(z.string(), z.unknown())) })
  .meta({ id: "JsonWebKeySet", description: "Public keys that verify access tokens (ES256)." });

/** One item of an INVALID_QUERY error's `data`: where the query is wrong, and why. */
export const ZQueryProblem = z
  .object({ line: z.number().int(), column: z.number().int(), message: z.string() })
  .meta({ id: "QueryProblem", description: "Position (1-based line and column) and text of a query error." });

export type TTelemetryQueryRequest = z.output<typeof ZTelemetryQueryRequest>;
export type TQueryProblem = z.infer<typeof ZQueryProblem>;
export type TTelemetryColumn = z.infer<typeof ZTelemetryColumn>;
export type TTelemetryQueryResponse = z.output<typeof ZTelemetryQueryResponse>;
export type TOAuthErrorCode = (typeof OAUTH_ERRORS)[number];
