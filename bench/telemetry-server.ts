/**
 * The service as the telemetry benchmarks start it (bench/scale.ts, bench/fixed-cost.ts): the demo's
 * telemetry of `days` days generated once into `dataDir` and reused, no live parts, a cost budget no
 * run reaches, served over HTTP on a free port, and a bearer token of one OAuth client of `customerId`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseConfig, type AppConfig } from "@/lib/config";
import { fromNodeRequest, sendNodeResponse } from "@/lib/platform/http/node-adapter";
import { createServiceRuntime, type ServiceRuntime } from "@/lib/service/runtime";

interface TelemetryServerOptions {
  dataDir: string;
  days: number;
  customerId: string;
  /** More of the environment (e.g. TELEMETRY_DUCKDB_THREADS). */
  env?: Record<string, string>;
}

interface TelemetryServer {
  config: AppConfig;
  runtime: ServiceRuntime;
  /** `http://127.0.0.1:<port>` */
  base: string;
  token: string;
  close(): Promise<void>;
}

export async function startTelemetryServer(options: TelemetryServerOptions): Promise<TelemetryServer> {
  const config = parseConfig({
    ...process.env,
    DATA_DIR: options.dataDir,
    DEMO_TELEMETRY_DAYS: String(options.days),
    DEMO_LIVE: "0",
    TELEMETRY_COST_BUDGET_PER_MINUTE: "1000000000",
    ...options.env,
  } as NodeJS.ProcessEnv);
  const runtime = await createServiceRuntime(config);
  const server = http.createServer((req, res) => {
    void (async () => sendNodeResponse(res, await runtime.handle(await fromNodeRequest(req, "http://127.0.0.1", res))))();
  });
  const close = async () => {
    server.close();
    await runtime.close();
  };
  try {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = await runtime.telemetry.clients.create(options.customerId);
    const tokenResponse = await fetch(`${base}/oauth2/v2.0/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret, scope: `${config.TELEMETRY_RESOURCE_ID}/.default` }),
    });
    if (!tokenResponse.ok) throw new Error(`token endpoint answered ${tokenResponse.status}`);
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    return { config, runtime, base, token, close };
  } catch (error) {
    await close();
    throw error;
  }
}
