/**
 * The words people read for the audit log's recorded action and outcome codes, shared by the page
 * and the CSV export (docs/api.md, "The audit log"). Plain data: the page loads no schema for it.
 */

/** The actions the dashboard records (operation tables' `audit`, lib/auth/options.ts, lib/dashboard-store/user-admin.ts), as people say them; audit-labels.test.ts finds any without words. */
export const AUDIT_ACTIONS: Record<string, string> = {
  "auth.sign-in": "Sign-in",
  "access.denied": "Refused (no permission)",
  "auth.invitation-accepted": "Invitation accepted",
  "user.add": "User added",
  "user.update": "User changed",
  "user.disable": "User disabled",
  "user.enable": "User enabled",
  "user.end-sessions": "User signed out everywhere",
  "user.invite": "Invitation link made",
  "session.end": "Own session ended",
  "session.end-others": "Signed out everywhere else",
  "task.create": "Task created",
  "task.transition": "Task moved",
  "task.update": "Task edited",
  "task.close-out": "Task closed out",
  "task.attach": "File attached to a task",
  "stock-level.submit": "Stock level recorded",
  "part.update": "Reorder levels changed",
  "plan.create": "Maintenance plan created",
  "plan.update": "Maintenance plan changed",
  "plan.delete": "Maintenance plan deleted",
  "plan.run": "Maintenance plan run",
  "monitor.create": "Monitor created",
  "monitor.update": "Monitor changed",
  "monitor.delete": "Monitor deleted",
  "monitor.run": "Monitor run",
  "monitor.pause": "Monitor paused (its author lost the rights)",
  "contact-point.create": "Contact point created",
  "contact-point.update": "Contact point changed",
  "contact-point.delete": "Contact point deleted",
  "notification-policy.update": "Notification routing changed",
  "monitor.recipient-add": "Monitor e-mail recipient added",
  "monitor.recipient-remove": "Monitor e-mail recipient removed",
  "dashboard.create": "Dashboard created",
  "dashboard.update": "Dashboard changed",
  "dashboard.delete": "Dashboard deleted",
  "dashboard.import": "Dashboard imported",
  "dashboard.place": "Dashboard moved or shared",
  "dashboard-folder.create": "Dashboard folder created",
  "dashboard-folder.rename": "Dashboard folder renamed",
  "dashboard-folder.delete": "Dashboard folder deleted",
  "saved-query.create": "Query saved to the library",
  "saved-query.update": "Saved query changed",
  "saved-query.delete": "Saved query deleted",

};

/** Outcomes worth filtering by: success, and the refusals an administrator looks into. */
export const AUDIT_OUTCOMES: Record<string, string> = {
  SUCCESS: "Success",
  PENDING: "No outcome recorded",
  FORBIDDEN: "Forbidden (403)",
  INVALID_INPUT: "Invalid input (400)",
  INVALID_TRANSITION: "Move not allowed (412)",
  TASK_CHANGED: "Changed meanwhile (412)",
  TASK_CLOSED: "Task already closed (412)",
  INSUFFICIENT_STOCK: "Not enough in stock (412)",
  UNIT_MISMATCH: "Wrong unit (412)",
  ASSET_NOT_FOUND: "Unknown asset (412)",
  TASK_NOT_FOUND: "Unknown task (404)",
  PART_NOT_FOUND: "Unknown part (404)",
  INVALID_CREDENTIALS: "Wrong password",
  UNKNOWN_USER: "Unknown user",
  THROTTLED: "Throttled sign-in (429)",
  EMAIL_TAKEN: "SSO e-mail of another user",
  DISABLED: "Disabled user",
  NOT_FOUND: "Not found (404)",
  RATE_LIMITED: "Too many requests (429)",
  FEATURE_UNAVAILABLE: "Not offered by the service (501)",
  UPSTREAM_UNAVAILABLE: "Service unavailable (502)",
  INTERNAL_ERROR: "Internal error (500)",
  SERVICE_UNAVAILABLE: "Shared state unreachable (503)",
};

export const auditActionLabel = (code: string) => AUDIT_ACTIONS[code] ?? code;
export const auditOutcomeLabel = (code: string) => AUDIT_OUTCOMES[code] ?? code;

/** A row's small parameters as one line: `to: PENDING · remark: …`. */
export function auditDetailText(detail: Record<string, unknown> | null | undefined): string {
  if (!detail) return "";
  return Object.entries(detail)
    .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" · ");
}
