/**
 * Ingestion's batches into ClickHouse (TELEMETRY_URL): the same rules as the DuckDB writer
 * (writer.ts) on ClickHouse's layout, where `States` is one wide table and every row carries its
 * metadata, so a birth's metadata is stored with the readings from that birth on and never
 * touches older rows.
 *
 * A reading is stored once: the batch first reads which of its (plant, device, data point,
 * Timestamp) keys are already stored (one statement bounded by the batch's plants, devices, names
 * and time range) and inserts the others, so a message redelivered after a failover adds nothing;
 * the insert carries a deduplication token made of its rows, so an insert retried after a lost
 * answer is dropped by ClickHouse itself (`non_replicated_deduplication_window`, or the replicated
 * engines' own deduplication); `States` is a ReplacingMergeTree on that key as the last resort.
 * Only one instance writes (the Sparkplug primary host, docs/telemetry-ingest.md), so the check
 * and the insert do not race.
 */
import crypto from "node:crypto";
import type { ClickHouseExecutor } from "../clickhouse/executor";
import type { Reading } from "./reading";
import type { ReadingSink, SinkResult } from "./writer";

/** `AgentTimestamp` / `IngestionTimestamp` are stored as times here (DuckDB stores clamped delays). */
const time = (ms: number) => new Date(Math.round(ms)).toISOString().replace("T", " ").replace("Z", "");

interface SeriesState {
  data: Record<string, unknown>;
  message: Record<string, unknown>;
  /** The metadata object last merged (a birth's, reused by each data message after it). */
  lastMerged: unknown;
}

export class ClickHouseReadingSink implements ReadingSink {
  /** Per customer: series key → its current metadata, for the devices read so far. */
  private readonly series = new Map<string, Map<string, SeriesState>>();
  /** Per customer: devices whose series are in `series` (read once, then kept up to date here). */
  private readonly devicesRead = new Map<string, Set<string>>();

  constructor(
    private readonly executor: ClickHouseExecutor,
    private readonly databaseOf: (customerId: string) => string,
    private readonly deviceSeriesMax: number,
  ) {}

  forget(customerId: string): void {
    this.series.delete(customerId);
    this.devicesRead.delete(customerId);
  }

  /**
   * The series of the batch's devices not read yet, with their newest metadata, so merging goes on
   * where the previous writer (another instance) stopped. One statement for the new devices only
   * (the table is ordered by plant and device, so it reads just their parts).
   */
  private async load(customerId: string, readings: readonly Reading[]): Promise<Map<string, SeriesState>> {
    let map = this.series.get(customerId);
    let read = this.devicesRead.get(customerId);
    if (!map || !read) {
      map = new Map();
      read = new Set();
      this.series.set(customerId, map);
      this.devicesRead.set(customerId, read);
    }
    const plants = new Set<string>();
    const devices = new Set<string>();
    for (const r of readings) {
      if (read.has(`${r.plantId}\u0000${r.deviceId}`)) continue;
      plants.add(r.plantId);
      devices.add(r.deviceId);
    }
    if (devices.size === 0) return map;
    const database = this.databaseOf(customerId);
    const output = await this.executor.query(
      `SELECT PlantId, Name, DeviceId, argMax(DataMetadata, "Timestamp"), argMax(MessageMetadata, "Timestamp") FROM "${database}"."States"
       WHERE PlantId IN (SELECT arrayJoin(splitByChar(',', {plants:String}))) AND DeviceId IN (SELECT arrayJoin(splitByChar(',', {devices:String})))
       GROUP BY PlantId, Name, DeviceId FORMAT JSONCompactEachRow`,
      { plants: [...plants].join(","), devices: [...devices].join(",") },
    );
    for (const line of Buffer.from(output).toString("utf8").split("\n")) {
      if (!line) continue;
      const [plantId, name, deviceId, data, message] = JSON.parse(line) as [string, string, string, string | null, string | null];
      const key = `${plantId}\u0000${name}\u0000${deviceId}`;
      if (!map.has(key)) map.set(key, { data: data ? JSON.parse(data) : {}, message: message ? JSON.parse(message) : {}, lastMerged: null });
    }
    for (const plant of plants) for (const device of devices) read.add(`${plant}\u0000${device}`);
    return map;
  }

  async write(customerId: string, readings: readonly Reading[]): Promise<SinkResult> {
    const database = this.databaseOf(customerId);
    const series = await this.load(customerId, readings);
    const perDevice = new Map<string, number>();
    for (const key of series.keys()) {
      const [plantId, , deviceId] = key.split("\u0000");
      const device = `${plantId}\u0000${deviceId}`;
      perDevice.set(device, (perDevice.get(device) ?? 0) + 1);
    }
    let overDeviceLimit = 0;
    let inBatchDuplicates = 0;
    const seen = new Set<string>();
    const rows: { key: string; reading: Reading; data: string | null; message: string | null }[] = [];
    for (const reading of readings) {
      const key = `${reading.plantId}\u0000${reading.name}\u0000${reading.deviceId}`;
      let state = series.get(key);
      if (!state) {
        const device = `${reading.plantId}\u0000${reading.deviceId}`;
        const used = perDevice.get(device) ?? 0;
        if (used >= this.deviceSeriesMax) {
          overDeviceLimit += 1;
          continue;
        }
        perDevice.set(device, used + 1);
        state = { data: {}, message: {}, lastMerged: null };
        series.set(key, state);
      }
      if (reading.metadata && reading.metadata !== state.lastMerged) {
        // Keys added or replaced from this reading on; the rows already stored keep theirs.
        state.data = { ...state.data, ...reading.metadata.data };
        state.message = { ...state.message, ...reading.metadata.message };
        state.lastMerged = reading.metadata;
      }
      const readingKey = `${key}\u0000${Math.round(reading.timestamp)}`;
      if (seen.has(readingKey)) {
        inBatchDuplicates += 1;
        continue;
      }
      seen.add(readingKey);
      const data = Object.keys(state.data).length ? JSON.stringify(state.data) : null;
      const message = Object.keys(state.message).length ? JSON.stringify(state.message) : null;
      rows.push({ key: readingKey, reading, data, message });
    }

    let written = 0;
    let newest = -Infinity;
    if (rows.length > 0) {
      const stored = await this.storedKeys(database, rows.map((r) => r.reading));
      const fresh = rows.filter((r) => !stored.has(r.key));
      if (fresh.length > 0) {
        const text = fresh
          .map(({ reading, data, message }) =>
            JSON.stringify({
              DeviceId: reading.deviceId,
              Name: reading.name,
              Timestamp: time(reading.timestamp),
              Value: reading.value,
              PlantId: reading.plantId,
              DataMetadata: data,
              MessageMetadata: message,
              MessageType: "state",
              AgentTimestamp: time(Math.max(reading.sentAt, reading.timestamp)),
              IngestionTimestamp: time(Math.max(reading.receivedAt, reading.sentAt, reading.timestamp)),
            }),
          )
          .join("\n");
        const token = crypto.createHash("sha256").update(text).digest("hex");
        await this.executor.insertJsonRows(`"${database}"."States"`, text, { insert_deduplication_token: token });
        written = fresh.length;
        for (const { reading } of fresh) newest = Math.max(newest, reading.timestamp);
      }
      inBatchDuplicates += rows.length - fresh.length;
    }
    let oldestReceivedAt = Infinity;
    for (const reading of readings) oldestReceivedAt = Math.min(oldestReceivedAt, reading.receivedAt);
    return { written, duplicates: inBatchDuplicates, overLimit: 0, overDeviceLimit, oldestReceivedAt, newest };
  }

  /** Keys (series + Timestamp) of the batch already stored: its plants' and devices' rows over its time range. */
  private async storedKeys(database: string, readings: readonly Reading[]): Promise<Set<string>> {
    let lo = Infinity;
    let hi = -Infinity;
    const plants = new Set<string>();
    const devices = new Set<string>();
    for (const r of readings) {
      lo = Math.min(lo, r.timestamp);
      hi = Math.max(hi, r.timestamp);
      plants.add(r.plantId);
      devices.add(r.deviceId);
    }
    // Plant and device ids never hold a comma (DEVICE_ID; plants are the service's own): one string parameter each.
    const output = await this.executor.query(
      `SELECT PlantId, Name, DeviceId, toUnixTimestamp64Milli("Timestamp") FROM "${database}"."States"
       WHERE PlantId IN (SELECT arrayJoin(splitByChar(',', {plants:String}))) AND DeviceId IN (SELECT arrayJoin(splitByChar(',', {devices:String})))
         AND "Timestamp" BETWEEN fromUnixTimestamp64Milli({lo:Int64}, 'UTC') AND fromUnixTimestamp64Milli({hi:Int64}, 'UTC')
       FORMAT JSONCompactEachRow`,
      { plants: [...plants].join(","), devices: [...devices].join(","), lo: String(Math.round(lo)), hi: String(Math.round(hi)) },
    );
    const keys = new Set<string>();
    for (const line of Buffer.from(output).toString("utf8").split("\n")) {
      if (!line) continue;
      const [plantId, name, deviceId, ts] = JSON.parse(line) as [string, string, string, number | string];
      keys.add(`${plantId}\u0000${name}\u0000${deviceId}\u0000${Number(ts)}`);
    }
    return keys;
  }
}
