import "server-only";
/**
 * Embedded mode's telemetry client for one customer, created through the service's own client
 * store exactly as `npm run ops -- client create` would; the secret stays in this process's memory.
 * Created on the first telemetry query for that customer, so a dashboard nobody queries adds none;
 * it replaces the client an earlier start of the dashboard left (same label), so they don't pile up.
 */
import type { ServiceRuntime } from "@/lib/service/runtime";

/** Shown in `npm run ops -- client list`, so operators know whose client it is. */
export const EMBEDDED_DASHBOARD_LABEL = "dashboard (embedded)";

export function issueEmbeddedTelemetryClient(runtime: ServiceRuntime, customerId: string): { clientId: string; clientSecret: string } {
  const created = runtime.telemetry.clients.replaceLabelled(customerId, EMBEDDED_DASHBOARD_LABEL);
  return { clientId: created.client_id, clientSecret: created.client_secret };
}
