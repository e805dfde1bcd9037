import "server-only";
/**
 * Remote mode: the dashboard's client of a service that follows the spec, over HTTP. It holds every
 * token, adds the right one to each call, applies the retry policy, and validates every answer
 * with the contract's zod schemas: whatever reaches the browser has the documented shape, and
 * whatever does not is a 502 logged with the path and the first problem (never a header, so never
 * a token). The service's own refusals keep their status and code.
 */
import type { z } from "zod";
import { ZErrorBody } from "@/lib/contract/common";
import { ApiError, ERROR_STATUS } from "@/lib/contract/errors";
import { MAINTENANCE_OPERATIONS, type MaintenanceOperation } from "@/modules/maintenance/contract/maintenance";
import { ZTelemetryQueryResponse, ZTokenResponse } from "@/lib/contract/telemetry";
import { createAnswerCache } from "./answer-cache";
import { DEFAULT_SEND_OPTIONS, sendWithRetries, type RetryPolicy, type SendOptions } from "./send";
import type { SharedState } from "../shared-state";
import { createFixedWindowCounter, createMemoryWindows } from "../shared-state/fixed-window";
import { createCostThrottle, type CostWindow } from "@/lib/service/telemetry/cost-throttle";
import { createTokenCache, createTokenStore, type TokenCache } from "./token-cache";
import type { Transport, UpstreamResponse } from "./transport";
import type { PlantInfo, TelemetryAnswer, Upstream } from "./types";
import { TELEMETRY_QUERY_PATH, TOKEN_PATH, maintenancePath } from "@/lib/contract/spec-paths";

interface TelemetryCredentials {
  clientId: string;
  clientSecret: string;
  scope: string;
}

/** The remote service's secrets, from configuration. */
export interface Credentials {
  plants(): PlantInfo[];
  /** The plant's bearer token, or null when this dashboard holds none for it. */
  plantToken(plantId: string): string | null;
  telemetryClient(): TelemetryCredentials | null;
}

interface RemoteDeps {
  service: Transport;
  auth: Transport;
  credentials: Credentials;
  timeouts: { maintenanceMs: number; queryMs: number };
  send?: Partial<Omit<SendOptions, "timeoutMs">>;
  /** Where the telemetry token is held: memory by default, Redis to share it with the other instances. */
  shared?: SharedState;
  /** Budget of validated GET answers kept for revalidation (answer-cache.ts), in characters of JSON; 0 keeps none. */
  answerCacheChars?: number;
  /**
   * Cost units a plant's monitors may spend per minute together (TELEMETRY_COST_BUDGET_PER_MINUTE),
   * each monitor within it at most its own `QueryCaller.budget.perMinute`: see `monitorBudgets` below.
   */
  monitorsBudgetPerMinute?: number;
}

/** A monitor's budget is spent (before its query, or while it ran): 429 with Retry-After, as the service answers a client. */
function monitorBudgetSpent(window: CostWindow, whileRunning: boolean): ApiError {
  const message = whileRunning
    ? `The monitor's query budget of ${window.budget} per minute ran out while its query ran; it was stopped. Retry in ${window.resetSeconds} s.`
    : `The monitor's query budget of ${window.budget} per minute is spent; retry in ${window.resetSeconds} s.`;
  return new ApiError("RATE_LIMITED", message, [], { "retry-after": String(window.resetSeconds) });
}

/** A plant's monitors' budget per minute when none is configured (TELEMETRY_COST_BUDGET_PER_MINUTE's default). */
const DEFAULT_MONITORS_BUDGET = 300;

/** Not-found codes that are about a record, not a missing endpoint. */
const RECORD_NOT_FOUND = new Set(["PLANT_NOT_FOUND", "PART_NOT_FOUND", "TASK_NOT_FOUND", "PLAN_NOT_FOUND", "ATTACHMENT_NOT_FOUND"]);
/** Headers of the service's answer the browser may see. */
const FORWARDED_HEADERS = ["retry-after", "x-query-cost"];

function invalidResponse(where: string, problem: string): ApiError {
  console.warn(`[upstream] ${where}: invalid response: ${problem}`);
  return new ApiError("UPSTREAM_INVALID_RESPONSE", "The service sent an answer the dashboard cannot read.");
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
function failure(response: UpstreamResponse, body: unknown, where: string, extension: string | undefined): ApiError {
  const parsed = ZErrorBody.safeParse(body);
  const code = parsed.success ? parsed.data.code : null;
  if (extension && (response.status === 405 || (response.status === 404 && !(code && RECORD_NOT_FOUND.has(code))))) {
    return new ApiError("FEATURE_UNAVAILABLE", `The service does not offer ${extension}.`, [{ feature: extension }]);
  }
  if (response.status === 401 || response.status === 403) {
    console.warn(`[upstream] ${where}: the service refused the dashboard's credentials (${response.status})`);
    return new ApiError("UPSTREAM_AUTH_FAILED", "The dashboard's access to the service was refused. Tell your administrator.");
  }
  if (response.status >= 500) {
    console.warn(`[upstream] ${where}: service error ${response.status}${code ? ` ${code}` : ""}`);
    return new ApiError("UPSTREAM_UNAVAILABLE", "The service failed to answer. Please try again later.");
  }
  if (!parsed.success) throw invalidResponse(where, `status ${response.status}, error body: ${firstIssue(parsed.error)}`);
  const status = response.status === 200 ? (ERROR_STATUS[parsed.data.code as keyof typeof ERROR_STATUS] ?? 400) : response.status;
  return ApiError.received(status, parsed.data.code, parsed.data.message, parsed.data.data, forwardedHeaders(response));
}

/** An operation's path with its parameters filled in, each one percent-encoded. */
function operationPath(operation: MaintenanceOperation, plantId: string, params: Record<string, string>): string {
  const below = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  return `${maintenancePath(plantId)}${below}`;
}

export function createRemoteUpstream(deps: RemoteDeps): Upstream {
  const sendOptions = { ...DEFAULT_SEND_OPTIONS, ...deps.send };
  const answers = deps.answerCacheChars ? createAnswerCache(deps.answerCacheChars) : null;
  let tokenCache: TokenCache | undefined;

  function telemetryTokens(): TokenCache {
    if (!tokenCache) {
      const client = deps.credentials.telemetryClient();
      if (!client) throw new ApiError("FORBIDDEN", "This dashboard has no telemetry access.");
      tokenCache = createTokenCache(async () => {
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
          throw new ApiError("UPSTREAM_AUTH_FAILED", "The dashboard could not obtain telemetry access. Tell your administrator.");
        }
        const parsed = ZTokenResponse.safeParse(parseJson(response, where));
        if (!parsed.success) throw invalidResponse(where, firstIssue(parsed.error));
        return { value: parsed.data.access_token, expiresIn: parsed.data.expires_in };
      }, { store: createTokenStore(deps.shared, `${client.clientId} ${client.scope}`) });
    }
    return tokenCache;
  }

  /**
   * Monitors' budgets, kept here: the remote service budgets per client, and this dashboard is one
   * client for all its monitors, so without these one heavy monitor could spend what every monitor
   * of every plant shares. As in embedded mode (lib/upstream/embedded.ts), a monitor spends at most
   * its own budget, within its plant's monitors' budget, charged by the time its query took here.
   * Shared by the instances through Redis when there is one.
   */
  const monitorBudgets = createCostThrottle(
    deps.monitorsBudgetPerMinute ?? DEFAULT_MONITORS_BUDGET,
    deps.shared ? createFixedWindowCounter(deps.shared, "remote-monitor-cost", 60_000) : createMemoryWindows(60_000),
  );

async function sendQuery(request: Parameters<Upstream["telemetryQuery"]>[0], signal?: AbortSignal): Promise<TelemetryAnswer> {
    const cache = telemetryTokens();
    const where = `POST ${TELEMETRY_QUERY_PATH}`;
    for (let attemptNo = 1; ; attemptNo += 1) {
      const token = await cache.get();
      const response = await sendWithRetries(
        deps.service,
        {
          method: "POST",
          path: TELEMETRY_QUERY_PATH,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(request),
        },
        "read", // a query changes nothing: safe to repeat
        { ...sendOptions, timeoutMs: deps.timeouts.queryMs },
        signal,
      );
      if (response.status === 401 && attemptNo === 1) {
        // Expired or revoked early: one more try with a fresh token.
        await cache.invalidate(token);
        continue;
      }
      const json = parseJson(response, where);
      if (response.status !== 200) throw failure(response, json, where, undefined);
      const parsed = ZTelemetryQueryResponse.safeParse(json);
      if (!parsed.success) throw invalidResponse(where, firstIssue(parsed.error));
      return { value: parsed.data, json: response.body, headers: forwardedHeaders(response), rowCount: parsed.data.data.rows.length };
    }
  }

  return {
    mode: "remote",
    plants: () => deps.credentials.plants(),

    async maintenance(id, call) {
      const operation: MaintenanceOperation = MAINTENANCE_OPERATIONS[id];
      // The transport carries text (JSON); a file's bytes do not go through it yet (docs/api.md, "Attachments").
      if (operation.rawBody || operation.rawResponse) {
        throw new ApiError("FEATURE_UNAVAILABLE", "This dashboard does not carry files to and from a remote maintenance service.", [{ feature: operation.extension ?? id }]);
      }
      const token = deps.credentials.plantToken(call.plantId);
      if (!token) throw new ApiError("PLANT_NOT_FOUND", `Plant ${call.plantId} is not served by this dashboard.`);
      const path = operationPath(operation, call.plantId, call.params ?? {});
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
      if (call.body !== undefined) headers["content-type"] = "application/json";
      if (call.idempotencyKey) headers["idempotency-key"] = call.idempotencyKey;
      // A GET answer validated before is revalidated rather than fetched and checked again.
      const cacheKey = operation.method === "GET" && answers ? `${path}?${call.query?.toString() ?? ""}` : null;
      const held = cacheKey === null ? undefined : answers!.get(cacheKey);
      if (held) headers["if-none-match"] = held.etag;
      const policy: RetryPolicy = operation.method === "GET" ? "read" : call.idempotencyKey ? "keyed-write" : "write";
      const response = await sendWithRetries(
        deps.service,
        { method: operation.method, path, query: call.query, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) },
        policy,
        { ...sendOptions, timeoutMs: deps.timeouts.maintenanceMs },
        call.signal,
      );
      if (held && response.status === 304) return { value: held.value as never, json: held.json, headers: held.headers };
      const where = `${operation.method} ${path}`;
      const body = parseJson(response, where);
      if (response.status !== 200 || (operation.method !== "GET" && ZErrorBody.safeParse(body).success)) {
        if (cacheKey !== null) answers!.delete(cacheKey);
        throw failure(response, body, where, operation.extension);
      }
      const parsed = operation.response.safeParse(body);
      if (!parsed.success) throw invalidResponse(where, firstIssue(parsed.error));
      const answer = { value: parsed.data as never, json: response.body, headers: forwardedHeaders(response) };
      const etag = response.headers.etag;
      if (cacheKey !== null && etag) answers!.set(cacheKey, { ...answer, etag });
      return answer;
    },

    async telemetryQuery(request, caller, signal) {
      if (!caller.budget) return sendQuery(request, signal);
      const admitted = await monitorBudgets.admit(`monitor:${caller.userKey}`, Date.now(), {
        budget: caller.budget.perMinute,
        within: [{ key: `monitors:${caller.budget.within}`, budget: deps.monitorsBudgetPerMinute ?? DEFAULT_MONITORS_BUDGET }],
      });
      if ("refused" in admitted) throw monitorBudgetSpent(admitted.refused, false);
      const { reservation } = admitted;
      const stop = new AbortController();
      reservation.run(() => stop.abort());
      // Settled once either way: charged the time the service took (1 unit + 1 per 100 ms, never more
      // than it held). A settle that cannot reach the shared windows loses only that charge.
      const settle = () => reservation.settle().catch(() => null);
      let answer: TelemetryAnswer;
      try {
        answer = await sendQuery(request, signal ? AbortSignal.any([signal, stop.signal]) : stop.signal);
      } catch (error) {
        const settled = await settle();
        if (settled && stop.signal.aborted && !signal?.aborted) throw monitorBudgetSpent(settled.window, true);
        throw error;
      }
      await settle();
      return answer;
    },
  };
}
