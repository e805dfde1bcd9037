import "server-only";
/**
 * The one wrapper every `/api/` route goes through:
 *   session (401) → role's permission (403) → plant id syntax (400) → plant on the user's list
 *   (403) → plant served by this dashboard (404) → the route's work → JSON or the error body;
 * and for writes, one audit-log row whatever the outcome. Route files only declare their
 * permission and their work, so no route can forget a check.
 */
import type { Database } from "better-sqlite3";
import { canReachPlant, hasPermission, type Permission } from "@/lib/auth/roles";
import { userFromRequest } from "@/lib/auth/session";
import type { DashboardUser } from "@/lib/auth/users";
import { getServiceRuntime } from "@/lib/service/runtime";
import { getUpstreamClient, type PlantInfo, type UpstreamClient } from "@/lib/upstream";
import { ID_PATTERN } from "@/lib/upstream/schemas/common";
import { recordAudit } from "./audit";
import { BffError, forbidden, invalidInput, unauthorized } from "./errors";

export interface BffContext {
  request: Request;
  user: DashboardUser;
  params: Record<string, string>;
  /** Set when the route has a `plantId` parameter (already checked). */
  plant: PlantInfo | null;
  upstream: UpstreamClient;
  db: Database;
  /** What the audit row names as the write's target and details; the route fills it in. */
  audit: { target: string | null; detail: Record<string, unknown> | null };
}

export interface BffReply {
  status?: number;
  body: unknown;
  /** `body` already serialised (a validated answer of the service): sent without stringifying again. */
  json?: string;
  headers?: Record<string, string>;
}

export interface BffRouteSpec {
  permission: Permission;
  /** Writes name their audit action, e.g. `task.create`. */
  auditAction?: string;
  run(context: BffContext): Promise<BffReply | Response>;
}

type RouteContext = { params: Promise<Record<string, string | string[]>> };

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

function errorResponse(error: BffError): Response {
  const headers = { ...error.headers };
  if (error.status === 401) headers["www-authenticate"] = 'Bearer realm="plantdesk", error="session required"';
  return jsonResponse(error.toBody(), error.status, headers);
}

/** The plants this user may open: their list ∩ the plants this dashboard serves. */
export function reachablePlants(user: DashboardUser, upstream: UpstreamClient): PlantInfo[] {
  return upstream.plants().filter((plant) => canReachPlant(user.role, user.plants, plant.id));
}

async function checkPlant(user: DashboardUser, plantId: string, upstream: UpstreamClient): Promise<PlantInfo> {
  if (!ID_PATTERN.test(plantId)) throw invalidInput(`Invalid plant id '${plantId.slice(0, 64)}'.`, [{ field: "plantId", problem: "malformed" }]);
  if (!canReachPlant(user.role, user.plants, plantId)) throw forbidden(`You have no access to plant ${plantId}.`);
  const plant = upstream.plants().find((candidate) => candidate.id === plantId);
  if (!plant) throw new BffError(404, "PLANT_NOT_FOUND", `Plant ${plantId} does not exist.`);
  return plant;
}

export function bffRoute(spec: BffRouteSpec) {
  return async function handle(request: Request, routeContext?: RouteContext): Promise<Response> {
    // Known as soon as possible, so that a refused write is audited too.
    let user: DashboardUser | null = null;
    let params: Record<string, string> = {};
    let context: BffContext | null = null;
    try {
      user = await userFromRequest(request);
      if (!user) throw unauthorized();
      const raw = (await routeContext?.params) ?? {};
      params = Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, Array.isArray(value) ? value.join("/") : value]));
      if (!hasPermission(user.role, spec.permission)) throw forbidden(`Your role (${user.role}) may not do this.`);
      const [upstream, runtime] = await Promise.all([getUpstreamClient(), getServiceRuntime()]);
      const plant = params.plantId === undefined ? null : await checkPlant(user, params.plantId, upstream);
      context = { request, user, params, plant, upstream, db: runtime.db, audit: { target: null, detail: null } };
      const reply = await spec.run(context);
      const response =
        reply instanceof Response
          ? reply
          : reply.json !== undefined
            ? new Response(reply.json, { status: reply.status ?? 200, headers: { ...JSON_HEADERS, ...reply.headers } })
            : jsonResponse(reply.body, reply.status ?? 200, reply.headers);
      await audit(spec, user, params, context, "SUCCESS", response.status);
      return response;
    } catch (thrown) {
      const error =
        thrown instanceof BffError
          ? thrown
          : (console.error(`[bff] ${request.method} ${new URL(request.url).pathname}: ${thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : "failed"}`),
            new BffError(500, "INTERNAL_ERROR", "An unexpected error occurred."));
      if (user) await audit(spec, user, params, context, error.code, error.status);
      return errorResponse(error);
    }
  };
}

async function audit(
  spec: BffRouteSpec,
  user: DashboardUser,
  params: Record<string, string>,
  context: BffContext | null,
  outcome: string,
  status: number,
) {
  if (!spec.auditAction) return;
  const plantId = params.plantId;
  recordAudit((await getServiceRuntime()).db, {
    userEmail: user.email,
    plantId: plantId && ID_PATTERN.test(plantId) ? plantId : null,
    action: spec.auditAction,
    target: context?.audit.target ?? params.taskId ?? params.partId ?? null,
    outcome,
    httpStatus: status,
    detail: context?.audit.detail ?? null,
  });
}

/** The request's JSON body, with the service's own rules: 413 over 1 MiB, 415, 400 malformed. */
export async function readJson(request: Request): Promise<unknown> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") throw new BffError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as Content-Type: application/json.");
  const text = await request.text();
  if (text.length > 1024 * 1024) throw new BffError(413, "PAYLOAD_TOO_LARGE", "The request body is larger than 1 MiB.");
  if (!text) throw invalidInput("The request body is empty; a JSON object is expected.");
  try {
    return JSON.parse(text);
  } catch {
    throw invalidInput("The request body is not valid JSON.", [{ field: "(body)", problem: "malformed JSON" }]);
  }
}
