/**
 * The whole `/api/` surface as data: the dashboard's own routes and the maintenance operations
 * mirrored below `/api/plants/{plantId}`. lib/bff/routes.ts binds a handler to each; tests walk it.
 */
import { DASHBOARD_ROUTES, MAINTENANCE_ROUTES, type DashboardRouteId, type MaintenanceRouteId } from "./routes";

export const API_PLANT_BASE = "/api/plants/{plantId}";

interface ApiRouteEntry {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** With `{name}` path parameters. */
  path: string;
}

export function apiRouteTable(): ApiRouteEntry[] {
  return [
    ...Object.values(DASHBOARD_ROUTES),
    ...Object.values(MAINTENANCE_ROUTES).map(({ method, path }) => ({ method, path: API_PLANT_BASE + path })),
  ];
}

/** The `{name}` parameters of a path, as a union of their names. */
type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParams<Rest> : never;
type ParamValues<P extends string> = Record<PathParams<P>, string | number>;
/** No second argument for a path without parameters; the named values otherwise. */
type ParamsArgument<P extends string> = [PathParams<P>] extends [never] ? [] : [ParamValues<P>];

function fill(path: string, values: Record<string, string | number>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * The browser's (and tests') URL of a dashboard route, from the one table above: no caller spells
 * an `/api/` path itself, so a route moves in one place. Values are URL-encoded.
 */
export function apiPath<Id extends DashboardRouteId>(id: Id, ...values: ParamsArgument<(typeof DASHBOARD_ROUTES)[Id]["path"]>): string {
  return fill(DASHBOARD_ROUTES[id].path, values[0] ?? {});
}

/** The `/api/plants/{plantId}/…` URL of a maintenance operation (the service's path below the plant). */
export function operationApiPath<Id extends MaintenanceRouteId>(
  id: Id,
  values: { plantId: string } & ParamValues<(typeof MAINTENANCE_ROUTES)[Id]["path"]>,
): string {
  return fill(API_PLANT_BASE + MAINTENANCE_ROUTES[id].path, values);
}
