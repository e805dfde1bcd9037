/**
 * Revocations across instances: plant tokens, telemetry clients and the access tokens of a revoked
 * client are checked against the service's database on every request, with nothing cached in the
 * process, so a revocation made through one instance is refused by every other instance on its very
 * next request — no Redis needed, only a database the instances share (docs/architecture.md, "State
 * shared by instances"). Two instances are two connections to one database: one SQLite file, or one
 * PostgreSQL schema.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { describeWithService } from "@/lib/testing/with-service";
import { openServiceSql, type ServiceSql } from "./database";
import { seedServiceIfEmpty } from "@/modules/maintenance/service/seed-service";
import { createPlantTokens } from "@/modules/maintenance/store/plant-tokens";
import { createAccessTokens } from "./telemetry/oauth/access-tokens";
import { createTelemetryClients } from "./telemetry/oauth/clients";

function instance(sql: ServiceSql) {
  const clients = createTelemetryClients(sql, "api://plant-telemetry", new Set(["CUST-ACME"]));
  return { plantTokens: createPlantTokens(sql), clients, accessTokens: createAccessTokens(sql, clients, "api://plant-telemetry", "http://localhost:3000") };
}

/** The suite, given how to open one more connection to the shared database. */
function revocationSuite(connect: () => Promise<ServiceSql>) {
  let connections: ServiceSql[] = [];
  let one: ReturnType<typeof instance>;
  let two: ReturnType<typeof instance>;
  beforeAll(async () => {
    const first = await connect();
    await seedServiceIfEmpty(first, { seed: "plantdesk", today: "2026-11-23" });
    connections = [first, await connect()];
    [one, two] = connections.map(instance) as [typeof one, typeof two];
  });
  afterAll(async () => {
    for (const sql of connections) await sql.close();
  });

  it("refuses the plant token on the other instance at its next request", async () => {
    const issued = await one.plantTokens.issue("RTM1");
    expect(await two.plantTokens.verify(issued.token)).toEqual({ id: issued.id, plantId: "RTM1" });
    expect(await one.plantTokens.revoke(issued.id)).toBe(true);
    expect(await two.plantTokens.verify(issued.token)).toBeUndefined();
  });

  it("refuses the telemetry client and its unexpired access tokens on the other instance at once", async () => {
    const created = await two.clients.create("CUST-ACME");
    const token = await one.accessTokens.issue({ clientId: created.client_id, customerId: "CUST-ACME" });
    expect(await two.accessTokens.verify(token)).toEqual({ clientId: created.client_id, customerId: "CUST-ACME" });
    expect(await one.clients.revoke(created.client_id)).toBe(true);
    expect(await two.accessTokens.verify(token)).toBeUndefined();
    expect(await two.clients.authenticate(created.client_id, created.client_secret)).toBeUndefined();
  });
}

describe("a revocation through one instance, on one SQLite file", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-revocation-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  revocationSuite(() => openServiceSql({ dataDir }));
});

describeWithService("postgres", "a revocation through one instance, on one PostgreSQL database", (service) => {
  let schema: TestSchema | undefined;
  afterAll(() => schema?.drop());
  revocationSuite(async () => {
    schema ??= await createTestSchema(service.url);
    return openServiceSql({ dataDir: "/nonexistent", DATABASE_URL: schema.url });
  });
});
