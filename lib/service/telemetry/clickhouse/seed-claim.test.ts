/**
 * The first-start demo seed on ClickHouse with several instances (demo-claims.ts): two service
 * processes started together on PostgreSQL and an empty `clickhouse:dev` seed each customer's
 * database once; in process (chdb, one SQLite service database), an instance waits while another
 * holds the seed's claim, and takes over a claim left by a dead seeder, dropping its partial rows.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "@clickhouse/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedChdb } from "@/lib/service/telemetry/testing/clickhouse.test-support";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { probeServices, servicesRequired } from "@/lib/testing/services";
import { openServiceSql } from "../../database";
import { DEMO_PLANTS } from "../../demo/catalog";
import type { SqlDb } from "../../../platform/sql";
import { demoClaims, demoSeedClaims, SEED_CLAIM_MINUTE } from "./demo-claims";
import { openClickHouseTelemetryStore } from "./store";
import { startClickHouseDev, type ClickHouseDev } from "./testing/clickhouse-dev";
import { demoTelemetrySeed } from "../demo-data";

const probes = await probeServices();
if (!probes.postgres.available) {
  const message = `ClickHouse seed claim: needs PostgreSQL (${probes.postgres.url})`;
  if (servicesRequired()) throw new Error(message);
  process.stderr.write(`skipped suite "ClickHouse seed claim, two processes": ${message}\n`);
}
const run = randomBytes(4).toString("hex");

describe.skipIf(!probes.postgres.available)("two instances starting together on an empty ClickHouse (PostgreSQL, clickhouse:dev)", () => {
  let clickhouse: ClickHouseDev;
  let schema: TestSchema;
  const dirs: string[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    [clickhouse, schema] = await Promise.all([startClickHouseDev(), createTestSchema(probes.postgres.url)]);
  }, 120_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    await clickhouse?.stop();
    await schema?.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  function startInstance(name: string): Promise<string> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `seed-claim-${name}-`));
    dirs.push(dataDir);
    const child = spawn(process.execPath, ["--import", "tsx", path.join(process.cwd(), "lib/service/testing/ingest-host-instance.ts")], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: schema.url,
        TELEMETRY_URL: `clickhouse://default@127.0.0.1:${clickhouse.port}/?database_prefix=seed_${run}_`,
        DEMO_LIVE: "0",
        DEMO_TELEMETRY_DAYS: "1",
        SEED: "seed-claim",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let log = "";
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not start: ${log}`)), 180_000);
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes("host-instance ready")) {
          clearTimeout(timer);
          resolve(log);
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("exit", (code) => reject(new Error(`${name} exited (${code}): ${log}`)));
    });
  }

  it("seeds each customer's database once", async () => {
    const logs = await Promise.all([startInstance("a"), startInstance("b")]);
    const ch = createClient({ url: clickhouse.url });
    const rows = async (sql: string) => (await (await ch.query({ query: sql, format: "JSONCompactEachRow" })).json()) as unknown[][];
    try {
      for (const customer of ["CUST-ACME", "CUST-NORDIC"]) {
        const database = `seed_${run}_${customer.replace(/-/g, "_")}`;
        // One instance generated it; the other found it seeded or waited for it.
        const generated = logs.filter((log) => log.includes(`${customer}: generating`)).length;
        expect(generated, logs.join("\n---\n")).toBe(1);
        const [[readings, distinct]] = (await rows(`SELECT count(), uniqExact(DeviceId, Name, "Timestamp") FROM "${database}"."States"`)) as [[string, string]];
        expect(Number(readings)).toBeGreaterThan(1000);
        expect(Number(readings)).toBe(Number(distinct));
        const [[events, distinctEvents]] = (await rows(`SELECT count(), uniqExact(EventId) FROM "${database}"."Events"`)) as [[string, string]];
        expect(Number(events)).toBe(Number(distinctEvents));
        const [[markers]] = (await rows(`SELECT count() FROM "${database}".telemetry_meta FINAL WHERE key = 'demo_seeded_at'`)) as [[string]];
        expect(Number(markers)).toBe(1);
      }
      console.log(`ClickHouse seed claim: instances that waited for the other's seed: ${logs.filter((log) => log.includes("waiting for it")).length} of 2`);
    } finally {
      await ch.close();
    }
  }, 300_000);
});

describe("the seed's claim, in process (chdb, SQLite)", () => {
  const customers = [{ id: "CUST-NORDIC", plants: DEMO_PLANTS.filter((p) => p.customerId === "CUST-NORDIC") }];
  const database = `seedclaim_${run}_CUST_NORDIC`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "seed-claim-"));
  let db: SqlDb;
  const count = async (sql: string) => Number(Buffer.from(await sharedChdb().query(`${sql} FORMAT TabSeparatedRaw`, {})).toString("utf8").trim());
  const open = (instance: string, on: { onWaitingForSeed?: () => void; onSeeding?: () => void } = {}) =>
    openClickHouseTelemetryStore({
      executor: sharedChdb(),
      databasePrefix: `seedclaim_${run}_`,
      customers,
      seed: demoTelemetrySeed({ seed: "seed-claim", days: 1, now: new Date("2026-03-02T00:00:00Z") }),
      seedClaims: demoSeedClaims(db, instance),
      ...on,
      maxQueryMemoryBytes: 512 * 1048576,
    });

  beforeAll(async () => {
    db = await openServiceSql({ dataDir: dir });
  });
  afterAll(async () => {
    await sharedChdb().command(`DROP DATABASE IF EXISTS "${database}"`);
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("waits while a live instance holds the claim, and takes over a dead one's claim without its partial rows", async () => {
    // A seeder that claimed the seed, wrote part of it and died (its claim is no longer renewed).
    const dead = demoClaims(db, "dead", () => new Date(Date.now() - 30_000));
    expect(await dead.claim("CUST-NORDIC", SEED_CLAIM_MINUTE, SEED_CLAIM_MINUTE, 60_000)).toBe("fresh");
    const executor = sharedChdb();
    await executor.command(`CREATE DATABASE IF NOT EXISTS "${database}"`);
    const { createCustomerSchema } = await import("./sql");
    for (const statement of createCustomerSchema(database)) await executor.command(statement);
    await executor.command(`INSERT INTO "${database}"."States" (DeviceId, Name, "Timestamp", "Value", PlantId, MessageType) VALUES ('PARTIAL', 'Half', now64(3), 1, 'NOR1', 'state')`);

    // Not stale yet: the new instance waits.
    let waited = false;
    const opening = open("b", { onWaitingForSeed: () => (waited = true) });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(waited).toBe(true);
    expect(await count(`SELECT count() FROM "${database}".telemetry_meta WHERE key = 'demo_seeded_at'`)).toBe(0);

    // The dead seeder's claim goes stale (it is backdated past the stale age): b takes over.
    await db.run(`UPDATE telemetry_demo_claims SET claimed_at = @now WHERE claimed_by = 'dead'`, { now: new Date(Date.now() - 120_000).toISOString() });
    await opening;
    expect(await count(`SELECT count() FROM "${database}"."States" WHERE DeviceId = 'PARTIAL'`)).toBe(0);
    expect(await count(`SELECT count() FROM "${database}"."States"`)).toBeGreaterThan(1000);
    expect(await count(`SELECT count() - uniqExact(DeviceId, Name, "Timestamp") FROM "${database}"."States"`)).toBe(0);
    expect(await db.get(`SELECT claimed_by FROM telemetry_demo_claims WHERE customer_id = @customerId AND from_minute = @fromMinute`, {
      customerId: "CUST-NORDIC",
      fromMinute: SEED_CLAIM_MINUTE,
    })).toEqual({ claimed_by: "b" });

    // A third instance finds it seeded and seeds nothing.
    let seeding = false;
    await open("c", { onSeeding: () => (seeding = true) });
    expect(seeding).toBe(false);
  }, 180_000);
});
