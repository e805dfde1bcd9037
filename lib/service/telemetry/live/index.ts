/**
 * The telemetry parts that run while the server runs: the demo plant (DEMO_LIVE), ingestion from
 * MQTT (MQTT_URL), the demo publishing through it (DEMO_PUBLISH=mqtt), and the status file that
 * `npm run ops -- ingest status` reads. Started by the server's runtime (lib/service/runtime.ts),
 * which also hands the demo in (`LiveDemoHooks`): this module decides when the demo plant runs and
 * where it writes, and imports none of it (docs/architecture.md, "Demo apart").
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { AppConfig } from "@/lib/config";
import type { SharedState } from "@/lib/shared-state";
import type { SqlDb } from "../../../platform/sql";
import type { DuckDbTelemetryStore } from "../duckdb/store";
import type { ClickHouseTelemetryStore } from "../clickhouse/store";
import { createDeviceRegistry } from "../ingest/device-registry";
import { ClickHouseReadingSink } from "../ingest/clickhouse-sink";
import { DuckDbReadingSink } from "../ingest/duckdb-sink";
import { hostLease } from "../ingest/host-lease";
import { startHostRole, type HostRole } from "../ingest/host-role";
import { startMqttIngestion, type MqttIngestion } from "../ingest/mqtt-ingest";
import { sqlSparkplugState } from "../ingest/sparkplug-state";
import { emptyStats, STATUS_INTERVAL_MS, writeStatusFile, type IngestStatus } from "../ingest/stats";

/** What one catch-up of the running demo plant wrote. */
export interface CatchUpResult {
  minutes: number;
  states: number;
  published: number;
  raised: number;
  cleared: number;
}

/** The running demo plant (on DuckDB: live/demo-plant.ts; on ClickHouse: live/clickhouse-demo.ts). */
export interface LiveDemoPlant {
  /** Resolves when the gap since the last reading is filled (rejects if that failed). */
  ready: Promise<CatchUpResult>;
  /** Appends every minute up to now (what the timer does each minute). */
  catchUp(): Promise<CatchUpResult>;
  stop(): Promise<void>;
}

/** A publisher of the demo's readings through the broker (DEMO_PUBLISH=mqtt). */
interface Closable {
  close(): Promise<void>;
}

/**
 * The demo, handed in by the assembly (lib/service/runtime.ts). `schedule`: run the demo's minute
 * timer (tests drive `catchUp()` with their own clock instead).
 */
export interface LiveDemoHooks<Publisher extends Closable = Closable> {
  /** Lists the demo's devices with their collectors' edge nodes, so its readings pass ingestion (at every start). */
  registerDevices(): Promise<unknown>;
  /** DEMO_PUBLISH=mqtt with a broker: the publisher the DuckDB demo plant sends short windows through. */
  startPublisher(): Publisher;
  /** The demo plant writing into ClickHouse (several instances may run it: each window is claimed first). */
  startOnClickHouse(clickhouse: ClickHouseTelemetryStore, schedule: boolean): LiveDemoPlant;
  /** The demo plant writing into the DuckDB files (short windows through the publisher, when there is one). */
  startOnDuckDb(duckdb: DuckDbTelemetryStore, publisher: Publisher | null, schedule: boolean): LiveDemoPlant;
}

/**
 * Where the telemetry lives, for what reaches below the query path (ingestion and the demo plant
 * write into it, the readiness probe asks it, benchmarks and tests run SQL on it): one engine, so no
 * caller holds a pair of stores one of which is null. Queries see only the TelemetryStore interface.
 */
export type TelemetryEngine = { kind: "duckdb"; store: DuckDbTelemetryStore } | { kind: "clickhouse"; store: ClickHouseTelemetryStore };

export interface LiveTelemetry {
  demo: LiveDemoPlant | null;
  /** Ingestion while this instance is the Sparkplug primary host (MQTT_URL), else null. */
  readonly ingestion: MqttIngestion | null;
  hostRole: HostRole | null;
  /** Resolves when the demo plant has filled the gap since its last reading (at once without one). */
  demoReady: Promise<unknown>;
  status(): IngestStatus;
  stop(): Promise<void>;
}

interface LiveTelemetryOptions<Publisher extends Closable> {
  now: () => Date;
  /** The demo (its devices always; its running plant with DEMO_LIVE); none: no demo devices, no demo plant. */
  demo?: LiveDemoHooks<Publisher>;
  log: (line: string) => void;
  /** Run the demo's minute timer (tests drive `demo.catchUp()` with their own clock instead). */
  schedule?: boolean;
  /** Where the primary host lease lives (Redis shared by the instances); memory: this instance alone. */
  shared?: SharedState;
}

export async function startLiveTelemetry<Publisher extends Closable>(
  config: AppConfig,
  /** Where the telemetry lives (the assembled TelemetryService's engine). */
  engine: TelemetryEngine,
  db: SqlDb,
  options: LiveTelemetryOptions<Publisher>,
): Promise<LiveTelemetry> {
  const hooks = options.demo;
  await hooks?.registerDevices();
  const registry = config.MQTT_URL ? createDeviceRegistry(db) : null;
  await registry?.loaded();

  // Ingestion writes where the telemetry lives: the embedded DuckDB files, or ClickHouse
  // (TELEMETRY_URL). Read-only instances (TELEMETRY_READ_ONLY) serve what `npm run seed` wrote.
  const readOnly = engine.kind === "duckdb" && config.TELEMETRY_READ_ONLY;
  const duckdb = engine.kind === "duckdb" && !readOnly ? engine.store : null;
  const clickhouse = engine.kind === "clickhouse" ? engine.store : null;
  if (readOnly && (config.MQTT_URL || config.DEMO_LIVE)) {
    options.log("[telemetry] read-only (TELEMETRY_READ_ONLY=1): the live demo plant and MQTT ingestion are off; `npm run seed` writes the telemetry files");
  }
  // Ingestion sees one interface whichever engine it writes (ingest/sink.ts); none when read-only.
  const sink = duckdb
    ? new DuckDbReadingSink(duckdb, config.INGEST_DEVICE_SERIES_MAX)
    : clickhouse
      ? new ClickHouseReadingSink(clickhouse.executor, (customerId) => clickhouse.database(customerId), config.INGEST_DEVICE_SERIES_MAX)
      : null;
  const startIngestion = () =>
    startMqttIngestion({
      url: config.MQTT_URL!,
      clientId: config.MQTT_CLIENT_ID,
      sink: sink!,
      registry: registry!,
      batchMax: config.INGEST_BATCH_MAX,
      flushMs: config.INGEST_FLUSH_MS,
      queueMax: config.INGEST_QUEUE_MAX,
      deviceSeriesMax: config.INGEST_DEVICE_SERIES_MAX,
      timestampWindow: { pastMs: config.INGEST_TIMESTAMP_MAX_AGE_HOURS * 3_600_000, futureMs: config.INGEST_TIMESTAMP_MAX_AHEAD_MINUTES * 60_000 },
      hostId: config.SPARKPLUG_HOST_ID,
      sparkplugState: sqlSparkplugState(db),
      log: options.log,
    });
  // One instance is the Sparkplug primary host at a time (a lease in Redis; alone without it).
  const hostRole =
    config.MQTT_URL && registry && sink
      ? await startHostRole({
          lease: hostLease(options.shared ?? { kind: "memory", close: async () => {} }, config.SPARKPLUG_HOST_ID, `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, config.SPARKPLUG_HOST_LEASE_MS),
          start: startIngestion,
          log: options.log,
        })
      : null;
  const ingestion = hostRole?.current() ?? null;
  const current = () => hostRole?.current() ?? null;

  let publisher: Publisher | null = null;
  let demo: LiveDemoPlant | null = null;
  let stopped = false;
  const schedule = options.schedule ?? true;
  const startDemo = () => {
    if (stopped || !hooks) return null;
    if (clickhouse) {
      // On ClickHouse several instances may run the demo: each window is claimed first, so it is written once.
      demo = hooks.startOnClickHouse(clickhouse, schedule);
      return demo.ready;
    }
    if (!duckdb) return null;
    demo = hooks.startOnDuckDb(duckdb, publisher, schedule);
    return demo.ready;
  };
  let demoReady: Promise<unknown> = Promise.resolve();
  if (config.DEMO_LIVE && hooks) {
    if (config.DEMO_PUBLISH === "mqtt" && config.MQTT_URL && hostRole) {
      publisher = hooks.startPublisher();
      // Published readings need the subscription in place first (here, or at the instance holding the host role).
      demoReady = (ingestion?.ready ?? Promise.resolve()).then(startDemo);
    } else {
      demoReady = startDemo() ?? Promise.resolve();
    }
  }

  const status = (): IngestStatus => {
    const active = current();
    const stats = active?.stats ?? emptyStats();
    return {
      ...stats,
      updatedAt: options.now().toISOString(),
      pid: process.pid,
      oldestQueuedMs: active?.writer.oldestQueuedMs() ?? 0,
      mqtt: active?.connection() ?? null,
      demo: config.DEMO_LIVE ? { live: true, publish: config.DEMO_PUBLISH } : null,
    };
  };
  const writeStatus = () => {
    try {
      writeStatusFile(config.dataDir, status());
    } catch (error) {
      options.log(`[ingest] could not write the status file: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  // The status file describes this process's writers; without any (ClickHouse, read-only) there is none to describe.
  const timer = hostRole || (config.DEMO_LIVE && duckdb) ? setInterval(writeStatus, STATUS_INTERVAL_MS) : null;
  timer?.unref();
  if (timer) writeStatus();

  return {
    get demo() {
      return demo;
    },
    get ingestion() {
      return current();
    },
    hostRole,
    demoReady,
    status,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await (demo as LiveDemoPlant | null)?.stop();
      await publisher?.close();
      await hostRole?.stop();
      if (timer) writeStatus();
    },
  };
}
