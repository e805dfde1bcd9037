import "server-only";
/**
 * The dashboard's client of the service, the same in embedded and remote mode (only the transport
 * and the credentials differ). It holds every token, adds the right one to each call, applies the
 * retry policy, and validates every answer with the spec's zod schemas: whatever reaches the
 * browser has the documented shape, and whatever does not is a 502 logged with the path and the
 * first problem (never a header, so never a token).
 */
import type { z } from "zod";
import { BffError } from "@/lib/bff/errors";
import { ERROR_STATUS } from "@/lib/service/errors";
import { ZErrorBody } from "./schemas/common";
import { ZTelemetryQueryResponse, ZTokenResponse } from "./schemas/telemetry";
import { DEFAULT_SEND_OPTIONS, sendWithRetries, type RetryPolicy, type SendOptions } from "./send";
import { createTokenCache, type TokenCache } from "./token-cache";
import type { Transport, UpstreamResponse } from "./transport";

export interface PlantInfo {
  id: string;
  name: string;
  /** Unknown in remote mode unless PLANT_TOKENS says. */
  customerId: string | null;
}

export interface TelemetryCredentials {
  clientId: string;
  clientSecret: string;
  scope: string;
}

/** Where the secrets come from: provisioned in memory (embedded) or configuration (remote). */
export interface Credentials {
  plants(): PlantInfo[];
  /** The plant's bearer token, or null when this dashboard holds none for it. */
  plantToken(plantId: string): string | null;
  /** The telemetry client for these plants' customer (null: remote mode's single client). */
  telemetryClient(customerId: string | null): TelemetryCredentials | null;
}

export interface UpstreamResult<T> {
  status: number;
  data: T;
  /** The service's JSON text, already validated as `data`: passed on as is, not serialised again. */
  body: string;
  headers: Record<string, string>;
}

export interface MaintenanceCall<S extends z.ZodType> {
  plantId: string;
  method: "GET" | "POST" | "PUT";
  /** Below the plant, e.g. `/jobs-done` or `/tasks/T-1/transitions`. */
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  schema: S;
  /** Sent as Idempotency-Key; makes a POST safe to retry. */
  idempotencyKey?: string;
  /** A decisions.md extension: a service without it answers 404/405 → FEATURE_UNAVAILABLE. */
  extension?: string;
  signal?: AbortSignal;
}

export interface UpstreamClient {
  readonly mode: "embedded" | "remote";
  plants(): PlantInfo[];
  maintenance<S extends z.ZodType>(call: MaintenanceCall<S>): Promise<UpstreamResult<z.output<S>>>;
  /** A telemetry query for plants of one customer (`customerId` null in remote mode). */
  telemetryQuery(body: unknown, customerId: string | null, signal?: AbortSignal): Promise<UpstreamResult<z.output<typeof ZTelemetryQueryResponse>>>;
}

export interface ClientDeps {
  mode: "embedded" | "remote";
  service: Transport;
  auth: Transport;
  credentials: Credentials;
  timeouts: { maintenanceMs: number; queryMs: number };
  send?: Partial<Omit<SendOptions, "timeoutMs">>;
}

/** Not-found codes that are about a record, not a missing endpoint. */
const RECORD_NOT_FOUND = new Set(["PLANT_NOT_FOUND", "PART_NOT_FOUND", "TASK_NOT_FOUND"]);
const TELEMETRY_PATH = "/insights/v1/telemetry/query/table";
const TOKEN_PATH = "/oauth2/v2.0/token";
/** Headers of the service's answer the browser may see. */
const FORWARDED_HEADERS = ["retry-after", "x-query-cost"];

function invalidResponse(where: string, problem: string): BffError {
  console.warn(`[upstream] ${where}: invalid response: ${problem}`);
  return new BffError(502, "UPSTREAM_INVALID_RESPONSE", "The service sent an answer the dashboard cannot read.");
}

const NOT_JSON = Symbol("not JSON");

function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/** A 200's body must be JSON; an error's may be anything (a proxy's HTML page, say). */
function parseJson(response: UpstreamResponse, where: string): unknown {
  const body = tryParseJson(response.body);
  if (body === NOT_JSON && response.status === 200) throw invalidResponse(where, "status 200, body is not JSON");
  return body;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "schema mismatch";
}

function forwardedHeaders(response: UpstreamResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) if (response.headers[name]) headers[name] = response.headers[name];
  return headers;
}

/** Turns a non-200 answer (or a 200 ERROR write result) of the service into the browser's error. */
function failure(response: UpstreamResponse, body: unknown, where: string, extension: string | undefined): BffError {
  const parsed = ZErrorBody.safeParse(body);
  const code = parsed.success ? parsed.data.code : null;
  if (extension && (response.status === 405 || (response.status === 404 && !(code && RECORD_NOT_FOUND.has(code))))) {
    return new BffError(501, "FEATURE_UNAVAILABLE", `The service does not offer ${extension}.`, [{ feature: extension }]);
  }
  if (response.status === 401 || response.status === 403) {
    console.warn(`[upstream] ${where}: the service refused the dashboard's credentials (${response.status})`);
    return new BffError(502, "UPSTREAM_AUTH_FAILED", "The dashboard's access to the service was refused. Tell your administrator.");
  }
  if (response.status >= 500) {
    console.warn(`[upstream] ${where}: service error ${response.status}${code ? ` ${code}` : ""}`);
    return new BffError(502, "UPSTREAM_UNAVAILABLE", "The service failed to answer. Please try again later.");
  }
  if (!parsed.success) throw invalidResponse(where, `status ${response.status}, error body: ${firstIssue(parsed.error)}`);
  const status = response.status === 200 ? (ERROR_STATUS[parsed.data.code as keyof typeof ERROR_STATUS] ?? 400) : response.status;
  return new BffError(status, parsed.data.code, parsed.data.message, parsed.data.data, forwardedHeaders(response));
}

export function createUpstreamClient(deps: ClientDeps): UpstreamClient {
  const sendOptions = { ...DEFAULT_SEND_OPTIONS, ...deps.send };
  const tokenCaches = new Map<string, TokenCache>();

  function tokenCacheFor(customerId: string | null): TokenCache {
    const key = customerId ?? "*";
    let cache = tokenCaches.get(key);
    if (!cache) {
      const client = deps.credentials.telemetryClient(customerId);
      if (!client) throw new BffError(403, "FORBIDDEN", "This dashboard has no telemetry access for these plants.");
      cache = createTokenCache(async () => {
        const form = new URLSearchParams({ grant_type: "client_credentials", client_id: client.clientId, client_secret: client.clientSecret, scope: client.scope });
        const response = await sendWithRetries(
          deps.auth,
          { method: "POST", path: TOKEN_PATH, headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body: form.toString() },
          "read",
          { ...sendOptions, timeoutMs: deps.timeouts.maintenanceMs },
        );
        const where = `POST ${TOKEN_PATH}`;
        if (response.status !== 200) {
          // The OAuth error body (RFC 6749 §5.2) may echo the request: log only the status.
          console.warn(`[upstream] ${where}: token request refused (${response.status})`);
          throw new BffError(502, "UPSTREAM_AUTH_FAILED", "The dashboard could not obtain telemetry access. Tell your administrator.");
        }
        const parsed = ZTokenResponse.safeParse(parseJson(response, where));
        if (!parsed.success) throw invalidResponse(where, firstIssue(parsed.error));
        return { value: parsed.data.access_token, expiresIn: parsed.data.expires_in };
      });
      tokenCaches.set(key, cache);
    }
    return cache;
  }

  return {
    mode: deps.mode,
    plants: () => deps.credentials.plants(),

    async maintenance(call) {
      const token = deps.credentials.plantToken(call.plantId);
      if (!token) throw new BffError(404, "PLANT_NOT_FOUND", `Plant ${call.plantId} is not served by this dashboard.`);
      const path = `/maintenance/v1/plants/${encodeURIComponent(call.plantId)}${call.path}`;
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
      if (call.body !== undefined) headers["content-type"] = "application/json";
      if (call.idempotencyKey) headers["idempotency-key"] = call.idempotencyKey;
      const policy: RetryPolicy = call.method === "GET" ? "read" : call.idempotencyKey ? "keyed-write" : "write";
      const response = await sendWithRetries(
        deps.service,
        { method: call.method, path, query: call.query, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) },
        policy,
        { ...sendOptions, timeoutMs: deps.timeouts.maintenanceMs },
        call.signal,
      );
      const where = `${call.method} ${path}`;
      const body = parseJson(response, where);
      if (response.status !== 200 || (call.method !== "GET" && ZErrorBody.safeParse(body).success)) {
        throw failure(response, body, where, call.extension);
      }
      const parsed = call.schema.safeParse(body);
      if (!parsed.success) throw invalidResponse(where, firstIssue(parsed.error));
      return { status: 200, data: parsed.data, body: response.body, headers: forwardedHeaders(response) };
    },

    async telemetryQuery(body, customerId, signal) {
      const cache = tokenCacheFor(customerId);
      const where = `POST ${TELEMETRY_PATH}`;
      for (let attemptNo = 1; ; attemptNo += 1) {
        const token = await cache.get();
        const response = await sendWithRetries(
          deps.service,
          {
            method: "POST",
            path: TELEMETRY_PATH,
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" },
            body: JSON.stringify(body),
          },
          "read", // a query changes nothing: safe to repeat
          { ...sendOptions, timeoutMs: deps.timeouts.queryMs },
          signal,
        );
        if (response.status === 401 && attemptNo === 1) {
          // Expired or revoked early: one more try with a fresh token.
          cache.invalidate(token);
          continue;
        }
        const json = parseJson(response, where);
        if (response.status !== 200) throw failure(response, json, where, undefined);
        const parsed = ZTelemetryQueryResponse.safeParse(json);
        if (!parsed.success) throw invalidResponse(where, firstIssue(parsed.error));
        return { status: 200, data: parsed.data, body: response.body, headers: forwardedHeaders(response) };
      }
    },
  };
}
