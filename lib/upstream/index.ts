import "server-only";
/**
 * THE upstream client of this process, built on first use from the configuration and shared (on
 * globalThis, like the service runtime) by every route bundle Next.js compiles.
 */
import { getConfig, type AppConfig } from "@/lib/config";
import { getServiceRuntime } from "@/lib/service/runtime";
import { createUpstreamClient, type Credentials, type UpstreamClient } from "./client";
import { embeddedCredentials } from "./embedded";
import { issueEmbeddedTelemetryClient } from "./embedded-telemetry";
import { httpTransport, inProcessTransport } from "./transport";

export type { PlantInfo, UpstreamClient } from "./client";

const KEY = Symbol.for("plantdesk.upstreamClient");
type Holder = { [KEY]?: Promise<UpstreamClient> };

export function getUpstreamClient(): Promise<UpstreamClient> {
  const holder = globalThis as Holder;
  holder[KEY] ??= buildUpstreamClient(getConfig()).catch((error: unknown) => {
    delete holder[KEY]; // let the next request try again
    throw error;
  });
  return holder[KEY];
}

export async function buildUpstreamClient(config: AppConfig): Promise<UpstreamClient> {
  const { upstream, timeouts } = config.dashboard;
  if (upstream.mode === "remote") {
    const tokens = new Map(upstream.plants.map((plant) => [plant.id, plant.token]));
    const plants = upstream.plants.map(({ id, name, customerId }) => ({ id, name, customerId }));
    const credentials: Credentials = {
      plants: () => plants,
      plantToken: (plantId) => tokens.get(plantId) ?? null,
      telemetryClient: () => upstream.telemetry,
    };
    return createUpstreamClient({
      mode: "remote",
      service: httpTransport(upstream.baseUrl),
      auth: httpTransport(upstream.authUrl),
      credentials,
      timeouts,
    });
  }
  const runtime = await getServiceRuntime();
  const transport = inProcessTransport((request) => runtime.handle(request));
  return createUpstreamClient({
    mode: "embedded",
    service: transport,
    auth: transport,
    credentials: embeddedCredentials(runtime, (customerId) => issueEmbeddedTelemetryClient(runtime, customerId), config.TELEMETRY_RESOURCE_ID),
    timeouts,
  });
}
