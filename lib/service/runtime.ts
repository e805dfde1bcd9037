/**
 * The embedded service in one object: its databases, its request handler and how to close it.
 * `getServiceRuntime()` is the process's one instance (ONE database connection pool, ONE set of
 * DuckDB files; the pages reach it through the server, docs/architecture.md "One server in the
 * process"); `createServiceRuntime(config)` makes a private one (tests, benchmarks).
 *
 * It is also where the demo is wired in, and the one production module of the service that imports
 * it (docs/architecture.md, "Demo apart"): the maintenance seed, the telemetry seed and its claims,
 * the demo devices, the running demo plant and the maintenance roll-forward. The modules below
 * receive them as hooks and options.
 */
import os from "node:os";
import { getConfig, type AppConfig } from "@/lib/config";
import { createPlantTokens, type PlantTokens } from "@/modules/maintenance/store/plant-tokens";
import { createRouter, type RouterHandler } from "../platform/http/router";
import { createAttachmentStore } from "@/modules/maintenance/store/attachments";
import type { MaintenanceContext } from "@/modules/maintenance/service/context";
import { createRateLimiter } from "../platform/rate-limit";
import { openSharedState } from "../shared-state";
import { createFixedWindowCounter } from "../shared-state/fixed-window";
import { createServiceRoutes } from "./routes";
import { createMaintenanceStore, type CustomerRecord, type MaintenanceStore } from "@/modules/maintenance/store";
import { openServiceSql, type ServiceSql } from "./database";
import { openTelemetry, type TelemetryService } from "./telemetry-service";
import { startLiveTelemetry, type LiveDemoHooks, type LiveTelemetry } from "./telemetry/live";
// The demo (docs/architecture.md, "Demo apart"): imported here and nowhere else in production.
import { startMaintenanceRollForward, type MaintenanceRollForward } from "@/modules/maintenance/service/demo-roll-forward";
import { seedServiceIfEmpty } from "@/modules/maintenance/service/seed-service";
import { demoSeedClaims } from "./telemetry/clickhouse/demo-claims";
import { demoTelemetrySeed } from "./telemetry/demo-data";
import { startClickHouseDemoPlant } from "./telemetry/live/clickhouse-demo";
import { registerDemoDevices, startMqttDemoPublisher, type MqttDemoPublisher } from "./telemetry/live/demo-mqtt-publisher";
import { startDemoPlant } from "./telemetry/live/demo-plant";
import { createPlanStore } from "@/modules/maintenance/store/plans";
import { createReliabilityReads } from "@/modules/maintenance/store/reliability";
import { createPlanScheduler, type PlanScheduler } from "@/modules/maintenance/service/plan-scheduler";
import { METER_WINDOW_DAYS, type MeterReader } from "@/modules/maintenance/service/plan-meter";

/** The telemetry half: one DuckDB file per customer, KQL queries, OAuth clients and tokens. */
type TelemetryRuntime = TelemetryService;

export interface ServiceRuntime {
  config: AppConfig;
  /** The service's database (SQLite, or PostgreSQL with DATABASE_URL): maintenance data and all operator state. */
  sql: ServiceSql;
  maintenance: MaintenanceStore;
  /** The customers and their plants as they were at start (telemetry and the dashboard route by them). */
  customers: CustomerRecord[];
  /** What the maintenance operations need; the dashboard's embedded client calls them with it. */
  maintenanceContext: MaintenanceContext;
  plantTokens: PlantTokens;
  telemetry: TelemetryRuntime;
  /** The maintenance plans' tick: on a timer in the server (`live`), called by hand elsewhere (tests, benchmarks). */
  planScheduler: PlanScheduler;
  /** The running plant (demo, ingestion); null unless started with `live: true`. */
  live: { telemetry: LiveTelemetry; maintenance: MaintenanceRollForward | null } | null;
  /** The service's router; `handle.bodyLimit` tells the Node adapter which routes take larger bodies. */
  handle: RouterHandler;
  /** Whether each database and broker this instance needs answers now (`GET /readyz`, docs/operations in README). */
  readiness(): Promise<ReadinessCheck[]>;
  close(): Promise<void>;
}

/** One dependency's answer to the readiness probe: its kind only, never an address or an error text. */
export interface ReadinessCheck {
  name: "service database" | "shared state" | "telemetry store" | "mqtt broker";
  ok: boolean;
}

/** A probe that does not answer within this is a failed one (a load balancer asks every few seconds). */
const READINESS_TIMEOUT_MS = 2_000;

async function probe(name: ReadinessCheck["name"], check: () => Promise<unknown>): Promise<ReadinessCheck> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), READINESS_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return { name, ok: true };
  } catch {
    return { name, ok: false };
  } finally {
    clearTimeout(timer);
  }
}

interface RuntimeOptions {
  /** Today's date (UTC, `YYYY-MM-DD`) for defaults and the demo data; tests pin it. */
  today?: () => string;
  /** The clock of the demo data and the live parts; tests move it. Also gives `today` unless that is set. */
  now?: () => Date;
  /**
   * Start the running plant: the demo (DEMO_LIVE), MQTT ingestion (MQTT_URL). The server's
   * runtime does; private runtimes (tests, scripts, benchmarks) keep a fixed data set unless they ask.
   */
  live?: boolean | { schedule: boolean };
}

const utcToday = () => new Date().toISOString().slice(0, 10);

export async function createServiceRuntime(config: AppConfig, options: RuntimeOptions = {}): Promise<ServiceRuntime> {
  const now = options.now ?? (() => new Date());
  const today = options.today ?? (options.now ? () => now().toISOString().slice(0, 10) : utcToday);
  const sql = await openSeededServiceSql(config, today());
  let maintenance: MaintenanceStore;
  let customers: CustomerRecord[];
  try {
    maintenance = createMaintenanceStore(sql);
    customers = await maintenance.listCustomers();
  } catch (error) {
    await sql.close();
    throw error;
  }
  // Rate limits, cost budgets and concurrency caps: in memory, or in Redis shared by the instances.
  const shared = openSharedState(config);
  const plantTokens = createPlantTokens(sql);
  const maintenanceContext: MaintenanceContext = {
    store: maintenance,
    tokens: plantTokens,
    limiter: createRateLimiter(config.MAINTENANCE_RATE_LIMIT_PER_MINUTE, createFixedWindowCounter(shared, "maintenance-requests", 60_000)),
    today,
    now,
    plans: createPlanStore(sql, maintenance),
    meter: null,
    reliability: createReliabilityReads(sql),
    attachments: createAttachmentStore(sql),
  };
  let telemetry: TelemetryRuntime;
  try {
    telemetry = await openTelemetry(config, sql, customers, {
      shared,
      ...(options.now ? { now } : {}),
      // A customer's empty telemetry gets DEMO_TELEMETRY_DAYS of the demo up to now; on ClickHouse one of the instances starting together writes it.
      seed: demoTelemetrySeed({ seed: config.SEED, days: config.DEMO_TELEMETRY_DAYS, now: options.now?.() }),
      seedClaims: demoSeedClaims(sql, `${os.hostname()}:${process.pid}`),
    });
  } catch (error) {
    await sql.close();
    await shared.close();
    throw error;
  }

  maintenanceContext.meter = telemetryMeter(telemetry);
  const handle = createRouter(createServiceRoutes({ maintenance: maintenanceContext, telemetry: telemetry.routes }));
  let live: ServiceRuntime["live"] = null;
  if (options.live) {
    const schedule = options.live === true || options.live.schedule;
    const log = (line: string) => console.log(line);
    // The demo's maintenance roll-forward runs on either engine; instances sharing PostgreSQL take
    // turns under an advisory lock, so each day is rolled once.
    live = {
      telemetry: await startLiveTelemetry(config, telemetry.engine, sql, { now, log, schedule, shared, demo: liveDemo(config, sql, customers, now, log) }),
      maintenance: config.DEMO_LIVE ? startMaintenanceRollForward(sql, { seed: config.SEED, today, now, log, schedule }) : null,
    };
  }
  const planScheduler = createPlanScheduler(maintenanceContext, {
    tickMs: config.PLANS_TICK_MS,
    shared,
    log: (line) => console.warn(line),
    schedule: options.live === true || (typeof options.live === "object" && options.live.schedule),
  });
  let closed = false;
  return {
    config,
    sql,
    maintenance,
    customers,
    maintenanceContext,
    plantTokens,
    telemetry,
    planScheduler,
    live,
    handle,
    readiness() {
      const checks = [probe("service database", () => sql.get("SELECT 1 AS one"))];
      if (shared.kind === "redis") checks.push(probe("shared state", () => shared.redis.call((client) => client.ping())));
      const { engine } = telemetry;
      if (engine.kind === "clickhouse") checks.push(probe("telemetry store", () => engine.store.executor.query("SELECT 1 FORMAT JSONCompact", {})));
      // Only the instance holding the primary host role keeps a broker connection (standbys wait for the lease).
      const mqtt = live?.telemetry.status().mqtt;
      if (mqtt) checks.push(probe("mqtt broker", async () => {
        if (!mqtt.connected) throw new Error("not connected");
      }));
      return Promise.all(checks);
    },
    async close() {
      if (closed) return;
      closed = true;
      await planScheduler.stop();
      await live?.maintenance?.stop();
      await live?.telemetry.stop();
      await telemetry.close();
      await sql.close();
      await shared.close();
    },
  };
}

/**
 * The service's database, migrated, with the demo's maintenance data seeded when it has no plant
 * yet (the server's first start; the operator CLI on a fresh clone, scripts/ops-context.ts).
 */
export async function openSeededServiceSql(config: AppConfig, today: string): Promise<ServiceSql> {
  const sql = await openServiceSql(config);
  try {
    await seedServiceIfEmpty(sql, { seed: config.SEED, today });
  } catch (error) {
    await sql.close();
    throw error;
  }
  return sql;
}

/** The running demo, as the live telemetry starts it (telemetry/live, LiveDemoHooks): its devices, its publisher, its plant on either engine. */
function liveDemo(config: AppConfig, sql: ServiceSql, customers: CustomerRecord[], now: () => Date, log: (line: string) => void): LiveDemoHooks<MqttDemoPublisher> {
  const plants = customers.flatMap((customer) => customer.plants);
  const demo = { seed: config.SEED, days: config.DEMO_TELEMETRY_DAYS, now, log };
  return {
    registerDevices: () => registerDemoDevices(sql, config.SEED, plants),
    startPublisher: () => startMqttDemoPublisher({ url: config.MQTT_URL!, clientId: `${config.MQTT_CLIENT_ID}-demo`, seed: config.SEED, plants, log }),
    startOnClickHouse: (clickhouse, schedule) =>
      startClickHouseDemoPlant({
        ...demo,
        executor: clickhouse.executor,
        databaseOf: (customerId) => clickhouse.database(customerId),
        db: sql,
        customers,
        instance: `${os.hostname()}:${process.pid}`,
        schedule,
      }),
    startOnDuckDb: (duckdb, publisher, schedule) => startDemoPlant({ ...demo, store: duckdb, customers, publisher: publisher ?? undefined, schedule }),
  };
}

/**
 * A meter plan's reading through the telemetry engine's own path (scope, budget, limits): its
 * query over the plant's last METER_WINDOW_DAYS, under a cost budget per plant (`plans:<plantId>`).
 */
function telemetryMeter(telemetry: TelemetryRuntime): MeterReader {
  return {
    async read(plant, query, at) {
      const answer = await telemetry.query(
        { customerId: plant.customerId, budgetKey: `plans:${plant.id}` },
        { query, startTime: new Date(at.getTime() - METER_WINDOW_DAYS * 86_400_000).toISOString(), endTime: at.toISOString(), plantIds: [plant.id] },
      );
      const { data } = JSON.parse(Buffer.concat(answer.body).toString("utf8")) as { data: { rows: unknown[][] } };
      const value = data.rows[0]?.[0];
      const reading = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
      return Number.isFinite(reading) ? reading : null;
    },
  };
}

let processRuntime: Promise<ServiceRuntime> | null = null;

/** The process's runtime, created on first use from the environment's configuration (a failure is not kept). */
export function getServiceRuntime(): Promise<ServiceRuntime> {
  processRuntime ??= createServiceRuntime(getConfig(), { live: true }).catch((error: unknown) => {
    processRuntime = null;
    throw error;
  });
  return processRuntime;
}
