import "server-only";
/**
 * THE upstream of this process, built on first use from the configuration and shared (through
 * lib/process-wide.ts, like the service runtime) by the `/api/` router and Next's page bundles. Remote mode
 * opens nothing of the embedded service.
 */
import { getConfig, type AppConfig } from "@/lib/config";
import { getServiceRuntime } from "@/lib/service/runtime";
import { getSharedState } from "@/lib/shared-state";
import { createEmbeddedUpstream } from "./embedded";
import { createRemoteUpstream } from "./remote";
import { httpTransport } from "./transport";
import type { Upstream } from "./types";
import { processWideAsync } from "@/lib/process-wide";

export type { MaintenanceCall, PlantInfo, QueryCaller, Upstream, UpstreamAnswer } from "./types";

export function getUpstream(): Promise<Upstream> {
  return processWideAsync("upstream", () => buildUpstream(getConfig()));
}

export async function buildUpstream(config: AppConfig): Promise<Upstream> {
  const { upstream, timeouts, answerCacheChars, maxAnswerBytes } = config.dashboard;
  if (upstream.mode === "embedded") return createEmbeddedUpstream(await getServiceRuntime());
  const tokens = new Map(upstream.plants.map((plant) => [plant.id, plant.token]));
  const plants = upstream.plants.map(({ id, name, customerId }) => ({ id, name, customerId }));
  return createRemoteUpstream({
    service: httpTransport(upstream.baseUrl, maxAnswerBytes),
    auth: httpTransport(upstream.authUrl, maxAnswerBytes),
    credentials: {
      plants: () => plants,
      plantToken: (plantId) => tokens.get(plantId) ?? null,
      telemetryClient: () => upstream.telemetry,
    },
    timeouts,
    answerCacheChars,
    shared: getSharedState(config),
  });
}
