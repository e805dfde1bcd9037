/**
 * The telemetry half of the embedded service, assembled: the DuckDB store (seeded with demo data
 * on first start), the OAuth clients and tokens kept in SQLite, the cost throttle and the routes.
 */
import type { AppConfig } from "@/lib/config";
import type { Route } from "../http/router";
import type { DemoPlant } from "../seed/catalog";
import type { SqliteDatabase } from "../store/sqlite";
import { createAccessTokens, type AccessTokens } from "./auth/access-tokens";
import { createTelemetryClients, type TelemetryClients } from "./auth/clients";
import { createCostThrottle } from "./cost-throttle";
import { openDuckDbTelemetryStore, type DuckDbTelemetryStore } from "./duckdb-store";
import { createOAuthRoutes } from "./oauth-endpoints";
import { createQueryRoutes } from "./query-endpoint";

/** decisions.md §6. */
export const TELEMETRY_LIMITS = { maxRows: 500_000, maxBytes: 64 * 1024 * 1024 } as const;

export interface TelemetryService {
  /** The embedded DuckDB store; the query endpoint itself only sees the TelemetryStore interface. */
  store: DuckDbTelemetryStore;
  clients: TelemetryClients;
  tokens: AccessTokens;
  routes: Route[];
  close(): Promise<void>;
}

export interface TelemetryOptions {
  /** Clock of the query endpoint (token expiry, `now()`); tests move it. */
  now?: () => Date;
  log?: (line: string) => void;
}

/** Customers with their plants, as the maintenance data knows them. */
export function customersWithPlants(db: SqliteDatabase): { id: string; name: string; plants: DemoPlant[] }[] {
  const customers = db.prepare(`SELECT id, name FROM customers ORDER BY id`).all() as { id: string; name: string }[];
  const plants = db
    .prepare(`SELECT id, name, customer_id AS customerId, time_zone AS timeZone FROM plants ORDER BY id`)
    .all() as DemoPlant[];
  return customers.map((c) => ({ ...c, plants: plants.filter((p) => p.customerId === c.id) }));
}

export async function openTelemetry(config: AppConfig, db: SqliteDatabase, options: TelemetryOptions = {}): Promise<TelemetryService> {
  const log = options.log ?? ((line: string) => console.log(line));
  const customers = customersWithPlants(db);
  const started = Date.now();
  const store = await openDuckDbTelemetryStore({
    dataDir: config.dataDir,
    customers,
    demo: { seed: config.SEED, days: config.DEMO_TELEMETRY_DAYS },
    onSeeding: (customerId) =>
      log(`[telemetry] ${customerId}: generating ${config.DEMO_TELEMETRY_DAYS} day${config.DEMO_TELEMETRY_DAYS === 1 ? "" : "s"} of demo telemetry (first start only)…`),
    onSeeded: (customerId, result) =>
      log(
        `[telemetry] ${customerId}: generated ${result.states.toLocaleString("en-US")} readings of ${result.series} series and ` +
          `${result.events} alarms in ${(result.ms / 1000).toFixed(1)} s (all files ready after ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      ),
  });
  const clients = createTelemetryClients(db, config.TELEMETRY_RESOURCE_ID);
  const tokens = createAccessTokens(db, clients, config.TELEMETRY_RESOURCE_ID);
  const plantsOf = db.prepare(`SELECT id FROM plants WHERE customer_id = ? ORDER BY id`).pluck();
  const routes = [
    ...createOAuthRoutes({ clients, tokens, resourceId: config.TELEMETRY_RESOURCE_ID }),
    ...createQueryRoutes({
      store,
      tokens,
      throttle: createCostThrottle(config.TELEMETRY_COST_BUDGET_PER_MINUTE),
      limits: { ...TELEMETRY_LIMITS, timeoutMs: config.TELEMETRY_QUERY_TIMEOUT_MS },
      plantsOf: (customerId) => plantsOf.all(customerId) as string[],
      now: options.now,
    }),
  ];
  return { store, clients, tokens, routes, close: () => store.close() };
}
