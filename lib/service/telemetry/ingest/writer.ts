/**
 * Readings → the customer's telemetry, in batches: a reading waits at most INGEST_FLUSH_MS, a batch
 * holds at most INGEST_BATCH_MAX, and each customer's batch goes to the sink in one write (one
 * transaction in the DuckDB file, duckdb-sink.ts; one insert into ClickHouse, clickhouse-sink.ts;
 * the rules both apply are in sink.ts). The queue is bounded at INGEST_QUEUE_MAX readings: when it
 * is full, `whenRoom()` makes the MQTT side stop reading from the broker until half of it is
 * written (pause/resume; nothing is dropped for lack of room).
 */
import type { DuckDbTelemetryStore } from "../duckdb/store";
import { DuckDbReadingSink, MAX_SERIES } from "./duckdb-sink";
import type { Reading } from "./reading";
import type { ReadingSink } from "./sink";
import type { DropReason, IngestStats } from "./stats";

interface IngestWriterOptions {
  /** The embedded DuckDB files, or `sink` for another store (ClickHouse); exactly one. */
  store?: DuckDbTelemetryStore;
  sink?: ReadingSink;
  batchMax: number;
  flushMs: number;
  queueMax: number;
  /** Series (metadata versions included) one device may have. */
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

/** Messages awaiting their commit that make the writer flush at once (half the broker's in-flight window, mqtt-ingest.ts). */
const ACK_WINDOW = 500;

export class IngestWriter {
  private queue: Queued[] = [];
  /** Readings ever accepted / ever done with (written, duplicate or dropped): a message's commit is when `done` passes its last one. */
  private accepted = 0;
  private done = 0;
  private commitWaiters: { upTo: number; resolve: () => void }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private roomWaiters: (() => void)[] = [];
  private readonly sink: ReadingSink;
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly options: IngestWriterOptions) {
    this.now = options.now ?? Date.now;
    this.sink = options.sink ?? new DuckDbReadingSink(options.store!, options.deviceSeriesMax);
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
          const result = await this.sink.write(customerId, readings);
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
          this.sink.forget(customerId);
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
}
