import "server-only";
/** Issues the embedded dashboard's telemetry client for one customer through the service's client store. */
import { BffError } from "@/lib/bff/errors";
import type { ServiceRuntime } from "@/lib/service/runtime";

export function issueEmbeddedTelemetryClient(_runtime: ServiceRuntime, _customerId: string): { clientId: string; clientSecret: string } {
  throw new BffError(501, "FEATURE_UNAVAILABLE", "Telemetry is not available yet.", [{ feature: "telemetry" }]);
}
