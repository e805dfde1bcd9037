/** The telemetry operator commands as a subprocess against a temporary DATA_DIR, and their clients against the service. */
import { opsSuite } from "@/lib/service/testing/run-ops";
import { beforeAll, describe, expect, it } from "vitest";

const { ops, opsJson, runtime } = opsSuite("telemetry-ops");
// The service first, as a server already running when the operator starts.
beforeAll(async () => {
  await runtime();
});

async function serviceCall(pathname: string, init: { headers?: Record<string, string>; body?: string }) {
  return (await runtime()).handle({
    method: "POST",
    path: pathname,
    query: new URLSearchParams(),
    headers: init.headers ?? {},
    body: init.body ? new TextEncoder().encode(init.body) : null,
    origin: "http://localhost",
  });
}

async function tokenStatus(clientId: string, secret: string): Promise<number> {
  const res = await serviceCall("/oauth2/v2.0/token", {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: secret, scope: "api://plant-telemetry/.default" }).toString(),
  });
  return res.status;
}

async function queryStatus(token: string): Promise<number> {
  const end = new Date();
  const res = await serviceCall("/insights/v1/telemetry/query/table", {
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: "States | take 1", startTime: new Date(end.getTime() - 3600_000).toISOString(), endTime: end.toISOString() }),
  });
  return res.status;
}

// Each case starts a tsx process (a second or more, longer under load).
describe("npm run ops (telemetry)", { timeout: 120_000 }, () => {
  it("customers --json lists the customers with their plants", () => {
    expect(opsJson("customers")).toEqual([
      { id: "CUST-ACME", name: expect.any(String), plantIds: ["HOU1", "RTM1"], activeClients: 0 },
      { id: "CUST-NORDIC", name: expect.any(String), plantIds: ["OUL1"], activeClients: 0 },
    ]);
  });

  it("creates a client whose secret works at once, lists it without the secret, and revokes it", async () => {
    const client = opsJson<{ client_id: string; client_secret: string; scope: string }>("client", "create", "--customer", "CUST-NORDIC");
    expect(client).toEqual({
      client_id: expect.any(String),
      client_secret: expect.stringMatching(/^pdt_/),
      scope: "api://plant-telemetry/.default",
      customerId: "CUST-NORDIC",
    });
    expect(await tokenStatus(client.client_id, client.client_secret)).toBe(200);
    const token = (await runtime()).telemetry.tokens.issue({ clientId: client.client_id, customerId: "CUST-NORDIC" });
    expect(await queryStatus(await token)).toBe(200);

    const listed = ops("client", "list", "--json");
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).not.toContain(client.client_secret);
    expect(JSON.parse(listed.stdout)).toContainEqual(expect.objectContaining({ clientId: client.client_id, customerId: "CUST-NORDIC", state: "active" }));
    expect(opsJson<{ activeClients: number }[]>("customers")[1]!.activeClients).toBe(1);

    const human = ops("client", "list");
    expect(human.stdout).toContain(client.client_id);

    const revoked = ops("client", "revoke", client.client_id);
    expect(revoked.status, revoked.stderr).toBe(0);
    expect(await queryStatus(await token)).toBe(401);
    expect(await tokenStatus(client.client_id, client.client_secret)).toBe(401);
  });

  it("fails clearly on bad arguments", () => {
    const missing = ops("client", "create");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("--customer");
    const unknown = ops("client", "create", "--customer", "CUST-NOPE");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("CUST-ACME");
    const noSuch = ops("client", "revoke", "no-such-client");
    expect(noSuch.status).toBe(1);
    expect(ops("client", "revoke").status).toBe(2);
  });
});
