/**
 * The demo telemetry: the storage exposes exactly the KQL tables' columns, the data has the promised
 * shape (devices, data points, one reading per minute, faults raising alarms, metadata tying each
 * device to a maintenance machine asset) and is deterministic from the seed.
 */
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DUCKDB_STORAGE } from "@/lib/kql/dialect/duckdb";
import { TABLES } from "@/lib/kql/tables";
import { DEMO_PLANTS } from "../demo/catalog";
import { generateAssets } from "@/lib/service/demo/maintenance-assets";
import { generateDemoTelemetry, type DemoTelemetryResult } from "./demo-data";
import { CREATE_TELEMETRY_SCHEMA } from "./duckdb/schema";

const NOW = new Date("2026-03-10T12:34:56.789Z");
const DAYS = 2;
let connection: DuckDBConnection;
let result: DemoTelemetryResult;

async function seeded(seed: string, plants = DEMO_PLANTS.filter((p) => p.customerId === "CUST-ACME")) {
  const instance = await DuckDBInstance.create(":memory:");
  const c = await instance.connect();
  for (const statement of CREATE_TELEMETRY_SCHEMA) await c.run(statement);
  const r = await generateDemoTelemetry(c, { seed, plants, days: DAYS, now: NOW });
  return { connection: c, result: r };
}

async function rows(sql: string): Promise<unknown[][]> {
  return (await connection.runAndReadAll(sql)).getRowsJS();
}

async function firstRow(sql: string): Promise<unknown[]> {
  return (await rows(sql))[0] ?? [];
}

beforeAll(async () => {
  ({ connection, result } = await seeded("test-seed"));
}, 120_000);

afterAll(() => {
  connection?.closeSync();
});

describe("demo telemetry", () => {
  it("exposes States and Events with exactly the columns and storage types of the KQL tables", async () => {
    for (const table of ["States", "Events"] as const) {
      const described = await rows(`DESCRIBE ${table}`);
      expect(described.map((r) => [r[0], r[1]])).toEqual(TABLES[table].columns.map((c) => [c.name, DUCKDB_STORAGE[c.form]]));
    }
  });

  it("has at least 40 devices per plant with at least 5 data points, one reading per minute", async () => {
    const perPlant = await rows(
      `SELECT PlantId, count(DISTINCT DeviceId)::INT, min(points)::INT FROM (
         SELECT PlantId, DeviceId, count(DISTINCT Name) AS points FROM StateSeries GROUP BY ALL) GROUP BY 1 ORDER BY 1`,
    );
    expect(perPlant.map((r) => r[0])).toEqual(["HOU1", "RTM1"]);
    for (const [, devices, points] of perPlant) {
      expect(devices).toBeGreaterThanOrEqual(40);
      expect(points).toBeGreaterThanOrEqual(5);
    }
    expect(result.states).toBe(result.series * DAYS * 1440);
    const [[perSeries, first, last]] = (await rows(
      `SELECT count(*) // count(DISTINCT sid), min("Timestamp"), max("Timestamp") FROM StateValues`,
    )) as [[bigint, Date, Date]];
    expect(Number(perSeries)).toBe(DAYS * 1440);
    expect(last.getTime()).toBe(Math.floor(NOW.getTime() / 60_000) * 60_000 - 60_000);
    expect(first.getTime()).toBe(last.getTime() - (DAYS * 1440 - 1) * 60_000);
  });

  it("stores readings ordered by series then time, so zonemaps prune time ranges", async () => {
    const [disorder] = await firstRow(
      `SELECT count(*)::INT FROM (SELECT sid, "Timestamp", lag(sid) OVER () AS ps, lag("Timestamp") OVER () AS pt FROM StateValues)
       WHERE ps IS NOT NULL AND (sid < ps OR (sid = ps AND "Timestamp" <= pt))`,
    );
    expect(disorder).toBe(0);
  });

  it("ties every device to a machine asset of its plant and carries the metadata dimensions", async () => {
    const metadata = await rows(
      `SELECT DISTINCT PlantId, DeviceId, MessageMetadata, DataMetadata->>'Area', DataMetadata->>'Line', DataMetadata->>'DeviceType', DataMetadata->>'Unit' FROM StateSeries`,
    );
    for (const [plantId, deviceId, message, area, line, type, unit] of metadata as string[][]) {
      const machines = generateAssets("test-seed", DEMO_PLANTS.find((p) => p.id === plantId)!).filter((a) => a.level === "MACHINE");
      const parsed = JSON.parse(message!);
      expect(parsed).toMatchObject({ topologyReferenceType: "asset", messageIntervalMilliseconds: 60000, jobId: expect.any(String), jobName: expect.any(String) });
      const asset = machines.find((m) => m.tagNumber === parsed.topologyReference);
      expect(asset, `${deviceId} → ${parsed.topologyReference}`).toBeDefined();
      expect(area).toBe(asset!.area);
      expect(line).toBeTruthy();
      expect(type).toBeTruthy();
      expect(unit).toBeTruthy();
    }
  });

  it("raises alarms for faults, with every severity and some still active", async () => {
    const severities = (await rows(`SELECT DISTINCT Severity FROM Events ORDER BY 1`)).map((r) => r[0]);
    expect(severities).toEqual(["Critical", "Major", "Minor", "Warning"]);
    const [active, ended, bad] = await firstRow(
      `SELECT count(*) FILTER (WHERE EndTime IS NULL)::INT, count(*) FILTER (WHERE EndTime IS NOT NULL)::INT,
              count(*) FILTER (WHERE EndTime <= StartTime)::INT FROM Events`,
    );
    expect(active).toBeGreaterThan(0);
    expect(ended).toBeGreaterThan(0);
    expect(bad).toBe(0);
    // An unexpected stop shows in the data: the machine's RunningState is 0 at the alarm's start.
    const stops = await rows(
      `SELECT s."Value" FROM Events e JOIN States s ON s.DeviceId = e.DeviceId AND s.Name = 'RunningState' AND s."Timestamp" = e.StartTime
       WHERE e.Name = 'UnexpectedStop'`,
    );
    expect(stops.length).toBeGreaterThan(0);
    expect(new Set(stops.map((r) => r[0]))).toEqual(new Set([0]));
    // Every fault alarm's Value is the reading of its data point at its start.
    const [alarms, mismatched] = await firstRow(
      `SELECT count(*)::INT, count(*) FILTER (WHERE s."Value" IS DISTINCT FROM e."Value")::INT
       FROM Events e JOIN States s ON s.DeviceId = e.DeviceId AND s."Timestamp" = e.StartTime
         AND s.Name = CASE e.Name WHEN 'HighTemperature' THEN 'Temperature' WHEN 'HighVibration' THEN 'Vibration'
           WHEN 'MotorOverload' THEN 'MotorCurrent' WHEN 'LowPressure' THEN 'Pressure' WHEN 'LowThroughput' THEN 'Throughput'
           WHEN 'UnexpectedStop' THEN 'RunningState' END`,
    );
    expect(alarms).toBeGreaterThan(10);
    expect(mismatched).toBe(0);
  });

  it("is deterministic from the seed", async () => {
    const again = await seeded("test-seed", DEMO_PLANTS.filter((p) => p.id === "HOU1"));
    const other = await seeded("other-seed", DEMO_PLANTS.filter((p) => p.id === "HOU1"));
    const sample = `SELECT DeviceId, Name, "Timestamp", "Value" FROM States WHERE DeviceId = 'HOU1-DEV-003' ORDER BY Name, "Timestamp" LIMIT 500`;
    const original = await rows(sample);
    expect((await again.connection.runAndReadAll(sample)).getRowsJS()).toEqual(original);
    expect((await other.connection.runAndReadAll(sample)).getRowsJS()).not.toEqual(original);
    const events = `SELECT EventId, Name, Severity, StartTime, EndTime FROM Events WHERE PlantId = 'HOU1' ORDER BY EventId`;
    expect((await again.connection.runAndReadAll(events)).getRowsJS()).toEqual(await rows(events));
    again.connection.closeSync();
    other.connection.closeSync();
  });
});
