/**
 * Access tokens checked once are kept (access-tokens.ts, VERIFIED_TOKENS): a kept token still
 * expires at its exp, a changed token is checked again, and the client is still looked up each time.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServiceSql, type ServiceSql } from "../../database";
import { seedServiceIfEmpty } from "@/modules/maintenance/service/seed-service";
import { createAccessTokens } from "./access-tokens";
import { createTelemetryClients } from "./clients";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-access-tokens-"));
let sql: ServiceSql;
beforeAll(async () => {
  sql = await openServiceSql({ dataDir });
  await seedServiceIfEmpty(sql, { seed: "plantdesk", today: "2026-11-23" });
});
afterAll(async () => {
  await sql.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("access tokens, checked once and kept", () => {
  const T0 = new Date(Date.UTC(2026, 10, 23, 12));
  const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

  it("a kept token expires at its exp, as a fresh check would say", async () => {
    const clients = createTelemetryClients(sql, "api://plant-telemetry", new Set(["CUST-ACME"]));
    const tokens = createAccessTokens(sql, clients, "api://plant-telemetry", "http://localhost:3000");
    const created = await clients.create("CUST-ACME");
    const token = await tokens.issue({ clientId: created.client_id, customerId: "CUST-ACME" }, { now: T0, lifetimeSeconds: 60 });
    const principal = { clientId: created.client_id, customerId: "CUST-ACME" };
    expect(await tokens.verify(token, at(0))).toEqual(principal);
    expect(await tokens.verify(token, at(59))).toEqual(principal);
    expect(await tokens.verify(token, at(60))).toBeUndefined();
    expect(await tokens.verify(token, at(3600))).toBeUndefined();
    // A fresh instance (nothing kept) says the same at both instants.
    const fresh = createAccessTokens(sql, clients, "api://plant-telemetry", "http://localhost:3000");
    expect(await fresh.verify(token, at(59))).toEqual(principal);
    expect(await fresh.verify(token, at(60))).toBeUndefined();
  });

  it("a token changed by one character is checked again and refused", async () => {
    const clients = createTelemetryClients(sql, "api://plant-telemetry", new Set(["CUST-ACME"]));
    const tokens = createAccessTokens(sql, clients, "api://plant-telemetry", "http://localhost:3000");
    const created = await clients.create("CUST-ACME");
    const token = await tokens.issue({ clientId: created.client_id, customerId: "CUST-ACME" }, { now: T0 });
    expect(await tokens.verify(token, at(1))).toBeDefined();
    const last = token.at(-2) === "A" ? "B" : "A";
    expect(await tokens.verify(`${token.slice(0, -2)}${last}${token.at(-1)}`, at(1))).toBeUndefined();
    expect(await tokens.verify(`${token}x`, at(1))).toBeUndefined();
  });

  it("a kept token of a revoked client is refused at once", async () => {
    const clients = createTelemetryClients(sql, "api://plant-telemetry", new Set(["CUST-ACME"]));
    const tokens = createAccessTokens(sql, clients, "api://plant-telemetry", "http://localhost:3000");
    const created = await clients.create("CUST-ACME");
    const token = await tokens.issue({ clientId: created.client_id, customerId: "CUST-ACME" }, { now: T0 });
    expect(await tokens.verify(token, at(1))).toBeDefined();
    expect(await clients.revoke(created.client_id)).toBe(true);
    expect(await tokens.verify(token, at(2))).toBeUndefined();
  });
});
