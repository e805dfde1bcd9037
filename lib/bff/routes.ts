import "server-only";
/**
 * Every `/api/` route of the dashboard, as one table served by one router (`apiHandler`). The
 * maintenance routes are the feature's own rows (modules/maintenance/api/routes.ts: the service's
 * operations one to one); sign-in (`/api/auth/*`) belongs to next-auth and is served by Next.
 * docs/architecture.md shows the path of a request.
 */
import type { Permission } from "@/lib/contract/roles";
import { ZHistoryRecord, ZHistoryUpdate } from "@/lib/contract/dashboard";
import { DASHBOARD_ROUTES, type DashboardRouteId } from "@/lib/contract/routes";
import { userRoutes } from "./users";
import { ApiError } from "@/lib/contract/errors";
import { maintenanceRoutes, plantPeople } from "@/modules/maintenance/api/routes";
import { auditCsv, auditFilterOf, queryAudit } from "@/lib/dashboard-store/audit";
import { ZAuditQuery } from "@/lib/contract/audit";
import { zonedIso } from "@/lib/contract/time-zone";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { listHistory, recordQuery, updateHistory } from "@/lib/dashboard-store/query-history";
import { parseWith, readJsonBody } from "@/lib/platform/http/body";
import { json } from "@/lib/platform/http/respond";
import { createRouter, type Route } from "@/lib/platform/http/router";
import { apiRoute, describeUser, type ApiRouteSpec } from "../api-handler/handler";
import { monitorHandlers } from "@/modules/monitors/api/routes";
import { routingHandlers } from "@/modules/monitors/api/routing";
import { notificationHandlers } from "@/modules/notifications/api/routes";
import { sessionHandlers } from "@/modules/account/api/sessions";
import { telemetryQuery } from "./telemetry-query";
import { dashboardHandlers } from "@/modules/boards/api/routes";
import { workspaceRoutes } from "@/modules/boards/api/workspace";

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
  ...maintenanceRoutes,
];

/** The `/api/` router: 404 NOT_FOUND and 405 METHOD_NOT_ALLOWED in the error body for anything else. */
export const apiHandler = createRouter([...API_ROUTES]);
