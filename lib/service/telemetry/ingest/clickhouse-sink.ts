/**
 * Ingestion's batches into ClickHouse (TELEMETRY_URL), under the rules of sink.ts (the DuckDB sink's,
 * written once), on ClickHouse's layout: `States` is one wide table and every row carries its
 * metadata, so a metadata version is the (DataMetadata, MessageMetadata) its rows carry, a birth's
 * metadata is stored with the readings from that birth on and never touches older rows, and the
 * delays are stored as the DuckDB file stores them (AgentTimestamp and IngestionTimestamp at most
 * 65.5 s after the one before).
 *
 * The rows go as RowBinary (clickhouse/rowbinary.ts): a series version's plant, device, data point
 * and metadata are encoded once and copied into each of its rows, so a reading costs a copy and
 * four numbers (JSON text cost about three times the CPU to build and to parse).
 *
 * A reading is stored once: the batch first reads which of its (plant, device, data point,
 * Timestamp) keys are already stored (one statement bounded by the batch's plants, devices and
 * time range) and inserts the others, so a message redelivered after a failover adds nothing;
 * the insert carries a deduplication token made of its rows, so an insert retried after a lost
 * answer is dropped by ClickHouse itself (`non_replicated_deduplication_window`, or the replicated
 * engines' own deduplication); `States` is a ReplacingMergeTree on that key as the last resort.
 * Only one instance writes (the Sparkplug primary host, docs/telemetry-ingest.md), so the check
 * and the insert do not race.
 */
import crypto from "node:crypto";
import type { ClickHouseExecutor } from "../clickhouse/executor";
import { encodedNullableString, encodedString, RowBinaryWriter } from "../clickhouse/rowbinary";
import type { Reading } from "./reading";
import { oldestReceivedAt, SeriesBook, type ReadingSink, type SeriesVersion, type SinkResult } from "./sink";

/** The insert's columns, in the order of each row's bytes: the series' constant ones first. */
const COLUMNS = ["PlantId", "DeviceId", "Name", "DataMetadata", "MessageMetadata", "MessageType", "Timestamp", "Value", "AgentTimestamp", "IngestionTimestamp"] as const;
const STATE = encodedString("state");
/** Bytes of a row beyond its series' constant ones: Timestamp, Value, the two delayed times. */
const ROW_BYTES = 8 + 9 + 9 + 9;

/** A metadata version of one series, with its constant columns' bytes once a row has used it. */
interface Version extends SeriesVersion {
  columns?: Buffer;
}

export class ClickHouseReadingSink implements ReadingSink {
  /** Per customer: the series of the devices read so far, with their metadata versions. */
  private readonly series = new Map<string, SeriesBook<Version>>();
  /** Per customer: devices whose series are in `series` (read once, then kept up to date there). */
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
   * The series of the batch's devices not read yet, with their metadata versions in the order they
   * were first used (so the newest is current, as the DuckDB file's highest sid is), so merging and
   * the device's limit go on where the previous writer (another instance) stopped. One statement for the new devices only (the table is
   * ordered by plant and device, so it reads just their parts).
   */
  private async load(customerId: string, readings: readonly Reading[]): Promise<SeriesBook<Version>> {
    let book = this.series.get(customerId);
    let read = this.devicesRead.get(customerId);
    if (!book || !read) {
      book = new SeriesBook();
      read = new Set();
      this.series.set(customerId, book);
      this.devicesRead.set(customerId, read);
    }
    const plants = new Set<string>();
    const devices = new Set<string>();
    for (const r of readings) {
      if (read.has(`${r.plantId}\u0000${r.deviceId}`)) continue;
      plants.add(r.plantId);
      devices.add(r.deviceId);
    }
    if (devices.size === 0) return book;
    const database = this.databaseOf(customerId);
    const output = await this.executor.query(
      `SELECT PlantId, Name, DeviceId, DataMetadata, MessageMetadata FROM "${database}"."States"
       WHERE PlantId IN (SELECT arrayJoin(splitByChar(',', {plants:String}))) AND DeviceId IN (SELECT arrayJoin(splitByChar(',', {devices:String})))
       GROUP BY PlantId, Name, DeviceId, DataMetadata, MessageMetadata ORDER BY min("Timestamp"), PlantId, Name, DeviceId FORMAT JSONCompactEachRow`,
      { plants: [...plants].join(","), devices: [...devices].join(",") },
    );
    for (const line of Buffer.from(output).toString("utf8").split("\n")) {
      if (!line) continue;
      const [plantId, name, deviceId, data, message] = JSON.parse(line) as [string, string, string, string | null, string | null];
      if (!read.has(`${plantId}\u0000${deviceId}`)) book.addStored(plantId, name, deviceId, { data, message });
    }
    for (const plant of plants) for (const device of devices) read.add(`${plant}\u0000${device}`);
    return book;
  }

  async write(customerId: string, readings: readonly Reading[]): Promise<SinkResult> {
    const database = this.databaseOf(customerId);
    const book = await this.load(customerId, readings);
    const plan = book.plan(readings, this.deviceSeriesMax, (data, message) => ({ data, message }));
    let duplicates = plan.duplicates;
    let written = 0;
    let newest = -Infinity;
    if (plan.rows.length > 0) {
      const stored = await this.storedKeys(database, plan.rows.map((r) => r.reading));
      const fresh = stored.size === 0 ? plan.rows : plan.rows.filter((r) => !stored.has(`${r.key}\u0000${r.timestamp}`));
      if (fresh.length > 0) {
        const rows = new RowBinaryWriter(fresh.length * (ROW_BYTES + 64));
        for (const { reading, version, timestamp, agentDelayMs, ingestionDelayMs } of fresh) {
          version.columns ??= Buffer.concat([
            encodedString(reading.plantId),
            encodedString(reading.deviceId),
            encodedString(reading.name),
            encodedNullableString(version.data),
            encodedNullableString(version.message),
            STATE,
          ]);
          rows.raw(version.columns);
          rows.int64(timestamp);
          rows.nullableFloat64(reading.value);
          rows.nullableInt64(timestamp + agentDelayMs);
          rows.nullableInt64(timestamp + agentDelayMs + ingestionDelayMs);
          newest = Math.max(newest, timestamp);
        }
        const bytes = rows.bytes();
        const token = crypto.createHash("sha256").update(bytes).digest("hex");
        await this.executor.insertRowBinary(`"${database}"."States"`, COLUMNS, bytes, { insert_deduplication_token: token });
        written = fresh.length;
      }
      duplicates += plan.rows.length - fresh.length;
    }
    return { written, duplicates, overLimit: plan.overLimit, overDeviceLimit: plan.overDeviceLimit, oldestReceivedAt: oldestReceivedAt(readings), newest };
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
