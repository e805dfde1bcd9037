/**
 * Payloads of the dashboard's own `/api/` routes (beyond the service's, which `/api/` mirrors):
 * the signed-in user, the telemetry query history, the audit log and the users (admins). No server-only import.
 */
import { z } from "./zod";
import { PERMISSIONS, ROLES } from "./roles";
import { ID_PATTERN } from "./vocabulary";

const ZMePlant = z.object({
  id: z.string(),
  name: z.string(),
  /** Unknown (null) for some plants of a remote service. */
  customerId: z.string().nullable(),
});

/** GET /api/me: who, which role, which plants, which permissions, and which service. */
export const ZMe = z.object({
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  plants: z.array(ZMePlant),
  permissions: z.array(z.enum(PERMISSIONS)),
  serviceMode: z.enum(["embedded", "remote"]),
});

/** Body of POST /api/telemetry/history (also what a query run records). */
export const ZHistoryRecord = z.object({
  query: z.string().trim().min(1, "must not be empty").max(20_000, "must be at most 20000 characters"),
  plantIds: z.array(z.string().max(64)).max(100).nullish(),
  startTime: z.string().max(40).nullish(),
  endTime: z.string().max(40).nullish(),
  title: z.string().trim().max(200).nullish(),
  starred: z.boolean().optional(),
});

/** Body of PATCH /api/telemetry/history. */
export const ZHistoryUpdate = z.object({
  id: z.number().int().positive(),
  starred: z.boolean().optional(),
  title: z.string().trim().max(200).nullable().optional(),
});

export const ZHistoryEntry = z.object({
  id: z.number().int(),
  query: z.string(),
  plantIds: z.array(z.string()).nullable(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  title: z.string().nullable(),
  starred: z.boolean(),
  runCount: z.number().int(),
  createdAt: z.string(),
  lastRunAt: z.string(),
});

/** One row of the audit log (GET /api/audit): who did what, where, on what, and how it ended. */
export const ZAuditRecord = z.object({
  id: z.number().int(),
  at: z.string(),
  userEmail: z.string(),
  plantId: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  /** `SUCCESS` or the error code the action ended with. */
  outcome: z.string(),
  httpStatus: z.number().int(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});

/** GET /api/plants/{plantId}/people: the active users who can open the plant (whom a task can be assigned to). */
export const ZPlantPerson = z.object({ username: z.string(), name: z.string(), role: z.enum(ROLES) });
export type TPlantPerson = z.infer<typeof ZPlantPerson>;

/** A user's plants: every plant (`*`), or a list of plant ids (empty: waiting for access). */
const ZPlantScope = z.union([z.literal("*"), z.array(z.string().regex(ID_PATTERN, "must be a plant id")).max(500)]);

/** One user as the admin's Users page lists them (GET /api/users): never a password or hash. */
const ZUserRecord = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  plants: ZPlantScope,
  disabled: z.boolean(),
  hasPassword: z.boolean(),
  /** Identities of identity providers bound to the user (single sign-on). */
  identities: z.number().int(),
  activeSessions: z.number().int(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});

/** Body of POST /api/users: a new user, who gets an invitation link (shown once). */
export const ZUserCreate = z.strictObject({
  email: z.string().trim().min(1, "is required").max(254, "must be at most 254 characters").email("must be an e-mail address"),
  name: z.string().trim().max(120, "must be at most 120 characters").optional(),
  role: z.enum(ROLES),
  plants: ZPlantScope,
});

/** Body of PATCH /api/users/{userId}: what changes. */
export const ZUserUpdate = z
  .strictObject({
    name: z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters").optional(),
    role: z.enum(ROLES).optional(),
    plants: ZPlantScope.optional(),
  })
  .refine((change) => change.name !== undefined || change.role !== undefined || change.plants !== undefined, "names nothing to change");

/** An invitation link, shown once (POST /api/users and POST /api/users/{userId}/invitation). */
const ZInvitation = z.object({ url: z.string(), expiresAt: z.string() });

export const ZUserCreated = z.object({ user: ZUserRecord, invitation: ZInvitation });

/** The dashboard's own `/api/` routes (beyond the maintenance operations it mirrors). */
export const DASHBOARD_ROUTES = {
  me: { method: "GET", path: "/api/me" },
  telemetryQuery: { method: "POST", path: "/api/telemetry/query" },
  listQueryHistory: { method: "GET", path: "/api/telemetry/history" },
  saveQuery: { method: "POST", path: "/api/telemetry/history" },
  updateQuery: { method: "PATCH", path: "/api/telemetry/history" },
  auditLog: { method: "GET", path: "/api/audit" },
  // Condition monitoring (modules/monitors/contract/monitors.ts)
  listMonitors: { method: "GET", path: "/api/plants/{plantId}/monitors" },
  createMonitor: { method: "POST", path: "/api/plants/{plantId}/monitors" },
  previewMonitor: { method: "POST", path: "/api/plants/{plantId}/monitors/preview" },
  getMonitor: { method: "GET", path: "/api/plants/{plantId}/monitors/{monitorId}" },
  replaceMonitor: { method: "PUT", path: "/api/plants/{plantId}/monitors/{monitorId}" },
  deleteMonitor: { method: "DELETE", path: "/api/plants/{plantId}/monitors/{monitorId}" },
  runMonitor: { method: "POST", path: "/api/plants/{plantId}/monitors/{monitorId}/run" },
  listMonitorFirings: { method: "GET", path: "/api/plants/{plantId}/monitors/{monitorId}/firings" },
  listPlantFirings: { method: "GET", path: "/api/plants/{plantId}/monitor-firings" },
  // Contact points and routing (modules/monitors/contract/routing.ts)
  listContactPoints: { method: "GET", path: "/api/plants/{plantId}/contact-points" },
  createContactPoint: { method: "POST", path: "/api/plants/{plantId}/contact-points" },
  replaceContactPoint: { method: "PUT", path: "/api/plants/{plantId}/contact-points/{contactPointId}" },
  deleteContactPoint: { method: "DELETE", path: "/api/plants/{plantId}/contact-points/{contactPointId}" },
  getNotificationPolicy: { method: "GET", path: "/api/plants/{plantId}/notification-policy" },
  replaceNotificationPolicy: { method: "PUT", path: "/api/plants/{plantId}/notification-policy" },
  plantPeople: { method: "GET", path: "/api/plants/{plantId}/people" },
  // Dashboards (modules/boards/contract/boards.ts)
  listDashboards: { method: "GET", path: "/api/plants/{plantId}/dashboards" },
  createDashboard: { method: "POST", path: "/api/plants/{plantId}/dashboards" },
  importDashboard: { method: "POST", path: "/api/plants/{plantId}/dashboards/import" },
  getDashboard: { method: "GET", path: "/api/plants/{plantId}/dashboards/{dashboardId}" },
  replaceDashboard: { method: "PUT", path: "/api/plants/{plantId}/dashboards/{dashboardId}" },
  deleteDashboard: { method: "DELETE", path: "/api/plants/{plantId}/dashboards/{dashboardId}" },
  exportDashboard: { method: "GET", path: "/api/plants/{plantId}/dashboards/{dashboardId}/export" },
  // Folders, sharing and the query library (modules/boards/contract/boards.ts, saved-queries.ts; docs/boards.md)
  placeDashboard: { method: "PUT", path: "/api/plants/{plantId}/dashboards/{dashboardId}/placement" },
  createBoardFolder: { method: "POST", path: "/api/plants/{plantId}/dashboard-folders" },
  renameBoardFolder: { method: "PUT", path: "/api/plants/{plantId}/dashboard-folders/{folderId}" },
  deleteBoardFolder: { method: "DELETE", path: "/api/plants/{plantId}/dashboard-folders/{folderId}" },
  listSavedQueries: { method: "GET", path: "/api/plants/{plantId}/saved-queries" },
  createSavedQuery: { method: "POST", path: "/api/plants/{plantId}/saved-queries" },
  getSavedQuery: { method: "GET", path: "/api/plants/{plantId}/saved-queries/{savedQueryId}" },
  replaceSavedQuery: { method: "PUT", path: "/api/plants/{plantId}/saved-queries/{savedQueryId}" },
  deleteSavedQuery: { method: "DELETE", path: "/api/plants/{plantId}/saved-queries/{savedQueryId}" },
  runSavedQuery: { method: "POST", path: "/api/plants/{plantId}/saved-queries/{savedQueryId}/run" },
  // The notification centre (modules/notifications/contract/notifications.ts): the signed-in user's own
  listNotifications: { method: "GET", path: "/api/notifications" },
  notificationSummary: { method: "GET", path: "/api/notifications/summary" },
  markNotificationsRead: { method: "POST", path: "/api/notifications/read" },
  getNotificationPrefs: { method: "GET", path: "/api/notifications/preferences" },
  replaceNotificationPrefs: { method: "PUT", path: "/api/notifications/preferences" },
  // The signed-in user's own sessions (modules/account/contract/sessions.ts)
  listMySessions: { method: "GET", path: "/api/account/sessions" },
  endMySession: { method: "DELETE", path: "/api/account/sessions/{sessionHandle}" },
  endMyOtherSessions: { method: "POST", path: "/api/account/sessions/end-others" },
  listUsers: { method: "GET", path: "/api/users" },
  createUser: { method: "POST", path: "/api/users" },
  updateUser: { method: "PATCH", path: "/api/users/{userId}" },
  disableUser: { method: "POST", path: "/api/users/{userId}/disable" },
  enableUser: { method: "POST", path: "/api/users/{userId}/enable" },
  endUserSessions: { method: "POST", path: "/api/users/{userId}/sign-out" },
  inviteUser: { method: "POST", path: "/api/users/{userId}/invitation" },
} as const satisfies Record<string, { method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"; path: string }>;

export type DashboardRouteId = keyof typeof DASHBOARD_ROUTES;

export type TMePlant = z.infer<typeof ZMePlant>;
export type TMe = z.infer<typeof ZMe>;
export type THistoryRecord = z.output<typeof ZHistoryRecord>;
export type THistoryUpdate = z.output<typeof ZHistoryUpdate>;
export type THistoryEntry = z.infer<typeof ZHistoryEntry>;
export type TAuditRecord = z.infer<typeof ZAuditRecord>;
export type TUserRecord = z.infer<typeof ZUserRecord>;
export type TInvitation = z.infer<typeof ZInvitation>;
export type TUserCreated = z.infer<typeof ZUserCreated>;
