/** Which plants and devices ingestion accepts, on a real service database. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openServiceSql, seedServiceIfEmpty } from "../../database";
import { DEMO_PLANTS } from "../../demo/catalog";
import { addDevices, createDeviceRegistry, listDevices, registerDemoDevices } from "./device-registry";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "live-devices-"));
const db = await openServiceSql({ dataDir: dir });

afterAll(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("device registry", () => {
  it("knows the demo devices of each plant, routes plants to their customer, and picks up added devices", async () => {
    await seedServiceIfEmpty(db, { seed: "devices", today: "2026-03-10" });
    expect(await registerDemoDevices(db, "devices", DEMO_PLANTS)).toBe(126);
    expect(await registerDemoDevices(db, "devices", DEMO_PLANTS)).toBe(0); // idempotent
    const clock = 0;
    const registry = createDeviceRegistry(db, () => clock);
    await registry.loaded();
    expect(await registry.customerOf("OUL1")).toBe("CUST-NORDIC");
    expect(await registry.customerOf("NOPE")).toBeUndefined();
    expect(await registry.isKnownDevice("RTM1", "RTM1-DEV-001")).toBe(true);
    expect(await registry.isKnownDevice("HOU1", "RTM1-DEV-001")).toBe(false); // another plant's device
    expect(await registry.isKnownDevice("RTM1", "PUMP-7")).toBe(false);

    // Heard at once after `device add`, long before the next refresh of the cached list (the clock stands still).
    expect(await addDevices(db, [{ plantId: "RTM1", deviceId: "PUMP-7" }])).toBe(1);
    expect(await registry.isKnownDevice("RTM1", "PUMP-7")).toBe(true);
    expect((await listDevices(db, "RTM1")).map((d) => d.deviceId)).toContain("PUMP-7");
  });
});
