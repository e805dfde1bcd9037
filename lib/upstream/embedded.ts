import "server-only";
/**
 * Embedded mode: the dashboard calls the service's domain functions in this process, as a trusted
 * caller. No token is minted, nothing is serialised and parsed back, nothing is validated twice:
 * the plant is checked here (the dashboard has already checked the user may reach it), the
 * operation checks its own input exactly as it does for an HTTP request, and its ApiErrors reach
 * `/api/` unchanged.
 */
import { ApiError } from "@/lib/contract/errors";
import { MAINTENANCE_HANDLERS } from "@/modules/maintenance/service/endpoints";
import type { TTelemetryQueryResponse } from "@/lib/contract/telemetry";
import { bodyText } from "@/lib/platform/http/types";
import type { ServiceRuntime } from "@/lib/service/runtime";
import type { PlantInfo, Upstream } from "./types";

/** How the service's task history names the dashboard calling it in process (docs/api.md §3). */
const EMBEDDED_CLIENT = "dashboard";

export function createEmbeddedUpstream(runtime: ServiceRuntime): Upstream {
  const plants: PlantInfo[] = runtime.customers.flatMap((customer) => customer.plants).map(({ id, name, customerId }) => ({ id, name, customerId }));
  plants.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    mode: "embedded",
    plants: () => plants,

    async maintenance(id, call) {
      const plant = await runtime.maintenance.findPlant(call.plantId);
      if (!plant) throw new ApiError("PLANT_NOT_FOUND", `Plant ${call.plantId} is not served by this dashboard.`);
      const result = await MAINTENANCE_HANDLERS[id](runtime.maintenanceContext, plant, {
        params: call.params ?? {},
        query: Object.fromEntries(call.query ?? []),
        body: () => call.body,
        file: call.file ? () => call.file! : undefined,
        idempotencyKey: call.idempotencyKey,
        client: EMBEDDED_CLIENT,
      });
      return { value: result.value as never, headers: result.headers ?? {}, ...(result.bytes ? { bytes: result.bytes } : {}) };
    },

    async telemetryQuery(request, caller, signal, options) {
      if (!caller.customerId) throw new ApiError("FORBIDDEN", "These plants have no telemetry customer.");
      // Each signed-in user spends a budget of their own, so one user's heavy queries cannot
      // throttle everyone else of the same customer.
      // A caller with a budget of its own (a monitor) also spends the shared one it lies within, whose
      // size is every client's (TELEMETRY_COST_BUDGET_PER_MINUTE).
      const budget = caller.budget && { budget: caller.budget.perMinute, within: [{ key: `dashboard:${caller.budget.within}`, budget: runtime.config.TELEMETRY_COST_BUDGET_PER_MINUTE }] };
      const { body, headers, rowCount, stats } = await runtime.telemetry.query(
        { customerId: caller.customerId, budgetKey: `dashboard:${caller.userKey}`, ...(budget ? { budget } : {}) },
        request,
        signal,
        options,
      );
      // The engine's JSON goes to the browser as it is; it is parsed only if a caller reads `value`.
      let parsed: TTelemetryQueryResponse | undefined;
      return {
        get value() {
          parsed ??= JSON.parse(bodyText(body)) as TTelemetryQueryResponse;
          return parsed;
        },
        json: body,
        headers,
        rowCount,
        stats,
      };
    },
  };
}
