/**
 * `npm run bench:ingest`: sustained MQTT ingestion into DuckDB and into ClickHouse (through
 * `npm run clickhouse:dev`, ClickHouse's HTTP interface from chdb, started by the bench) on this
 * machine, and what it costs the queries running meanwhile, in the same run, per store:
 *
 *   throughput  a publisher process sends Sparkplug B DDATA (50 devices, 100 alias-only metrics a
 *               message, QoS 1) to the broker as fast as ingestion keeps up (it holds at most
 *               WINDOW readings not yet written, so the broker never has to drop); ingestion is the
 *               server's own (mqtt-ingest.ts, default batch and flush settings) into the 30-day demo
 *               file of CUST-ACME. Readings written per second over the steady part of the run.
 *   queries     the 30-day hourly avg/min/max of one data point (the telemetry benchmark's query),
 *               median without ingestion, then median while ingesting: the ratio is the cost.
 *
 *   lost / doubled  published − stored, and readings stored more than once (by device, data point, time).
 *   two instances   (ClickHouse only: DuckDB files belong to one process) two service processes on
 *               PostgreSQL + Redis + clickhouse:dev share the primary host role; flat out, then the
 *               holder is killed (SIGKILL): readings/s, the failover gap, lost and doubled.
 *
 * Starts Mosquitto brokers of its own (the `mosquitto` binary; without it the one-instance phases use
 * MQTT_URL, default mqtt://127.0.0.1:1883); the two-instance part needs PostgreSQL
 * and Redis (lib/testing/services.ts). The 30-day data is generated once into BENCH_DATA_DIR (default
 * data/bench-ingest; ClickHouse's under it) and reused; each run adds its readings (new timestamps).
 * Every measurement is repeated `--repeat N` times (default 3) in this one invocation: each repetition
 * measures its own idle baseline right before its phases, and the figures are the medians.
 *   shared subscriptions  the alternative to the lease, measured at the broker (ingest-shared-subscriptions.ts).
 * Options: `--seconds N` ingestion time per phase (default 20), `--runs N` queries in each idle
 * baseline (default 9), `--repeat N`, `--only duckdb|clickhouse`, `--no-cluster` (skips the two
 * instances and the shared subscriptions).
 */
import { tableRows } from "../lib/service/telemetry/store";
import { fork, spawn, type ChildProcess } from "node:child_process";
import { createClient } from "@clickhouse/client";
import { MOSQUITTO, startMosquitto } from "@/lib/testing/mosquitto";
import { createTestSchema } from "@/lib/testing/postgres-schema";
import { probeServices } from "@/lib/testing/services";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import mqtt from "mqtt";
import { DEMO_PLANTS } from "@/lib/service/demo/catalog";
import { openDuckDbTelemetryStore } from "@/lib/service/telemetry/duckdb/store";
import { httpExecutor } from "@/lib/service/telemetry/clickhouse/http-executor";
import { openClickHouseTelemetryStore } from "@/lib/service/telemetry/clickhouse/store";
import { startClickHouseDev, type ClickHouseDev } from "@/lib/service/telemetry/clickhouse/testing/clickhouse-dev";
import { ClickHouseReadingSink } from "@/lib/service/telemetry/ingest/clickhouse-sink";
import type { TelemetryStore } from "@/lib/service/telemetry/store";
import { demoDevices } from "@/lib/service/telemetry/demo-devices";
import { startMqttIngestion } from "@/lib/service/telemetry/ingest/mqtt-ingest";
import { addDevices } from "@/lib/service/telemetry/ingest/device-registry";
import { openServiceSql } from "@/lib/service/database";
import { encodeDeviceBirth, encodeDeviceData, encodeNodeBirth } from "@/lib/service/telemetry/ingest/sparkplug";
import { TELEMETRY_LIMITS } from "@/lib/service/telemetry-service";
import { measureSharedSubscriptions, type SharedSubscriptionFigures } from "./ingest-shared-subscriptions";
import { demoTelemetrySeed } from "@/lib/service/telemetry/demo-data";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
/**
 * The broker of the one-instance phases: a Mosquitto of the bench's own when the binary is there
 * (on a shared broker other suites' edge nodes publish for the same demo devices, and their readings
 * would be counted as the bench's), else MQTT_URL. The publisher process gets it in its environment.
 */
let MQTT_URL = process.env.BENCH_MQTT_URL ?? process.env.MQTT_URL ?? "mqtt://127.0.0.1:1883";
const SECONDS = option("seconds", 20);
const RUNS = option("runs", 9);
/** Times each measurement is repeated within this one invocation; the figures are the medians. */
const REPEAT = option("repeat", 3);
const ONLY = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
const SEED = "plantdesk";
const METRICS = 100;
const WINDOW = 40_000; // readings published but not yet written, at most (400 messages: under Mosquitto's 1000-message queue)
const DEVICES = demoDevices(SEED, DEMO_PLANTS.find((p) => p.id === "RTM1")!).concat(demoDevices(SEED, DEMO_PLANTS.find((p) => p.id === "HOU1")!).slice(0, 8));

/** `rate`: readings per second to publish at (0: as fast as the window allows). */
type ToPublisher = { written: number } | { start: { rate: number } } | { stop: true };
type FromPublisher = { ready: true } | { published: number } | { done: number };

/** The publisher's edge node id on the shared broker: this invocation's own (the publisher is its child). */
const EDGE_NODE = `bench-edge-${args.includes("--publisher") ? process.ppid : process.pid}`;

/** The publisher process: births, then DDATA as fast as the window allows. */
async function publisher() {
  const send = (message: FromPublisher) => process.send!(message);
  const client = await mqtt.connectAsync(MQTT_URL, { clientId: `bench-ingest-pub-${process.pid}`, clean: true });
  const start = Date.now();
  for (const device of DEVICES) {
    const metrics = Array.from({ length: METRICS }, (_, m) => ({ name: `Bench/M${String(m).padStart(3, "0")}`, alias: m + 1, unit: "u", timestamp: start }));
    await client.publishAsync(`spBv1.0/${device.plantId}/DBIRTH/${EDGE_NODE}/${device.deviceId}`, Buffer.from(encodeDeviceBirth(metrics, start, 0)), { qos: 1 });
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
  let nodeSeq = 0; // the edge node's Sparkplug sequence number, one per message
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
            `spBv1.0/${device.plantId}/DDATA/${EDGE_NODE}/${device.deviceId}`,
            Buffer.from(encodeDeviceData(Array.from({ length: METRICS }, (_, m) => ({ alias: m + 1, value: seq + m + d / 100, timestamp })), timestamp, (nodeSeq = (nodeSeq + 1) % 256))),
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

interface Repetition {
  /** Median of the aggregate without ingestion, measured just before this repetition's phases. */
  withoutMs: number;
  flatOut: { rate: number; written: number; queryMs: number; queries: number };
  paced: { rate: number; queryMs: number; queries: number };
}

interface StoreFigures {
  store: "DuckDB" | "ClickHouse";
  pace: number;
  repetitions: Repetition[];
  lost: number;
  doubled: number;
}

const list = (values: number[], digits: number) => values.map((v) => v.toFixed(digits)).join(", ");
const readingsPerSecond = (value: number) => `${Math.round(value).toLocaleString("en-US")}`;

const CUSTOMERS = [{ id: "CUST-ACME", plants: DEMO_PLANTS.filter((p) => p.customerId === "CUST-ACME") }];

async function runStore(kind: "duckdb" | "clickhouse", dataRoot: string): Promise<StoreFigures> {
  const setupStarted = Date.now();
  let clickhouse: ClickHouseDev | null = null;
  let store: TelemetryStore;
  let sink: ClickHouseReadingSink | undefined;
  let duckdb: Awaited<ReturnType<typeof openDuckDbTelemetryStore>> | undefined;
  if (kind === "duckdb") {
    duckdb = await openDuckDbTelemetryStore({ dataDir: dataRoot, customers: CUSTOMERS, seed: demoTelemetrySeed({ seed: SEED, days: 30 }) });
    store = duckdb;
  } else {
    clickhouse = await startClickHouseDev({ dir: path.join(dataRoot, "clickhouse") });
    const executor = httpExecutor({ url: clickhouse.url, username: "default", password: "" });
    const chStore = await openClickHouseTelemetryStore({ executor, databasePrefix: "bench_", customers: CUSTOMERS, seed: demoTelemetrySeed({ seed: SEED, days: 30 }), maxQueryMemoryBytes: 1024 * 1048576 });
    sink = new ClickHouseReadingSink(executor, (customerId) => chStore.database(customerId), 1_000);
    store = chStore;
  }
  const label = kind === "duckdb" ? "DuckDB" : "ClickHouse (clickhouse:dev)";
  console.log(`\n== ${label}: 30 days of demo telemetry ready in ${((Date.now() - setupStarted) / 1000).toFixed(1)} s`);
  const wide = { start: new Date(Date.now() - 400 * 86_400_000), end: new Date(Date.now() + 86_400_000), plantIds: null };
  const [[end]] = tableRows(await store.query({ customerId: "CUST-ACME", kql: 'States | where Name == "Temperature" and DeviceId == "RTM1-DEV-007" | summarize max(Timestamp)', scope: wide, limits: { ...TELEMETRY_LIMITS, timeoutMs: 60_000 } })) as [[string]];
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
  /** The baseline of each repetition: the aggregate alone, RUNS times back to back. */
  const idle = async () => {
    const without: number[] = [];
    for (let i = 0; i < RUNS; i++) without.push(await timed());
    return median(without);
  };

  // Ingestion exactly as the server runs it (defaults of lib/config.ts), with a unique persistent session.
  const clientId = `bench-ingest-${kind}-${process.pid}`;
  const devices = new Set(DEVICES.map((d) => `${d.plantId}/${d.deviceId}`));
  const ingestion = startMqttIngestion({
    url: MQTT_URL,
    clientId,
    ...(duckdb ? { store: duckdb } : { sink }),
    // Every bench device belongs to the publisher's one edge node (docs/telemetry-ingest.md, "Device ownership").
    registry: {
      customerOf: async (plantId) => (plantId === "RTM1" || plantId === "HOU1" ? "CUST-ACME" : undefined),
      isKnownDevice: async (p, d) => devices.has(`${p}/${d}`),
      ownerOf: async (p, d) => (devices.has(`${p}/${d}`) ? { edgeNodeId: EDGE_NODE } : undefined),
      claim: async () => EDGE_NODE,
    },
    batchMax: 10_000,
    flushMs: 200,
    queueMax: 100_000,
    deviceSeriesMax: 1_000,
    hostId: `bench-${process.pid}`,
    log: () => undefined,
  });
  await ingestion.ready;

  const child = fork(import.meta.filename, ["--publisher"], { execArgv: ["--import", "tsx"], stdio: "inherit", env: { ...process.env, BENCH_MQTT_URL: MQTT_URL } });
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
    const steadyRate = ((last.written - first.written) / (last.at - first.at)) * 1000;
    // A store that writes in bursts longer than the sampling (clickhouse:dev runs one statement at a
    // time, so a slow query holds the inserts back) is measured over the whole phase, drain included.
    const overallRate = ((ingestion.stats.readingsWritten - writtenBefore) / (Date.now() - startedAt)) * 1000;
    return {
      rate: steadyRate > 0 ? steadyRate : overallRate,
      written: ingestion.stats.readingsWritten - writtenBefore,
      lost: total - ingestion.stats.readingsWritten,
      queryMs: median(during),
      queries: during.length,
    };
  }

  const runStarted = Date.now();
  const repetitions: Repetition[] = [];
  let pace = 0;
  let lost = 0;
  for (let r = 0; r < REPEAT; r++) {
    const withoutMs = await idle();
    console.log(`Repetition ${r + 1} of ${REPEAT}: aggregate without ingestion ${withoutMs.toFixed(1)} ms (median of ${RUNS}); ingesting flat out for ${SECONDS} s…`);
    const flatOut = await phase(0);
    // A plant at 10,000 readings/s, or at 80 % of what this store took flat out (first repetition) if that is less.
    if (r === 0) pace = flatOut.rate >= 12_500 ? 10_000 : Math.max(500, Math.round((flatOut.rate * 0.8) / 500) * 500);
    const paced = await phase(pace);
    lost = paced.lost; // published − written, both counted since the start
    repetitions.push({ withoutMs, flatOut, paced });
    console.log(
      `  flat out ${readingsPerSecond(flatOut.rate)} readings/s, aggregate ×${(flatOut.queryMs / withoutMs).toFixed(2)}; paced at ${pace.toLocaleString("en-US")}/s: aggregate ×${(paced.queryMs / withoutMs).toFixed(2)} (${paced.queryMs.toFixed(1)} ÷ ${withoutMs.toFixed(1)} ms)`,
    );
  }
  clearInterval(reporter);
  child.kill();

  await ingestion.close();
  // Leave no persistent session behind at the broker.
  await (await mqtt.connectAsync(MQTT_URL, { clientId, clean: true })).endAsync();
  // Readings stored more than once (this run's timestamps only).
  const runScope = { start: new Date(runStarted - 120_000), end: new Date(Date.now() + 120_000), plantIds: null };
  const [[doubled]] = tableRows(await store.query({ customerId: "CUST-ACME", kql: 'States | where Name startswith "Bench/" | summarize n = count() by DeviceId, Name, Timestamp | where n > 1 | summarize sum(n - 1)', scope: runScope, limits: { ...TELEMETRY_LIMITS, timeoutMs: 120_000 } })) as [[number | null]];
  await store.close();
  await clickhouse?.stop();
  const figures: StoreFigures = { store: kind === "duckdb" ? "DuckDB" : "ClickHouse", pace, repetitions, lost, doubled: doubled ?? 0 };
  const flat = repetitions.map((r) => r.flatOut.rate);
  const pacedRatios = repetitions.map((r) => r.paced.queryMs / r.withoutMs);
  console.log(`Flat out: ${flat.map(readingsPerSecond).join(", ")} readings/s → median ${readingsPerSecond(median(flat))} (${ingestion.stats.pauses} pauses in all)`);
  console.log(`Aggregate while paced at ${pace.toLocaleString("en-US")} readings/s ÷ idle: ${list(pacedRatios, 2)} → median ${median(pacedRatios).toFixed(2)}`);
  console.log(`Lost: ${figures.lost}; doubled: ${figures.doubled}; duplicates dropped on the way: ${ingestion.stats.droppedReadings.duplicate ?? 0}`);
  return figures;
}

/**
 * Two service processes (lib/service/testing/ingest-host-instance.ts) on PostgreSQL, Redis,
 * a fresh clickhouse:dev and a Mosquitto of their own; an edge node publishes flat out (a window of
 * WINDOW readings not yet stored). The holder of the primary host role is killed REPEAT times: after
 * each kill a fresh instance is started (two again) and, once it is up and the survivor holds the
 * role, the next segment ends with killing that holder. One failover gap per kill.
 */
interface ClusterFigures {
  rate: number;
  gapsSeconds: number[];
  lost: number;
  doubled: number;
  acknowledged: number;
}

async function twoInstances(): Promise<ClusterFigures | null> {
  const probes = await probeServices();
  if (!probes.postgres.available || !probes.redis.available || !MOSQUITTO) {
    console.log("\n== Two instances: skipped (needs PostgreSQL, Redis and the mosquitto binary)");
    return null;
  }
  const segmentMs = (SECONDS * 1000) / 2;
  console.log(`\n== Two instances on PostgreSQL + Redis + clickhouse:dev + Mosquitto, flat out, the primary host killed ${REPEAT} times (${(segmentMs / 1000).toFixed(1)} s between kills at least)`);
  const run = `${process.pid}`;
  const [broker, clickhouse, schema] = await Promise.all([startMosquitto("allow_anonymous true\nmax_queued_messages 100000"), startClickHouseDev(), createTestSchema(probes.postgres.url)]);
  const dirs: string[] = [];
  interface Instance {
    child: ChildProcess;
    log: string;
    up: boolean;
  }
  const instances: Instance[] = [];
  const start = (name: string) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-ingest-${name}-`));
    dirs.push(dataDir);
    const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "../lib/service/testing/ingest-host-instance.ts")], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: schema.url,
        REDIS_URL: probes.redis.url,
        REDIS_KEY_PREFIX: `bench-ingest-${run}:`,
        TELEMETRY_URL: `clickhouse://default@127.0.0.1:${clickhouse.port}/`,
        MQTT_URL: broker.url,
        MQTT_CLIENT_ID: `bench-host-${run}`,
        SPARKPLUG_HOST_LEASE_MS: "3000",
        DEMO_LIVE: "0",
        DEMO_TELEMETRY_DAYS: "1",
        SEED,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const entry: Instance = { child, log: "", up: false };
    instances.push(entry);
    return new Promise<Instance>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        entry.log += chunk.toString();
        if (!entry.up && entry.log.includes("host-instance ready")) {
          entry.up = true;
          resolve(entry);
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("exit", (code) => entry.up || reject(new Error(`instance ${name} exited (${code}): ${entry.log.slice(-2000)}`)));
    });
  };
  const holds = (instance: Instance) => instance.child.exitCode === null && instance.child.signalCode === null && instance.log.includes("this instance is the Sparkplug primary host");
  const ch = createClient({ url: clickhouse.url });
  const count = async (sql: string) => Number(((await (await ch.query({ query: sql, format: "JSONEachRow" })).json()) as { n: number }[])[0]!.n);
  try {
    await start("a"); // seeds ClickHouse and takes the role
    await start("b");
    const devices = DEVICES.filter((d) => d.plantId === "RTM1").slice(0, 10);
    const edge = await mqtt.connectAsync(broker.url, { clientId: `bench-edge-${run}`, protocolVersion: 5, clean: true });
    const node = `bench-two-${run}`;
    // The demo devices belong to the demo's collector nodes: this bench's one node takes them over, as an operator would.
    const serviceSql = await openServiceSql({ dataDir: os.tmpdir(), DATABASE_URL: schema.url });
    await addDevices(serviceSql, devices.map((d) => ({ plantId: d.plantId, deviceId: d.deviceId, edgeNodeId: node })), new Date(), true);
    await serviceSql.close();
    let nodeSeq = 0;
    const next = () => (nodeSeq = (nodeSeq + 1) % 256);
    let birthing: Promise<void> = Promise.resolve();
    const births = async () => {
      nodeSeq = 0;
      await edge.publishAsync(`spBv1.0/RTM1/NBIRTH/${node}`, Buffer.from(encodeNodeBirth(0, Date.now())), { qos: 1 });
      for (const device of devices) {
        const metrics = Array.from({ length: METRICS }, (_, m) => ({ name: `Bench/M${String(m).padStart(3, "0")}`, alias: m + 1, unit: "u", timestamp: Date.now() }));
        await edge.publishAsync(`spBv1.0/RTM1/DBIRTH/${node}/${device.deviceId}`, Buffer.from(encodeDeviceBirth(metrics, Date.now(), next())), { qos: 1 });
      }
    };
    edge.on("message", () => (birthing = birthing.then(births)));
    await edge.subscribeAsync(`spBv1.0/RTM1/NCMD/${node}`, { qos: 0 });
    await births();
    const table = "plantdesk_CUST_ACME.States";
    const stored = () => count(`SELECT count() AS n FROM ${table} WHERE Name LIKE 'Bench/%'`);
    let written = 0;
    const poll = setInterval(() => void stored().then((n) => (written = n), () => undefined), 250);
    let acknowledged = 0;
    let round = 0;
    const base = Date.now() - 3_600_000;
    const kills: number[] = [];
    let writtenAtFirstKill = 0;
    let segmentStart = Date.now();
    let replacement: Promise<Instance> | null = null;
    let replacementDue = false;
    let writtenAtKill = 0;
    const firstStart = Date.now();
    for (;;) {
      await birthing;
      // A segment ends once it is long enough and two instances are up with one holding the role.
      const live = instances.filter((i) => i.up && i.child.exitCode === null && i.child.signalCode === null);
      const holder = live.find(holds);
      if (Date.now() - segmentStart >= segmentMs && live.length === 2 && holder) {
        if (kills.length === REPEAT) break;
        if (kills.length === 0) writtenAtFirstKill = await stored();
        kills.push(Date.now());
        holder.child.kill("SIGKILL");
        writtenAtKill = written;
        console.log(`  kill ${kills.length} of ${REPEAT} after ${((Date.now() - firstStart) / 1000).toFixed(1)} s; ${acknowledged.toLocaleString("en-US")} readings acknowledged so far`);
        replacementDue = true;
        segmentStart = Date.now();
      }
      // The replacement starts once the survivor writes again, so its start-up (CPU, its statements
      // to ClickHouse) is not counted in the failover gap.
      if (replacementDue && written > writtenAtKill && live.length === 1 && holds(live[0]!)) {
        replacementDue = false;
        replacement = start(String.fromCharCode(98 + kills.length));
        void replacement.catch(() => undefined);
      }
      if (acknowledged - written >= WINDOW) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      const at = base + round;
      await Promise.all(
        devices.map((device) =>
          edge
            .publishAsync(`spBv1.0/RTM1/DDATA/${node}/${device.deviceId}`, Buffer.from(encodeDeviceData(Array.from({ length: METRICS }, (_, m) => ({ alias: m + 1, value: round + m, timestamp: at })), at, next())), { qos: 1 })
            .then(() => (acknowledged += METRICS)),
        ),
      );
      round += 1;
      if (Date.now() - firstStart > 30 * 60_000) throw new Error("the failover runs took over 30 minutes");
    }
    await replacement;
    const deadline = Date.now() + 120_000;
    while ((await stored()) < acknowledged && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    clearInterval(poll);
    const total = await stored();
    const distinct = await count(`SELECT count() AS n FROM (SELECT DISTINCT DeviceId, Name, Timestamp FROM ${table} WHERE Name LIKE 'Bench/%')`);
    const times = ((await (await ch.query({ query: `SELECT DISTINCT toUnixTimestamp64Milli(IngestionTimestamp) AS t FROM ${table} WHERE Name LIKE 'Bench/%' ORDER BY t`, format: "JSONEachRow" })).json()) as { t: number }[]).map((r) => Number(r.t));
    // Each kill's gap: the longest pause between consecutive commits from the kill to the next kill.
    const gapsSeconds = kills.map((killedAt, k) => {
      const until = kills[k + 1] ?? Number.POSITIVE_INFINITY;
      let gap = 0;
      for (let i = 1; i < times.length; i++) if (times[i]! >= killedAt && times[i]! < until) gap = Math.max(gap, times[i]! - times[i - 1]!);
      return gap / 1000;
    });
    const firstTimes = times.filter((t) => t < kills[0]!);
    const rate = firstTimes.length > 1 ? (writtenAtFirstKill / (firstTimes.at(-1)! - firstTimes[0]!)) * 1000 : 0;
    await edge.endAsync();
    const result: ClusterFigures = { rate, gapsSeconds, lost: acknowledged - distinct, doubled: total - distinct, acknowledged };
    console.log(
      `Two instances: ${readingsPerSecond(rate)} readings/s before the first kill; failover gaps ${list(gapsSeconds, 1)} s → median ${median(gapsSeconds).toFixed(1)} s (lease 3 s); ${acknowledged.toLocaleString("en-US")} acknowledged by the broker, lost ${result.lost}, doubled ${result.doubled}`,
    );
    return result;
  } finally {
    for (const { child } of instances) if (child.exitCode === null) child.kill("SIGKILL");
    await ch.close();
    await clickhouse.stop();
    await broker.stop();
    await schema.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The alternative to the lease, measured at the broker (ingest-shared-subscriptions.ts), REPEAT times. */
async function sharedSubscriptions(): Promise<SharedSubscriptionFigures[] | null> {
  if (!MOSQUITTO) return null;
  const away = Math.max(5, SECONDS / 2);
  console.log(`\n== MQTT 5 shared subscriptions instead of the lease: 2 members, 1,000 messages/s of one edge node, one member dies halfway and returns after ${away} s (${REPEAT} runs)`);
  const runs: SharedSubscriptionFigures[] = [];
  for (let r = 0; r < REPEAT; r++) {
    const figures = await measureSharedSubscriptions({ seconds: SECONDS, rate: 1_000, awaySeconds: away });
    runs.push(figures);
    console.log(
      `  run ${r + 1}: ${figures.published.toLocaleString("en-US")} published; consecutive messages read by different members ${(figures.split * 100).toFixed(0)} %; stranded while the member was away ${figures.stranded.toLocaleString("en-US")} (${((figures.stranded / figures.publishedAfterDeath) * 100).toFixed(0)} % of the ${figures.publishedAfterDeath.toLocaleString("en-US")} published after its death), delivered when it returned after ${figures.awaySeconds.toFixed(1)} s: ${figures.deliveredOnReturn.toLocaleString("en-US")}`,
    );
  }
  return runs;
}

async function main() {
  const dataRoot = path.resolve(import.meta.dirname, "..", process.env.BENCH_DATA_DIR ?? "data/bench-ingest");
  fs.mkdirSync(dataRoot, { recursive: true });
  const started = Date.now();
  const ownBroker = MOSQUITTO && !process.env.MQTT_URL ? await startMosquitto("allow_anonymous true\nmax_queued_messages 100000") : null;
  if (ownBroker) MQTT_URL = ownBroker.url;
  const results: StoreFigures[] = [];
  if (ONLY !== "clickhouse") results.push(await runStore("duckdb", dataRoot));
  if (ONLY !== "duckdb") results.push(await runStore("clickhouse", dataRoot));
  const cluster = ONLY === "duckdb" || args.includes("--no-cluster") ? null : await twoInstances();
  const shared = args.includes("--no-cluster") ? null : await sharedSubscriptions();
  await ownBroker?.stop();
  console.log(`\nOne invocation, ${((Date.now() - started) / 60_000).toFixed(1)} min; every figure the median of ${REPEAT} repetitions (each listed). Machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" / ")} at the end (other jobs included)`);
  console.log("| store | flat out, 1 instance (readings/s) | aggregate while paced ÷ idle, same repetition | flat out, 2 instances | failover gap (lease 3 s) | lost | doubled |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    const flat = r.repetitions.map((x) => x.flatOut.rate);
    const ratios = r.repetitions.map((x) => x.paced.queryMs / x.withoutMs);
    const onClickHouse = r.store === "ClickHouse" && cluster;
    const two = r.store === "DuckDB" ? "– (one process per file)" : cluster ? `${readingsPerSecond(cluster.rate)} readings/s` : "– (not run)";
    const gap = onClickHouse ? `${median(cluster.gapsSeconds).toFixed(1)} s (${list(cluster.gapsSeconds, 1)})` : "–";
    console.log(
      `| ${r.store} | ${readingsPerSecond(median(flat))} (${flat.map(readingsPerSecond).join(", ")}) | ${median(ratios).toFixed(2)} (${list(ratios, 2)}) at ${r.pace.toLocaleString("en-US")}/s | ${two} | ${gap} | ${r.lost + (onClickHouse ? cluster.lost : 0)} | ${r.doubled + (onClickHouse ? cluster.doubled : 0)} |`,
    );
  }
  if (shared) {
    const stranded = shared.map((x) => x.stranded / x.publishedAfterDeath);
    console.log(
      `Shared subscriptions (broker only): consecutive messages of one node split between members ${median(shared.map((x) => x.split * 100)).toFixed(0)} %; stranded at the dead member's session until it returned ${median(stranded.map((x) => x * 100)).toFixed(0)} % of what was published after its death (${list(stranded.map((x) => x * 100), 0)} %), all delivered only when the same client id came back (${shared.map((x) => `${x.deliveredOnReturn}/${x.stranded}`).join(", ")})`,
    );
  }
  const bad = results.some((r) => r.lost !== 0 || r.doubled !== 0) || (cluster !== null && (cluster.lost !== 0 || cluster.doubled !== 0));
  process.exit(bad ? 1 : 0);
}

if (args.includes("--publisher")) await publisher();
else await main();
