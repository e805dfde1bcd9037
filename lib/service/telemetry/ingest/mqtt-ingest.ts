/**
 * Ingestion over MQTT (the `mqtt` client): subscribes at QoS 1 with a persistent session
 * (MQTT_CLIENT_ID, clean session off), so messages published while the server is down wait at the
 * broker. Each message is decoded (Sparkplug B or the plain JSON topic), checked against the
 * plants and devices, and queued for the batch writer.
 *
 * Acknowledgement and backpressure: the client acknowledges a message (PUBACK) once its readings
 * are committed, not when they are queued: the client goes on reading the next messages meanwhile
 * (their acknowledgements follow their batch's commit), and a process that dies leaves every
 * message it had not written unacknowledged in the persistent session, for the broker to deliver
 * again to the next connection with the same client id (a restart, or the next holder of the
 * primary host role). While the queue is full the client reads nothing more from the socket until
 * the writer has made room (pause/resume: TCP pushes back to the broker, which keeps the messages).
 *
 * As the Sparkplug primary host (Sparkplug 3.0) it publishes `spBv1.0/STATE/<host id>`
 * `{"online":true,"timestamp":…}` retained at QoS 1 after each connect, with the same message
 * saying `false` as its Will (and before a graceful stop), and asks edge nodes for a rebirth
 * (NCMD `Node Control/Rebirth`) when their data cannot be read (sparkplug.ts).
 *
 * A message that cannot be taken (bad topic, bad payload, unknown plant or device) is counted by
 * reason, logged once per reason, and dropped; it never stops ingestion.
 */
import mqtt, { type MqttClient } from "mqtt";
import type { DuckDbTelemetryStore } from "../duckdb/store";
import type { DeviceRegistry } from "./device-registry";
import { decodeJsonReadings, JSON_SUBSCRIPTION, parseJsonTopic } from "./json-topic";
import type { Decoded, TimestampWindow } from "./reading";
import { encodeRebirthRequest, oversized, parseSparkplugTopic, SparkplugSessions, SPARKPLUG_SUBSCRIPTIONS, type SparkplugStateStore } from "./sparkplug";
import { brokerLabel, emptyStats, type DropReason, type IngestStats } from "./stats";
import type { ReadingSink } from "./sink";
import { IngestWriter } from "./writer";

interface MqttIngestOptions {
  url: string;
  clientId: string;
  /** Where the readings go: the embedded DuckDB files, or a sink (ClickHouse). */
  store?: DuckDbTelemetryStore;
  sink?: ReadingSink;
  registry: DeviceRegistry;
  batchMax: number;
  flushMs: number;
  queueMax: number;
  deviceSeriesMax: number;
  /** How far before and after its arrival a reading's timestamp may lie (default −7 d … +10 min). */
  timestampWindow?: TimestampWindow;
  /** SPARKPLUG_HOST_ID: the STATE topic's id. */
  hostId: string;
  /** Births and sequence numbers kept across restarts and failovers (the service database). */
  sparkplugState?: SparkplugStateStore;
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
/** Distinct (plant, sender, device) of refused foreign messages logged before they are only counted. */
const FOREIGN_LOGGED = 100;
/** Unacknowledged QoS 1 messages the broker may send (MQTT 5 Receive Maximum); Mosquitto's default for MQTT 3 clients is 20. */
const RECEIVE_MAXIMUM = 1_000;
/** How often due rebirth requests are sent and sequence numbers saved. */
const HOUSEKEEPING_MS = 500;

/** The STATE message of Sparkplug 3.0 (UTF-8 JSON, retained). */
const stateTopic = (hostId: string) => `spBv1.0/STATE/${hostId}`;
const statePayload = (online: boolean, timestamp: number) => JSON.stringify({ online, timestamp });

const INGEST_SUBSCRIPTIONS = [...SPARKPLUG_SUBSCRIPTIONS, JSON_SUBSCRIPTION];

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
    sink: options.sink,
    batchMax: options.batchMax,
    flushMs: options.flushMs,
    queueMax: options.queueMax,
    deviceSeriesMax: options.deviceSeriesMax,
    stats,
    onDrop,
    log,
  });
  const sessions = new SparkplugSessions(options.sparkplugState ?? null, options.timestampWindow);
  /** (plant, sender, device) of foreign messages already logged: each is logged once, at most FOREIGN_LOGGED of them. */
  const foreignLogged = new Set<string>();
  /** PUBACKs held until their message's readings are committed, by packet id. */
  const commits = new Map<number, Promise<void>>();
  let reconnects = 0;

  function dropMessage(reason: DropReason, detail: string, topic: string): void {
    stats.droppedMessages[reason] = (stats.droppedMessages[reason] ?? 0) + 1;
    if (logged.has(`message:${reason}`)) return;
    logged.add(`message:${reason}`);
    // The topic is the sender's own text: bounded, so a hostile one cannot flood the log.
    log(`[ingest] dropped a message: ${reason} (${detail.slice(0, 200)}) on topic ${JSON.stringify(topic.slice(0, 200))}; further ones of this kind are only counted`);
  }

  /** A message for a device another edge node owns: dropped, counted, logged once per (plant, sender, device) up to FOREIGN_LOGGED. */
  function foreign(plantId: string, sender: string, deviceId: string, ownerNode: string, type: string): void {
    stats.droppedMessages.foreign_device = (stats.droppedMessages.foreign_device ?? 0) + 1;
    const key = `${plantId}\u0000${sender}\u0000${deviceId}`;
    if (foreignLogged.has(key) || foreignLogged.size >= FOREIGN_LOGGED) return;
    foreignLogged.add(key);
    // Ids only (bounded); never the payload.
    log(
      `[ingest] dropped a message: foreign_device (${type} from edge node ${JSON.stringify(sender.slice(0, 64))} for device ${JSON.stringify(deviceId.slice(0, 64))} of plant ${plantId}, which belongs to edge node ${JSON.stringify(ownerNode.slice(0, 64))}); further ones of this sender and device are only counted`,
    );
  }

  /**
   * Checks, decodes and queues one message; resolves when the client may acknowledge it. The
   * plant and device are judged before the payload is decoded (from the topic), so an unlisted
   * sender's births are never decoded or held; the size caps are checked before decoding too.
   */
  async function take(topic: string, payload: Buffer, messageId: number | undefined): Promise<void> {
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
    const owner = await options.registry.ownerOf(target.plantId, target.deviceId);
    const listed = owner !== undefined;
    const unlisted = () => dropMessage("unknown_device", `device '${target.deviceId.slice(0, 64)}' is not registered for plant ${target.plantId} (npm run ops -- device add)`, topic);
    let decoded: Decoded;
    if (sparkplugTopic) {
      // A node-level message of an unlisted edge node still counts for the node's session (its
      // devices' births and deaths); a device-level one of an unlisted device is refused whole.
      if (!listed && sparkplugTopic.deviceId !== null) return unlisted();
      // Ownership (docs/telemetry-ingest.md, "Device ownership"): only the device's own edge node
      // speaks for it. An NDEATH is exempt: it only ends what the node's own accepted births held.
      if (listed && sparkplugTopic.type !== "NDEATH") {
        const sender = sparkplugTopic.edgeNodeId;
        let ownerNode = owner.edgeNodeId;
        // The cached owner may be stale (an operator just moved the device): the database decides.
        if (ownerNode !== null && ownerNode !== sender) ownerNode = (await options.registry.ownerOf(target.plantId, target.deviceId, true))?.edgeNodeId ?? null;
        if (ownerNode === null && (sparkplugTopic.type === "DBIRTH" || sparkplugTopic.type === "NBIRTH")) {
          ownerNode = await options.registry.claim(target.plantId, target.deviceId, sender);
          if (ownerNode === sender) log(`[ingest] device ${target.deviceId.slice(0, 64)} of plant ${target.plantId} is claimed by edge node ${sender.slice(0, 64)} (its first birth)`);
        }
        if (ownerNode === null) {
          sessions.requestRebirth(sparkplugTopic, `${sparkplugTopic.type} of ${target.deviceId} before any birth claimed it`);
          return dropMessage("unclaimed_device", `device '${target.deviceId.slice(0, 64)}' has no edge node yet: its first birth claims it`, topic);
        }
        if (ownerNode !== sender) return foreign(target.plantId, sender, target.deviceId, ownerNode, sparkplugTopic.type);
      }
      const tooLarge = oversized(payload);
      if (tooLarge) return dropMessage("too_large", tooLarge, topic);
      decoded = sessions.decode(sparkplugTopic, payload, receivedAt, listed);
    } else {
      if (!listed) return unlisted();
      // A device of an edge node speaks through its node; the JSON topic carries no sender to check.
      if (owner.edgeNodeId !== null) return foreign(target.plantId, "(JSON topic)", target.deviceId, owner.edgeNodeId, "JSON");
      decoded = decodeJsonReadings(jsonTopic!, payload, receivedAt, options.timestampWindow);
    }
    if (!decoded.ok) return dropMessage(decoded.reason, decoded.detail, topic);
    // A birth or death is saved before the message is acknowledged: the next holder knows it.
    if (sessions.birthsToSave) await sessions.persist();
    for (const [reason, count] of Object.entries(decoded.dropped) as [DropReason, number][]) {
      stats.droppedReadings[reason] = (stats.droppedReadings[reason] ?? 0) + count;
      onDrop(reason, count, `in a message on ${topic.slice(0, 200)}`);
    }
    let readings = decoded.readings;
    if (readings.length === 0) return;
    if (!listed) {
      // An unlisted edge node's NDEATH marks its devices' data points stale: those of listed devices are kept.
      const devices = [...new Set(readings.map((r) => r.deviceId))].filter((d) => d !== target.deviceId);
      const known = new Set<string>();
      for (const device of devices) if (await options.registry.isKnownDevice(target.plantId, device)) known.add(device);
      readings = readings.filter((r) => known.has(r.deviceId));
      if (readings.length === 0) return unlisted();
    }
    stats.readingsReceived += readings.length;
    const committed = writer.accept(customerId, readings);
    if (messageId !== undefined) commits.set(messageId, committed);
    if (writer.full) await writer.whenRoom();
  }

  const stateTimestamp = Date.now();
  const client = mqtt.connect(options.url, {
    clientId: options.clientId,
    clean: false,
    // MQTT 5: the session outlives the connection (a restart or the next host holder resumes it), and
    // the broker may send RECEIVE_MAXIMUM messages before their acknowledgements, which follow commits.
    protocolVersion: 5,
    properties: { sessionExpiryInterval: 0xffffffff, receiveMaximum: RECEIVE_MAXIMUM },
    reconnectPeriod: 1_000,
    connectTimeout: 10_000,
    keepalive: 30,
    // The host's births and sequence numbers are read first (another instance may have held the role).
    manualConnect: true,
    will: { topic: stateTopic(options.hostId), payload: Buffer.from(statePayload(false, stateTimestamp)), qos: 1, retain: true },
  });
  // A PUBACK of a message whose readings are still queued waits for their commit; the client
  // meanwhile goes on with the next messages (mqtt.js sends the PUBACK when handleMessage calls back).
  const internals = client as unknown as { _sendPacket(packet: { cmd: string; messageId?: number }, ...rest: unknown[]): void };
  const sendPacket = internals._sendPacket.bind(client);
  internals._sendPacket = (packet, ...rest) => {
    const commit = packet.cmd === "puback" && packet.messageId !== undefined ? commits.get(packet.messageId) : undefined;
    if (!commit) return sendPacket(packet, ...rest);
    commits.delete(packet.messageId!);
    const [callback] = rest as [((error?: Error) => void) | undefined];
    callback?.();
    void commit.then(() => {
      if (client.connected) sendPacket(packet);
    });
  };
  // Called by the client for every incoming PUBLISH before it sends the PUBACK and reads the next one.
  // The client works through a burst of packets without returning to the event loop; every few
  // messages the next one waits for a turn of it, so query answers in the same process are not held up.
  let handled = 0;
  client.handleMessage = (packet, callback) => {
    take(packet.topic, packet.payload as Buffer, packet.qos > 0 ? packet.messageId : undefined).then(
      () => (++handled % YIELD_EVERY === 0 ? setImmediate(callback) : callback()),
      (error: unknown) => {
        dropMessage("malformed_payload", error instanceof Error ? error.message : String(error), packet.topic);
        callback();
      },
    );
  };
  void sessions.load().then(
    () => client.connect(),
    (error: unknown) => {
      log(`[ingest] reading the Sparkplug host state failed (${error instanceof Error ? error.message : String(error)}); starting without it, edge nodes will be asked for births`);
      client.connect();
    },
  );
  const housekeeping = setInterval(() => {
    for (const due of sessions.rebirthsDue(Date.now())) {
      if (!client.connected) break;
      stats.rebirthRequests += 1;
      client.publish(`spBv1.0/${due.groupId}/NCMD/${due.edgeNodeId}`, Buffer.from(encodeRebirthRequest(Date.now())), { qos: 0 });
      if (!logged.has("rebirth")) {
        logged.add("rebirth");
        log(`[ingest] asked ${due.groupId}/${due.edgeNodeId.slice(0, 64)} for a rebirth (${due.reason.slice(0, 200)}); further requests are only counted`);
      }
    }
    sessions.persist(true).catch((error: unknown) => log(`[ingest] saving Sparkplug sequence numbers failed: ${error instanceof Error ? error.message : String(error)}`));
  }, HOUSEKEEPING_MS);
  housekeeping.unref();

  let subscribed = false;
  const ready = new Promise<void>((resolve) => {
    client.on("connect", () => {
      if (subscribed) {
        // The client re-subscribes by itself after a reconnect; the Will said offline, so say online again.
        client.publish(stateTopic(options.hostId), statePayload(true, stateTimestamp), { qos: 1, retain: true });
        return;
      }
      client.subscribe(
        INGEST_SUBSCRIPTIONS.map((topic) => topic),
        { qos: 1 },
        (error) => {
          if (error) {
            log(`[ingest] subscribing at ${broker} failed: ${error.message}`);
            return;
          }
          subscribed = true;
          client.publish(stateTopic(options.hostId), statePayload(true, stateTimestamp), { qos: 1, retain: true });
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
      // Everything taken is written (and acknowledged), the host says it is going, then the connection ends.
      clearInterval(housekeeping);
      await writer.flush();
      await sessions.persist(true).catch(() => undefined);
      if (client.connected) await client.publishAsync(stateTopic(options.hostId), statePayload(false, stateTimestamp), { qos: 1, retain: true }).catch(() => undefined);
      await client.endAsync();
      await writer.close();
    },
  };
}
