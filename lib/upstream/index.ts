import "server-only";
/**
 * THE upstream of this process, built on first use from the configuration and shared by the `/api/`
 * router and the pages (which reach it through the server's page interface, lib/bff/page-server.ts). Remote mode
 * opens nothing of the embedded service.
 */
import { getConfig, type AppConfig } from "@/lib/config";
import { getServiceRuntime } from "@/lib/service/runtime";
import { getSharedState } from "@/lib/shared-state";
import { createEmbeddedUpstream } from "./embedded";
import { createRemoteUpstream } from "./remote";
import { httpTransport } from "./transport";
import type { Upstream } from "./types";

export type { MaintenanceCall, PlantInfo, QueryCaller, Upstream, UpstreamAnswer } from "./types";

let upstream: Promise<Upstream> | null = null;

/** The process's upstream, built on first use (a failure is not kept: the next caller tries again). */
export function getUpstream(): Promise<Upstream> {
  upstream ??= buildUpstream(getConfig()).catch((error: unknown) => {
    upstream = null;
    throw error;
  });
  return upstream;
}

async function buildUpstream(config: AppConfig): Promise<Upstream> {
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
    monitorsBudgetPerMinute: config.TELEMETRY_COST_BUDGET_PER_MINUTE,
  });
}
