/**
 * Every `/api/` route's method and path, and nothing else: the one table the browser builds URLs
 * from (lib/contract/api.ts). No zod here, on purpose: the app's frame (every page's first load)
 * fills URLs, and the schemas it does not need stay out of its JavaScript (they load with a form
 * or an error, lib/client/lazy-contract.ts). The maintenance operations' schemas, permissions and
 * audit live in modules/maintenance/contract/maintenance.ts, which spreads these entries into its table.
 */

type RouteTable = Record<string, { method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"; path: string }>;

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
} as const satisfies RouteTable;

export type DashboardRouteId = keyof typeof DASHBOARD_ROUTES;

/** The maintenance operations' paths below the plant (`/api/plants/{plantId}` here, the service's plant path there). */
export const MAINTENANCE_ROUTES = {
  listJobsDone: { method: "GET", path: "/jobs-done" },
  listJobsPlanned: { method: "GET", path: "/jobs-planned" },
  listAssets: { method: "GET", path: "/assets" },
  listTasks: { method: "GET", path: "/tasks" },
  createTask: { method: "POST", path: "/tasks" },
  getTask: { method: "GET", path: "/tasks/{taskId}" },
  listTaskTransitions: { method: "GET", path: "/tasks/{taskId}/transitions" },
  transitionTask: { method: "POST", path: "/tasks/{taskId}/transitions" },
  updateTask: { method: "PATCH", path: "/tasks/{taskId}" },
  closeOutTask: { method: "POST", path: "/tasks/{taskId}/close-out" },
  submitStockLevel: { method: "PUT", path: "/parts/{partId}/stock-level" },
  updatePart: { method: "PATCH", path: "/parts/{partId}" },
  listLookupValues: { method: "GET", path: "/lookup-values" },
  listParts: { method: "GET", path: "/parts" },
  listStockLevels: { method: "GET", path: "/parts/{partId}/stock-levels" },
  listMaintenancePlans: { method: "GET", path: "/maintenance-plans" },
  createMaintenancePlan: { method: "POST", path: "/maintenance-plans" },
  getMaintenancePlan: { method: "GET", path: "/maintenance-plans/{planId}" },
  updateMaintenancePlan: { method: "PUT", path: "/maintenance-plans/{planId}" },
  deleteMaintenancePlan: { method: "DELETE", path: "/maintenance-plans/{planId}" },
  getReliability: { method: "GET", path: "/reliability" },
  runMaintenancePlan: { method: "POST", path: "/maintenance-plans/{planId}/run" },
  listTaskAttachments: { method: "GET", path: "/tasks/{taskId}/attachments" },
  getAttachment: { method: "GET", path: "/attachments/{attachmentId}" },
  uploadTaskAttachment: { method: "POST", path: "/tasks/{taskId}/attachments" },
} as const satisfies RouteTable;

export type MaintenanceRouteId = keyof typeof MAINTENANCE_ROUTES;
