/** The operator CLI as a subprocess against a temporary DATA_DIR, and its tokens against the service. */
import { opsSuite } from "@/lib/service/testing/run-ops";
import { describe, expect, it } from "vitest";

const { ops, opsJson, runtime } = opsSuite("maint-ops");

async function tasksWith(token: string): Promise<number> {
  const response = await (await runtime()).handle({
    method: "GET",
    path: "/maintenance/v1/plants/RTM1/tasks",
    query: new URLSearchParams("pageSize=1"),
    headers: { authorization: `Bearer ${token}` },
    body: null,
    origin: "http://localhost",
  });
  return response.status;
}

// Each case starts a tsx process (about a second each on an idle machine, more under load).
describe("npm run ops", { timeout: 120_000 }, () => {
  it("plants --json lists the demo plants (seeding a fresh data directory)", () => {
    expect(opsJson("plants")).toEqual([
      { id: "HOU1", name: "Houston Polymers", customerId: "CUST-ACME" },
      { id: "OUL1", name: "Oulu Paper Mill", customerId: "CUST-NORDIC" },
      { id: "RTM1", name: "Rotterdam Chemicals", customerId: "CUST-ACME" },
    ]);
  });

  it("issues a token that works at once, lists it without the secret, and revokes it (401 at once)", async () => {
    const token = opsJson<{ id: string; token: string; expiresAt: string }>("token", "issue", "--plant", "RTM1", "--expires", "30");
    expect(token).toMatchObject({ plantId: "RTM1", id: expect.any(String), token: expect.any(String) });
    expect(Date.parse(token.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);

    // The server keeps running while the CLI works on the same database.
    await runtime();
    expect(await tasksWith(token.token)).toBe(200);

    const listed = ops("token", "list", "--json");
    expect(listed.status).toBe(0);
    expect(listed.stdout).not.toContain(token.token);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: token.id, plantId: "RTM1", state: "active" })]);
    const stored = (await (await runtime()).sql.get<{ token_hash: string }>("SELECT token_hash FROM plant_tokens"))!.token_hash;
    expect(stored).not.toContain(token.token);

    const revoked = ops("token", "revoke", token.id);
    expect(revoked.status, revoked.stderr).toBe(0);
    expect(await tasksWith(token.token)).toBe(401);
    expect(opsJson<{ state: string }[]>("token", "list")[0]!.state).toBe("revoked");
  });

  it("exits non-zero with a clear message on bad arguments", () => {
    const cases: [string[], number, RegExp][] = [
      [["token", "issue"], 2, /--plant is required/],
      [["token", "issue", "--plant", "NOPE"], 1, /Unknown plant 'NOPE'/],
      [["token", "issue", "--plant", "RTM1", "--expires", "soon"], 2, /--expires must be a positive number/],
      [["token", "issue", "--plant", "RTM1", "--colour", "red"], 2, /Unknown option '--colour'/],
      [["token", "revoke"], 2, /token id is required/],
      [["token", "revoke", "pt_unknown"], 1, /No plant token with id 'pt_unknown'/],
      [["frobnicate"], 2, /Unknown command: frobnicate/],
    ];
    for (const [args, status, message] of cases) {
      const result = ops(...args);
      expect(result.status, args.join(" ")).toBe(status);
      expect(result.stderr).toMatch(message);
    }
  });
});
