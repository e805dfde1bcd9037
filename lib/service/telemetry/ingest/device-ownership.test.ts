/**
 * Device ownership and the timestamp window (issue 35 #1, docs/telemetry-ingest.md "Device
 * ownership"), black-box: a Mosquitto of the test's own, edge nodes publishing with `mqtt` +
 * `sparkplug-payload` at QoS 1, readings read back with KQL. Before the fix a second node's DBIRTH
 * relabelled a listed device (`Unit=degF, jobId=<intruder>` on the genuine readings after it), a
 * node could write any device of its plant, and a reading from years ago was stored.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testConfig } from "../../testing/openapi-checked-client";
import { createServiceRuntime, type ServiceRuntime } from "../../runtime";
import { TELEMETRY_LIMITS } from "../../telemetry-service";
import { tableRows } from "../store";
import { demoDevices } from "../demo-devices";
import { DEMO_PLANTS } from "../../demo/catalog";
import { addDevices, listDevices } from "./device-registry";
import { encodeDeviceBirth, encodeDeviceData } from "./sparkplug";
import { mosquittoForTests, startMosquitto, type OwnMosquitto } from "@/lib/testing/mosquitto";

const available = mosquittoForTests("device ownership tests");
const run = `${process.pid}-${Date.now()}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "device-owner-"));
let runtime: ServiceRuntime;
let publisher: MqttClient;
let broker: OwnMosquitto;
const logged: string[] = [];
const ingestion = () => runtime.live!.telemetry.ingestion!;
const droppedMessages = (reason: string) => (ingestion().stats.droppedMessages as Record<string, number>)[reason] ?? 0;
const droppedReadings = (reason: string) => (ingestion().stats.droppedReadings as Record<string, number>)[reason] ?? 0;

async function kql(query: string) {
  return tableRows(
    await runtime.telemetry.store.query({
      customerId: "CUST-ACME",
      kql: query,
      scope: { start: new Date(Date.now() - 30 * 86_400_000), end: new Date(Date.now() + 86_400_000), plantIds: null },
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

const send = (node: string, type: "DBIRTH" | "DDATA", device: string, payload: Uint8Array) =>
  publisher.publishAsync(`spBv1.0/RTM1/${type}/${node}/${device}`, Buffer.from(payload), { qos: 1 });
const count = async (device: string) => (await kql(`States | where DeviceId == "${device}" | count`))[0]![0];

describe.skipIf(!available)("device ownership and the timestamp window (real broker, Sparkplug B at QoS 1)", () => {
  beforeAll(async () => {
    const log = console.log;
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
      log(...args);
    });
    broker = await startMosquitto();
    runtime = await createServiceRuntime(
      testConfig({ DATA_DIR: dataDir, SEED: "owner-test", DEMO_LIVE: "0", MQTT_URL: broker.url, MQTT_CLIENT_ID: `owner-${run}`, INGEST_FLUSH_MS: "50" }),
      { live: { schedule: false } },
    );
    await ingestion().ready;
    publisher = await mqtt.connectAsync(broker.url, { clientId: `owner-${run}-pub`, clean: true });
  }, 180_000);

  afterAll(async () => {
    vi.restoreAllMocks();
    await publisher?.endAsync();
    await runtime?.close();
    await broker?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("the first DBIRTH claims a listed device (recorded and listed); another node's birth and data for it are dropped, counted and logged, and never relabel it", async () => {
    const device = `OWNED-${run}`;
    await addDevices(runtime.sql, [{ plantId: "RTM1", deviceId: device }]);
    const t0 = Date.now() - 60_000;
    await send("EDGE-A", "DBIRTH", device, encodeDeviceBirth([{ name: "Temperature", alias: 1, unit: "degC", value: 20, timestamp: t0 }], t0, 0));
    for (let i = 1; i <= 3; i++) await send("EDGE-A", "DDATA", device, encodeDeviceData([{ alias: 1, value: 20 + i, timestamp: t0 + i * 1000 }], t0 + i * 1000, i));
    await waitUntil(async () => (await count(device)) === 4, "the owner's four readings");
    const [listed] = await listDevices(runtime.sql, "RTM1", undefined, device);
    expect(listed).toMatchObject({ deviceId: device, edgeNodeId: "EDGE-A", claimedBy: "birth" });
    expect(logged.some((line) => line.includes(`device ${device} of plant RTM1 is claimed by edge node EDGE-A`))).toBe(true);

    const foreignBefore = droppedMessages("foreign_device");
    await send("ROGUE", "DBIRTH", device, encodeDeviceBirth([{ name: "Temperature", alias: 1, unit: "degF", value: 987.654, timestamp: t0 + 10_000 }], t0 + 10_000, 0));
    await send("ROGUE", "DDATA", device, encodeDeviceData([{ alias: 1, value: 876.543, timestamp: t0 + 11_000 }], t0 + 11_000, 1));
    // The genuine node's next readings: still its own labels.
    await send("EDGE-A", "DDATA", device, encodeDeviceData([{ alias: 1, value: 25, timestamp: t0 + 12_000 }], t0 + 12_000, 4));
    await waitUntil(async () => (await count(device)) === 5, "the owner's next reading");
    expect(droppedMessages("foreign_device") - foreignBefore).toBe(2);
    expect(await kql(`States | where DeviceId == "${device}" | summarize n = count() by Unit = tostring(DataMetadata.Unit), Job = tostring(MessageMetadata.jobId)`)).toEqual([["degC", "EDGE-A", 5]]);
    const line = logged.find((l) => l.includes("foreign_device") && l.includes(device));
    expect(line).toContain(`edge node "ROGUE"`);
    expect(line).toContain(`belongs to edge node "EDGE-A"`);
    // Ids only, never the payload (values the ids cannot contain by chance).
    expect(line).not.toContain("987.654");
    expect(line).not.toContain("876.543");
    // Logged once per (sender, device), then only counted.
    expect(logged.filter((l) => l.includes("foreign_device") && l.includes(device))).toHaveLength(1);
    // The claim stands: the rogue's birth did not move it.
    expect((await listDevices(runtime.sql, "RTM1", undefined, device))[0]!.edgeNodeId).toBe("EDGE-A");
  }, 60_000);

  it("a demo device belongs to its collector's edge node: an intruder's DBIRTH for RTM1's first device is dropped", async () => {
    const demo = demoDevices("owner-test", DEMO_PLANTS.find((p) => p.id === "RTM1")!)[0]!;
    const [listed] = await listDevices(runtime.sql, "RTM1", undefined, demo.deviceId);
    expect(listed).toMatchObject({ edgeNodeId: demo.jobId, claimedBy: "demo" });
    const before = droppedMessages("foreign_device");
    const at = Date.now();
    await send("INTRUDER", "DBIRTH", demo.deviceId, encodeDeviceBirth([{ name: "Temperature", alias: 1, unit: "degF", value: 451, timestamp: at }], at, 0));
    await waitUntil(() => droppedMessages("foreign_device") - before === 1, "the refusal");
    expect(await kql(`States | where DeviceId == "${demo.deviceId}" and Value == 451 | count`)).toEqual([[0]]);
  }, 60_000);

  it("data for a listed device no birth has claimed is dropped (unclaimed_device) until its node's birth claims it", async () => {
    const device = `UNCLAIMED-${run}`;
    await addDevices(runtime.sql, [{ plantId: "RTM1", deviceId: device }]);
    const before = droppedMessages("unclaimed_device");
    const at = Date.now() - 1000;
    await send("EDGE-C", "DDATA", device, encodeDeviceData([{ alias: 1, value: 1, timestamp: at }], at, 1));
    await waitUntil(() => droppedMessages("unclaimed_device") - before === 1, "the refusal");
    expect((await listDevices(runtime.sql, "RTM1", undefined, device))[0]!.edgeNodeId).toBeNull();
    await send("EDGE-C", "DBIRTH", device, encodeDeviceBirth([{ name: "Flow", alias: 1, value: 7, timestamp: at }], at, 0));
    await send("EDGE-C", "DDATA", device, encodeDeviceData([{ alias: 1, value: 8, timestamp: at + 1 }], at + 1, 1));
    await waitUntil(async () => (await count(device)) === 2, "the birth's and the data's readings");
    expect((await listDevices(runtime.sql, "RTM1", undefined, device))[0]!.edgeNodeId).toBe("EDGE-C");
  }, 60_000);

  it("drops readings outside −7 days … +10 minutes of their arrival, counted as out_of_window; those inside are stored", async () => {
    const device = `WINDOW-${run}`;
    await addDevices(runtime.sql, [{ plantId: "RTM1", deviceId: device, edgeNodeId: "EDGE-W" }]);
    const now = Date.now();
    const before = droppedReadings("out_of_window");
    await send("EDGE-W", "DBIRTH", device, encodeDeviceBirth([{ name: "Level", alias: 1, unit: "m", timestamp: now }], now, 0));
    const readings = [
      { alias: 1, value: 1, timestamp: Date.UTC(2000, 0, 2) }, // the backdated reading
      { alias: 1, value: 2, timestamp: now - 8 * 86_400_000 },
      { alias: 1, value: 3, timestamp: now - 6 * 86_400_000 }, // inside
      { alias: 1, value: 4, timestamp: now + 5 * 60_000 }, // inside
      { alias: 1, value: 5, timestamp: now + 11 * 60_000 },
    ];
    await send("EDGE-W", "DDATA", device, encodeDeviceData(readings, now, 1));
    await waitUntil(async () => (await count(device)) === 2, "the two readings inside the window");
    expect(droppedReadings("out_of_window") - before).toBe(3);
    expect(await kql(`States | where DeviceId == "${device}" | order by Value asc | project Value`)).toEqual([[3], [4]]);
  }, 60_000);
});
