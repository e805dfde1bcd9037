/**
 * Where ingestion's batches go, and the rules every sink applies, written once for both engines
 * (docs/telemetry-ingest.md): the DuckDB files (duckdb-sink.ts) and ClickHouse (clickhouse-sink.ts)
 * keep their series in a `SeriesBook` and differ only in how they load, check and store them, so
 * the same readings are stored as the same values on either.
 *
 * - A series is one (plant, data point, device). Metadata keys a reading carries are added to or
 *   replace the series' current keys, none is removed; when that changes them, the readings from
 *   then on go to a new metadata version of the series (or the earlier version that has exactly
 *   those keys), and the readings stored before keep theirs.
 * - A device may have at most INGEST_DEVICE_SERIES_MAX series, metadata versions included (so one
 *   device cannot take its customer's 65,536); a reading that would need one more is dropped.
 * - A reading is one (series, Timestamp in ms): a second one in the batch is a duplicate (and the
 *   sink drops those already stored).
 * - The agent and ingestion delays are stored in 16 bits: beyond 65.5 s, as 65.5 s.
 */
import type { Reading, SeriesMetadata } from "./reading";

/** What a customer's batch came to. */
export interface SinkResult {
  written: number;
  duplicates: number;
  /** Readings of new series beyond the store's own series limit (DuckDB's 65,536 per file). */
  overLimit: number;
  /** Readings of new series beyond the device's INGEST_DEVICE_SERIES_MAX. */
  overDeviceLimit: number;
  oldestReceivedAt: number;
  newest: number;
}

/** Where batches go: the customer's DuckDB file (duckdb-sink.ts) or ClickHouse database (clickhouse-sink.ts). */
export interface ReadingSink {
  /** Writes one customer's batch (one transaction on DuckDB, one insert on ClickHouse). */
  write(customerId: string, readings: readonly Reading[]): Promise<SinkResult>;
  /** Drops what it cached about the customer (after a failed write). */
  forget(customerId: string): void;
}

/** `AgentDelayMs` and `IngestionDelayMs` are 16-bit: delays beyond 65.5 s are stored as 65.5 s. */
const MAX_DELAY_MS = 2 ** 16 - 1;
const clampDelay = (ms: number) => Math.max(0, Math.min(MAX_DELAY_MS, Math.round(ms)));

/**
 * A reading's stored times: `Timestamp` in whole ms, and the delays to `AgentTimestamp` (sent) and
 * from there to `IngestionTimestamp` (received), clamped.
 */
function storedTimes(reading: Reading): { timestamp: number; agentDelayMs: number; ingestionDelayMs: number } {
  return {
    timestamp: Math.round(reading.timestamp),
    agentDelayMs: clampDelay(reading.sentAt - reading.timestamp),
    ingestionDelayMs: clampDelay(reading.receivedAt - Math.max(reading.sentAt, reading.timestamp)),
  };
}

/** One metadata version of a series: its two metadata objects as JSON text (null: none). */
export interface SeriesVersion {
  data: string | null;
  message: string | null;
}

/** Every metadata version of one series: readings go to `current`. */
export interface SeriesFamily<V extends SeriesVersion> {
  current: V;
  /** Oldest first. */
  versions: V[];
  /** The metadata object last merged (decoders reuse one object per birth: merging it again changes nothing). */
  lastMerged: SeriesMetadata | null;
}

/** A reading of the batch, with the series version it is stored under and its stored times. */
interface PlannedReading<V extends SeriesVersion> extends ReturnType<typeof storedTimes> {
  reading: Reading;
  /** The series' key (plant, data point, device): with `timestamp`, the reading's identity. */
  key: string;
  family: SeriesFamily<V>;
  version: V;
}

/** A batch under the rules: what to store, and what was dropped. */
interface BatchPlan<V extends SeriesVersion> {
  rows: PlannedReading<V>[];
  /** Versions first made in this batch, each with the reading that brought it (the sink stores them first). */
  added: Map<V, Reading>;
  /** Second readings of a series and Timestamp within the batch. */
  duplicates: number;
  overLimit: number;
  overDeviceLimit: number;
}

const seriesKey = (plantId: string, name: string, deviceId: string) => `${plantId}\u0000${name}\u0000${deviceId}`;
const deviceKey = (plantId: string, deviceId: string) => `${plantId}\u0000${deviceId}`;

/** Merges dimensions into a stored metadata object (keys are added or replaced, never removed). */
function mergedMetadata(stored: string | null, added: Record<string, unknown> | undefined): string | null {
  if (!added || Object.keys(added).length === 0) return stored;
  const next = JSON.stringify({ ...(stored ? (JSON.parse(stored) as Record<string, unknown>) : {}), ...added });
  return next === stored ? stored : next;
}

/** A customer's series as a sink knows them (`V`: the engine's version, e.g. DuckDB's with its sid). */
export class SeriesBook<V extends SeriesVersion> {
  private readonly families = new Map<string, SeriesFamily<V>>();
  /** Versions per plant and device, against the device's limit. */
  private readonly perDevice = new Map<string, number>();

  /** A stored version, oldest first: the last one added to a series is its current one. */
  addStored(plantId: string, name: string, deviceId: string, version: V): void {
    const key = seriesKey(plantId, name, deviceId);
    const family = this.families.get(key);
    if (family) {
      family.versions.push(version);
      family.current = version;
    } else this.families.set(key, { current: version, versions: [version], lastMerged: null });
    const device = deviceKey(plantId, deviceId);
    this.perDevice.set(device, (this.perDevice.get(device) ?? 0) + 1);
  }

  /** Whether the reading's series is known (else the sink may look for it in the store first). */
  has(reading: Reading): boolean {
    return this.families.has(seriesKey(reading.plantId, reading.name, reading.deviceId));
  }

  /**
   * The batch under the rules; the book keeps the versions it makes. `create` makes a new version
   * for the engine, or returns null when the engine has no room for one (counted as `overLimit`).
   */
  plan(readings: readonly Reading[], deviceSeriesMax: number, create: (data: string | null, message: string | null) => V | null): BatchPlan<V> {
    const plan: BatchPlan<V> = { rows: [], added: new Map(), duplicates: 0, overLimit: 0, overDeviceLimit: 0 };
    const seen = new Set<string>();
    const newVersion = (reading: Reading, data: string | null, message: string | null): V | null => {
      const device = deviceKey(reading.plantId, reading.deviceId);
      const used = this.perDevice.get(device) ?? 0;
      if (used >= deviceSeriesMax) {
        plan.overDeviceLimit += 1;
        return null;
      }
      const version = create(data, message);
      if (!version) {
        plan.overLimit += 1;
        return null;
      }
      this.perDevice.set(device, used + 1);
      plan.added.set(version, reading);
      return version;
    };
    for (const reading of readings) {
      const key = seriesKey(reading.plantId, reading.name, reading.deviceId);
      let family = this.families.get(key);
      if (!family) {
        const version = newVersion(reading, mergedMetadata(null, reading.metadata?.data), mergedMetadata(null, reading.metadata?.message));
        if (!version) continue;
        family = { current: version, versions: [version], lastMerged: reading.metadata };
        this.families.set(key, family);
      } else if (reading.metadata && reading.metadata !== family.lastMerged) {
        const { current } = family;
        const data = mergedMetadata(current.data, reading.metadata.data);
        const message = mergedMetadata(current.message, reading.metadata.message);
        if (data !== current.data || message !== current.message) {
          // Changed metadata: the version that has exactly it, or a new one; the stored readings keep theirs.
          const version = family.versions.find((v) => v.data === data && v.message === message) ?? newVersion(reading, data, message);
          if (!version) continue;
          if (!family.versions.includes(version)) family.versions.push(version);
          family.current = version;
        }
        family.lastMerged = reading.metadata;
      }
      const times = storedTimes(reading);
      const identity = `${key}\u0000${times.timestamp}`;
      if (seen.has(identity)) {
        plan.duplicates += 1;
        continue;
      }
      seen.add(identity);
      plan.rows.push({ reading, key, family, version: family.current, ...times });
    }
    return plan;
  }
}

/** The batch's oldest arrival (its lag once written). */
export function oldestReceivedAt(readings: readonly Reading[]): number {
  let oldest = Infinity;
  for (const reading of readings) oldest = Math.min(oldest, reading.receivedAt);
  return oldest;
}
