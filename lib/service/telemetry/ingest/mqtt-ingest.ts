/**
 * Ingestion over MQTT (the `mqtt` client): subscribes at QoS 1 with a persistent session
 * (MQTT_CLIENT_ID, clean session off), so messages published while the server is down wait at the
 * broker. Each message is decoded (Sparkplug B or the plain JSON topic), checked against the
 * plants and devices, and queued for the batch writer.
 *
 * Acknowledgement and backpressure: the client acknowledges a message (PUBACK) once its readings
 * are queued; while the queue is full it holds the acknowledgement, and the client reads nothing
 * more from the socket until the writer has made room (pause/resume: TCP pushes back to the
 * broker, which keeps the messages). A message acknowledged but not yet written is lost only if
 * the process dies within the flush delay; a graceful stop writes everything queued first.
 *
 * A message that cannot be taken (bad topic, bad payload, unknown plant or device) is counted by
 * reason, logged once per reason, and dropped; it never stops ingestion.
 */
import mqtt, { type MqttClient } from "mqtt";
import type { DuckDbTelemetryStore } from "../duckdb-store";
import type { DeviceRegistry } from "./device-registry";
import { decodeJsonReadings, JSON_SUBSCRIPTION, parseJsonTopic } from "./json-topic";
import type { Decoded } from "./reading";
import { oversized, parseSparkplugTopic, SparkplugSessions, SPARKPLUG_SUBSCRIPTIONS } from "./sparkplug";
import { brokerLabel, emptyStats, type DropReason, type IngestStats } from "./stats";
import { IngestWriter } from "./writer";

export interface MqttIngestOptions {
  url: string;
  clientId: string;
  store: DuckDbTelemetryStore;
  registry: DeviceRegistry;
  batchMax: number;
  flushMs: number;
  queueMax: number;
  deviceSeriesMax: number;
  log?: (line: string) => void;
}

export interface MqttIngestion {
  stats: IngestStats;
  writer: IngestWriter;
  /** The underlying client (tests cut its connection to check a reconnect). */
  client: MqttClient;
  /** Resolves once subscribed for the first time. */
  ready: Promise<void>;
  connection(): { broker: string; clientId: string; connected: boolean; reconnects: number };
  /** Births (alias tables) held in memory. */
  heldBirths(): number;
  close(): Promise<void>;
}

const YIELD_EVERY = 8;

export const INGEST_SUBSCRIPTIONS = [...SPARKPLUG_SUBSCRIPTIONS, JSON_SUBSCRIPTION];

export function startMqttIngestion(options: MqttIngestOptions): MqttIngestion {
  const log = options.log ?? ((line: string) => console.log(line));
  const broker = brokerLabel(options.url);
  const stats = emptyStats();
  const logged = new Set<string>();
  const onDrop = (reason: DropReason, count: number, detail: string) => {
    if (logged.has(reason)) return;
    logged.add(reason);
    log(`[ingest] dropped ${count === 1 ? "a reading" : `${count} readings`}: ${reason} (${detail}); further ones of this kind are only counted (npm run ops -- ingest status)`);
  };
  const writer = new IngestWriter({
    store: options.store,
    batchMax: options.batchMax,
    flushMs: options.flushMs,
    queueMax: options.queueMax,
    deviceSeriesMax: options.deviceSeriesMax,
    stats,
    onDrop,
    log,
  });
  const sessions = new SparkplugSessions();
  let reconnects = 0;

  function dropMessage(reason: DropReason, detail: string, topic: string): void {
    stats.droppedMessages[reason] = (stats.droppedMessages[reason] ?? 0) + 1;
    if (logged.has(`message:${reason}`)) return;
    logged.add(`message:${reason}`);
    // The topic is the sender's own text: bounded, so a hostile one cannot flood the log.
    log(`[ingest] dropped a message: ${reason} (${detail.slice(0, 200)}) on topic ${JSON.stringify(topic.slice(0, 200))}; further ones of this kind are only counted`);
  }

  /**
   * Checks, decodes and queues one message; resolves when the client may acknowledge it. The
   * plant and device are judged before the payload is decoded (from the topic), so an unlisted
   * sender's births are never decoded or held; the size caps are checked before decoding too.
   */
  async function take(topic: string, payload: Buffer): Promise<void> {
    const receivedAt = Date.now();
    stats.messagesReceived += 1;
    const sparkplugTopic = topic.startsWith("spBv1.0/") ? parseSparkplugTopic(topic) : null;
    const jsonTopic = sparkplugTopic ? null : parseJsonTopic(topic);
    const target = sparkplugTopic
      ? { plantId: sparkplugTopic.groupId, deviceId: sparkplugTopic.deviceId ?? sparkplugTopic.edgeNodeId }
      : jsonTopic;
    if (!target) return dropMessage("malformed_topic", "not a Sparkplug B or plantdesk/v1 topic", topic);
    const customerId = await options.registry.customerOf(target.plantId);
    if (!customerId) return dropMessage("unknown_plant", `no plant '${target.plantId.slice(0, 64)}'`, topic);
    const listed = await options.registry.isKnownDevice(target.plantId, target.deviceId);
    const unlisted = () => dropMessage("unknown_device", `device '${target.deviceId.slice(0, 64)}' is not registered for plant ${target.plantId} (npm run ops -- device add)`, topic);
    let decoded: Decoded;
    if (sparkplugTopic) {
      // A node-level message of an unlisted edge node still counts for the node's session (its
      // devices' births and deaths); a device-level one of an unlisted device is refused whole.
      if (!listed && sparkplugTopic.deviceId !== null) return unlisted();
      const tooLarge = oversized(payload);
      if (tooLarge) return dropMessage("too_large", tooLarge, topic);
      decoded = sessions.decode(sparkplugTopic, payload, receivedAt, listed);
    } else {
      if (!listed) return unlisted();
      decoded = decodeJsonReadings(jsonTopic!, payload, receivedAt);
    }
    if (!decoded.ok) return dropMessage(decoded.reason, decoded.detail, topic);
    for (const [reason, count] of Object.entries(decoded.dropped) as [DropReason, number][]) {
      stats.droppedReadings[reason] = (stats.droppedReadings[reason] ?? 0) + count;
      onDrop(reason, count, `in a message on ${topic.slice(0, 200)}`);
    }
    if (decoded.readings.length === 0) return;
    if (!listed) return unlisted();
    stats.readingsReceived += decoded.readings.length;
    writer.accept(customerId, decoded.readings);
    if (writer.full) await writer.whenRoom();
  }

  const client = mqtt.connect(options.url, {
    clientId: options.clientId,
    clean: false,
    reconnectPeriod: 1_000,
    connectTimeout: 10_000,
    keepalive: 30,
  });
  // Called by the client for every incoming PUBLISH before it sends the PUBACK and reads the next one.
  // The client works through a burst of packets without returning to the event loop; every few
  // messages the next one waits for a turn of it, so query answers in the same process are not held up.
  let handled = 0;
  client.handleMessage = (packet, callback) => {
    take(packet.topic, packet.payload as Buffer).then(
      () => (++handled % YIELD_EVERY === 0 ? setImmediate(callback) : callback()),
      (error: unknown) => {
        dropMessage("malformed_payload", error instanceof Error ? error.message : String(error), packet.topic);
        callback();
      },
    );
  };

  let subscribed = false;
  const ready = new Promise<void>((resolve) => {
    client.on("connect", () => {
      if (subscribed) return; // the client re-subscribes by itself after a reconnect
      client.subscribe(
        INGEST_SUBSCRIPTIONS.map((topic) => topic),
        { qos: 1 },
        (error) => {
          if (error) {
            log(`[ingest] subscribing at ${broker} failed: ${error.message}`);
            return;
          }
          subscribed = true;
          log(`[ingest] subscribed at ${broker} as ${options.clientId}: ${INGEST_SUBSCRIPTIONS.join(", ")}`);
          resolve();
        },
      );
    });
  });
  client.on("reconnect", () => {
    reconnects += 1;
  });
  let lastError = "";
  client.on("error", (error) => {
    // Said once per distinct error, not once per retry.
    if (error.message === lastError) return;
    lastError = error.message;
    log(`[ingest] MQTT ${broker}: ${error.message} (retrying every second)`);
  });

  return {
    stats,
    writer,
    client,
    ready,
    connection: () => ({ broker, clientId: options.clientId, connected: client.connected, reconnects }),
    heldBirths: () => sessions.size,
    async close() {
      // No more messages in, then everything taken is written.
      await client.endAsync();
      await writer.close();
    },
  };
}
