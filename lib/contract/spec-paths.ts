/**
 * The service's paths (docs/api.md §1, §5, §6), written once: the service routes and documents
 * them, the remote upstream calls them, the tests call them.
 */
export const MAINTENANCE_BASE = "/maintenance/v1/plants/{plantId}";
export const TELEMETRY_QUERY_PATH = "/insights/v1/telemetry/query/table";
export const TOKEN_PATH = "/oauth2/v2.0/token";
export const JWKS_PATH = "/oauth2/v2.0/keys";
export const DISCOVERY_PATH = "/.well-known/openid-configuration";

/** A maintenance operation's path for one plant (the plant id percent-encoded). */
export function maintenancePath(plantId: string): string {
  return MAINTENANCE_BASE.replace("{plantId}", encodeURIComponent(plantId));
}
