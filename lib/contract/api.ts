/**
 * The whole `/api/` surface as data: the dashboard's own routes and the maintenance operations
 * mirrored below `/api/plants/{plantId}`. lib/bff/routes.ts binds a handler to each; tests walk it.
 */
import { DASHBOARD_ROUTES } from "./dashboard";
import { MAINTENANCE_OPERATIONS } from "./maintenance";

export const API_PLANT_BASE = "/api/plants/{plantId}";

export interface ApiRouteEntry {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** With `{name}` path parameters. */
  path: string;
}

export function apiRouteTable(): ApiRouteEntry[] {
  return [
    ...Object.values(DASHBOARD_ROUTES),
    ...Object.values(MAINTENANCE_OPERATIONS).map(({ method, path }) => ({ method, path: API_PLANT_BASE + path })),
  ];
}
