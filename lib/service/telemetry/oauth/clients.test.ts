import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openServiceSql } from "@/lib/service/database";
import { seedServiceIfEmpty } from "@/modules/maintenance/service/seed-service";
import { createMaintenanceStore } from "@/modules/maintenance/store";
import { createTelemetryClients } from "./clients";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-telemetry-clients-"));
const db = await openServiceSql({ dataDir: dir });
await seedServiceIfEmpty(db, { seed: "clients-test", today: "2026-06-15", sizes: { jobsDone: 5, plans: 3, oneOffJobs: 5, tasks: 5, parts: 5 } });
const customers = await createMaintenanceStore(db).listCustomers();
const clients = createTelemetryClients(db, "api://plant-telemetry", new Set(customers.map((customer) => customer.id)));

afterAll(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("telemetry clients", () => {
  it("replacing a labelled client revokes the one before it, and leaves other clients alone", async () => {
    const operators = await clients.create("CUST-ACME");
    const first = await clients.replaceLabelled("CUST-ACME", "dashboard (embedded)");
    const second = await clients.replaceLabelled("CUST-ACME", "dashboard (embedded)");
    const nordic = await clients.replaceLabelled("CUST-NORDIC", "dashboard (embedded)");

    expect(await clients.authenticate(first.client_id, first.client_secret)).toBeUndefined();
    expect(await clients.authenticate(second.client_id, second.client_secret)).toEqual({ clientId: second.client_id, customerId: "CUST-ACME" });
    expect(await clients.activeCustomer(operators.client_id)).toBe("CUST-ACME");
    expect(await clients.activeCustomer(nordic.client_id)).toBe("CUST-NORDIC");

    const active = (await clients.list()).filter((c) => !c.revokedAt);
    expect(active.map((c) => [c.customerId, c.label]).sort()).toEqual([
      ["CUST-ACME", null],
      ["CUST-ACME", "dashboard (embedded)"],
      ["CUST-NORDIC", "dashboard (embedded)"],
    ]);
  });
});
