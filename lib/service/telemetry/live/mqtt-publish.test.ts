/**
 * DEMO_PUBLISH=mqtt on a real Mosquitto: the demo plant's readings go out as Sparkplug B (births
 * with aliases, then alias-only DDATA) and come back in through ingestion, each minute for every
 * demo series, with the values the model gives (a direct write of the same window matches).
 */
import { tableRows } from "../store";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import mqtt from "mqtt";
import { afterAll, describe, expect, it } from "vitest";
import { testConfig } from "../../testing/openapi-checked-client";
import { createServiceRuntime, type ServiceRuntime } from "../../runtime";
import { TELEMETRY_LIMITS } from "../../telemetry-service";
import { brokerForTests, TEST_BROKER_URL } from "../ingest/testing/broker";
import { DEMO_PLANTS } from "../../demo/catalog";
import { appendDemoTelemetry, generateDemoTelemetry } from "../demo-data";
import { CREATE_TELEMETRY_SCHEMA } from "../duckdb/schema";

const available = await brokerForTests("DEMO_PUBLISH=mqtt tests");
const clientId = `live-pub-test-${process.pid}-${Date.now()}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "live-publish-"));
let runtime: ServiceRuntime | undefined;
let clock = Date.now();

async function kql(query: string) {
  return tableRows(await runtime!.telemetry.store.query({
      customerId: "CUST-NORDIC",
      kql: query,
      scope: { start: new Date(clock - 86_400_000), end: new Date(clock + 3_600_000), plantIds: null },
      limits: { ...TELEMETRY_LIMITS, timeoutMs: 60_000 },
    }));
}

afterAll(async () => {
  await runtime?.close();
  if (available) (await mqtt.connectAsync(TEST_BROKER_URL, { clientId, clean: true })).end();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!available)("the demo plant publishing through MQTT", () => {
  it("sends each minute's readings through ingestion, every demo series once", async () => {
    const config = testConfig({
      DATA_DIR: dataDir,
      SEED: "publish-test",
      DEMO_TELEMETRY_DAYS: "1",
      MQTT_URL: TEST_BROKER_URL,
      MQTT_CLIENT_ID: clientId,
      DEMO_PUBLISH: "mqtt",
      INGEST_FLUSH_MS: "50",
    });
    runtime = await createServiceRuntime(config, { now: () => new Date(clock), live: { schedule: false } });
    await runtime.live!.telemetry.demoReady;
    const minute = Math.floor(clock / 60_000) * 60_000;
    clock += 60_000;
    const published = await runtime.live!.telemetry.demo!.catchUp();
    // Both customers' devices: (84 + 42) × 5 data points, none written directly.
    expect(published).toMatchObject({ states: 0, published: 630 });
    const ingestion = runtime.live!.telemetry.ingestion!;
    const deadline = Date.now() + 30_000;
    const next = new Date(minute + 60_000).toISOString();
    let rows: unknown[][] = [];
    while (Date.now() < deadline) {
      rows = await kql(`States | where Timestamp == datetime(${next}) | summarize count(), dcount(DeviceId), max(IngestionTimestamp)`);
      if (rows[0]![0] === 210) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(rows[0]!.slice(0, 2)).toEqual([210, 42]);
    expect(ingestion.stats.droppedMessages).toEqual({});
    // One reading per series and minute: the minute written directly at start and the published one.
    const [[doubled]] = (await kql(`States | summarize n = count() by DeviceId, Name, Timestamp | where n > 1 | count`)) as [[number]];
    expect(doubled).toBe(0);

    // The values are the model's: the same window written directly into a fresh file matches.
    const instance = await DuckDBInstance.create(":memory:");
    const direct = await instance.connect();
    for (const statement of CREATE_TELEMETRY_SCHEMA) await direct.run(statement);
    const plants = DEMO_PLANTS.filter((p) => p.customerId === "CUST-NORDIC");
    await generateDemoTelemetry(direct, { seed: "publish-test", plants, days: 1, now: new Date(minute) });
    await appendDemoTelemetry(direct, { seed: "publish-test", plants, fromMinute: minute / 60_000, toMinute: minute / 60_000 + 2 });
    const expected = (
      await direct.runAndReadAll(`SELECT DeviceId, Name, "Value" FROM States WHERE "Timestamp" = '${next.slice(0, 19)}' ORDER BY 1, 2`)
    ).getRowsJS();
    expect(await kql(`States | where Timestamp == datetime(${next}) | project DeviceId, Name, Value | order by DeviceId asc, Name asc`)).toEqual(expected);
    direct.closeSync();
    instance.closeSync();
  }, 180_000);
});
