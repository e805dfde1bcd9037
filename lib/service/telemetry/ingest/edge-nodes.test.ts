/**
 * Ingestion against real edge nodes over a real Mosquitto: Eclipse Tahu's `sparkplug-client`
 * (QoS 0, as it publishes) and `mqtt` + `sparkplug-payload` at QoS 1. Each case is a defect of
 * issue 22 that fails on the code before it:
 * - a device is heard from its very first message after `device add` (its birth with values);
 * - a birth's metadata applies from that birth on, and another node's DBIRTH for a listed device
 *   (ROGUE-NODE, Unit "K") is dropped: the device belongs to the node whose birth claimed it (issue 35 #1);
 * - a Sparkplug message is capped like the JSON topic (1 MB, 1,000 metrics) before it is decoded,
 *   a device's series are capped (INGEST_DEVICE_SERIES_MAX), each refusal counted;
 * - births of devices that are not listed are not held in memory.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import mqtt, { type MqttClient } from "mqtt";
import sparkplugClient from "sparkplug-client";
import sparkplug from "sparkplug-payload";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../testing/openapi-checked-client";
import { createServiceRuntime, type ServiceRuntime } from "../../runtime";
import { TELEMETRY_LIMITS } from "../../telemetry-service";
import { tableRows } from "../store";
import { addDevices } from "./device-registry";
import { encodeDeviceBirth, encodeDeviceData } from "./sparkplug";
import { mosquittoForTests, startMosquitto, type OwnMosquitto } from "@/lib/testing/mosquitto";

// A broker of its own: Sparkplug topics are one namespace, and other suites' edge nodes would be counted here.
const available = mosquittoForTests("Sparkplug edge node tests");
const codec = sparkplug.get("spBv1.0")!;
const run = `${process.pid}-${Date.now()}`;
const clientId = `edge-test-${run}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "edge-nodes-"));
let runtime: ServiceRuntime;
let publisher: MqttClient;
let broker: OwnMosquitto;
const ingestion = () => runtime.live!.telemetry.ingestion!;

async function kql(query: string) {
  return tableRows(
    await runtime.telemetry.store.query({
      customerId: "CUST-ACME",
      kql: query,
      scope: { start: new Date(Date.now() - 3 * 86_400_000), end: new Date(Date.now() + 86_400_000), plantIds: null },
      limits: { ...TELEMETRY_LIMITS, timeoutMs: 60_000 },
    }),
  );
}

async function waitUntil(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const dropped = (): Record<string, number> => ({ ...ingestion().stats.droppedMessages, ...Object.fromEntries(Object.entries(ingestion().stats.droppedReadings).map(([k, v]) => [`reading:${k}`, v])) });

describe.skipIf(!available)("Sparkplug B edge nodes (Tahu's client and mqtt + sparkplug-payload at QoS 1)", () => {
  beforeAll(async () => {
    broker = await startMosquitto();
    runtime = await createServiceRuntime(
      testConfig({ DATA_DIR: dataDir, SEED: "edge-test", DEMO_LIVE: "0", MQTT_URL: broker.url, MQTT_CLIENT_ID: clientId, INGEST_FLUSH_MS: "50", INGEST_DEVICE_SERIES_MAX: "20" }),
      { live: { schedule: false } },
    );
    await ingestion().ready;
    publisher = await mqtt.connectAsync(broker.url, { clientId: `${clientId}-pub`, clean: true });
  }, 180_000);

  afterAll(async () => {
    await publisher?.endAsync();
    await runtime?.close();
    await broker?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("hears a device from its first message after `device add`: the DBIRTH's values of Tahu's client are stored", async () => {
    const device = `PUMP-${run}`;
    const node = `EDGE-${run}`;
    // Listed just now: the service's cached list (re-read every 5 s) does not have it yet.
    expect(await addDevices(runtime.sql, [{ plantId: "RTM1", deviceId: device }])).toBe(1);
    const edge = sparkplugClient.newClient({ serverUrl: broker.url, username: "", password: "", groupId: "RTM1", edgeNode: node, clientId: `${clientId}-tahu`, version: "spBv1.0" });
    const at = Date.now() - 5_000;
    try {
      await new Promise<void>((resolve) => edge.on("birth", resolve));
      edge.publishNodeBirth({ timestamp: at, metrics: [{ name: "Node Control/Rebirth", type: "Boolean", value: false }] });
      edge.publishDeviceBirth(device, {
        timestamp: at,
        metrics: [
          { name: "Discharge/Pressure", alias: 1, type: "Double", value: 4.25, timestamp: at, properties: { engUnit: { type: "String", value: "bar" } } },
          { name: "Motor/Speed", alias: 2, type: "Int32", value: 1480, timestamp: at },
        ],
      });
      edge.publishDeviceData(device, { timestamp: at + 1000, metrics: [{ alias: 1, type: "Double", value: 4.5, timestamp: at + 1000 }] });
      await waitUntil(async () => (await kql(`States | where DeviceId == "${device}" | count`))[0]![0] === 3, "the birth's and the data's readings");
    } finally {
      edge.stop();
    }
    expect(await kql(`States | where DeviceId == "${device}" | order by Timestamp asc, Name asc | project Name, Value, Timestamp, tostring(DataMetadata.Unit)`)).toEqual([
      ["Discharge/Pressure", 4.25, new Date(at).toISOString(), "bar"],
      ["Motor/Speed", 1480, new Date(at).toISOString(), ""],
      ["Discharge/Pressure", 4.5, new Date(at + 1000).toISOString(), "bar"],
    ]);
    expect(ingestion().stats.droppedMessages.unknown_device ?? 0).toBe(0);
  }, 60_000);

  it("applies a birth's metadata from that birth on: ROGUE-NODE's DBIRTH and data are dropped, nothing relabelled (QoS 1)", async () => {
    const device = `DEV-${run}`;
    await addDevices(runtime.sql, [{ plantId: "RTM1", deviceId: device }]);
    const t0 = Date.now() - 60_000;
    const send = (node: string, type: "DBIRTH" | "DDATA", payload: Uint8Array) => publisher.publishAsync(`spBv1.0/RTM1/${type}/${node}/${device}`, Buffer.from(payload), { qos: 1 });
    await send("EDGE-A", "DBIRTH", encodeDeviceBirth([{ name: "Temperature", alias: 1, unit: "degC", timestamp: t0 }], t0, 0));
    for (let i = 0; i < 10; i++) await send("EDGE-A", "DDATA", encodeDeviceData([{ alias: 1, value: 20 + i, timestamp: t0 + i * 1000 }], t0 + i * 1000, i + 1));
    await waitUntil(async () => (await kql(`States | where DeviceId == "${device}" | count`))[0]![0] === 10, "the first ten readings");

    await send("ROGUE-NODE", "DBIRTH", encodeDeviceBirth([{ name: "Temperature", alias: 1, unit: "K", value: 300, timestamp: t0 + 20_000 }], t0 + 20_000, 0));
    await send("ROGUE-NODE", "DDATA", encodeDeviceData([{ alias: 1, value: 301, timestamp: t0 + 21_000 }], t0 + 21_000, 1));
    // The device's own node is born again with its unit: the series goes back to it.
    await send("EDGE-A", "DBIRTH", encodeDeviceBirth([{ name: "Temperature", alias: 1, unit: "degC", value: 31, timestamp: t0 + 30_000 }], t0 + 30_000, 0));
    await waitUntil(async () => (await kql(`States | where DeviceId == "${device}" | count`))[0]![0] === 11, "the later reading");

    const units = await kql(`States | where DeviceId == "${device}" | summarize n = count() by Unit = tostring(DataMetadata.Unit), Job = tostring(MessageMetadata.jobId) | order by n desc`);
    expect(units).toEqual([["degC", "EDGE-A", 11]]);
    const [[firstTen]] = (await kql(`States | where DeviceId == "${device}" and Timestamp < datetime(${new Date(t0 + 10_000).toISOString()}) | summarize dcount(tostring(DataMetadata.Unit))`)) as [[number]];
    expect(firstTen).toBe(1);
  }, 60_000);

  it("refuses an oversized Sparkplug message before decoding it, and caps a device's series, counting both", async () => {
    const device = `BIG-${run}`;
    await addDevices(runtime.sql, [{ plantId: "RTM1", deviceId: device }]);
    const before = dropped();
    const at = Date.now() - 1000;
    // EDGE-B's birth (no metrics) claims the device; its data follows.
    await publisher.publishAsync(`spBv1.0/RTM1/DBIRTH/EDGE-B/${device}`, Buffer.from(codec.encodePayload({ timestamp: at, seq: 0, metrics: [] })), { qos: 1 });
    const many = (count: number) => Buffer.from(codec.encodePayload({ timestamp: at, seq: 1, metrics: Array.from({ length: count }, (_, i) => ({ name: `m${i}`, type: "Double", value: i, timestamp: at })) }));
    await publisher.publishAsync(`spBv1.0/RTM1/DDATA/EDGE-B/${device}`, many(200_000), { qos: 1 }); // about 3.4 MB
    await publisher.publishAsync(`spBv1.0/RTM1/DDATA/EDGE-B/${device}`, many(1_001), { qos: 1 }); // small, but too many metrics
    // 30 data points of one device where 20 series are allowed.
    await publisher.publishAsync(`spBv1.0/RTM1/DDATA/EDGE-B/${device}`, many(30), { qos: 1 });
    await waitUntil(() => (ingestion().stats.droppedReadings.series_limit ?? 0) - (before["reading:series_limit"] ?? 0) === 10, "the series cap");
    const after = dropped();
    expect((after.too_large ?? 0) - (before.too_large ?? 0)).toBe(2);
    expect(await kql(`States | where DeviceId == "${device}" | count`)).toEqual([[20]]);
  }, 60_000);

  it("marks a listed device's data points stale when its edge node (not itself listed) dies: Tahu's Will, dated on arrival", async () => {
    const device = `STALE-${run}`;
    const node = `EDGE-STALE-${run}`;
    await addDevices(runtime.sql, [{ plantId: "RTM1", deviceId: device }]);
    const edge = sparkplugClient.newClient({ serverUrl: broker.url, username: "", password: "", groupId: "RTM1", edgeNode: node, clientId: `${clientId}-dying`, version: "spBv1.0", mqttOptions: { reconnectPeriod: 0 } });
    await new Promise<void>((resolve) => edge.on("birth", resolve));
    const at = Date.now();
    edge.publishNodeBirth({ timestamp: at, metrics: [{ name: "Node Control/Rebirth", type: "Boolean", value: false }] });
    edge.publishDeviceBirth(device, { timestamp: at, metrics: [{ name: "Flow", alias: 1, type: "Double", value: 3.5, timestamp: at, properties: { engUnit: { type: "String", value: "m3/h" } } }] });
    await waitUntil(async () => (await kql(`States | where DeviceId == "${device}" | count`))[0]![0] === 1, "the birth's reading");
    // The node dies: its connection drops without a DISCONNECT and the broker publishes its Will (NDEATH).
    const cut = Date.now();
    (edge as unknown as { client: { stream: { destroy(): void } } }).client.stream.destroy();
    await waitUntil(async () => (await kql(`States | where DeviceId == "${device}" | count`))[0]![0] === 2, "the death's stale reading");
    const [[name, value, quality, unit, timestamp]] = (await kql(
      `States | where DeviceId == "${device}" | extend Quality = tostring(DataMetadata.Quality), Unit = tostring(DataMetadata.Unit) | summarize arg_max(Timestamp, Value, Quality, Unit) by Name | project Name, Value, Quality, Unit, Timestamp`,
    )) as [[string, number | null, string, string, string]];
    expect([name, value, quality, unit]).toEqual(["Flow", null, "STALE", "m3/h"]);
    // Not the Will's own timestamp (composed at connect, before the birth): the newest reading of the series.
    expect(Date.parse(timestamp)).toBeGreaterThanOrEqual(cut);
  }, 60_000);

  it("does not hold births of devices that are not listed", async () => {
    const held = ingestion().heldBirths();
    const before = ingestion().stats.droppedMessages.unknown_device ?? 0;
    const at = Date.now();
    const birth = Buffer.from(encodeDeviceBirth(Array.from({ length: 200 }, (_, i) => ({ name: `Point/${i}`, alias: i + 1, unit: "u", timestamp: at })), at, 0));
    await Promise.all(Array.from({ length: 200 }, (_, i) => publisher.publishAsync(`spBv1.0/RTM1/DBIRTH/EDGE-X/UNLISTED-${run}-${i}`, birth, { qos: 1 })));
    await waitUntil(() => (ingestion().stats.droppedMessages.unknown_device ?? 0) - before === 200, "the 200 refusals");
    expect(ingestion().heldBirths()).toBe(held);
  }, 60_000);
});
