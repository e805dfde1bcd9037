import "server-only";
/**
 * The one wrapper every `/api/` route goes through:
 *   a state-changing call from another site (403) → session (401) → the user's calls per minute (429) → role's permission (403) → plant id syntax (400) → plant on the user's list
 *   (403) → plant served by this dashboard (404) → the route's work → JSON or the error body;
 * and for writes, one audit-log row whatever the outcome — written PENDING before the work and
 * settled after it (lib/dashboard-store/audit.ts explains why). Routes only declare their permission
 * and their work, so no route can forget a check. Requests and answers are the service's own
 * framework-free shapes (lib/platform/http), served by the same router and Node adapter.
 */
import { ROLE_PERMISSIONS, canReachPlant, hasPermission, type Permission } from "@/lib/contract/roles";
import { sessionFromCookieHeader } from "@/lib/auth/session";
import { getConfig } from "@/lib/config";
import { ID_PATTERN } from "@/lib/contract/common";
import type { TMe } from "@/lib/contract/dashboard";
import { ApiError, forbidden, invalidInput } from "@/lib/contract/errors";
import { beginAudit, recordAudit, settleAudit } from "@/lib/dashboard-store/audit";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import type { DashboardUser } from "@/lib/dashboard-store/users";
import { json, toErrorResponse } from "@/lib/platform/http/respond";
import type { RouteHandler } from "@/lib/platform/http/router";
import type { ServiceRequest, ServiceResponse } from "@/lib/platform/http/types";
import { getUpstream, type PlantInfo, type Upstream, type UpstreamAnswer } from "@/lib/upstream";
import { spendApiCall } from "./rate-limit";

export interface ApiContext {
  req: ServiceRequest;
  user: DashboardUser;
  /** The id of the request's own session (server-side only: the Sessions page marks it, and keeps it when ending the others). */
  sessionId: string;
  params: Record<string, string>;
  /** Set when the route has a `plantId` parameter (already checked). */
  plant: PlantInfo | null;
  upstream: Upstream;
  /** What the audit row names as the write's target and details; the route fills it in. */
  audit: { target: string | null; detail: Record<string, unknown> | null };
}

export interface ApiRouteSpec {
  permission: Permission;
  /** Writes name their audit action, e.g. `task.create`. */
  auditAction?: string;
  run(context: ApiContext): Promise<ServiceResponse>;
}

/** An upstream answer as the browser gets it: the remote service's validated text passed on, else serialised once. */
export function answer(result: UpstreamAnswer<unknown>, headers: Record<string, string> = {}): ServiceResponse {
  const response = json(null, 200, { ...result.headers, ...headers });
  return { ...response, body: result.json ?? JSON.stringify(result.value) };
}

/** The plants this user may open: their list ∩ the plants this dashboard serves. */
export function reachablePlants(user: DashboardUser, upstream: Upstream): PlantInfo[] {
  return upstream.plants().filter((plant) => canReachPlant(user.role, user.plants, plant.id));
}

/** The signed-in user as `/api/me` answers (and the dashboard layout renders into every page). */
export function describeUser(user: DashboardUser, upstream: Upstream): TMe {
  return {
    email: user.email,
    name: user.name,
    role: user.role,
    plants: reachablePlants(user, upstream),
    permissions: [...ROLE_PERMISSIONS[user.role]],
    serviceMode: upstream.mode,
  };
}

function checkPlant(user: DashboardUser, plantId: string, upstream: Upstream): PlantInfo {
  if (!ID_PATTERN.test(plantId)) throw invalidInput(`Invalid plant id '${plantId.slice(0, 64)}'.`, [{ field: "plantId", problem: "malformed" }]);
  if (!canReachPlant(user.role, user.plants, plantId)) throw forbidden(`You have no access to plant ${plantId}.`);
  const plant = upstream.plants().find((candidate) => candidate.id === plantId);
  if (!plant) throw new ApiError("PLANT_NOT_FOUND", `Plant ${plantId} does not exist.`);
  return plant;
}

const SESSION_REQUIRED = { "www-authenticate": 'Bearer realm="plantdesk", error="session required"' };

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Cross-site request forgery: a browser names where a request comes from (Sec-Fetch-Site, and
 * Origin on every POST). A state-changing call is refused unless it comes from this site; one
 * that names neither (curl, scripts — no browser, so no victim's cookie) passes. Reads stay open:
 * their answers are not readable from another site anyway (no CORS).
 */
function checkSameSite(req: ServiceRequest): void {
  if (!STATE_CHANGING.has(req.method)) return;
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") throw forbidden("A request from another site may not change anything here.");
  const origin = req.headers.origin;
  if (origin === undefined) return;
  const allowed = new Set([req.headers.host, ...(getConfig().dashboard.nextAuthUrl ? [new URL(getConfig().dashboard.nextAuthUrl!).host] : [])]);
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    // "null" (a sandboxed frame, a redirect across sites) or garbage: not this site
  }
  if (host === null || !allowed.has(host)) throw forbidden("A request from another site may not change anything here.");
}

export function apiRoute(spec: ApiRouteSpec): RouteHandler {
  return async (req, params) => {
    // Known as soon as possible, so that a refused write is audited too.
    let user: DashboardUser | null = null;
    let sessionId = "";
    let context: ApiContext | null = null;
    let auditId: number | null = null;
    let response: ServiceResponse;
    let outcome = "SUCCESS";
    try {
      checkSameSite(req);
      const session = await sessionFromCookieHeader(req.headers.cookie);
      if (!session) throw new ApiError("UNAUTHORIZED", "Sign in to continue.", [], SESSION_REQUIRED);
      user = session.user;
      sessionId = session.sessionId;
      req.credentialAccepted = true;
      // Before the audit row: a call refused for its rate changed nothing, and a flood of them must not fill the log.
      await spendApiCall(user.id);
      if (spec.auditAction) {
        auditId = await beginAudit(await getDashboardDb(), {
          userEmail: user.email,
          plantId: params.plantId && ID_PATTERN.test(params.plantId) ? params.plantId : null,
          action: spec.auditAction,
          target: params.taskId ?? params.partId ?? null,
        });
      }
      if (!hasPermission(user.role, spec.permission)) {
        // A refused call is audited even where the route records none of its own (reads of admin pages
        // such as the user list or the audit log): who tried what, when. Bounded by the user's call rate above.
        if (auditId === null) {
          await recordAudit(await getDashboardDb(), {
            userEmail: user.email,
            plantId: params.plantId && ID_PATTERN.test(params.plantId) ? params.plantId : null,
            action: "access.denied",
            target: `${req.method} ${req.path}`,
            outcome: "FORBIDDEN",
            httpStatus: 403,
            detail: { permission: spec.permission, role: user.role },
          });
        }
        throw forbidden(`Your role (${user.role}) may not do this.`);
      }
      const upstream = await getUpstream();
      const plant = params.plantId === undefined ? null : checkPlant(user, params.plantId, upstream);
      context = { req, user, sessionId, params, plant, upstream, audit: { target: null, detail: null } };
      response = await spec.run(context);
    } catch (thrown) {
      outcome = thrown instanceof ApiError ? thrown.code : "INTERNAL_ERROR";
      response = toErrorResponse(thrown, `${req.method} ${req.path}`);
    }
    if (auditId !== null) {
      await settleAudit(await getDashboardDb(), auditId, {
        target: context?.audit.target ?? null,
        outcome,
        httpStatus: response.status,
        detail: context?.audit.detail ?? null,
      });
    }
    return response;
  };
}
