/**
 * Every route of the embedded service. Each domain contributes its list; the router answers
 * 404/405 for everything else.
 */
import { json } from "../platform/http/respond";
import type { Route } from "../platform/http/router";
import type { MaintenanceContext } from "@/modules/maintenance/service/context";
import { createMaintenanceRoutes } from "@/modules/maintenance/service/endpoints";
import { getServiceOpenApiDocument } from "./openapi";

interface ServiceContexts {
  maintenance: MaintenanceContext;
  /** OAuth token endpoint, discovery, JWKS and the telemetry query (lib/service/telemetry). */
  telemetry: Route[];
}

export function createServiceRoutes(contexts: ServiceContexts): Route[] {
  let openApiBody: string | undefined;
  const docs: Route = {
    method: "GET",
    pattern: "/openapi.json",
    handler: () => {
      const response = json(null, 200, { "cache-control": "public, max-age=300" });
      openApiBody ??= JSON.stringify(getServiceOpenApiDocument());
      return { ...response, body: openApiBody };
    },
  };
  return [...createMaintenanceRoutes(contexts.maintenance), ...contexts.telemetry, docs];
}
