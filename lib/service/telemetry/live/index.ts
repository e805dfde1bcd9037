/**
 * The telemetry parts that run while the server runs: the demo plant (DEMO_LIVE), ingestion from
 * MQTT (MQTT_URL), the demo publishing through it (DEMO_PUBLISH=mqtt), and the status file that
 * `npm run ops -- ingest status` reads. Started by the server's runtime (lib/service/runtime.ts).
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { AppConfig } from "@/lib/config";
import type { SharedState } from "@/lib/shared-state";
import type { SqlDb } from "../../../platform/sql";
import type { DuckDbTelemetryStore } from "../duckdb/store";
import type { ClickHouseTelemetryStore } from "../clickhouse/store";
import type { CustomerRecord } from "../../maintenance/store";
import { createDeviceRegistry, registerDemoDevices } from "../ingest/device-registry";
import { ClickHouseReadingSink } from "../ingest/clickhouse-sink";
import { hostLease } from "../ingest/host-lease";
import { startHostRole, type HostRole } from "../ingest/host-role";
import { startMqttIngestion, type MqttIngestion } from "../ingest/mqtt-ingest";
import { sqlSparkplugState } from "../ingest/sparkplug-state";
import { emptyStats, STATUS_INTERVAL_MS, writeStatusFile, type IngestStatus } from "../ingest/stats";
import { startClickHouseDemoPlant } from "./clickhouse-demo";
import { startDemoPlant, type LiveDemoPlant } from "./demo-plant";
import { startMqttDemoPublisher, type MqttDemoPublisher } from "./mqtt-publisher";

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

interface LiveTelemetryOptions {
  now: () => Date;
  log: (line: string) => void;
  /** Run the demo's minute timer (tests drive `demo.catchUp()` with their own clock instead). */
  schedule?: boolean;
  /** Where the primary host lease lives (Redis shared by the instances); memory: this instance alone. */
  shared?: SharedState;
}

export async function startLiveTelemetry(
  config: AppConfig,
  /** Where the telemetry lives (the assembled TelemetryService's two stores, one of them null). */
  telemetry: { duckdb: DuckDbTelemetryStore | null; clickhouse: ClickHouseTelemetryStore | null },
  db: SqlDb,
  customers: CustomerRecord[],
  options: LiveTelemetryOptions,
): Promise<LiveTelemetry> {
  await registerDemoDevices(db, config.SEED, customers.flatMap((c) => c.plants));
  const registry = config.MQTT_URL ? createDeviceRegistry(db) : null;
  await registry?.loaded();

  // Ingestion writes where the telemetry lives: the embedded DuckDB files, or ClickHouse
  // (TELEMETRY_URL). Read-only instances (TELEMETRY_READ_ONLY) serve what `npm run seed` wrote.
  const readOnly = telemetry.duckdb !== null && config.TELEMETRY_READ_ONLY;
  const duckdb = readOnly ? null : telemetry.duckdb;
  const clickhouse = telemetry.clickhouse;
  if (readOnly && (config.MQTT_URL || config.DEMO_LIVE)) {
    options.log("[telemetry] read-only (TELEMETRY_READ_ONLY=1): the live demo plant and MQTT ingestion are off; `npm run seed` writes the telemetry files");
  }
  const sink = clickhouse ? new ClickHouseReadingSink(clickhouse.executor, (customerId) => clickhouse.database(customerId), config.INGEST_DEVICE_SERIES_MAX) : undefined;
  const startIngestion = () =>
    startMqttIngestion({
      url: config.MQTT_URL!,
      clientId: config.MQTT_CLIENT_ID,
      ...(duckdb ? { store: duckdb } : { sink }),
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
    config.MQTT_URL && registry && (duckdb || sink)
      ? await startHostRole({
          lease: hostLease(options.shared ?? { kind: "memory", close: async () => {} }, config.SPARKPLUG_HOST_ID, `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, config.SPARKPLUG_HOST_LEASE_MS),
          start: startIngestion,
          log: options.log,
        })
      : null;
  const ingestion = hostRole?.current() ?? null;
  const current = () => hostRole?.current() ?? null;

  let publisher: MqttDemoPublisher | null = null;
  let demo: LiveDemoPlant | null = null;
  let stopped = false;
  const instanceName = `${os.hostname()}:${process.pid}`;
  const startDemo = () => {
    if (stopped) return null;
    if (clickhouse) {
      // On ClickHouse several instances may run the demo: each window is claimed first, so it is written once.
      demo = startClickHouseDemoPlant({
        executor: clickhouse.executor,
        databaseOf: (customerId) => clickhouse.database(customerId),
        db,
        customers,
        seed: config.SEED,
        days: config.DEMO_TELEMETRY_DAYS,
        now: options.now,
        instance: instanceName,
        log: options.log,
        schedule: options.schedule ?? true,
      });
      return demo.ready;
    }
    if (!duckdb) return null;
    demo = startDemoPlant({
      store: duckdb,
      customers,
      seed: config.SEED,
      days: config.DEMO_TELEMETRY_DAYS,
      now: options.now,
      publisher: publisher ?? undefined,
      log: options.log,
      schedule: options.schedule ?? true,
    });
    return demo.ready;
  };
  let demoReady: Promise<unknown> = Promise.resolve();
  if (config.DEMO_LIVE) {
    if (config.DEMO_PUBLISH === "mqtt" && config.MQTT_URL && hostRole) {
      publisher = startMqttDemoPublisher({
        url: config.MQTT_URL,
        clientId: `${config.MQTT_CLIENT_ID}-demo`,
        seed: config.SEED,
        plants: customers.flatMap((c) => c.plants),
        log: options.log,
      });
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
