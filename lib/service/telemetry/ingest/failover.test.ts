/**
 * The Sparkplug primary host across instances, as deployed: two service processes on one
 * PostgreSQL schema, one Redis prefix, ClickHouse's HTTP interface (`npm run clickhouse:dev`) and
 * a Mosquitto of the test's own. An edge node (mqtt + sparkplug-payload, QoS 1, answering rebirth
 * requests) publishes alias-only data while the instance holding the role is killed (SIGKILL).
 * Every reading the broker acknowledged to the edge node is stored, none twice; the other instance
 * took the role, carried on with the births the first one had saved, and says so on the STATE
 * topic. The failover gap (last commit of the first holder → first of the next) is printed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "@clickhouse/client";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mosquittoForTests, startMosquitto, type OwnMosquitto } from "@/lib/testing/mosquitto";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { probeServices, servicesRequired } from "@/lib/testing/services";
import { startClickHouseDev, type ClickHouseDev } from "../clickhouse/testing/clickhouse-dev";
import { openServiceSql } from "../../database";
import { addDevices } from "./device-registry";
import { encodeDeviceBirth, encodeDeviceData, encodeNodeBirth } from "./sparkplug";

const probes = await probeServices();
const servicesUp = probes.postgres.available && probes.redis.available;
if (!servicesUp) {
  const message = `Sparkplug failover: needs PostgreSQL and Redis (${probes.postgres.url}, ${probes.redis.url})`;
  if (servicesRequired()) throw new Error(message);
  process.stderr.write(`skipped suite "Sparkplug failover": ${message}\n`);
}
const available = servicesUp && mosquittoForTests("Sparkplug failover");
const run = randomBytes(4).toString("hex");
const DEVICES = Array.from({ length: 10 }, (_, i) => `RTM1-DEV-${String(i + 1).padStart(3, "0")}`);
const METRICS = 5;
const NODE = `FAILOVER-${run}`;

let broker: OwnMosquitto;
let clickhouse: ClickHouseDev;
let schema: TestSchema;
const dataDirs: string[] = [];
const instances: { child: ChildProcess; log: string }[] = [];

function startInstance(name: string): Promise<{ child: ChildProcess; log: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `failover-${name}-`));
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, ["--import", "tsx", path.join(process.cwd(), "lib/service/testing/ingest-host-instance.ts")], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: schema.url,
      REDIS_URL: probes.redis.url,
      REDIS_KEY_PREFIX: `failover-${run}:`,
      TELEMETRY_URL: `clickhouse://default@127.0.0.1:${clickhouse.port}/?database_prefix=failover_${run}_`,
      MQTT_URL: broker.url,
      MQTT_CLIENT_ID: `plantdesk-failover-${run}`,
      SPARKPLUG_HOST_ID: `plantdesk-${run}`,
      SPARKPLUG_HOST_LEASE_MS: "1500",
      DEMO_LIVE: "0",
      DEMO_TELEMETRY_DAYS: "1",
      SEED: "failover",
      INGEST_FLUSH_MS: "100",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const instance = { child, log: "" };
  instances.push(instance);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${instance.log}`)), 120_000);
    const onData = (chunk: Buffer) => {
      instance.log += chunk.toString();
      if (instance.log.includes("host-instance ready")) {
        clearTimeout(timer);
        resolve(instance);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}): ${instance.log}`)));
  });
}

const waitFor = async (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe.skipIf(!available)("Sparkplug primary host failover (two instances, PostgreSQL, Redis, clickhouse:dev, Mosquitto)", () => {
  beforeAll(async () => {
    [broker, clickhouse, schema] = await Promise.all([startMosquitto(), startClickHouseDev(), createTestSchema(probes.postgres.url)]);
  }, 120_000);

  afterAll(async () => {
    for (const { child } of instances) if (child.exitCode === null) child.kill("SIGKILL");
    await clickhouse?.stop();
    await broker?.stop();
    await schema?.drop();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("loses nothing the broker acknowledged and stores nothing twice when the host is killed", async () => {
    // The first instance seeds the databases and takes the role; the second waits for it.
    const first = await startInstance("a");
    await waitFor(() => first.log.includes("primary host"), "the first instance to hold the role");
    const second = await startInstance("b");
    // The demo devices belong to the demo's collector nodes: the test's one node takes them over, as an operator would.
    const serviceSql = await openServiceSql({ dataDir: os.tmpdir(), DATABASE_URL: schema.url });
    await addDevices(serviceSql, DEVICES.map((deviceId) => ({ plantId: "RTM1", deviceId, edgeNodeId: NODE })), new Date(), true);
    await serviceSql.close();

    const edge: MqttClient = await mqtt.connectAsync(broker.url, { clientId: `edge-${run}`, protocolVersion: 5, clean: true });
    const states: { online: boolean; timestamp: number }[] = [];
    edge.on("message", (topic, payload) => {
      if (topic.startsWith("spBv1.0/STATE/")) states.push(JSON.parse(payload.toString()));
      else if (topic.includes("/NCMD/")) void births(); // Node Control/Rebirth
    });
    await edge.subscribeAsync([`spBv1.0/STATE/plantdesk-${run}`, `spBv1.0/RTM1/NCMD/${NODE}`], { qos: 1 });
    let seq = 0;
    const next = () => (seq = (seq + 1) % 256);
    let rebirths = 0;
    // An edge node sends no data while it is being born again.
    let birthing: Promise<void> = Promise.resolve();
    function births(): Promise<void> {
      birthing = birthing.then(birth);
      return birthing;
    }
    async function birth() {
      rebirths += 1;
      seq = 0;
      await edge.publishAsync(`spBv1.0/RTM1/NBIRTH/${NODE}`, Buffer.from(encodeNodeBirth(0, Date.now())), { qos: 1 });
      for (const device of DEVICES) {
        const metrics = Array.from({ length: METRICS }, (_, m) => ({ name: `Failover/M${m}`, alias: m + 1, unit: "u", timestamp: Date.now() }));
        await edge.publishAsync(`spBv1.0/RTM1/DBIRTH/${NODE}/${device}`, Buffer.from(encodeDeviceBirth(metrics, Date.now(), next())), { qos: 1 });
      }
    }
    await births();
    rebirths = 0;

    // Alias-only data, 10 messages of 5 readings every 50 ms, for about 8 s; the holder is killed after 2.5 s.
    const base = Date.now() - 60_000;
    let acknowledged = 0;
    let round = 0;
    const started = Date.now();
    let killedAt = 0;
    while (Date.now() - started < 8_000) {
      await birthing;
      const at = base + round;
      await Promise.all(
        DEVICES.map((device) =>
          edge.publishAsync(
            `spBv1.0/RTM1/DDATA/${NODE}/${device}`,
            Buffer.from(encodeDeviceData(Array.from({ length: METRICS }, (_, m) => ({ alias: m + 1, value: round * 10 + m, timestamp: at })), at, next())),
            { qos: 1 },
          ).then(() => (acknowledged += METRICS)),
        ),
      );
      round += 1;
      if (!killedAt && Date.now() - started > 2_500) {
        first.child.kill("SIGKILL");
        killedAt = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const ch = createClient({ url: clickhouse.url });
    const count = async (sql: string) => Number(((await (await ch.query({ query: sql, format: "JSONEachRow" })).json()) as { n: number }[])[0]!.n);
    const table = `failover_${run}_CUST_ACME.States`;
    await waitFor(async () => (await count(`SELECT count() AS n FROM ${table} WHERE Name LIKE 'Failover/%' AND Value IS NOT NULL`)) >= acknowledged, `all ${acknowledged} readings`, 90_000).catch(async (error: unknown) => {
      const n = await count(`SELECT count() AS n FROM ${table} WHERE Name LIKE 'Failover/%' AND Value IS NOT NULL`);
      throw new Error(`${String(error)}: ${n} stored\n--- first:\n${first.log.slice(-3000)}\n--- second:\n${second.log.slice(-3000)}`);
    });
    const stored = await count(`SELECT count() AS n FROM ${table} WHERE Name LIKE 'Failover/%' AND Value IS NOT NULL`);
    const distinct = await count(`SELECT count() AS n FROM (SELECT DISTINCT DeviceId, Name, Timestamp FROM ${table} WHERE Name LIKE 'Failover/%' AND Value IS NOT NULL)`);
    const lost = acknowledged - distinct;
    const doubled = stored - distinct;
    // The failover gap: the longest pause between two consecutive ingestion times around the kill.
    const times = ((await (await ch.query({ query: `SELECT toUnixTimestamp64Milli(IngestionTimestamp) AS t FROM ${table} WHERE Name LIKE 'Failover/%' ORDER BY t`, format: "JSONEachRow" })).json()) as { t: number }[]).map((r) => Number(r.t));
    let gap = 0;
    for (let i = 1; i < times.length; i++) if (times[i - 1]! >= killedAt - 5_000) gap = Math.max(gap, times[i]! - times[i - 1]!);
    console.log(`Sparkplug failover: ${acknowledged} readings acknowledged by the broker, ${distinct} stored, lost ${lost}, doubled ${doubled}; failover gap ${(gap / 1000).toFixed(1)} s (lease 1.5 s); rebirth requests answered ${rebirths}`);
    await ch.close();
    expect(lost).toBe(0);
    expect(doubled).toBe(0);
    expect(second.log).toContain("this instance is the Sparkplug primary host");
    // STATE: the killed holder's Will said offline, the next holder online, retained.
    await waitFor(() => states.at(-1)?.online === true && states.some((s) => !s.online), "STATE offline then online");
    await edge.endAsync();
  }, 240_000);
});
