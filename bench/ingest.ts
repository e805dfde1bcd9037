/**
 * `npm run bench:ingest`: sustained MQTT ingestion into DuckDB on this machine, and what it costs
 * the queries running meanwhile, in the same run:
 *
 *   throughput  a publisher process sends Sparkplug B DDATA (50 devices, 100 alias-only metrics a
 *               message, QoS 1) to the broker as fast as ingestion keeps up (it holds at most
 *               WINDOW readings not yet written, so the broker never has to drop); ingestion is the
 *               server's own (mqtt-ingest.ts, default batch and flush settings) into the 30-day demo
 *               file of CUST-ACME. Readings written per second over the steady part of the run.
 *   queries     the 30-day hourly avg/min/max of one data point (the telemetry benchmark's query),
 *               median without ingestion, then median while ingesting: the ratio is the cost.
 *
 * Needs Mosquitto on MQTT_URL (default mqtt://127.0.0.1:1883). The 30-day data is generated once into
 * BENCH_DATA_DIR (default data/bench-ingest) and reused; each run adds its readings (new timestamps).
 * Options: `--seconds N` ingestion time (default 20), `--runs N` queries without ingestion (default 9).
 */
import { tableRows } from "../lib/service/telemetry/store";
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import mqtt from "mqtt";
import { DEMO_PLANTS } from "@/lib/service/platform/demo-catalog";
import { openDuckDbTelemetryStore } from "@/lib/service/telemetry/duckdb-store";
import { demoDevices } from "@/lib/service/telemetry/demo-devices";
import { startMqttIngestion } from "@/lib/service/telemetry/ingest/mqtt-ingest";
import { encodeDeviceBirth, encodeDeviceData } from "@/lib/service/telemetry/ingest/sparkplug";
import { TELEMETRY_LIMITS } from "@/lib/service/telemetry";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const MQTT_URL = process.env.MQTT_URL ?? "mqtt://127.0.0.1:1883";
const SECONDS = option("seconds", 20);
const RUNS = option("runs", 9);
const SEED = "plantdesk";
const METRICS = 100;
const WINDOW = 40_000; // readings published but not yet written, at most (400 messages: under Mosquitto's 1000-message queue)
const DEVICES = demoDevices(SEED, DEMO_PLANTS.find((p) => p.id === "RTM1")!).concat(demoDevices(SEED, DEMO_PLANTS.find((p) => p.id === "HOU1")!).slice(0, 8));

/** `rate`: readings per second to publish at (0: as fast as the window allows). */
type ToPublisher = { written: number } | { start: { rate: number } } | { stop: true };
type FromPublisher = { ready: true } | { published: number } | { done: number };

/** The publisher process: births, then DDATA as fast as the window allows. */
async function publisher() {
  const send = (message: FromPublisher) => process.send!(message);
  const client = await mqtt.connectAsync(MQTT_URL, { clientId: `bench-ingest-pub-${process.pid}`, clean: true });
  const start = Date.now();
  for (const device of DEVICES) {
    const metrics = Array.from({ length: METRICS }, (_, m) => ({ name: `Bench/M${String(m).padStart(3, "0")}`, alias: m + 1, unit: "u", timestamp: start }));
    await client.publishAsync(`spBv1.0/${device.plantId}/DBIRTH/bench-edge/${device.deviceId}`, Buffer.from(encodeDeviceBirth(metrics, start, 0)), { qos: 1 });
  }
  let written = 0;
  let stop = false;
  let rate = -1;
  process.on("message", (message: ToPublisher) => {
    if ("written" in message) written = message.written;
    else if ("start" in message) {
      rate = message.start.rate;
      stop = false;
    } else stop = true;
  });
  send({ ready: true });
  let published = 0;
  let seq = 0;
  for (;;) {
    while (rate < 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const phaseStart = Date.now();
    const phaseBase = published;
    while (!stop) {
      const due = rate > 0 ? phaseBase + ((Date.now() - phaseStart) / 1000) * rate : Number.POSITIVE_INFINITY;
      if (published - written >= WINDOW || published >= due) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        continue;
      }
      // One round: a message per device, each with its own millisecond.
      const timestamp = start + seq;
      await Promise.all(
        DEVICES.map((device, d) =>
          client.publishAsync(
            `spBv1.0/${device.plantId}/DDATA/bench-edge/${device.deviceId}`,
            Buffer.from(encodeDeviceData(Array.from({ length: METRICS }, (_, m) => ({ alias: m + 1, value: seq + m + d / 100, timestamp })), timestamp, seq % 256)),
            { qos: 1 },
          ),
        ),
      );
      seq += 1;
      published += DEVICES.length * METRICS;
      send({ published });
    }
    rate = -1;
    send({ done: published });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main() {
  const dataDir = path.resolve(import.meta.dirname, "..", process.env.BENCH_DATA_DIR ?? "data/bench-ingest");
  const setupStarted = Date.now();
  const fresh = !fs.existsSync(path.join(dataDir, "telemetry-CUST-ACME.duckdb"));
  const store = await openDuckDbTelemetryStore({
    dataDir,
    customers: [{ id: "CUST-ACME", plants: DEMO_PLANTS.filter((p) => p.customerId === "CUST-ACME") }],
    demo: { seed: SEED, days: 30 },
  });
  console.log(`${fresh ? "Generated" : "Reused"} 30 days of demo telemetry in ${dataDir} (${((Date.now() - setupStarted) / 1000).toFixed(1)} s)`);
  const [[end]] = tableRows(await store.execute("CUST-ACME", { sql: `SELECT max("Timestamp") FROM StateValues WHERE sid < 420`, params: {}, columns: [{ name: "end", kqlType: "datetime" }] }, { limits: { ...TELEMETRY_LIMITS, timeoutMs: 60_000 } })) as [[string]];
  const scopeEnd = new Date(Date.parse(end) + 60_000);
  const query = () =>
    store.query({
      customerId: "CUST-ACME",
      kql: 'States | where DeviceId == "RTM1-DEV-007" and Name == "Temperature" | summarize avg(todouble(Value)), min(todouble(Value)), max(todouble(Value)) by bin(Timestamp, 1h)',
      scope: { start: new Date(scopeEnd.getTime() - 30 * 86_400_000), end: scopeEnd, plantIds: null },
      limits: { ...TELEMETRY_LIMITS, timeoutMs: 60_000 },
    });
  const timed = async () => {
    const started = performance.now();
    const result = await query();
    const rows = tableRows(result).length;
    if (rows < 700) throw new Error(`the aggregate returned ${rows} rows, expected about 720`);
    return performance.now() - started;
  };

  await timed(); // warm-up
  const without: number[] = [];
  for (let i = 0; i < RUNS; i++) without.push(await timed());
  console.log(`Queries without ingestion: median ${median(without).toFixed(1)} ms; starting ingestion for ${SECONDS} s…`);

  // Ingestion exactly as the server runs it (defaults of lib/config.ts), with a unique persistent session.
  const clientId = `bench-ingest-${process.pid}`;
  const devices = new Set(DEVICES.map((d) => `${d.plantId}/${d.deviceId}`));
  const ingestion = startMqttIngestion({
    url: MQTT_URL,
    clientId,
    store,
    registry: { customerOf: async (plantId) => (plantId === "RTM1" || plantId === "HOU1" ? "CUST-ACME" : undefined), isKnownDevice: async (p, d) => devices.has(`${p}/${d}`) },
    batchMax: 10_000,
    flushMs: 200,
    queueMax: 100_000,
    deviceSeriesMax: 1_000,
    hostId: `bench-${process.pid}`,
    log: () => undefined,
  });
  await ingestion.ready;

  const child = fork(import.meta.filename, ["--publisher"], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  let published = 0;
  let onDone: (total: number) => void = () => undefined;
  let ready: () => void = () => undefined;
  const publisherReady = new Promise<void>((resolve) => (ready = resolve));
  child.on("message", (message: FromPublisher) => {
    if ("ready" in message) ready();
    else if ("published" in message) published = message.published;
    else onDone(message.done);
  });
  await publisherReady;
  const reporter = setInterval(() => child.connected && child.send({ written: ingestion.stats.readingsWritten } satisfies ToPublisher), 20);

  /** One phase: publish at `rate` (0: flat out) for SECONDS while timing the aggregate query back to back. */
  async function phase(rate: number) {
    const finished = new Promise<number>((resolve) => (onDone = resolve));
    const writtenBefore = ingestion.stats.readingsWritten;
    child.send({ start: { rate } } satisfies ToPublisher);
    const startedAt = Date.now();
    const samples: { at: number; written: number }[] = [];
    const sampler = setInterval(() => samples.push({ at: Date.now(), written: ingestion.stats.readingsWritten }), 250);
    const progress = setInterval(
      () =>
        console.log(
          `  ${((Date.now() - startedAt) / 1000).toFixed(0)} s: published ${published.toLocaleString("en-US")}, written ${ingestion.stats.readingsWritten.toLocaleString("en-US")}, queued ${ingestion.stats.queued.toLocaleString("en-US")}`,
        ),
      5_000,
    );
    // Queries after a warm-up second, back to back until the time is up.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const during: number[] = [];
    while (Date.now() - startedAt < SECONDS * 1000) during.push(await timed());
    child.send({ stop: true } satisfies ToPublisher);
    const total = await finished;
    clearInterval(sampler);
    clearInterval(progress);
    const drainStarted = Date.now();
    while (ingestion.stats.readingsWritten < total && Date.now() - drainStarted < 60_000) await new Promise((resolve) => setTimeout(resolve, 50));
    // Steady state: from the second second to the end of publishing.
    const steady = samples.filter((sample) => sample.at - startedAt >= 2_000);
    const first = steady[0]!;
    const last = steady[steady.length - 1]!;
    return {
      rate: ((last.written - first.written) / (last.at - first.at)) * 1000,
      written: ingestion.stats.readingsWritten - writtenBefore,
      lost: total - ingestion.stats.readingsWritten,
      queryMs: median(during),
      queries: during.length,
    };
  }

  const flatOut = await phase(0);
  // A plant sends at its own pace: a quarter of what this machine can take (at most 10,000 readings/s).
  const pace = Math.max(1_000, Math.min(10_000, Math.round(flatOut.rate / 4 / 5_000) * 5_000));
  const paced = await phase(pace);
  clearInterval(reporter);
  child.kill();

  await ingestion.close();
  // Leave no persistent session behind at the broker.
  await (await mqtt.connectAsync(MQTT_URL, { clientId, clean: true })).endAsync();
  await store.close();

  const withoutMs = median(without);
  const lost = paced.lost;
  console.log(`\nMachine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" / ")} (other jobs included)`);
  console.log(`30-day hourly aggregate of one data point without ingestion: ${withoutMs.toFixed(1)} ms (median of ${without.length})`);
  console.log(`Flat out:  sustained ${Math.round(flatOut.rate).toLocaleString("en-US")} readings/s into DuckDB through MQTT (${flatOut.written.toLocaleString("en-US")} written, ${ingestion.stats.pauses} pauses); aggregate ${flatOut.queryMs.toFixed(1)} ms (median of ${flatOut.queries}), ratio ${(flatOut.queryMs / withoutMs).toFixed(2)}`);
  console.log(`Paced at ${pace.toLocaleString("en-US")} readings/s: sustained ${Math.round(paced.rate).toLocaleString("en-US")} readings/s; aggregate ${paced.queryMs.toFixed(1)} ms (median of ${paced.queries}), ratio ${(paced.queryMs / withoutMs).toFixed(2)} (aim ≤ 1.5)`);
  console.log(`Lost: ${lost} (published − written over both phases); duplicates dropped: ${ingestion.stats.droppedReadings.duplicate ?? 0}`);
  process.exit(lost === 0 ? 0 : 1);
}

if (args.includes("--publisher")) await publisher();
else await main();
