/**
 * Readings → the customer's DuckDB file, in batches: a reading waits at most INGEST_FLUSH_MS, a
 * batch holds at most INGEST_BATCH_MAX, and each customer's batch is one transaction on the store's
 * writer connection (the same queue the demo plant writes through). The queue is bounded at
 * INGEST_QUEUE_MAX readings: when it is full, `whenRoom()` makes the MQTT side stop reading from
 * the broker until half of it is written (pause/resume; nothing is dropped for lack of room).
 *
 * Metadata never rewrites history: a `StateSeries` row is one (plant, data point, device) with one
 * set of metadata. A reading whose metadata changes its series' metadata (keys added or replaced)
 * starts a new row with the merged metadata (or goes back to an earlier row that has exactly it),
 * so the readings stored before keep the metadata they arrived with. Each device may use at most
 * INGEST_DEVICE_SERIES_MAX rows, so one device cannot take its customer's 65,536.
 *
 * A reading is identified by (plant, device, data point, Timestamp): one already stored is not
 * written again, so a message the broker delivers twice (QoS 1 after a reconnect or a failover)
 * or a device sends twice leaves one row. The check is an anti-join with the stored rows of the
 * batch's series (all metadata versions) and time range (the constant bounds let DuckDB skip every
 * row group outside them).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { DuckDbTelemetryStore } from "../duckdb/store";
import type { Reading, SeriesMetadata } from "./reading";
import type { DropReason, IngestStats } from "./stats";

/** `StateSeries.sid` is a USMALLINT. */
const MAX_SERIES = 2 ** 16;
/** `AgentDelayMs` and `IngestionDelayMs` are USMALLINTs: delays beyond 65.5 s are stored as 65.5 s. */
const MAX_DELAY_MS = 2 ** 16 - 1;

/** What a customer's batch came to. */
export interface SinkResult {
  written: number;
  duplicates: number;
  /** Readings of new series beyond the store's own series limit (DuckDB's 65,536). */
  overLimit: number;
  /** Readings of new series beyond the device's INGEST_DEVICE_SERIES_MAX. */
  overDeviceLimit: number;
  oldestReceivedAt: number;
  newest: number;
}

/** Where batches go when the telemetry is not in the embedded DuckDB files (ClickHouse: clickhouse-sink.ts). */
export interface ReadingSink {
  write(customerId: string, readings: readonly Reading[]): Promise<SinkResult>;
  /** Drops what it cached about the customer (after a failed write). */
  forget(customerId: string): void;
}

interface IngestWriterOptions {
  /** The embedded DuckDB files, or `sink` for another store; exactly one. */
  store?: DuckDbTelemetryStore;
  sink?: ReadingSink;
  batchMax: number;
  flushMs: number;
  queueMax: number;
  /** Series (StateSeries rows, metadata versions included) one device may have. */
  deviceSeriesMax: number;
  stats: IngestStats;
  /** Told once per reason when readings are dropped. */
  onDrop: (reason: DropReason, count: number, detail: string) => void;
  log: (line: string) => void;
  now?: () => number;
}

interface Queued {
  customerId: string;
  reading: Reading;
}

interface SeriesEntry {
  sid: number;
  data: string | null;
  message: string | null;
}

/** Every metadata version of one (plant, data point, device): readings go to `current`. */
interface SeriesFamily {
  /** The lowest sid of the family: duplicates are judged per family. */
  id: number;
  current: SeriesEntry;
  versions: SeriesEntry[];
  /** The metadata object last merged (decoders reuse one object per birth: merging it again changes nothing). */
  lastMerged: SeriesMetadata | null;
}

interface CustomerSeries {
  families: Map<string, SeriesFamily>;
  /** Series per plant and device, against deviceSeriesMax. */
  perDevice: Map<string, number>;
  count: number;
  nextSid: number;
}

/** Messages awaiting their commit that make the writer flush at once (half the broker's in-flight window, mqtt-ingest.ts). */
const ACK_WINDOW = 500;

const seriesKey = (plantId: string, name: string, deviceId: string) => `${plantId}\u0000${name}\u0000${deviceId}`;
const deviceKey = (plantId: string, deviceId: string) => `${plantId}\u0000${deviceId}`;
const clampDelay = (ms: number) => Math.max(0, Math.min(MAX_DELAY_MS, Math.round(ms)));

/** Merges dimensions into a stored metadata object (keys are added or replaced, never removed). */
function merged(stored: string | null, added: Record<string, unknown> | undefined): string | null {
  if (!added || Object.keys(added).length === 0) return stored;
  const next = JSON.stringify({ ...(stored ? (JSON.parse(stored) as Record<string, unknown>) : {}), ...added });
  return next === stored ? stored : next;
}

export class IngestWriter {
  private queue: Queued[] = [];
  /** Readings ever accepted / ever done with (written, duplicate or dropped): a message's commit is when `done` passes its last one. */
  private accepted = 0;
  private done = 0;
  private commitWaiters: { upTo: number; resolve: () => void }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private roomWaiters: (() => void)[] = [];
  private readonly series = new Map<string, CustomerSeries>();
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly options: IngestWriterOptions) {
    this.now = options.now ?? Date.now;
  }

  get queued(): number {
    return this.queue.length;
  }

  get full(): boolean {
    return this.queue.length >= this.options.queueMax;
  }

  /** Age of the oldest reading waiting to be written (ms). */
  oldestQueuedMs(): number {
    const first = this.queue[0];
    return first ? Math.max(0, this.now() - first.reading.receivedAt) : 0;
  }

  /**
   * Queues readings of one customer's plants; may exceed the bound by one message (the caller then
   * waits). Resolves once they are committed (or dropped by the write): ingestion acknowledges the
   * message to the broker only then, so nothing acknowledged is lost if the process dies.
   */
  accept(customerId: string, readings: readonly Reading[]): Promise<void> {
    if (this.closed) throw new Error("Ingestion is closed.");
    if (readings.length === 0) return Promise.resolve();
    for (const reading of readings) this.queue.push({ customerId, reading });
    this.accepted += readings.length;
    const committed = new Promise<void>((resolve) => this.commitWaiters.push({ upTo: this.accepted, resolve }));
    this.options.stats.queued = this.queue.length;
    // Messages waiting for their acknowledgement hold the broker's in-flight window (Mosquitto: 20
    // per client by default): a few of them are reason enough to write now rather than after the delay.
    if (this.queue.length >= this.options.batchMax || this.commitWaiters.length >= ACK_WINDOW) this.startFlush();
    else this.timer ??= setTimeout(() => this.startFlush(), this.options.flushMs);
    return committed;
  }

  /** Resolves when the queue has room again (at once if it has). */
  whenRoom(): Promise<void> {
    if (!this.full) return Promise.resolve();
    this.options.stats.pauses += 1;
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** Writes everything queued so far; resolves when it is committed. */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.flushing) {
      this.startFlush();
      await this.flushing;
    }
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private startFlush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.flushing || this.queue.length === 0) return;
    this.flushing = this.writeBatches().finally(() => {
      this.flushing = null;
      // More arrived while writing: a full batch goes at once, a partial one after the flush delay.
      if (this.queue.length >= this.options.batchMax || this.commitWaiters.length >= ACK_WINDOW) this.startFlush();
      else if (this.queue.length > 0) this.timer ??= setTimeout(() => this.startFlush(), this.options.flushMs);
    });
  }

  private async writeBatches(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.batchMax);
      this.options.stats.queued = this.queue.length;
      if (this.queue.length <= this.options.queueMax / 2) for (const wake of this.roomWaiters.splice(0)) wake();
      const byCustomer = new Map<string, Reading[]>();
      for (const { customerId, reading } of batch) {
        const list = byCustomer.get(customerId);
        if (list) list.push(reading);
        else byCustomer.set(customerId, [reading]);
      }
      for (const [customerId, readings] of byCustomer) {
        try {
          const { sink, store } = this.options;
          const result = sink ? await sink.write(customerId, readings) : await store!.write(customerId, (connection) => this.writeReadings(connection, customerId, readings));
          // Counted once committed.
          const stats = this.options.stats;
          stats.readingsWritten += result.written;
          stats.batches += 1;
          stats.lastBatchLagMs = this.now() - result.oldestReceivedAt;
          stats.lastWriteAt = new Date(this.now()).toISOString();
          if (result.written > 0 && (!stats.lastReadingAt || result.newest > Date.parse(stats.lastReadingAt))) stats.lastReadingAt = new Date(result.newest).toISOString();
          this.drop("duplicate", result.duplicates, "already stored (same device, data point and timestamp)");
          this.drop("write_failed", result.overLimit, `the file holds ${MAX_SERIES} series, its maximum`);
          this.drop("series_limit", result.overDeviceLimit, `the device has ${this.options.deviceSeriesMax} series, its maximum (INGEST_DEVICE_SERIES_MAX)`);
        } catch (error) {
          this.series.delete(customerId); // the rolled-back transaction may have added series
          this.options.sink?.forget(customerId);
          this.drop("write_failed", readings.length, error instanceof Error ? error.message : String(error));
        }
      }
      this.done += batch.length;
      const waiters = this.commitWaiters;
      let released = 0;
      while (released < waiters.length && waiters[released]!.upTo <= this.done) waiters[released++]!.resolve();
      if (released > 0) this.commitWaiters = waiters.slice(released);
      // Only a full batch is followed at once by the next; a small rest waits for the flush delay.
      if (this.queue.length < this.options.batchMax) break;
    }
  }

  private drop(reason: DropReason, count: number, detail: string): void {
    if (count === 0) return;
    this.options.stats.droppedReadings[reason] = (this.options.stats.droppedReadings[reason] ?? 0) + count;
    this.options.onDrop(reason, count, detail);
  }

  private async loadSeries(connection: DuckDBConnection, customerId: string): Promise<CustomerSeries> {
    const reader = await connection.runAndReadAll(`SELECT sid, PlantId, Name, DeviceId, DataMetadata::VARCHAR, MessageMetadata::VARCHAR FROM StateSeries ORDER BY sid`);
    const loaded: CustomerSeries = { families: new Map(), perDevice: new Map(), count: 0, nextSid: 0 };
    for (const [sid, plantId, name, deviceId, data, message] of reader.getRows()) {
      const entry: SeriesEntry = { sid: Number(sid), data: data === null ? null : String(data), message: message === null ? null : String(message) };
      const key = seriesKey(String(plantId), String(name), String(deviceId));
      const family = loaded.families.get(key);
      // Ordered by sid: the newest version is the current one.
      if (family) {
        family.versions.push(entry);
        family.current = entry;
      } else loaded.families.set(key, { id: entry.sid, current: entry, versions: [entry], lastMerged: null });
      const device = deviceKey(String(plantId), String(deviceId));
      loaded.perDevice.set(device, (loaded.perDevice.get(device) ?? 0) + 1);
      loaded.count += 1;
      loaded.nextSid = entry.sid + 1;
    }
    this.series.set(customerId, loaded);
    return loaded;
  }

  /** Inside the customer's write transaction. */
  private async writeReadings(
    connection: DuckDBConnection,
    customerId: string,
    readings: readonly Reading[],
  ): Promise<SinkResult> {
    let series = this.series.get(customerId) ?? (await this.loadSeries(connection, customerId));
    // Another writer (the demo plant) may have added series since the cache was filled.
    if (readings.some((r) => !series.families.has(seriesKey(r.plantId, r.name, r.deviceId)))) series = await this.loadSeries(connection, customerId);

    /** Series rows first seen in this batch: written together below. */
    const added = new Map<SeriesEntry, Reading>();
    const rows: { sid: number; family: number; reading: Reading }[] = [];
    const seen = new Set<string>();
    const families = new Set<SeriesFamily>();
    let inBatchDuplicates = 0;
    let overLimit = 0;
    let overDeviceLimit = 0;
    /** A new series row, if the file and the device have room for it. */
    const newEntry = (reading: Reading, data: string | null, message: string | null): SeriesEntry | null => {
      const device = deviceKey(reading.plantId, reading.deviceId);
      const used = series.perDevice.get(device) ?? 0;
      if (used >= this.options.deviceSeriesMax) {
        overDeviceLimit += 1;
        return null;
      }
      if (series.nextSid >= MAX_SERIES) {
        overLimit += 1;
        return null;
      }
      const entry = { sid: series.nextSid++, data, message };
      series.perDevice.set(device, used + 1);
      series.count += 1;
      added.set(entry, reading);
      return entry;
    };
    for (const reading of readings) {
      const key = seriesKey(reading.plantId, reading.name, reading.deviceId);
      let family = series.families.get(key);
      if (!family) {
        const entry = newEntry(reading, merged(null, reading.metadata?.data), merged(null, reading.metadata?.message));
        if (!entry) continue;
        family = { id: entry.sid, current: entry, versions: [entry], lastMerged: reading.metadata };
        series.families.set(key, family);
      } else if (reading.metadata && reading.metadata !== family.lastMerged) {
        const { current } = family;
        const data = merged(current.data, reading.metadata.data);
        const message = merged(current.message, reading.metadata.message);
        if (data !== current.data || message !== current.message) {
          // Changed metadata: the version that has exactly it, or a new one; the stored readings keep theirs.
          const version = family.versions.find((v) => v.data === data && v.message === message) ?? newEntry(reading, data, message);
          if (!version) continue;
          if (!family.versions.includes(version)) family.versions.push(version);
          family.current = version;
        }
        family.lastMerged = reading.metadata;
      }
      const readingKey = `${family.id}:${reading.timestamp}`;
      if (seen.has(readingKey)) {
        inBatchDuplicates += 1;
        continue;
      }
      seen.add(readingKey);
      families.add(family);
      rows.push({ sid: family.current.sid, family: family.id, reading });
    }
    await writeSeries(connection, added);

    let written = 0;
    let maxTs = -Infinity;
    if (rows.length > 0) {
      await connection.run(`CREATE TEMP TABLE IF NOT EXISTS ingest_batch (sid USMALLINT, fam USMALLINT, ts BIGINT, value DOUBLE, agent USMALLINT, ingest USMALLINT)`);
      await connection.run(`CREATE TEMP TABLE IF NOT EXISTS ingest_family (sid USMALLINT, fam USMALLINT)`);
      const appender = await connection.createAppender("ingest_batch", "main", "temp");
      let minTs = Infinity;
      for (const { sid, family, reading } of rows) {
        appender.appendUSmallInt(sid);
        appender.appendUSmallInt(family);
        appender.appendBigInt(BigInt(Math.round(reading.timestamp)));
        if (reading.value === null) appender.appendNull();
        else appender.appendDouble(reading.value);
        appender.appendUSmallInt(clampDelay(reading.sentAt - reading.timestamp));
        appender.appendUSmallInt(clampDelay(reading.receivedAt - Math.max(reading.sentAt, reading.timestamp)));
        appender.endRow();
        minTs = Math.min(minTs, reading.timestamp);
        maxTs = Math.max(maxTs, reading.timestamp);
      }
      appender.closeSync();
      // Every version of the batch's series, so a reading stored under older metadata is still a duplicate.
      const members = await connection.createAppender("ingest_family", "main", "temp");
      let minSid = Infinity;
      let maxSid = -Infinity;
      for (const family of families) {
        for (const version of family.versions) {
          members.appendUSmallInt(version.sid);
          members.appendUSmallInt(family.id);
          members.endRow();
          minSid = Math.min(minSid, version.sid);
          maxSid = Math.max(maxSid, version.sid);
        }
      }
      members.closeSync();
      const inserted = await connection.run(
        `INSERT INTO StateValues
         SELECT b.sid, epoch_ms(b.ts), b.value, b.agent, b.ingest FROM ingest_batch b
         WHERE NOT EXISTS (
           SELECT 1 FROM StateValues v JOIN ingest_family f ON f.sid = v.sid
           WHERE f.fam = b.fam AND v."Timestamp" = epoch_ms(b.ts)
             AND v.sid BETWEEN ${minSid} AND ${maxSid}
             AND v."Timestamp" BETWEEN epoch_ms(${Math.round(minTs)}::BIGINT) AND epoch_ms(${Math.round(maxTs)}::BIGINT))
         ORDER BY b.sid, b.ts`,
      );
      await connection.run(`DELETE FROM ingest_batch`);
      await connection.run(`DELETE FROM ingest_family`);
      written = Number(inserted.rowsChanged);
    }
    let oldestReceivedAt = Infinity;
    for (const reading of readings) oldestReceivedAt = Math.min(oldestReceivedAt, reading.receivedAt);
    return { written, duplicates: inBatchDuplicates + rows.length - written, overLimit, overDeviceLimit, oldestReceivedAt, newest: maxTs };
  }
}

/** Rows of StateSeries per INSERT statement: six parameters each, well under DuckDB's limits. */
const SERIES_PER_STATEMENT = 500;

/**
 * Writes the batch's new series in a few multi-row inserts rather than one
 * statement per series: a Sparkplug birth brings thousands of series, and each statement waits its
 * turn on DuckDB's threads behind the queries running meanwhile (bench:ingest measured one
 * statement per series stalling the first batch for the whole run).
 */
async function writeSeries(connection: DuckDBConnection, added: ReadonlyMap<SeriesEntry, Reading>): Promise<void> {
  const entries = [...added];
  for (let start = 0; start < entries.length; start += SERIES_PER_STATEMENT) {
    const chunk = entries.slice(start, start + SERIES_PER_STATEMENT);
    const values: (string | number | null)[] = [];
    const rows = chunk.map(([entry, reading], index) => {
      values.push(entry.sid, reading.plantId, reading.name, reading.deviceId, entry.data, entry.message);
      const at = index * 6;
      return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}::JSON, $${at + 6}::JSON)`;
    });
    await connection.run(
      `INSERT INTO StateSeries VALUES ${rows.join(", ")}`,
      values,
    );
  }
}
