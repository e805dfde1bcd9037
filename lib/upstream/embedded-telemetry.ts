import "server-only";
/**
 * Embedded mode's telemetry client for one customer, created through the service's own client
 * store exactly as `npm run ops -- client create` would; the secret stays in this process's memory.
 * Created on the first telemetry query for that customer, so a dashboard nobody queries adds none.
 */
import type { ServiceRuntime } from "@/lib/service/runtime";

export function issueEmbeddedTelemetryClient(runtime: ServiceRuntime, customerId: string): { clientId: string; clientSecret: string } {
  const created = runtime.telemetry.clients.create(customerId);
  return { clientId: created.client_id, clientSecret: created.client_secret };
}
