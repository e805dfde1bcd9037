/**
 * Sparkplug B (Eclipse Sparkplug 3.0) messages → readings. Payloads are decoded with Eclipse Tahu's
 * `sparkplug-payload` (the reference implementation's protobuf codec). Topic
 * `spBv1.0/<group>/<type>/<edge node>[/<device>]`: the group is the plant, the device the
 * device (node-level messages report as the edge node itself). Births map each metric's alias to
 * its name and dimensions, so data messages may carry aliases only; a death forgets them until the
 * next birth. Mapping details: docs/telemetry-ingest.md.
 */
import sparkplug from "sparkplug-payload";
import type { UMetric, UPayload } from "sparkplug-payload/lib/sparkplugbpayload";
import { DEFAULT_TIMESTAMP_WINDOW, MAX_NAME_LENGTH, timestampRefusal, type Decoded, type Reading, type SeriesMetadata, type TimestampWindow } from "./reading";
import type { DropReason } from "./stats";

const codec = sparkplug.get("spBv1.0")!;

const SPARKPLUG_TYPES = ["NBIRTH", "NDATA", "DBIRTH", "DDATA", "NDEATH", "DDEATH"] as const;
type SparkplugType = (typeof SPARKPLUG_TYPES)[number];

/** An NBIRTH payload: the edge node's session number, as the spec asks. */
export function encodeNodeBirth(bdSeq: number, timestamp: number): Uint8Array {
  return codec.encodePayload({ timestamp, seq: 0, metrics: [{ name: "bdSeq", type: "Int64", value: bdSeq, timestamp }] });
}

/** The subscriptions: every message type ingestion reads, at node and device level. */
export const SPARKPLUG_SUBSCRIPTIONS = SPARKPLUG_TYPES.map((type) => `spBv1.0/+/${type}/#`);

interface SparkplugTopic {
  groupId: string;
  type: SparkplugType;
  edgeNodeId: string;
  deviceId: string | null;
}

/** A message's caps, as the JSON topic's: bytes before anything is decoded, metrics before the codec runs. */
const MAX_PAYLOAD_BYTES = 1024 * 1024;
const MAX_METRICS = 1000;

/**
 * Why a payload is refused before decoding, or null: larger than MAX_PAYLOAD_BYTES, or more than
 * MAX_METRICS metrics. The metrics are counted by walking the payload's top-level protobuf fields
 * (field 2 is a metric), which skips over each metric without decoding it, so a message of 100,000
 * small metrics costs a scan, not 100,000 decoded objects on the event loop.
 */
export function oversized(payload: Uint8Array): string | null {
  if (payload.byteLength > MAX_PAYLOAD_BYTES) return `larger than ${MAX_PAYLOAD_BYTES / 1024 / 1024} MB`;
  let at = 0;
  let metrics = 0;
  const varint = (): number => {
    let value = 0;
    let factor = 1;
    for (let i = 0; i < 10; i++) {
      if (at >= payload.length) return -1;
      const byte = payload[at++]!;
      value += (byte & 0x7f) * factor;
      if (byte < 0x80) return value;
      factor *= 128;
    }
    return -1;
  };
  while (at < payload.length) {
    const tag = varint();
    if (tag < 0) return null; // malformed: the codec says so
    const wireType = tag % 8;
    if (wireType === 0) {
      if (varint() < 0) return null;
    } else if (wireType === 1) at += 8;
    else if (wireType === 5) at += 4;
    else if (wireType === 2) {
      const length = varint();
      if (length < 0) return null;
      at += length;
      if (Math.floor(tag / 8) === 2 && ++metrics > MAX_METRICS) return `more than ${MAX_METRICS} metrics`;
    } else return null;
  }
  return null;
}

/** Metrics that are Sparkplug's own bookkeeping, not measurements. */
function isControlMetric(name: string): boolean {
  return name === "bdSeq" || name.startsWith("Node Control/") || name.startsWith("Device Control/") || name.startsWith("Properties/");
}

export function parseSparkplugTopic(topic: string): SparkplugTopic | null {
  const parts = topic.split("/");
  if (parts[0] !== "spBv1.0" || parts.length < 4 || parts.length > 5) return null;
  const [, groupId, type, edgeNodeId, deviceId] = parts as [string, string, string, string, string | undefined];
  if (!(SPARKPLUG_TYPES as readonly string[]).includes(type) || !groupId || !edgeNodeId) return null;
  const deviceLevel = type.startsWith("D");
  if (deviceLevel !== (deviceId !== undefined) || deviceId === "") return null;
  return { groupId, type: type as SparkplugType, edgeNodeId, deviceId: deviceId ?? null };
}

export interface BirthMetric {
  name: string;
  metadata: SeriesMetadata;
}

/** Numbers the codec hands back as protobuf Long objects. */
function toNumber(value: unknown): number | null {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value && typeof value === "object" && "toNumber" in value && typeof (value as { toNumber: unknown }).toNumber === "function") {
    return (value as { toNumber(): number }).toNumber();
  }
  return null;
}

const NUMERIC_TYPES = new Set(["Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Float", "Double", "Boolean"]);

/** Dimensions of a metric from its birth properties: `engUnit` becomes `Unit`, other scalars keep their names. */
function birthMetadata(metric: UMetric, edgeNodeId: string): SeriesMetadata {
  const data: Record<string, string | number | boolean> = {};
  for (const [key, property] of Object.entries(metric.properties ?? {})) {
    const value = typeof property.value === "object" ? toNumber(property.value) : property.value;
    if (value === null || value === undefined || (typeof value === "number" && !Number.isFinite(value))) continue;
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") continue;
    data[key === "engUnit" || key === "engUnits" ? "Unit" : key] = value;
  }
  // A birth makes a data point current again after a death marked it stale.
  return { data: { Quality: "GOOD", ...data }, message: { jobId: edgeNodeId } };
}

/** Where the primary host keeps births and sequence numbers (the service database: sparkplug-state.ts). */
export interface SparkplugStateStore {
  loadBirths(): Promise<[string, [string, BirthMetric][]][]>;
  loadSequences(): Promise<[string, number][]>;
  /** A session's birth (null: ended by a death). */
  saveBirth(key: string, metrics: [string, BirthMetric][] | null): Promise<void>;
  saveSequences(sequences: [string, number][]): Promise<void>;
}

/** A gap stays open this long (ms) for the missing message to arrive late before a rebirth is asked for. */
const REORDER_TIMEOUT_MS = 2_000;
/** At most one rebirth request per edge node in this time (ms): an edge node needs a moment to re-send its births. */
const REBIRTH_MIN_INTERVAL_MS = 5_000;

/** The payload of an NCMD asking an edge node for its births again (Sparkplug 3.0, "Node Control/Rebirth"). */
export function encodeRebirthRequest(timestamp: number): Uint8Array {
  return codec.encodePayload({ timestamp, metrics: [{ name: "Node Control/Rebirth", type: "Boolean", value: true, timestamp }] });
}

/**
 * The primary host's view of every edge node and device: the alias tables of their last births,
 * each node's expected sequence number, and what needs a rebirth request (Sparkplug 3.0 host
 * application rules): a data message before any birth, an alias no birth named, or a sequence gap
 * that the missing message did not fill within REORDER_TIMEOUT_MS. Births (and deaths) are saved
 * to the store before the message is acknowledged, sequence numbers every second, so a restart or
 * the next holder of the host role carries on with them.
 *
 * A death makes the dead node's or device's data points stale: each gets a reading without a value
 * at the death's time (an NDEATH's arrival: the Will was composed at connect), with `DataMetadata.Quality` "STALE" (a birth sets "GOOD" again), so queries
 * and the asset page see that the last value is no longer current.
 */
export class SparkplugSessions {
  private readonly births = new Map<string, Map<string, BirthMetric>>();
  private readonly sequences = new Map<string, { next: number; gap: { missing: number; since: number } | null }>();
  private readonly rebirthWanted = new Map<string, string>();
  private readonly rebirthAskedAt = new Map<string, number>();
  private readonly dirtyBirths = new Set<string>();
  private readonly dirtySequences = new Set<string>();

  constructor(
    private readonly store: SparkplugStateStore | null = null,
    private readonly window: TimestampWindow = DEFAULT_TIMESTAMP_WINDOW,
  ) {}

  /** Asks the node for its births again (a data message of a device no birth has claimed yet). */
  requestRebirth(topic: SparkplugTopic, reason: string): void {
    this.rebirthWanted.set(SparkplugSessions.nodeKey(topic), reason);
  }

  /** Alias tables held (one per edge node or device with a birth): bounded by the listed devices. */
  get size(): number {
    return this.births.size;
  }

  private static key(topic: SparkplugTopic): string {
    return `${topic.groupId}/${topic.edgeNodeId}/${topic.deviceId ?? ""}`;
  }

  private static nodeKey(topic: SparkplugTopic): string {
    return `${topic.groupId}/${topic.edgeNodeId}`;
  }

  /** Reads what the last holder of the host role saved (at start and at each takeover). */
  async load(): Promise<void> {
    if (!this.store) return;
    const [births, sequences] = await Promise.all([this.store.loadBirths(), this.store.loadSequences()]);
    this.births.clear();
    this.sequences.clear();
    for (const [key, metrics] of births) this.births.set(key, new Map(metrics));
    for (const [node, next] of sequences) this.sequences.set(node, { next, gap: null });
  }

  /** Saves the births changed since the last call (before the message is acknowledged) and, with `sequences`, the sequence numbers. */
  async persist(sequences = false): Promise<void> {
    if (!this.store) return;
    for (const key of [...this.dirtyBirths]) {
      this.dirtyBirths.delete(key);
      const birth = this.births.get(key);
      await this.store.saveBirth(key, birth ? [...birth] : null);
    }
    if (sequences && this.dirtySequences.size > 0) {
      const changed = [...this.dirtySequences].flatMap((node) => {
        const state = this.sequences.get(node);
        return state ? [[node, state.next] as [string, number]] : [];
      });
      this.dirtySequences.clear();
      await this.store.saveSequences(changed);
    }
  }

  get birthsToSave(): boolean {
    return this.dirtyBirths.size > 0;
  }

  /**
   * Edge nodes to ask for a rebirth now (`spBv1.0/<group>/NCMD/<node>`), with the reason; each at
   * most once per REBIRTH_MIN_INTERVAL_MS.
   */
  rebirthsDue(now: number): { groupId: string; edgeNodeId: string; reason: string }[] {
    for (const [node, state] of this.sequences) {
      if (state.gap && now - state.gap.since >= REORDER_TIMEOUT_MS) {
        this.rebirthWanted.set(node, `sequence number ${state.gap.missing} did not arrive`);
        state.gap = null;
      }
    }
    const due: { groupId: string; edgeNodeId: string; reason: string }[] = [];
    for (const [node, reason] of this.rebirthWanted) {
      if (now - (this.rebirthAskedAt.get(node) ?? -Infinity) < REBIRTH_MIN_INTERVAL_MS) continue;
      this.rebirthWanted.delete(node);
      this.rebirthAskedAt.set(node, now);
      const slash = node.indexOf("/");
      due.push({ groupId: node.slice(0, slash), edgeNodeId: node.slice(slash + 1), reason });
    }
    return due;
  }

  private checkSequence(topic: SparkplugTopic, seq: number | null): void {
    const node = SparkplugSessions.nodeKey(topic);
    if (topic.type === "NDEATH") return; // a death carries bdSeq, not seq
    if (topic.type === "NBIRTH") {
      this.sequences.set(node, { next: ((seq ?? 0) + 1) % 256, gap: null });
      this.dirtySequences.add(node);
      return;
    }
    const state = this.sequences.get(node);
    if (seq === null || !state) return; // no birth yet: the data-before-birth rule asks for one
    if (state.gap && seq === state.gap.missing) {
      state.gap = null; // the late one arrived; the sequence goes on from the newest
      return;
    }
    if (seq !== state.next) state.gap ??= { missing: state.next, since: Date.now() };
    state.next = (seq + 1) % 256;
    this.dirtySequences.add(node);
  }

  /**
   * `listed`: the device (or, for node-level messages, the edge node) is listed for the plant.
   * An unlisted one's births are not kept (nothing of theirs is held in memory).
   */
  decode(topic: SparkplugTopic, payload: Uint8Array, receivedAt: number, listed = true): Decoded {
    let decoded: UPayload;
    try {
      decoded = codec.decodePayload(payload);
    } catch (error) {
      return { ok: false, reason: "malformed_payload", detail: error instanceof Error ? error.message : String(error) };
    }
    const key = SparkplugSessions.key(topic);
    const nodePrefix = `${topic.groupId}/${topic.edgeNodeId}/`;
    const sentAt = toNumber(decoded.timestamp) ?? receivedAt;
    this.checkSequence(topic, toNumber(decoded.seq));
    if (topic.type === "NDEATH" || topic.type === "DDEATH") {
      // A node's death ends the sessions of its devices too; their data points become stale.
      const ended = topic.type === "NDEATH" ? [...this.births.keys()].filter((k) => k.startsWith(nodePrefix)) : this.births.has(key) ? [key] : [];
      // An NDEATH is the node's Will, composed when it connected (Tahu's client stamps it then): its
      // timestamp says nothing of the death, which the host learns on arrival. A DDEATH is sent at the device's loss.
      const diedAt = topic.type === "NDEATH" ? receivedAt : sentAt;
      const readings: Reading[] = [];
      for (const k of ended) {
        const deviceId = k.slice(nodePrefix.length) || topic.edgeNodeId;
        for (const [alias, metric] of this.births.get(k)!) {
          if (!alias.startsWith("name:") || isControlMetric(metric.name)) continue;
          readings.push({ plantId: topic.groupId, deviceId, name: metric.name, timestamp: diedAt, value: null, sentAt: diedAt, receivedAt, metadata: { data: { ...metric.metadata.data, Quality: "STALE" }, message: metric.metadata.message } });
        }
        this.births.delete(k);
        this.dirtyBirths.add(k);
      }
      return { ok: true, readings: timestampRefusal(diedAt, receivedAt, this.window) === null ? readings : [], dropped: {} };
    }
    const isBirth = topic.type === "NBIRTH" || topic.type === "DBIRTH";
    let aliases = this.births.get(key);
    if (isBirth) {
      if (topic.type === "NBIRTH") {
        for (const k of [...this.births.keys()]) {
          if (!k.startsWith(nodePrefix)) continue;
          this.births.delete(k);
          this.dirtyBirths.add(k);
        }
        this.rebirthWanted.delete(SparkplugSessions.nodeKey(topic));
      }
      aliases = new Map();
      if (listed) {
        this.births.set(key, aliases);
        this.dirtyBirths.add(key);
      }
    } else if (!aliases && listed) {
      // Data before a birth (or after the host lost track): ask the edge node to be born again.
      this.rebirthWanted.set(SparkplugSessions.nodeKey(topic), `${topic.type} before a birth of ${topic.deviceId ?? topic.edgeNodeId}`);
    }
    const deviceId = topic.deviceId ?? topic.edgeNodeId;
    const readings: Reading[] = [];
    const dropped: Partial<Record<DropReason, number>> = {};
    const drop = (reason: DropReason) => (dropped[reason] = (dropped[reason] ?? 0) + 1);

    for (const metric of decoded.metrics ?? []) {
      const alias = metric.alias === undefined || metric.alias === null ? null : String(toNumber(metric.alias));
      let name = typeof metric.name === "string" && metric.name !== "" ? metric.name : null;
      let metadata: SeriesMetadata | null = null;
      if (isBirth) {
        if (!name) {
          drop("malformed_payload"); // a birth must name its metrics
          continue;
        }
        metadata = birthMetadata(metric, topic.edgeNodeId);
        if (alias !== null) aliases!.set(alias, { name, metadata });
        aliases!.set(`name:${name}`, { name, metadata });
      } else {
        const known = alias !== null ? aliases?.get(alias) : name ? aliases?.get(`name:${name}`) : undefined;
        if (!name) {
          if (!known) {
            drop("unknown_alias");
            if (aliases && listed) this.rebirthWanted.set(SparkplugSessions.nodeKey(topic), `alias ${alias} of ${deviceId} is not in its birth`);
            continue;
          }
          name = known.name;
        }
        metadata = known?.metadata ?? { message: { jobId: topic.edgeNodeId } };
      }
      if (isControlMetric(name)) continue;
      if (name.length > MAX_NAME_LENGTH) {
        drop("malformed_payload");
        continue;
      }
      let value: number | null;
      if (metric.isNull || metric.value === null || metric.value === undefined) {
        if (isBirth) continue; // declared without a current value: nothing was measured
        value = null;
      }
      else if (NUMERIC_TYPES.has(metric.type)) value = toNumber(metric.value);
      else {
        drop("non_numeric_value");
        continue;
      }
      if (value !== null && !Number.isFinite(value)) {
        drop("non_numeric_value");
        continue;
      }
      const timestamp = toNumber(metric.timestamp) ?? sentAt;
      const refused = timestampRefusal(timestamp, receivedAt, this.window);
      if (refused) {
        drop(refused);
        continue;
      }
      readings.push({ plantId: topic.groupId, deviceId, name, timestamp, value, sentAt, receivedAt, metadata });
    }
    return { ok: true, readings, dropped };
  }
}

/** A metric to encode: a reading (DDATA) or a declaration with its unit (DBIRTH, where no value means declared only). */
interface MetricOut {
  name?: string;
  alias?: number;
  value?: number | boolean;
  timestamp: number;
  type?: "Double" | "Int64" | "Boolean";
  unit?: string;
}

/** Encodes metrics; each field is written only when given, as a device would send it. */
function encodeMetrics(metrics: readonly MetricOut[], timestamp: number, seq: number): Uint8Array {
  return codec.encodePayload({
    timestamp,
    seq,
    metrics: metrics.map((m) => ({
      ...(m.name !== undefined ? { name: m.name } : {}),
      ...(m.alias !== undefined ? { alias: m.alias } : {}),
      type: m.type ?? (typeof m.value === "boolean" ? "Boolean" : "Double"),
      value: m.value ?? null,
      ...(m.value === undefined ? { isNull: true } : {}),
      timestamp: m.timestamp,
      ...(m.unit ? { properties: { engUnit: { type: "String", value: m.unit } } } : {}),
    })),
  });
}

/** One device's readings as a DDATA payload (the demo publisher, tests and the benchmark use it). */
export const encodeDeviceData: (metrics: readonly (Omit<MetricOut, "unit"> & { value: number | boolean })[], timestamp: number, seq: number) => Uint8Array = encodeMetrics;

/** A DBIRTH payload: names, aliases, units and current values (none: declared only, no reading). */
export const encodeDeviceBirth: (metrics: readonly (Omit<MetricOut, "type" | "value"> & { name: string; value?: number })[], timestamp: number, seq: number) => Uint8Array = encodeMetrics;
