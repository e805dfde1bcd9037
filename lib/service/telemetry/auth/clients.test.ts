import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { seedMaintenance } from "../../seed/maintenance";
import { openDatabase } from "../../store/sqlite";
import { createTelemetryClients } from "./clients";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-telemetry-clients-"));
const db = openDatabase(dir);
seedMaintenance(db, { seed: "clients-test", today: "2026-06-15", sizes: { jobsDone: 5, plannedJobs: 5, tasks: 5, parts: 5 } });
const clients = createTelemetryClients(db, "api://plant-telemetry");

afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("telemetry clients", () => {
  it("replacing a labelled client revokes the one before it, and leaves other clients alone", () => {
    const operators = clients.create("CUST-ACME");
    const first = clients.replaceLabelled("CUST-ACME", "dashboard (embedded)");
    const second = clients.replaceLabelled("CUST-ACME", "dashboard (embedded)");
    const nordic = clients.replaceLabelled("CUST-NORDIC", "dashboard (embedded)");

    expect(clients.authenticate(first.client_id, first.client_secret)).toBeUndefined();
    expect(clients.authenticate(second.client_id, second.client_secret)).toEqual({ clientId: second.client_id, customerId: "CUST-ACME" });
    expect(clients.activeCustomer(operators.client_id)).toBe("CUST-ACME");
    expect(clients.activeCustomer(nordic.client_id)).toBe("CUST-NORDIC");

    const active = clients.list().filter((c) => !c.revokedAt);
    expect(active.map((c) => [c.customerId, c.label]).sort()).toEqual([
      ["CUST-ACME", null],
      ["CUST-ACME", "dashboard (embedded)"],
      ["CUST-NORDIC", "dashboard (embedded)"],
    ]);
  });
});
