import "server-only";
/**
 * Every `/api/` route of the dashboard, as one table served by one router (`apiHandler`). The
 * maintenance routes mirror the service's operations one to one (MAINTENANCE_OPERATIONS), below
 * `/api/plants/{plantId}` instead of `/maintenance/v1/plants/{plantId}`; sign-in (`/api/auth/*`)
 * belongs to next-auth and is served by Next. docs/architecture.md shows the path of a request.
 */
import { randomUUID } from "node:crypto";
import { canReachPlant, hasPermission, type Permission } from "@/lib/contract/roles";
import { API_PLANT_BASE } from "@/lib/contract/api";
import { ZHistoryRecord, ZHistoryUpdate } from "@/lib/contract/dashboard";
import { DASHBOARD_ROUTES, type DashboardRouteId } from "@/lib/contract/routes";
import { userRoutes } from "./users";
import { ApiError, forbidden, invalidInput } from "@/lib/contract/errors";
import { MAINTENANCE_OPERATIONS, type MaintenanceOperation, type MaintenanceOperationId, type TPerson, type TTask } from "@/lib/contract/maintenance";
import { auditCsv, auditFilterOf, queryAudit } from "@/lib/dashboard-store/audit";
import { ZAuditQuery } from "@/lib/contract/audit";
import { zonedIso } from "@/lib/contract/time-zone";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { listHistory, recordQuery, updateHistory } from "@/lib/dashboard-store/query-history";
import { findUser, listUsers, type DashboardUser } from "@/lib/dashboard-store/users";
import { parseWith, readJsonBody } from "@/lib/platform/http/body";
import { conditionalGet } from "@/lib/platform/http/conditional";
import { json } from "@/lib/platform/http/respond";
import { createRouter, type Route } from "@/lib/platform/http/router";
import { answer, apiRoute, describeUser, type ApiContext, type ApiRouteSpec } from "../api-handler/handler";
import { monitorHandlers } from "@/modules/monitors/api/routes";
import { routingHandlers } from "@/modules/monitors/api/routing";
import { notificationHandlers } from "@/modules/notifications/api/routes";
import { sessionHandlers } from "@/modules/account/api/sessions";
import { notifyAssigned, notifyRequest, notifyTransition } from "@/modules/notifications/service/notify";
import { telemetryQuery } from "./telemetry-query";
import { dashboardHandlers } from "@/modules/boards/api/routes";
import { workspaceRoutes } from "@/modules/boards/api/workspace";

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{1,100}$/;

/** A few non-secret, bounded fields of a write's body for its audit row. */
function pick(body: unknown, fields: readonly string[]): Record<string, unknown> | null {
  if (typeof body !== "object" || body === null) return null;
  const source = body as Record<string, unknown>;
  const detail: Record<string, unknown> = {};
  for (const field of fields) {
    const value =
      field === "assetTagNumber"
        ? ((source.asset as { tagNumber?: unknown } | undefined)?.tagNumber ?? source.assetTagNumber)
        : field === "assigneeUsername"
          ? (source.assignee as { username?: unknown } | null | undefined)?.username
          : source[field];
    if (typeof value === "number" || typeof value === "boolean" || (typeof value === "string" && value.length <= 100)) detail[field] = value;
  }
  return detail;
}

/**
 * What the dashboard adds to an operation of the contract's table (permission and audit are in
 * MAINTENANCE_OPERATIONS): who the write is done for, the browser's attempt key, checks and
 * rewrites of the body before the call, and the audit row's target.
 */
interface MaintenanceHooks {
  /** The service keeps the write with whom it was done for (`by`): task history, stock history. */
  attributed?: true;
  /** A retried click must not repeat: the browser may name its attempt. */
  keyed?: true;
  /** Runs before the call: may refuse, and returns the body to send. */
  prepare?: (context: ApiContext, plantId: string, params: Record<string, string>, body: unknown) => Promise<unknown>;
  /** The audit row's target, from the answer. */
  auditTarget?: (value: unknown) => string | null;
  /** Runs after the write succeeded, with the body sent and the answer (the notification centre hears of it). */
  after?: (context: ApiContext, plantId: string, params: Record<string, string>, body: unknown, value: unknown) => Promise<void>;
}

/** The first row of a write result's `data` (`[{ id, from?, to? }]`). */
function written(value: unknown): { id?: unknown; from?: unknown; to?: unknown } {
  return (value as { data?: { id?: unknown }[] } | null)?.data?.[0] ?? {};
}

const MAINTENANCE_HOOKS: Partial<Record<MaintenanceOperationId, MaintenanceHooks>> = {
  createTask: {
    attributed: true,
    keyed: true,
    auditTarget: (value) => {
      const created = (value as { data: { id?: unknown }[] }).data[0]?.id;
      return typeof created === "string" ? created : null;
    },
    // Every new task is a work request waiting for a supervisor's approval.
    async after(context, plantId, _params, body, value) {
      const id = written(value).id;
      const title = (body as { taskTitle?: unknown } | null)?.taskTitle;
      if (typeof id === "string") await notifyRequest(await getDashboardDb(), plantId, id, typeof title === "string" ? title : "", context.user.email);
    },
  },
  transitionTask: {
    attributed: true,
    async after(context, plantId, _params, _body, value) {
      const move = written(value);
      if (typeof move.id === "string" && typeof move.to === "string") {
        await notifyTransition(await getDashboardDb(), plantId, { id: move.id, from: typeof move.from === "string" ? move.from : null, to: move.to }, context.user.email);
      }
    },
  },
  updateTask: {
    attributed: true,
    prepare: (_context, plantId, _params, body) => resolvePerson(body, plantId, "assignee"),
    async after(context, plantId, params, body) {
      const assignee = (body as { assignee?: { username?: unknown } | null } | null)?.assignee?.username;
      if (typeof assignee === "string" && params.taskId) await notifyAssigned(await getDashboardDb(), plantId, params.taskId, assignee, context.user.email);
    },
  },
  closeOutTask: {
    attributed: true,
    keyed: true,
    async prepare(context, plantId, params, body) {
      await checkCloseOutAllowed(context, plantId, params.taskId!);
      return resolvePerson(body, plantId, "carriedOutBy");
    },
  },
  submitStockLevel: { attributed: true },
  uploadTaskAttachment: {
    async prepare(context, plantId, params, body) {
      await checkAttachAllowed(context, plantId, params.taskId!);
      return body;
    },
    auditTarget: (value) => (value as { id?: unknown } | null)?.id as string | null,
  },
};

/** A dashboard user as the service records a person: the e-mail is the username, the name split once. */
function personOf(user: Pick<DashboardUser, "name" | "email">): TPerson {
  const name = user.name.replace(/\p{Cc}/gu, " ").trim().slice(0, 200);
  const space = name.indexOf(" ");
  return space < 0 ? { username: user.email, firstname: name, lastname: "" } : { username: user.email, firstname: name.slice(0, space), lastname: name.slice(space + 1) };
}

/**
 * A task's assignee must be a user who can open the plant: the browser names them by username
 * (e-mail), and the name recorded is the one this dashboard knows, whatever else was sent.
 */
async function resolvePerson(body: unknown, plantId: string, field: "assignee" | "carriedOutBy"): Promise<unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const sent = (body as Record<string, unknown>)[field];
  if (sent === undefined || sent === null) return body;
  const username = typeof sent === "object" && typeof (sent as { username?: unknown }).username === "string" ? (sent as { username: string }).username : null;
  const user = username && username.length <= 320 ? await findUser(await getDashboardDb(), username) : null;
  if (!user || user.disabled || !canReachPlant(user.role, user.plants, plantId)) {
    throw invalidInput(`${field}: not a user of plant ${plantId}.`, [{ field, problem: `not an active user with access to plant ${plantId}` }]);
  }
  return { ...body, [field]: personOf(user) };
}

/** Supervisors (tasks:close-out) close out any task; anyone else only a task assigned to them. */
async function checkCloseOutAllowed(context: ApiContext, plantId: string, taskId: string): Promise<void> {
  if (hasPermission(context.user.role, "tasks:close-out")) return;
  const task = (await context.upstream.maintenance("getTask", { plantId, params: { taskId }, signal: context.req.signal })).value as TTask;
  if (task.assignee?.username !== context.user.email) {
    throw forbidden("Only the person the task is assigned to, or a supervisor, may close it out.");
  }
}

/** Whoever may edit a task (planners, supervisors, admins) or close it out (supervisors, its assignee) may attach files to it. */
async function checkAttachAllowed(context: ApiContext, plantId: string, taskId: string): Promise<void> {
  if (hasPermission(context.user.role, "tasks:edit") || hasPermission(context.user.role, "tasks:close-out")) return;
  const task = (await context.upstream.maintenance("getTask", { plantId, params: { taskId }, signal: context.req.signal })).value as TTask;
  if (task.assignee?.username !== context.user.email) {
    throw forbidden("Only those who may edit or close out the task may attach files to it.");
  }
}

/**
 * The signed-in user as the task history names them: `Name <e-mail>` (a name alone is not unique).
 * Set here, over anything the browser sent: nobody can act in someone else's name. Control
 * characters go and the name is cut short, so the service's bounds (ZActingFor) always hold.
 */
function actingFor(user: Pick<DashboardUser, "name" | "email">): string {
  const name = user.name.replace(/\p{Cc}/gu, " ").trim().slice(0, 60);
  return name && name !== user.email ? `${name} <${user.email}>` : user.email;
}

function attributed(body: unknown, user: DashboardUser): unknown {
  // Anything but an object is left for the service to refuse with its own message.
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  return { ...body, by: actingFor(user) };
}

/** The browser may name its attempt (a retried click then creates one task); scoped to the user, so two users' keys never meet. */
function idempotencyKey(context: ApiContext): string {
  const offered = context.req.headers["idempotency-key"];
  if (offered !== undefined && !IDEMPOTENCY_KEY.test(offered)) {
    throw invalidInput("Idempotency-Key must be 1–100 letters, digits, '_' or '-'.", [{ field: "Idempotency-Key", problem: "malformed" }]);
  }
  return `u${context.user.id}-${offered ?? randomUUID()}`;
}

function maintenanceRoute(id: MaintenanceOperationId): Route {
  const operation: MaintenanceOperation = MAINTENANCE_OPERATIONS[id];
  const hooks = MAINTENANCE_HOOKS[id] ?? {};
  return {
    method: operation.method,
    pattern: API_PLANT_BASE + operation.path,
    maxBodyBytes: operation.rawBody?.maxBytes,
    handler: apiRoute({
      permission: operation.permission,
      auditAction: operation.audit?.action,
      async run(context) {
        const { plantId, ...params } = context.params;
        const sent = operation.body ? readJsonBody(context.req) : undefined;
        const prepared = hooks.prepare ? await hooks.prepare(context, plantId!, params, sent) : sent;
        const body = hooks.attributed ? attributed(prepared, context.user) : prepared;
        // A file is passed on as it came; its audit row names it by its name, type and size.
        const file = operation.rawBody ? { bytes: context.req.body, contentType: context.req.headers["content-type"], tooLarge: context.req.bodyTooLarge ?? false } : undefined;
        if (operation.audit) {
          context.audit.detail = pick(file ? { name: context.req.query.get("filename"), contentType: file.contentType, size: file.bytes?.byteLength ?? null } : body, operation.audit.fields ?? []);
        }
        const result = await context.upstream.maintenance(id, {
          plantId: plantId!,
          params,
          query: context.req.query,
          body,
          file,
          idempotencyKey: hooks.keyed ? idempotencyKey(context) : undefined,
          signal: context.req.signal,
        });
        if (hooks.auditTarget) context.audit.target = hooks.auditTarget(result.value);
        if (hooks.after) await hooks.after(context, plantId!, params, body, result.value);
        if (result.bytes) return { status: 200, headers: result.headers, body: [result.bytes] };
        // A read carries its ETag: the browser's polling (the task board) revalidates with
        // If-None-Match and gets 304 while nothing changed.
        return operation.method === "GET" ? conditionalGet(context.req, answer(result)) : answer(result);
      },
    }),
  };
}

const auditLog: ApiRouteSpec["run"] = async ({ req }) => {
  // An empty parameter (a cleared filter box) means no filter.
  const given = Object.fromEntries([...req.query].filter(([, value]) => value !== ""));
  const query = parseWith(ZAuditQuery, given, "query parameters");
  const filter = auditFilterOf(query);
  if (query.format === "csv") {
    return {
      status: 200,
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="plantdesk-audit-${zonedIso(Date.now(), query.tz).slice(0, 10)}.csv"`,
        "cache-control": "no-store",
      },
      body: await auditCsv(await getDashboardDb(), filter, query.tz),
    };
  }
  return json(await queryAudit(await getDashboardDb(), filter, query.page, query.pageSize));
};

/** The people a task of this plant can be assigned to: active users who can open it, by name (bounded). */
const plantPeople: ApiRouteSpec["run"] = async ({ plant }) => {
  const users = await listUsers(await getDashboardDb());
  const data = users
    .filter((user) => !user.disabled && canReachPlant(user.role, user.plants, plant!.id))
    .slice(0, 1000)
    .map((user) => ({ username: user.email, name: user.name || user.email, role: user.role }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return json({ data }, 200, { "cache-control": "private, max-age=60" });
};

/** Each dashboard route of the contract's table (lib/contract/dashboard.ts) with its permission and work. */
const DASHBOARD_HANDLERS: Record<DashboardRouteId, { permission: Permission; auditAction?: string; run: ApiRouteSpec["run"] }> = {
  me: { permission: "maintenance:read", run: async ({ user, upstream }) => json(describeUser(user, upstream)) },
  telemetryQuery: { permission: "telemetry:query", run: telemetryQuery },
  // The user's own query history: every telemetry user may keep one.
  listQueryHistory: {
    permission: "telemetry:query",
    run: async ({ req, user }) => json({ data: await listHistory(await getDashboardDb(), user.email, { starredOnly: req.query.get("starred") === "true" }) }),
  },
  saveQuery: {
    permission: "telemetry:query",
    run: async ({ req, user }) => json(await recordQuery(await getDashboardDb(), user.email, parseWith(ZHistoryRecord, readJsonBody(req), "history entry"))),
  },
  updateQuery: {
    permission: "telemetry:query",
    async run({ req, user }) {
      const update = parseWith(ZHistoryUpdate, readJsonBody(req), "history update");
      const entry = await updateHistory(await getDashboardDb(), user.email, update);
      if (!entry) throw new ApiError("NOT_FOUND", `No history entry ${update.id}.`);
      return json(entry);
    },
  },
  auditLog: { permission: "audit:read", run: auditLog },
  listMonitors: { permission: "monitors:read", run: monitorHandlers.list },
  createMonitor: { permission: "monitors:write", auditAction: "monitor.create", run: monitorHandlers.create },
  // Replays the query only; opens nothing, so reading a plant's monitors is enough.
  previewMonitor: { permission: "monitors:read", run: monitorHandlers.preview },
  getMonitor: { permission: "monitors:read", run: monitorHandlers.get },
  replaceMonitor: { permission: "monitors:write", auditAction: "monitor.update", run: monitorHandlers.replace },
  deleteMonitor: { permission: "monitors:write", auditAction: "monitor.delete", run: monitorHandlers.remove },
  runMonitor: { permission: "monitors:write", auditAction: "monitor.run", run: monitorHandlers.run },
  listMonitorFirings: { permission: "monitors:read", run: monitorHandlers.firings },
  listPlantFirings: { permission: "monitors:read", run: monitorHandlers.plantFirings },
  listContactPoints: { permission: "monitors:read", run: routingHandlers.list },
  createContactPoint: { permission: "monitors:write", auditAction: "contact-point.create", run: routingHandlers.create },
  replaceContactPoint: { permission: "monitors:write", auditAction: "contact-point.update", run: routingHandlers.replace },
  deleteContactPoint: { permission: "monitors:write", auditAction: "contact-point.delete", run: routingHandlers.remove },
  getNotificationPolicy: { permission: "monitors:read", run: routingHandlers.getPolicy },
  replaceNotificationPolicy: { permission: "monitors:write", auditAction: "notification-policy.update", run: routingHandlers.replacePolicy },
  plantPeople: { permission: "maintenance:read", run: plantPeople },
  // Every signed-in user has a notification centre of their own.
  listNotifications: { permission: "maintenance:read", run: notificationHandlers.list },
  notificationSummary: { permission: "maintenance:read", run: notificationHandlers.summary },
  markNotificationsRead: { permission: "maintenance:read", run: notificationHandlers.markRead },
  getNotificationPrefs: { permission: "maintenance:read", run: notificationHandlers.getPrefs },
  replaceNotificationPrefs: { permission: "maintenance:read", run: notificationHandlers.replacePrefs },
  // Every signed-in user sees and ends their own sessions; ending is audited.
  listMySessions: { permission: "maintenance:read", run: sessionHandlers.list },
  endMySession: { permission: "maintenance:read", auditAction: "session.end", run: sessionHandlers.end },
  endMyOtherSessions: { permission: "maintenance:read", auditAction: "session.end-others", run: sessionHandlers.endOthers },
  listDashboards: { permission: "dashboards:read", run: dashboardHandlers.list },
  createDashboard: { permission: "dashboards:write", auditAction: "dashboard.create", run: dashboardHandlers.create },
  importDashboard: { permission: "dashboards:write", auditAction: "dashboard.import", run: dashboardHandlers.importFile },
  getDashboard: { permission: "dashboards:read", run: dashboardHandlers.get },
  replaceDashboard: { permission: "dashboards:write", auditAction: "dashboard.update", run: dashboardHandlers.replace },
  deleteDashboard: { permission: "dashboards:write", auditAction: "dashboard.delete", run: dashboardHandlers.remove },
  exportDashboard: { permission: "dashboards:read", run: dashboardHandlers.exportFile },
  ...workspaceRoutes,
  ...userRoutes,
};

const API_ROUTES: readonly Route[] = [
  ...(Object.keys(DASHBOARD_ROUTES) as DashboardRouteId[]).map((id) => ({
    method: DASHBOARD_ROUTES[id].method,
    pattern: DASHBOARD_ROUTES[id].path,
    handler: apiRoute(DASHBOARD_HANDLERS[id]),
  })),
  ...(Object.keys(MAINTENANCE_OPERATIONS) as MaintenanceOperationId[]).map(maintenanceRoute),
];

/** The `/api/` router: 404 NOT_FOUND and 405 METHOD_NOT_ALLOWED in the error body for anything else. */
export const apiHandler = createRouter([...API_ROUTES]);
