/**
 * `npm run bench:ingest`, the other design for the Sparkplug primary host: MQTT 5 shared
 * subscriptions (docs/telemetry-ingest.md, "Primary host"). Measured at the broker with the same
 * acknowledgement rule as ingestion (a PUBACK only after the batch is committed, every
 * INGEST_FLUSH_MS): two members of one `$share/…` group with persistent sessions read one edge
 * node's data; halfway, one member dies (its socket is dropped, no DISCONNECT: as a SIGKILL looks to
 * the broker); later it comes back with the same client id.
 *
 *   split        consecutive messages of the one edge node read by different members (their order
 *                and sequence numbers then span two processes)
 *   stranded     messages published after the death that the surviving member never got while the
 *                dead one stayed away: Mosquitto keeps giving the dead member's persistent session
 *                its share, and keeps what it had not acknowledged
 *   on return    how many of those the member's session delivered when it came back, and after how long
 */
import mqtt, { type MqttClient } from "mqtt";
import { startMosquitto } from "@/lib/testing/mosquitto";

const TOPIC = "spBv1.0/BENCH/DDATA/shared-node/dev";
const FLUSH_MS = 200;

interface Member {
  client: MqttClient;
  received: { seq: number; at: number }[];
  ready: Promise<void>;
  close(): void;
  /** Dies as a killed process does: no more commits, the socket dropped without DISCONNECT. */
  die(): void;
}

/** A group member that acknowledges a message only at the next "commit", as mqtt-ingest.ts does. */
function member(url: string, clientId: string): Member {
  const received: Member["received"] = [];
  let held: (() => void)[] = [];
  const client = mqtt.connect(url, { clientId, protocolVersion: 5, clean: false, reconnectPeriod: 0, properties: { sessionExpiryInterval: 3600, receiveMaximum: 1000 } });
  client.on("message", (_topic, payload) => received.push({ seq: payload.readUInt32BE(0), at: Date.now() }));
  const internals = client as unknown as { _sendPacket(packet: { cmd: string }, ...rest: unknown[]): void };
  const send = internals._sendPacket.bind(client);
  internals._sendPacket = (packet, ...rest) => {
    if (packet.cmd !== "puback") return send(packet, ...rest);
    (rest[0] as (() => void) | undefined)?.();
    held.push(() => client.connected && send(packet));
  };
  const commit = setInterval(() => {
    const due = held;
    held = [];
    for (const ack of due) ack();
  }, FLUSH_MS);
  const ready = new Promise<void>((resolve, reject) => {
    client.once("connect", () => client.subscribe(`$share/plantdesk/${TOPIC}`, { qos: 1 }, (error) => (error ? reject(error) : resolve())));
    client.once("error", reject);
  });
  return {
    client,
    received,
    ready,
    close() {
      clearInterval(commit);
      client.end(true);
    },
    die() {
      clearInterval(commit);
      client.stream.destroy();
      client.end(true);
    },
  };
}

export interface SharedSubscriptionFigures {
  published: number;
  publishedAfterDeath: number;
  /** Share of consecutive message pairs read by different members while both lived. */
  split: number;
  stranded: number;
  awaySeconds: number;
  deliveredOnReturn: number;
}

export async function measureSharedSubscriptions(options: { seconds: number; rate: number; awaySeconds: number }): Promise<SharedSubscriptionFigures> {
  const broker = await startMosquitto("allow_anonymous true\nmax_queued_messages 100000");
  const run = `${process.pid}-${Date.now()}`;
  const a = member(broker.url, `share-a-${run}`);
  const b = member(broker.url, `share-b-${run}`);
  let returned: Member | null = null;
  const publisher = await mqtt.connectAsync(broker.url, { clientId: `share-pub-${run}`, protocolVersion: 5 });
  try {
    await Promise.all([a.ready, b.ready]);
    let seq = 0;
    let diedAt = 0;
    let seqAtDeath = 0;
    const started = Date.now();
    while (Date.now() - started < options.seconds * 1000) {
      const due = ((Date.now() - started) / 1000) * options.rate;
      if (seq >= due) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        continue;
      }
      const payload = Buffer.alloc(4);
      payload.writeUInt32BE(seq++);
      await publisher.publishAsync(TOPIC, payload, { qos: 1 });
      if (!diedAt && Date.now() - started >= (options.seconds * 1000) / 2) {
        diedAt = Date.now();
        seqAtDeath = seq;
        a.die();
      }
    }
    // The survivor reads what it is given; the dead member stays away awaySeconds in all.
    await new Promise((resolve) => setTimeout(resolve, Math.max(1_000, options.awaySeconds * 1000 - (Date.now() - diedAt))));
    const committedByDead = new Set(a.received.filter((r) => r.at < diedAt - FLUSH_MS).map((r) => r.seq));
    const survivor = new Set(b.received.map((r) => r.seq));
    const missing = Array.from({ length: seq }, (_, i) => i).filter((s) => !survivor.has(s) && !committedByDead.has(s));
    const returnedAt = Date.now();
    returned = member(broker.url, `share-a-${run}`);
    await returned.ready;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const onReturn = new Set(returned.received.map((r) => r.seq));
    const before = [...a.received, ...b.received.filter((r) => r.at < diedAt)].sort((x, y) => x.seq - y.seq);
    const owner = new Map(before.map((r) => [r.seq, a.received.includes(r) ? "a" : "b"]));
    let pairs = 0;
    let split = 0;
    for (const r of before) {
      const next = owner.get(r.seq + 1);
      if (next === undefined) continue;
      pairs += 1;
      if (next !== owner.get(r.seq)) split += 1;
    }
    return {
      published: seq,
      publishedAfterDeath: seq - seqAtDeath,
      split: pairs > 0 ? split / pairs : 0,
      stranded: missing.length,
      awaySeconds: (returnedAt - diedAt) / 1000,
      deliveredOnReturn: missing.filter((s) => onReturn.has(s)).length,
    };
  } finally {
    b.close();
    returned?.close();
    await publisher.endAsync();
    await broker.stop();
  }
}
