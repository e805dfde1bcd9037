/**
 * The telemetry half of the embedded service, assembled: the telemetry store (DuckDB files, or
 * ClickHouse when TELEMETRY_URL is set; filled on first start by the seed the runtime hands it, the
 * demo's), the OAuth clients and tokens kept in the service database, the admission control (cost
 * budget and places for queries running at once) and the routes.
 */
import type { AppConfig } from "@/lib/config";
import type { Route } from "../platform/http/router";
import type { TTelemetryQueryRequest } from "@/lib/contract/telemetry";
import type { CustomerRecord } from "@/modules/maintenance/store";
import type { SqlDb } from "../platform/sql";
import { createAccessTokens, type AccessTokens } from "./telemetry/oauth/access-tokens";
import { createTelemetryClients, type TelemetryClients } from "./telemetry/oauth/clients";
import type { SharedState } from "../shared-state";
import { createFixedWindowCounter } from "../shared-state/fixed-window";
import { createConcurrencySlots } from "../shared-state/slots";
import { createRateLimiter } from "../platform/rate-limit";
import { createCostThrottle } from "./telemetry/cost-throttle";
import { openDuckDbTelemetryStore, type DuckDbStoreOptions, type DuckDbTelemetryStore } from "./telemetry/duckdb/store";
import { httpExecutor } from "./telemetry/clickhouse/http-executor";
import { openClickHouseTelemetryStore, type SeedClaims } from "./telemetry/clickhouse/store";
import type { TelemetrySeed, TelemetryStore } from "./telemetry/store";
import { createOAuthRoutes } from "./telemetry/oauth-endpoints";
import { createQueryGate } from "./telemetry/query-gate";
import { createQueryRoutes, runTelemetryQuery, type QueryEndpointContext, type QueryPrincipal } from "./telemetry/query-endpoint";
import { createKustoRoutes } from "./telemetry/kusto/endpoints";
import type { TelemetryEngine } from "./telemetry/live";

/** docs/api.md §6. */
export const TELEMETRY_LIMITS = { maxRows: 500_000, maxBytes: 64 * 1024 * 1024 } as const;

export interface TelemetryService {
  /** The store queries run on (the query endpoint only sees this interface). */
  store: TelemetryStore;
  /**
   * The same store by its engine: the live demo plant and MQTT ingestion write where the telemetry
   * lives (into the DuckDB files unless they are read-only, TELEMETRY_READ_ONLY, or into ClickHouse),
   * the readiness probe asks ClickHouse; benchmarks and tests reach DuckDB's SQL through `embeddedDuckDb`.
   */
  engine: TelemetryEngine;
  clients: TelemetryClients;
  tokens: AccessTokens;
  routes: Route[];
  /** A query for an already authenticated principal (the dashboard's embedded client). */
  query(principal: QueryPrincipal, request: TTelemetryQueryRequest, signal?: AbortSignal, options?: { countScanned?: boolean }): ReturnType<typeof runTelemetryQuery>;
  /** Queries running and waiting for a place now. */
  load(): { running: number; waiting: number };
  close(): Promise<void>;
}

interface TelemetryOptions {
  /** Clock of the query endpoint (token expiry, `now()`); tests move it. */
  now?: () => Date;
  /** Written into a customer's new, empty telemetry (the demo's, from lib/service/runtime.ts); omit to leave it empty. */
  seed?: TelemetrySeed;
  /** On ClickHouse: who seeds a customer's empty database when instances start together. */
  seedClaims?: SeedClaims;
  log?: (line: string) => void;
  /** Where the cost budgets and concurrency caps live (memory, or Redis shared by the instances). */
  shared?: SharedState;
}

/** How often a waiting query looks for a place freed by another instance (Redis only). */
const SHARED_GATE_POLL_MS = 50;

/**
 * Opens the telemetry half. `db` holds the OAuth clients; `customers` (with their plants) come from
 * the maintenance store, which owns those tables.
 */
export async function openTelemetry(config: AppConfig, db: SqlDb, customers: CustomerRecord[], options: TelemetryOptions = {}): Promise<TelemetryService> {
  const log = options.log ?? ((line: string) => console.log(line));
  const started = Date.now();
  const seed = options.seed;
  const progress: Pick<DuckDbStoreOptions, "onSeeding" | "onSeeded"> = {
    onSeeding: (customerId) =>
      log(`[telemetry] ${customerId}: generating ${config.DEMO_TELEMETRY_DAYS} day${config.DEMO_TELEMETRY_DAYS === 1 ? "" : "s"} of demo telemetry (first start only)…`),
    onSeeded: (customerId, result) =>
      log(
        `[telemetry] ${customerId}: generated ${result.states.toLocaleString("en-US")} readings of ${result.series} series and ` +
          `${result.events} alarms in ${(result.ms / 1000).toFixed(1)} s (all files ready after ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      ),
  };
  const clickhouse = config.telemetryClickHouse;
  const duckdb = clickhouse
    ? null
    : await openDuckDbTelemetryStore({
        dataDir: config.dataDir,
        customers,
        // Read-only instances serve what `npm run seed` wrote; they generate nothing themselves.
        ...(config.TELEMETRY_READ_ONLY ? { readOnly: true } : seed ? { seed } : {}),
        engine: { memoryLimit: config.TELEMETRY_DUCKDB_MEMORY_LIMIT, threads: config.TELEMETRY_DUCKDB_THREADS, maxTempSize: config.TELEMETRY_DUCKDB_MAX_TEMP_SIZE },
        ...progress,
      });
  const clickhouseStore = clickhouse
    ? await openClickHouseTelemetryStore({
        executor: httpExecutor(clickhouse),
        databasePrefix: clickhouse.databasePrefix,
        customers,
        ...(seed ? { seed } : {}),
        // Instances starting together on an empty ClickHouse: one seeds, the others wait for it.
        ...(options.seedClaims ? { seedClaims: options.seedClaims } : {}),
        onWaitingForSeed: (customerId) => log(`[telemetry] ${customerId}: another instance is generating the demo telemetry on ClickHouse; waiting for it`),
        maxQueryMemoryBytes: config.TELEMETRY_CLICKHOUSE_MAX_MEMORY_MB * 1024 * 1024,
        ...progress,
      })
    : null;
  const store: TelemetryStore = duckdb ?? clickhouseStore!;
  const clients = createTelemetryClients(db, config.TELEMETRY_RESOURCE_ID, new Set(customers.map((customer) => customer.id)));
  const tokens = createAccessTokens(db, clients, config.TELEMETRY_RESOURCE_ID, config.oauthIssuer);
  const plantIdsByCustomer = new Map(customers.map((customer) => [customer.id, customer.plants.map((plant) => plant.id)]));
  const shared = options.shared ?? { kind: "memory", close: async () => {} };
  const caps = { perKey: config.TELEMETRY_MAX_CONCURRENT_PER_CLIENT, perGroup: config.TELEMETRY_MAX_CONCURRENT_PER_CUSTOMER };
  const gate = createQueryGate(
    {
      perClient: config.TELEMETRY_MAX_CONCURRENT_PER_CLIENT,
      perCustomer: config.TELEMETRY_MAX_CONCURRENT_PER_CUSTOMER,
      queuePerClient: config.TELEMETRY_QUEUE_PER_CLIENT,
      queueWaitMs: config.TELEMETRY_QUEUE_WAIT_MS,
    },
    createConcurrencySlots(shared, "telemetry-queries", caps),
    shared.kind === "redis" ? SHARED_GATE_POLL_MS : undefined,
  );
  const queryContext: QueryEndpointContext = {
    store,
    tokens,
    throttle: createCostThrottle(config.TELEMETRY_COST_BUDGET_PER_MINUTE, createFixedWindowCounter(shared, "telemetry-cost", 60_000)),
    gate,
    limits: { ...TELEMETRY_LIMITS, timeoutMs: config.TELEMETRY_QUERY_TIMEOUT_MS },
    plantsOf: (customerId) => plantIdsByCustomer.get(customerId) ?? [],
    now: options.now,
  };
  const routes = [
    ...createOAuthRoutes({
      clients,
      tokens,
      resourceId: config.TELEMETRY_RESOURCE_ID,
      issuer: config.oauthIssuer,
      throttle: {
        perClient: createRateLimiter(config.TOKEN_RATE_LIMIT_PER_CLIENT_PER_MINUTE, createFixedWindowCounter(shared, "token-requests-client", 60_000)),
        perAddress: createRateLimiter(config.TOKEN_RATE_LIMIT_PER_ADDRESS_PER_MINUTE, createFixedWindowCounter(shared, "token-requests-address", 60_000)),
      },
    }),
    ...createQueryRoutes(queryContext),
    // ADX's REST protocol for Kusto clients: the same query context, so the same engine path.
    ...createKustoRoutes(queryContext),
  ];
  return {
    store,
    engine: duckdb ? { kind: "duckdb", store: duckdb } : { kind: "clickhouse", store: clickhouseStore! },
    clients,
    tokens,
    routes,
    query: (principal, request, signal, options) => runTelemetryQuery(queryContext, principal, () => request, signal, options),
    load: () => gate.load(),
    close: () => store.close(),
  };
}

/** The embedded DuckDB store below the query path (benchmarks and tests: SQL, plans, own rows); throws on ClickHouse. */
export function embeddedDuckDb(telemetry: Pick<TelemetryService, "engine">): DuckDbTelemetryStore {
  if (telemetry.engine.kind !== "duckdb") throw new Error("The telemetry is on ClickHouse (TELEMETRY_URL), not in the embedded DuckDB files.");
  return telemetry.engine.store;
}
