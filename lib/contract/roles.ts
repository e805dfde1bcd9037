/**
 * Who may do what: ONE permission table for the whole dashboard. The BFF's route wrapper checks a
 * route's permission here, `/api/me` reports the same list so the pages can hide what a user may
 * not do, and the role-by-route test reads it too. Plain data, no Node imports (pages may use it).
 */
export const ROLES = ["planner", "supervisor", "engineer", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  /** Jobs done, planned jobs, assets, tasks, lookup values, parts, stock-level history. */
  "maintenance:read",
  /** POST a task: a work request, approved (or not) by a supervisor. */
  "tasks:create",
  /** Move a task along the allowed transitions (approve, postpone, confirm). */
  "tasks:transition",
  /** Edit a task that is not closed, and assign it to a user of its plant. */
  "tasks:edit",
  /** Close out any task with its job record; a task's assignee may close out their own task without it. */
  "tasks:close-out",
  /** PUT a stock level for a part. */
  "stock:submit",
  /** Set a part's reorder level and reorder quantity. */
  "parts:reorder",
  /** Create, change, delete and run maintenance plans (docs/api.md, "Maintenance plans"). */
  "plans:write",
  /** Telemetry queries (explorer and asset charts) and the user's own query history. */
  "telemetry:query",
  /** Read and export the audit log. */
  "audit:read",
  /** See a plant's monitors, their firings and previews (docs/api.md, "Monitors"). */
  "monitors:read",
  /** Create, change, delete and run monitors. */
  "monitors:write",
  /** Set a monitor's webhook target (an outbound call to an address of the user's choosing). */
  "monitors:webhook",
  /** Open a plant's dashboards (every board of a plant is shared with everyone who may open the plant). */
  "dashboards:read",
  /** Create, change, import and delete a plant's dashboards. */
  "dashboards:write",
  /** List, add, change, disable and sign out users (the Users page, `/api/users…`). */
  "users:manage",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const PLANNER: readonly Permission[] = ["maintenance:read", "telemetry:query", "tasks:create", "tasks:edit", "stock:submit", "parts:reorder", "monitors:read", "dashboards:read"];

/**
 * planner: reads everything of their plants (telemetry included: the asset page shows a machine's
 * data beside its jobs), makes the everyday writes and plans (edits, assigns, reorder levels, the maintenance
 * plans: planners and admins alone write those); supervisor: planner (but not its maintenance plans)
 * + task transitions (approval), close-out of any task and the plant's dashboards (the shift's view of
 * its lines); engineer: reads maintenance, uses the telemetry explorer, writes the plant's monitors
 * (the queries that open work) and dashboards, and raises work requests (anyone on site may: a new
 * task waits for a supervisor's approval); planners open dashboards but do not change them; admin: everything,
 * webhook targets included. Whoever a task is assigned to may close it out.
 */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  planner: [...PLANNER, "plans:write"],
  supervisor: [...PLANNER, "tasks:transition", "tasks:close-out", "dashboards:write"],
  engineer: ["maintenance:read", "telemetry:query", "tasks:create", "monitors:read", "monitors:write", "dashboards:read", "dashboards:write"],
  admin: PERMISSIONS,
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function hasPermission(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** A user's plants: every plant (`*`) or an explicit list. Admins always reach every plant. */
export type PlantScope = "*" | readonly string[];

export function canReachPlant(role: Role, plants: PlantScope, plantId: string): boolean {
  return role === "admin" || plants === "*" || plants.includes(plantId);
}
