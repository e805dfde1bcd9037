/**
 * The service's paths (docs/api.md §1, §5, §6), written once: the service routes and documents
 * them, the remote upstream calls them, the tests call them.
 */
export const MAINTENANCE_BASE = "/maintenance/v1/plants/{plantId}";
export const TELEMETRY_QUERY_PATH = "/insights/v1/telemetry/query/table";
export const TOKEN_PATH = "/oauth2/v2.0/token";
export const JWKS_PATH = "/oauth2/v2.0/keys";
/**
 * The token endpoint as an Entra ID authority spells it, `<authority>/<tenant>/oauth2/v2.0/token`:
 * Azure SDK clients (Grafana's ADX data source among them) pointed at Plantdesk as a custom cloud
 * call it, after the tenant's discovery document (README, "Connecting Kusto tools: Grafana").
 */
export const TENANT_TOKEN_PATH = "/{tenant}/oauth2/v2.0/token";
export const TENANT_DISCOVERY_PATH = "/{tenant}/v2.0/.well-known/openid-configuration";
export const DISCOVERY_PATH = "/.well-known/openid-configuration";

/** A maintenance operation's path for one plant (the plant id percent-encoded). */
export function maintenancePath(plantId: string): string {
  return MAINTENANCE_BASE.replace("{plantId}", encodeURIComponent(plantId));
}
