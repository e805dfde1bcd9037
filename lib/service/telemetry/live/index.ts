/**
 * The telemetry parts that run while the server runs: the demo plant (DEMO_LIVE), ingestion from
 * MQTT (MQTT_URL), the demo publishing through it (DEMO_PUBLISH=mqtt), and the status file that
 * `npm run ops -- ingest status` reads. Started by the server's runtime (lib/service/runtime.ts).
 */
import type { AppConfig } from "@/lib/config";
import type { SqlDb } from "../../platform/sql";
import type { TelemetryService } from "..";
import type { CustomerRecord } from "../../maintenance/store";
import { createDeviceRegistry, registerDemoDevices } from "../ingest/device-registry";
import { startMqttIngestion, type MqttIngestion } from "../ingest/mqtt-ingest";
import { emptyStats, STATUS_INTERVAL_MS, writeStatusFile, type IngestStatus } from "../ingest/stats";
import { startDemoPlant, type LiveDemoPlant } from "./demo-plant";
import { startMqttDemoPublisher, type MqttDemoPublisher } from "./mqtt-publisher";

export interface LiveTelemetry {
  demo: LiveDemoPlant | null;
  ingestion: MqttIngestion | null;
  /** Resolves when the demo plant has filled the gap since its last reading (at once without one). */
  demoReady: Promise<unknown>;
  status(): IngestStatus;
  stop(): Promise<void>;
}

export interface LiveTelemetryOptions {
  now: () => Date;
  log: (line: string) => void;
  /** Run the demo's minute timer (tests drive `demo.catchUp()` with their own clock instead). */
  schedule?: boolean;
}

export async function startLiveTelemetry(
  config: AppConfig,
  telemetry: TelemetryService,
  db: SqlDb,
  customers: CustomerRecord[],
  options: LiveTelemetryOptions,
): Promise<LiveTelemetry> {
  await registerDemoDevices(db, config.SEED, customers.flatMap((c) => c.plants));
  const registry = config.MQTT_URL ? createDeviceRegistry(db) : null;
  await registry?.loaded();

  // The demo plant and MQTT ingestion write into the embedded DuckDB store; on ClickHouse
  // (TELEMETRY_URL) data arrives through ClickHouse's own ingestion, and read-only instances
  // (TELEMETRY_READ_ONLY) serve what `npm run seed` wrote, so neither runs there.
  const readOnly = telemetry.duckdb !== null && config.TELEMETRY_READ_ONLY;
  const duckdb = readOnly ? null : telemetry.duckdb;
  if (config.MQTT_URL || config.DEMO_LIVE) {
    if (readOnly) options.log("[telemetry] read-only (TELEMETRY_READ_ONLY=1): the live demo plant and MQTT ingestion are off; `npm run seed` writes the telemetry files");
    else if (!duckdb) options.log("[telemetry] on ClickHouse: the live demo plant and MQTT ingestion are off (they write to the embedded store)");
  }
  const ingestion = config.MQTT_URL && duckdb && registry
    ? startMqttIngestion({
        url: config.MQTT_URL,
        clientId: config.MQTT_CLIENT_ID,
        store: duckdb,
        registry,
        batchMax: config.INGEST_BATCH_MAX,
        flushMs: config.INGEST_FLUSH_MS,
        queueMax: config.INGEST_QUEUE_MAX,
        deviceSeriesMax: config.INGEST_DEVICE_SERIES_MAX,
        log: options.log,
      })
    : null;

  let publisher: MqttDemoPublisher | null = null;
  let demo: LiveDemoPlant | null = null;
  let stopped = false;
  const startDemo = () => {
    if (stopped || !duckdb) return null;
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
    if (config.DEMO_PUBLISH === "mqtt" && config.MQTT_URL && ingestion) {
      publisher = startMqttDemoPublisher({
        url: config.MQTT_URL,
        clientId: `${config.MQTT_CLIENT_ID}-demo`,
        seed: config.SEED,
        plants: customers.flatMap((c) => c.plants),
        log: options.log,
      });
      // Published readings need the subscription in place first.
      demoReady = ingestion.ready.then(startDemo);
    } else {
      demoReady = startDemo() ?? Promise.resolve();
    }
  }

  const status = (): IngestStatus => {
    const stats = ingestion?.stats ?? emptyStats();
    return {
      ...stats,
      updatedAt: options.now().toISOString(),
      pid: process.pid,
      oldestQueuedMs: ingestion?.writer.oldestQueuedMs() ?? 0,
      mqtt: ingestion?.connection() ?? null,
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
  const timer = ingestion || (config.DEMO_LIVE && duckdb) ? setInterval(writeStatus, STATUS_INTERVAL_MS) : null;
  timer?.unref();
  if (timer) writeStatus();

  return {
    get demo() {
      return demo;
    },
    ingestion,
    demoReady,
    status,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await (demo as LiveDemoPlant | null)?.stop();
      await publisher?.close();
      await ingestion?.close();
      if (timer) writeStatus();
    },
  };
}
