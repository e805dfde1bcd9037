/**
 * Ingestion's batches into the customer's DuckDB file, under the rules of sink.ts: each customer's
 * batch is one transaction on the store's writer connection (the same queue the demo plant writes
 * through). A metadata version is a `StateSeries` row (its `sid`); the file holds at most 65,536.
 *
 * A reading already stored is not written again (a message the broker delivers twice, QoS 1 after a
 * reconnect or a failover, or a device sends twice leaves one row): an anti-join with the stored rows
 * of the batch's series (all metadata versions) and time range (the constant bounds let DuckDB skip
 * every row group outside them).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { DuckDbTelemetryStore } from "../duckdb/store";
import type { Reading } from "./reading";
import { oldestReceivedAt, SeriesBook, type ReadingSink, type SeriesFamily, type SeriesVersion, type SinkResult } from "./sink";

/** `StateSeries.sid` is a USMALLINT. */
export const MAX_SERIES = 2 ** 16;

/** A metadata version: a `StateSeries` row. */
interface SeriesEntry extends SeriesVersion {
  sid: number;
}

interface CustomerSeries {
  book: SeriesBook<SeriesEntry>;
  nextSid: number;
}

/** A series' identity for duplicates: its first version's sid (every version of it is the same series). */
const familyId = (family: SeriesFamily<SeriesEntry>) => family.versions[0]!.sid;

export class DuckDbReadingSink implements ReadingSink {
  private readonly series = new Map<string, CustomerSeries>();

  constructor(
    private readonly store: DuckDbTelemetryStore,
    private readonly deviceSeriesMax: number,
  ) {}

  write(customerId: string, readings: readonly Reading[]): Promise<SinkResult> {
    return this.store.write(customerId, (connection) => this.writeReadings(connection, customerId, readings));
  }

  forget(customerId: string): void {
    this.series.delete(customerId); // the rolled-back transaction may have added series
  }

  private async loadSeries(connection: DuckDBConnection, customerId: string): Promise<CustomerSeries> {
    const reader = await connection.runAndReadAll(`SELECT sid, PlantId, Name, DeviceId, DataMetadata::VARCHAR, MessageMetadata::VARCHAR FROM StateSeries ORDER BY sid`);
    const loaded: CustomerSeries = { book: new SeriesBook(), nextSid: 0 };
    // Ordered by sid: the newest version of a series is its current one.
    for (const [sid, plantId, name, deviceId, data, message] of reader.getRows()) {
      loaded.book.addStored(String(plantId), String(name), String(deviceId), { sid: Number(sid), data: data === null ? null : String(data), message: message === null ? null : String(message) });
      loaded.nextSid = Number(sid) + 1;
    }
    this.series.set(customerId, loaded);
    return loaded;
  }

  /** Inside the customer's write transaction. */
  private async writeReadings(connection: DuckDBConnection, customerId: string, readings: readonly Reading[]): Promise<SinkResult> {
    let series = this.series.get(customerId) ?? (await this.loadSeries(connection, customerId));
    // Another writer (the demo plant) may have added series since the cache was filled.
    if (readings.some((r) => !series.book.has(r))) series = await this.loadSeries(connection, customerId);
    const plan = series.book.plan(readings, this.deviceSeriesMax, (data, message) => (series.nextSid >= MAX_SERIES ? null : { sid: series.nextSid++, data, message }));
    await writeSeries(connection, plan.added);

    let written = 0;
    let maxTs = -Infinity;
    if (plan.rows.length > 0) {
      await connection.run(`CREATE TEMP TABLE IF NOT EXISTS ingest_batch (sid USMALLINT, fam USMALLINT, ts BIGINT, value DOUBLE, agent USMALLINT, ingest USMALLINT)`);
      await connection.run(`CREATE TEMP TABLE IF NOT EXISTS ingest_family (sid USMALLINT, fam USMALLINT)`);
      const appender = await connection.createAppender("ingest_batch", "main", "temp");
      let minTs = Infinity;
      const families = new Set<SeriesFamily<SeriesEntry>>();
      for (const row of plan.rows) {
        families.add(row.family);
        appender.appendUSmallInt(row.version.sid);
        appender.appendUSmallInt(familyId(row.family));
        appender.appendBigInt(BigInt(row.timestamp));
        if (row.reading.value === null) appender.appendNull();
        else appender.appendDouble(row.reading.value);
        appender.appendUSmallInt(row.agentDelayMs);
        appender.appendUSmallInt(row.ingestionDelayMs);
        appender.endRow();
        minTs = Math.min(minTs, row.timestamp);
        maxTs = Math.max(maxTs, row.timestamp);
      }
      appender.closeSync();
      // Every version of the batch's series, so a reading stored under older metadata is still a duplicate.
      const members = await connection.createAppender("ingest_family", "main", "temp");
      let minSid = Infinity;
      let maxSid = -Infinity;
      for (const family of families) {
        for (const version of family.versions) {
          members.appendUSmallInt(version.sid);
          members.appendUSmallInt(familyId(family));
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
             AND v."Timestamp" BETWEEN epoch_ms(${minTs}::BIGINT) AND epoch_ms(${maxTs}::BIGINT))
         ORDER BY b.sid, b.ts`,
      );
      await connection.run(`DELETE FROM ingest_batch`);
      await connection.run(`DELETE FROM ingest_family`);
      written = Number(inserted.rowsChanged);
    }
    return {
      written,
      duplicates: plan.duplicates + plan.rows.length - written,
      overLimit: plan.overLimit,
      overDeviceLimit: plan.overDeviceLimit,
      oldestReceivedAt: oldestReceivedAt(readings),
      newest: maxTs,
    };
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
