/**
 * The running demo plant on ClickHouse (the real engine in process, chdb) with two instances
 * sharing one service database: both catch up the same 90 minutes at once and every minute of
 * every series is written exactly once, alarms once; a window claimed by an instance that died is
 * taken over after the claim goes stale.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedChdb } from "@/lib/service/telemetry/testing/clickhouse.test-support";
import { openServiceSql } from "../../database";
import { DEMO_PLANTS } from "../../demo/catalog";
import type { SqlDb } from "../../../platform/sql";
import { openClickHouseTelemetryStore, type ClickHouseTelemetryStore } from "../clickhouse/store";
import { startClickHouseDemoPlant } from "./clickhouse-demo";
import { demoTelemetrySeed } from "../demo-data";

const SEEDED = new Date("2026-03-02T00:00:00Z");
const customers = [{ id: "CUST-NORDIC", plants: DEMO_PLANTS.filter((p) => p.customerId === "CUST-NORDIC") }];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clickhouse-demo-"));
let store: ClickHouseTelemetryStore;
let db: SqlDb;

const rows = async (sql: string) => Buffer.from(await sharedChdb().query(`${sql} FORMAT JSONCompactEachRow`, {})).toString("utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as unknown[]);

beforeAll(async () => {
  const executor = sharedChdb();
  await executor.command(`DROP DATABASE IF EXISTS "demotest_CUST_NORDIC"`);
  store = await openClickHouseTelemetryStore({ executor, databasePrefix: "demotest_", customers, seed: demoTelemetrySeed({ seed: "ch-demo", days: 1, now: SEEDED }), maxQueryMemoryBytes: 512 * 1048576 });
  db = await openServiceSql({ dataDir: dir });
}, 120_000);

afterAll(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the demo plant on ClickHouse with two instances", () => {
  it("writes each minute of each series once, whichever instance gets there first", async () => {
    let clock = SEEDED.getTime() + 90 * 60_000 + 30_000;
    const plant = (instance: string) =>
      startClickHouseDemoPlant({ executor: store.executor, databaseOf: (c) => store.database(c), db, customers, seed: "ch-demo", days: 1, now: () => new Date(clock), instance, schedule: false });
    const a = plant("a");
    const b = plant("b");
    const [ra, rb] = await Promise.all([a.ready, b.ready]);
    const series = (await rows(`SELECT count() FROM (SELECT DISTINCT DeviceId, Name FROM "demotest_CUST_NORDIC"."States")`))[0]![0] as number;
    expect(series).toBeGreaterThan(100);
    // Minutes seeded-end … now, inclusive of the current one: 91 per series, split between the two.
    expect(ra.states + rb.states).toBe(series * 91);
    const [[after, doubled]] = (await rows(
      `SELECT count(), count() - uniqExact(DeviceId, Name, "Timestamp") FROM "demotest_CUST_NORDIC"."States" WHERE "Timestamp" >= toDateTime64('${SEEDED.toISOString().slice(0, 19).replace("T", " ")}', 3, 'UTC')`,
    )) as [[number, number]];
    expect([after, doubled]).toEqual([series * 91, 0]);
    const [[events, distinctEvents]] = (await rows(`SELECT count(), uniqExact(EventId) FROM "demotest_CUST_NORDIC"."Events"`)) as [[number, number]];
    expect(events).toBe(distinctEvents);

    // An instance claimed the next window and died: after the claim goes stale the other takes it over.
    clock += 10 * 60_000;
    const marker = Number((await rows(`SELECT max(toInt64OrZero(value)) FROM "demotest_CUST_NORDIC".telemetry_meta WHERE key = 'demo_until_minute'`))[0]![0]);
    await db.run(`INSERT INTO telemetry_demo_claims VALUES (@customerId, @fromMinute, @toMinute, @claimedBy, @claimedAt)`, {
      customerId: "CUST-NORDIC",
      fromMinute: marker,
      toMinute: marker + 10,
      claimedBy: "dead",
      claimedAt: new Date(clock).toISOString(),
    });
    expect((await a.catchUp()).states).toBe(0); // claimed by the dead one, not stale yet
    clock += 6 * 60_000;
    const taken = await a.catchUp();
    expect(taken.states).toBe(series * 16);
    await Promise.all([a.stop(), b.stop()]);
  }, 120_000);
});
