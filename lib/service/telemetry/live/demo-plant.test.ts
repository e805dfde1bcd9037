/**
 * The running demo plant, on a real DuckDB file through the server's runtime with an injected
 * clock: it keeps the data at "now" minute by minute, a restart a day later fills the gap, nothing
 * is written twice, and what it appends is the seed's own model (a fresh seed at the later "now"
 * holds the same readings and alarms).
 */
import { tableRows } from "../store";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import { testConfig } from "../../testing/openapi-checked-client";
import { DEMO_PLANTS } from "../../demo/catalog";
import { createServiceRuntime, type ServiceRuntime } from "../../runtime";
import { generateDemoTelemetry } from "../demo-data";
import { CREATE_TELEMETRY_SCHEMA } from "../duckdb/schema";
import { TELEMETRY_LIMITS } from "../../telemetry-service";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "live-demo-plant-"));
const config = testConfig({ DATA_DIR: dataDir, DEMO_TELEMETRY_DAYS: "2", SEED: "live-test" });
const T0 = Date.parse("2026-03-10T12:00:30.000Z");
let clock = T0;
const runtimes: ServiceRuntime[] = [];

async function start(): Promise<ServiceRuntime> {
  const runtime = await createServiceRuntime(config, { now: () => new Date(clock), live: { schedule: false } });
  runtimes.push(runtime);
  await runtime.live!.telemetry.demoReady;
  return runtime;
}

async function kql(runtime: ServiceRuntime, customerId: string, query: string, days = 3) {
  const table = await runtime.telemetry.store.query({
    customerId,
    kql: query,
    scope: { start: new Date(clock - days * 86_400_000), end: new Date(clock + 3_600_000), plantIds: null },
    limits: { ...TELEMETRY_LIMITS, timeoutMs: 60_000 },
    now: new Date(clock),
  });
  return tableRows(table);
}

async function newestReading(runtime: ServiceRuntime, customerId: string): Promise<number> {
  const [[max]] = (await kql(runtime, customerId, "States | summarize max(Timestamp)")) as [[string]];
  return Date.parse(max);
}

async function duplicates(runtime: ServiceRuntime, customerId: string): Promise<number> {
  const [[count]] = (await kql(runtime, customerId, "States | summarize n = count() by DeviceId, Name, Timestamp | where n > 1 | count")) as [[number]];
  return count;
}

afterAll(async () => {
  for (const runtime of runtimes) await runtime.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the running demo plant", () => {
  it("keeps the newest reading within 90 s of now while the server runs", async () => {
    const runtime = await start();
    for (const customerId of ["CUST-ACME", "CUST-NORDIC"]) {
      expect(clock - (await newestReading(runtime, customerId))).toBeLessThan(90_000);
    }
    // Three minutes of the server running: each minute's timer appends the minute that began.
    for (let minute = 1; minute <= 3; minute++) {
      clock += 60_000;
      const appended = await runtime.live!.telemetry.demo!.catchUp();
      expect(appended.states).toBe(630); // 2 customers: (84 + 42 devices) × 5 data points
      for (const customerId of ["CUST-ACME", "CUST-NORDIC"]) {
        expect(clock - (await newestReading(runtime, customerId))).toBeLessThan(90_000);
      }
    }
    // A call within the same minute has nothing to add.
    expect((await runtime.live!.telemetry.demo!.catchUp()).states).toBe(0);
    expect(await duplicates(runtime, "CUST-ACME")).toBe(0);
    await runtime.close();
  }, 180_000);

  it("fills the gap after a restart a day later, once, with the seed's own model", async () => {
    clock = T0 + 86_400_000 + 5 * 60_000 + 17_000;
    const runtime = await start();
    const newest = await newestReading(runtime, "CUST-ACME");
    expect(clock - newest).toBeLessThan(90_000);
    expect(await duplicates(runtime, "CUST-ACME")).toBe(0);
    // Every series has one reading per minute from the seed's first minute to now, without a hole.
    const firstMinute = Math.floor(T0 / 60_000) - 2 * 1440;
    const lastMinute = Math.floor(clock / 60_000);
    const perSeries = (await kql(runtime, "CUST-ACME", "States | summarize c = count(), first = min(Timestamp) by DeviceId, Name | summarize min(c), max(c), min(first), max(first), count()", 4)) as [[number, number, string, string, number]];
    expect(perSeries[0]).toEqual([lastMinute - firstMinute + 1, lastMinute - firstMinute + 1, new Date(firstMinute * 60_000).toISOString(), new Date(firstMinute * 60_000).toISOString(), 420]);
    // A second catch-up in the same minute writes nothing.
    expect((await runtime.live!.telemetry.demo!.catchUp()).states).toBe(0);

    // The same readings and alarms as a fresh seed generated at this "now".
    const instance = await DuckDBInstance.create(":memory:");
    const fresh = await instance.connect();
    for (const statement of CREATE_TELEMETRY_SCHEMA) await fresh.run(statement);
    await generateDemoTelemetry(fresh, { seed: "live-test", plants: DEMO_PLANTS.filter((p) => p.customerId === "CUST-ACME"), days: 1, now: new Date(clock) });
    const since = new Date(clock - 20 * 3_600_000).toISOString();
    const expected = (
      await fresh.runAndReadAll(
        `SELECT DeviceId, Name, strftime("Timestamp", '%Y-%m-%dT%H:%M:%S.000Z'), "Value" FROM States
         WHERE DeviceId IN ('RTM1-DEV-003', 'HOU1-DEV-017') AND "Timestamp" >= '${since.slice(0, 19)}' ORDER BY 1, 2, 3`,
      )
    ).getRowsJS();
    const actual = await kql(
      runtime,
      "CUST-ACME",
      `States | where DeviceId in ("RTM1-DEV-003", "HOU1-DEV-017") and Timestamp >= datetime(${since}) and Timestamp < datetime(${new Date(lastMinute * 60_000).toISOString()})
       | project DeviceId, Name, Timestamp, Value | order by DeviceId asc, Name asc, Timestamp asc`,
    );
    expect(actual.length).toBeGreaterThan(10_000);
    expect(actual).toEqual(expected);

    const expectedAlarms = (
      await fresh.runAndReadAll(
        `SELECT EventId, strftime(StartTime, '%Y-%m-%dT%H:%M:%S.000Z'), strftime(EndTime, '%Y-%m-%dT%H:%M:%S.000Z'), Severity FROM Events
         WHERE StartTime >= '${since.slice(0, 19)}' AND EndTime IS NOT NULL ORDER BY 1`,
      )
    ).getRowsJS();
    const actualAlarms = await kql(
      runtime,
      "CUST-ACME",
      `Events | where StartTime >= datetime(${since}) and isnotnull(EndTime) and EndTime < datetime(${new Date(lastMinute * 60_000).toISOString()})
       | project EventId, StartTime, EndTime, Severity | order by EventId asc`,
    );
    expect(expectedAlarms.length).toBeGreaterThan(5);
    expect(actualAlarms).toEqual(expectedAlarms.filter((row) => String(row[2]) < new Date(lastMinute * 60_000).toISOString()));
    // Alarms raised within the fresh seed's day and still active are the fresh seed's active ones.
    const freshStart = new Date((lastMinute - 1440) * 60_000).toISOString();
    const active = await kql(runtime, "CUST-ACME", `Events | where isnull(EndTime) and StartTime >= datetime(${freshStart}) | project EventId | order by EventId asc`);
    const freshActive = (await fresh.runAndReadAll(`SELECT EventId FROM Events WHERE EndTime IS NULL ORDER BY 1`)).getRowsJS();
    expect(active).toEqual(freshActive);
    fresh.closeSync();
    instance.closeSync();
    await runtime.close();
  }, 300_000);

  it("fills at most DEMO_TELEMETRY_DAYS of a longer gap", async () => {
    const before = Math.floor(clock / 60_000);
    clock += 5 * 86_400_000;
    const runtime = await start();
    expect(clock - (await newestReading(runtime, "CUST-NORDIC"))).toBeLessThan(90_000);
    const added = (await kql(runtime, "CUST-NORDIC", `States | where Timestamp > datetime(${new Date(before * 60_000).toISOString()}) | summarize count() by DeviceId, Name | summarize min(count_), max(count_)`, 10)) as [[number, number]];
    expect(added[0]).toEqual([2 * 1440, 2 * 1440]);
    expect(await duplicates(runtime, "CUST-NORDIC")).toBe(0);
  }, 300_000);
});
