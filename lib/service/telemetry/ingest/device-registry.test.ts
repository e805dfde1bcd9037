/** Which plants and devices ingestion accepts and which edge node owns each, on a real service database: SQLite and PostgreSQL. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openServiceSql, type ServiceSql } from "../../database";
import { seedServiceIfEmpty } from "@/modules/maintenance/service/seed-service";
import { DEMO_PLANTS } from "../../demo/catalog";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { probeServices } from "@/lib/testing/services";
import { addDevices, createDeviceRegistry, listDevices } from "./device-registry";
import { registerDemoDevices } from "../live/demo-mqtt-publisher";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "live-devices-"));
const probes = await probeServices();
const opened: ServiceSql[] = [];
let schema: TestSchema | undefined;

afterAll(async () => {
  for (const db of opened) await db.close();
  await schema?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function open(engine: "sqlite" | "postgres"): Promise<ServiceSql> {
  if (engine === "postgres") schema = await createTestSchema(probes.postgres.url);
  const db = await openServiceSql({ dataDir: dir, ...(engine === "postgres" ? { DATABASE_URL: schema!.url } : {}) });
  opened.push(db);
  return db;
}

describe.each(["sqlite", "postgres"] as const)("device registry (%s)", (engine) => {
  it.skipIf(engine === "postgres" && !probes.postgres.available)("knows the demo devices of each plant with their collector's node, routes plants to their customer, picks up added devices and claims", async () => {
    const db = await open(engine);
    await seedServiceIfEmpty(db, { seed: "devices", today: "2026-03-10" });
    expect(await registerDemoDevices(db, "devices", DEMO_PLANTS)).toBe(126);
    expect(await registerDemoDevices(db, "devices", DEMO_PLANTS)).toBe(0); // idempotent
    let clock = 0;
    const registry = createDeviceRegistry(db, () => clock);
    await registry.loaded();
    expect(await registry.customerOf("OUL1")).toBe("CUST-NORDIC");
    expect(await registry.customerOf("NOPE")).toBeUndefined();
    expect(await registry.isKnownDevice("RTM1", "RTM1-DEV-001")).toBe(true);
    expect((await registry.ownerOf("RTM1", "RTM1-DEV-001"))?.edgeNodeId).toMatch(/^rtm1-opcua-\d+$/);
    expect(await registry.isKnownDevice("HOU1", "RTM1-DEV-001")).toBe(false); // another plant's device
    expect(await registry.isKnownDevice("RTM1", "PUMP-7")).toBe(false);

    // Heard at once after `device add`, long before the next refresh of the cached list (the clock stands still).
    expect(await addDevices(db, [{ plantId: "RTM1", deviceId: "PUMP-7" }])).toBe(1);
    expect(await registry.ownerOf("RTM1", "PUMP-7")).toEqual({ edgeNodeId: null });
    // The first birth claims it; a second node's claim leaves the first owner.
    clock = 1_000;
    expect(await registry.claim("RTM1", "PUMP-7", "EDGE-A")).toBe("EDGE-A");
    expect(await registry.claim("RTM1", "PUMP-7", "EDGE-B")).toBe("EDGE-A");
    expect((await listDevices(db, "RTM1", undefined, "PUMP-7"))[0]).toMatchObject({ edgeNodeId: "EDGE-A", claimedBy: "birth" });
    // The operator's --node moves it; without reassign an owned device keeps its node.
    expect(await addDevices(db, [{ plantId: "RTM1", deviceId: "PUMP-7", edgeNodeId: "EDGE-C" }])).toBe(0);
    expect(await addDevices(db, [{ plantId: "RTM1", deviceId: "PUMP-7", edgeNodeId: "EDGE-C" }], new Date(), true)).toBe(1);
    expect(await registry.ownerOf("RTM1", "PUMP-7", true)).toEqual({ edgeNodeId: "EDGE-C" });
    expect((await listDevices(db, "RTM1", "EDGE-C")).map((d) => [d.deviceId, d.claimedBy])).toEqual([["PUMP-7", "ops"]]);
  }, 120_000);
});
