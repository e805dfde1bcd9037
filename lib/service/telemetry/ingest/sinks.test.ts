/**
 * Both ingestion sinks store the same values for the same readings (sink.ts holds the rules once):
 * the DuckDB file and ClickHouse (chdb) get the same batches, and `States` read back through each
 * store's own query path holds the same rows — metadata merged into versions and back, the device's
 * series limit counting metadata versions, duplicates within a batch and redelivered, delays stored
 * in 16 bits — and each batch comes to the same counts. A new sink (a restart, a failover) picks up
 * the stored versions where the last one stopped.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openClickHouseTelemetryStore, type ClickHouseTelemetryStore } from "../clickhouse/store";
import { openDuckDbTelemetryStore, type DuckDbTelemetryStore } from "../duckdb/store";
import { tableRows, type TelemetryStore } from "../store";
import { sharedChdb } from "../testing/clickhouse.test-support";
import { ClickHouseReadingSink } from "./clickhouse-sink";
import { DuckDbReadingSink } from "./duckdb-sink";
import type { Reading, SeriesMetadata } from "./reading";
import type { ReadingSink, SinkResult } from "./sink";

const CUSTOMER = "CUST-SINK";
const NOW = new Date("2026-03-02T00:00:00Z");
const T0 = NOW.getTime() - 3_600_000;
const DEVICE_SERIES_MAX = 3;

let dir: string;
let duckdb: DuckDbTelemetryStore;
let clickhouse: ClickHouseTelemetryStore;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "plantdesk-sinks-"));
  const executor = sharedChdb();
  await executor.command(`DROP DATABASE IF EXISTS "sinktest_CUST_SINK"`);
  const customers = [{ id: CUSTOMER, plants: [] }];
  duckdb = await openDuckDbTelemetryStore({ dataDir: dir, customers });
  clickhouse = await openClickHouseTelemetryStore({ executor, databasePrefix: "sinktest_", customers, maxQueryMemoryBytes: 64 * 1024 * 1024 });
}, 60_000);

afterAll(async () => {
  await duckdb?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sinks = (): [ReadingSink, ReadingSink] => [
  new DuckDbReadingSink(duckdb, DEVICE_SERIES_MAX),
  new ClickHouseReadingSink(clickhouse.executor, (customerId) => clickhouse.database(customerId), DEVICE_SERIES_MAX),
];

/** A birth's metadata, then a change of unit, then the first unit again (one object each, as decoders hand them). */
const celsius: SeriesMetadata = { data: { Unit: "°C" }, message: { jobId: "node-1" } };
const kelvin: SeriesMetadata = { data: { Unit: "K" } };
const celsiusAgain: SeriesMetadata = { data: { Unit: "°C" } };

function reading(deviceId: string, name: string, offsetS: number, value: number | null, metadata: SeriesMetadata | null, delays = { agentS: 0, ingestionS: 1 }): Reading {
  const timestamp = T0 + offsetS * 1000;
  const sentAt = timestamp + delays.agentS * 1000;
  return { plantId: "P1", deviceId, name, timestamp, value, sentAt, receivedAt: sentAt + delays.ingestionS * 1000, metadata };
}

const FIRST_BATCH: Reading[] = [
  reading("D1", "Temperature", 0, 1, celsius),
  reading("D1", "Temperature", 0, 1, celsius), // the same reading again in the batch
  reading("D1", "Pressure", 0, 2, celsius),
  // A new unit: a second version of the series (the device's third); sent 100 s and received 70 s later than measured.
  reading("D1", "Temperature", 60, 3, kelvin, { agentS: 100, ingestionS: 70 }),
  reading("D1", "Flow", 0, 4, celsius), // a fourth series of D1: over its limit
  reading("D1", "Temperature", 120, null, celsiusAgain), // back to the first version: no new one
  reading("D1", "Pressure", 60, 5, kelvin), // a new version of Pressure would be D1's fourth: over its limit
  reading("D2", "Temperature", 0, 6, null),
];
const SECOND_BATCH: Reading[] = [
  reading("D1", "Temperature", 0, 1, celsius), // redelivered: already stored
  reading("D1", "Temperature", 180, 7, null),
];

const counts = (result: SinkResult) => ({ written: result.written, duplicates: result.duplicates, overLimit: result.overLimit, overDeviceLimit: result.overDeviceLimit, newest: result.newest });

async function stored(store: TelemetryStore): Promise<unknown[][]> {
  const table = await store.query({
    customerId: CUSTOMER,
    kql: "States | order by DeviceId asc, Name asc, Timestamp asc | project DeviceId, Name, Timestamp, Value, Unit = tostring(DataMetadata.Unit), Job = tostring(MessageMetadata.jobId), AgentTimestamp, IngestionTimestamp",
    scope: { start: new Date(T0 - 3_600_000), end: NOW, plantIds: null },
    limits: { maxRows: 1000, maxBytes: 1024 * 1024, timeoutMs: 60_000 },
    now: NOW,
  });
  return tableRows(table);
}

describe("the DuckDB and ClickHouse sinks", () => {
  it("store the same rows and count the same drops for the same batches", async () => {
    const results: ReturnType<typeof counts>[][] = [];
    for (const sink of sinks()) {
      results.push([counts(await sink.write(CUSTOMER, FIRST_BATCH)), counts(await sink.write(CUSTOMER, SECOND_BATCH))]);
    }
    expect(results[1]).toEqual(results[0]);
    expect(results[0]).toEqual([
      { written: 5, duplicates: 1, overLimit: 0, overDeviceLimit: 2, newest: T0 + 120_000 },
      { written: 1, duplicates: 1, overLimit: 0, overDeviceLimit: 0, newest: T0 + 180_000 },
    ]);

    const [inDuckDb, inClickHouse] = await Promise.all([stored(duckdb), stored(clickhouse)]);
    expect(inClickHouse).toEqual(inDuckDb);
    const at = (offsetMs: number) => new Date(T0 + offsetMs).toISOString();
    expect(inDuckDb).toEqual([
      ["D1", "Pressure", at(0), 2, "°C", "node-1", at(0), at(1_000)],
      ["D1", "Temperature", at(0), 1, "°C", "node-1", at(0), at(1_000)],
      // Both delays beyond 65.5 s: stored as 65.535 s each.
      ["D1", "Temperature", at(60_000), 3, "K", "node-1", at(60_000 + 65_535), at(60_000 + 2 * 65_535)],
      ["D1", "Temperature", at(120_000), null, "°C", "node-1", at(120_000), at(121_000)],
      ["D1", "Temperature", at(180_000), 7, "°C", "node-1", at(180_000), at(181_000)],
      ["D2", "Temperature", at(0), 6, "", "", at(0), at(1_000)],
    ]);
  });

  it("go on from what is stored: a new sink counts the stored metadata versions against the device's limit", async () => {
    const later = [reading("D1", "Flow", 240, 8, celsius), reading("D1", "Temperature", 240, 9, kelvin), reading("D2", "Pressure", 240, 10, null)];
    const results: ReturnType<typeof counts>[] = [];
    for (const sink of sinks()) results.push(counts(await sink.write(CUSTOMER, later)));
    expect(results[1]).toEqual(results[0]);
    // Flow would be D1's fourth series; kelvin is a version Temperature already has.
    expect(results[0]).toEqual({ written: 2, duplicates: 0, overLimit: 0, overDeviceLimit: 1, newest: T0 + 240_000 });
    const [inDuckDb, inClickHouse] = await Promise.all([stored(duckdb), stored(clickhouse)]);
    expect(inClickHouse).toEqual(inDuckDb);
    expect(inDuckDb.filter((row) => row[2] === new Date(T0 + 240_000).toISOString()).map((row) => [row[0], row[1], row[4]])).toEqual([
      ["D1", "Temperature", "K"],
      ["D2", "Pressure", ""],
    ]);
  });
});
