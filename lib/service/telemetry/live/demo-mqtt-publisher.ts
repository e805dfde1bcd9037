/**
 * DEMO_PUBLISH=mqtt: the demo plant behaves like a plant's edge nodes. Each demo device is a
 * Sparkplug B device of the edge node named after its collector job (`MessageMetadata.jobId`),
 * in the group named after its plant. After every (re)connect it sends NBIRTH and DBIRTH
 * (names, aliases, units), then each minute one DDATA per device carrying aliases only, at QoS 1,
 * so the demo's readings take exactly the path real devices' readings take. Like a well-behaved
 * edge node it numbers each node's messages (seq 0 on NBIRTH, then +1 per message) and answers
 * the primary host's NCMD `Node Control/Rebirth` with its births again.
 */
import mqtt from "mqtt";
import type { DemoPlant } from "../../demo/catalog";
import type { DemoReading } from "../demo-data";
import type { SqlDb } from "../../../platform/sql";
import { DATA_POINT_KINDS, demoDevices, type DemoDevice } from "../demo-devices";
import { addDevices } from "../ingest/device-registry";
import { encodeDeviceBirth, encodeDeviceData, encodeNodeBirth } from "../ingest/sparkplug";
import { brokerLabel } from "../ingest/stats";
import type { DemoPublisher } from "./demo-plant";

export interface MqttDemoPublisher extends DemoPublisher {
  close(): Promise<void>;
}

export function startMqttDemoPublisher(options: {
  url: string;
  clientId: string;
  seed: string;
  plants: readonly DemoPlant[];
  log?: (line: string) => void;
}): MqttDemoPublisher {
  const log = options.log ?? ((line: string) => console.log(line));
  const devices = new Map<string, DemoDevice>();
  for (const plant of options.plants) {
    try {
      for (const device of demoDevices(options.seed, plant)) devices.set(device.deviceId, device);
    } catch {
      // a plant without a demo layout has no demo devices
    }
  }
  const aliasOf = (device: DemoDevice, name: string) => device.dataPoints.findIndex((role) => DATA_POINT_KINDS[role].name === name) + 1;
  const client = mqtt.connect(options.url, { clientId: options.clientId, clean: true, reconnectPeriod: 1_000 });
  /** Each edge node's last sequence number (Sparkplug numbers every node's messages 0–255). */
  const sequences = new Map<string, number>();
  const nextSeq = (node: string) => {
    const seq = ((sequences.get(node) ?? 0) + 1) % 256;
    sequences.set(node, seq);
    return seq;
  };
  const nodeOf = (device: DemoDevice) => `${device.plantId}/${device.jobId}`;
  let bdSeq = 0;

  async function birth(): Promise<void> {
    const now = Date.now();
    const nodes = new Map<string, DemoDevice>();
    for (const device of devices.values()) nodes.set(`${device.plantId}/${device.jobId}`, device);
    for (const device of nodes.values()) {
      sequences.set(nodeOf(device), 0);
      await client.publishAsync(`spBv1.0/${device.plantId}/NBIRTH/${device.jobId}`, Buffer.from(encodeNodeBirth(bdSeq, now)), { qos: 1 });
    }
    bdSeq = (bdSeq + 1) % 256;
    for (const device of devices.values()) {
      const metrics = device.dataPoints.map((role, i) => ({ name: DATA_POINT_KINDS[role].name, alias: i + 1, unit: DATA_POINT_KINDS[role].unit, timestamp: now }));
      await client.publishAsync(
        `spBv1.0/${device.plantId}/DBIRTH/${device.jobId}/${device.deviceId}`,
        Buffer.from(encodeDeviceBirth(metrics, now, nextSeq(nodeOf(device)))),
        { qos: 1 },
      );
    }
  }

  let births: Promise<void> = Promise.resolve();
  const firstConnect = new Promise<void>((resolve) => client.once("connect", () => resolve()));
  const rebirth = () => {
    births = births.then(birth).catch((error: unknown) => log(`[telemetry] demo publisher: births failed: ${error instanceof Error ? error.message : String(error)}`));
  };
  client.on("connect", () => {
    rebirth();
    // The primary host asks for births when it cannot read the data (a restart, a failover, a lost message).
    const groups = new Set([...devices.values()].map((d) => d.plantId));
    client.subscribe([...groups].map((group) => `spBv1.0/${group}/NCMD/+`), { qos: 0 });
  });
  client.on("message", (topic) => {
    if (topic.includes("/NCMD/")) rebirth();
  });
  client.on("error", (error) => log(`[telemetry] demo publisher at ${brokerLabel(options.url)}: ${error.message}`));

  return {
    async publish(readings: readonly DemoReading[]) {
      if (!client.connected) {
        // Right after start the connection may still be on its way; later, a broken one fails the minute (retried next minute).
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`not connected to ${brokerLabel(options.url)}`)), 10_000);
        });
        await Promise.race([firstConnect, timeout]).finally(() => clearTimeout(timer));
        if (!client.connected) throw new Error(`not connected to ${brokerLabel(options.url)}`);
      }
      await births;
      // One DDATA per device and minute.
      const messages = new Map<string, { device: DemoDevice; timestamp: number; metrics: { alias: number; value: number; timestamp: number }[] }>();
      for (const reading of readings) {
        const device = devices.get(reading.deviceId);
        if (!device) continue;
        const key = `${reading.deviceId}@${reading.timestamp}`;
        let message = messages.get(key);
        if (!message) messages.set(key, (message = { device, timestamp: reading.timestamp, metrics: [] }));
        message.metrics.push({ alias: aliasOf(device, reading.name), value: reading.value, timestamp: reading.timestamp });
      }
      await Promise.all(
        [...messages.values()].map(({ device, timestamp, metrics }) =>
          client.publishAsync(
            `spBv1.0/${device.plantId}/DDATA/${device.jobId}/${device.deviceId}`,
            Buffer.from(encodeDeviceData(metrics, timestamp, nextSeq(nodeOf(device)))),
            { qos: 1 },
          ),
        ),
      );
    },
    async close() {
      await client.endAsync();
    },
  };
}

/** Lists the demo devices of the demo plants, so the demo can publish through ingestion. */
export function registerDemoDevices(db: SqlDb, seed: string, plants: readonly DemoPlant[]): Promise<number> {
  return addDevices(
    db,
    plants.flatMap((plant) => {
      try {
        // Each demo device belongs to the edge node of its collector job, as the demo publishes it.
        return demoDevices(seed, plant).map((d) => ({ plantId: plant.id, deviceId: d.deviceId, edgeNodeId: d.jobId, claimedBy: "demo" as const }));
      } catch {
        return []; // a plant without a demo layout has no demo devices
      }
    }),
  );
}
