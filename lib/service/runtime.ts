/**
 * The embedded service in one object: its databases, its request handler and how to close it.
 * `getServiceRuntime()` is the process-wide instance, kept on globalThis so that the custom server
 * (run by tsx) and Next.js's bundled route code share ONE SQLite connection and ONE set of DuckDB
 * files; `createServiceRuntime(config)` makes a private one (tests, benchmarks).
 */
import { getConfig, type AppConfig } from "@/lib/config";
import { createPlantTokens, type PlantTokens } from "./auth/plant-tokens";
import { createRouter } from "./http/router";
import type { ServiceRequest, ServiceResponse } from "./http/types";
import type { MaintenanceContext } from "./maintenance/context";
import { createRateLimiter } from "./rate-limit";
import { createServiceRoutes } from "./routes";
import { seedMaintenanceIfEmpty } from "./seed/maintenance";
import { createSqliteMaintenanceStore, type MaintenanceStore } from "./store/maintenance-store";
import { openDatabase, type SqliteDatabase } from "./store/sqlite";
import { openTelemetry, type TelemetryService } from "./telemetry";

/** The telemetry half: one DuckDB file per customer, KQL queries, OAuth clients and tokens. */
export type TelemetryRuntime = TelemetryService;

export interface ServiceRuntime {
  config: AppConfig;
  /** The SQLite database: maintenance data and all operator state. */
  db: SqliteDatabase;
  maintenance: MaintenanceStore;
  plantTokens: PlantTokens;
  telemetry: TelemetryRuntime;
  handle(req: ServiceRequest): Promise<ServiceResponse>;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Today's date (UTC, `YYYY-MM-DD`) for defaults and the demo data; tests pin it. */
  today?: () => string;
}

const utcToday = () => new Date().toISOString().slice(0, 10);

export async function createServiceRuntime(config: AppConfig, options: RuntimeOptions = {}): Promise<ServiceRuntime> {
  const today = options.today ?? utcToday;
  const db = openDatabase(config.dataDir);
  seedMaintenanceIfEmpty(db, { seed: config.SEED, today: today() });

  const maintenance = createSqliteMaintenanceStore(db);
  const plantTokens = createPlantTokens(db);
  const maintenanceContext: MaintenanceContext = {
    store: maintenance,
    tokens: plantTokens,
    limiter: createRateLimiter(config.MAINTENANCE_RATE_LIMIT_PER_MINUTE),
    today,
  };
  let telemetry: TelemetryRuntime;
  try {
    telemetry = await openTelemetry(config, db);
  } catch (error) {
    db.close();
    throw error;
  }

  const handle = createRouter(createServiceRoutes({ maintenance: maintenanceContext, telemetry: telemetry.routes }));
  let closed = false;
  return {
    config,
    db,
    maintenance,
    plantTokens,
    telemetry,
    handle,
    async close() {
      if (closed) return;
      closed = true;
      await telemetry.close();
      db.close();
    },
  };
}

const RUNTIME_KEY = Symbol.for("plantdesk.serviceRuntime");
type RuntimeHolder = { [RUNTIME_KEY]?: Promise<ServiceRuntime> };

/** The process-wide runtime, created on first use from the environment's configuration. */
export function getServiceRuntime(): Promise<ServiceRuntime> {
  const holder = globalThis as RuntimeHolder;
  holder[RUNTIME_KEY] ??= createServiceRuntime(getConfig()).catch((error: unknown) => {
    delete holder[RUNTIME_KEY]; // let the next request retry instead of caching the failure
    throw error;
  });
  return holder[RUNTIME_KEY];
}
