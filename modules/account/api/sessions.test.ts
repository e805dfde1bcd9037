/* eslint-disable @typescript-eslint/no-explicit-any -- JSON records are read freely in assertions */
/**
 * A user's own sessions over real HTTP (docs/api.md, "Sessions"; issue 35): two signed-in clients of
 * one user (a laptop and a phone, each with its browser and address as its sign-in named them) and
 * one of another user. Each client sees the user's sessions with its own marked; ending the other
 * client's session makes that client's next request unauthenticated while this one goes on; "sign
 * out everywhere else" keeps only the caller's; nobody can end another user's session; every end is
 * audited with the session's handle, never its id.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  const demoPassword = "demo-password-for-tests";
  return { ...(await import("@/lib/bff/testing/environment")).setTestEnvironment("account-sessions", { DEMO_PASSWORD: demoPassword, DEMO_LIVE: "0" }), demoPassword };
});

import { encode } from "next-auth/jwt";
import { sessionPolicy } from "@/lib/auth/session";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { createSession, type SessionClient } from "@/lib/dashboard-store/sessions";
import { findUser } from "@/lib/dashboard-store/users";
import { startEmbeddedDashboard, type EmbeddedDashboard } from "@/lib/bff/testing/dashboards";

const LAPTOP = { userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36", address: "10.1.2.3" };
const PHONE = { userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1", address: "10.9.8.7" };

let dashboard: EmbeddedDashboard;

/** A session cookie as a sign-in from this client makes it (the jwt callback's createSession, next-auth's encoder). */
async function signedIn(email: string, client: SessionClient): Promise<string> {
  const db = await getDashboardDb();
  const user = (await findUser(db, email))!;
  const sid = await createSession(db, user.id, "credentials", sessionPolicy(), Date.now(), client);
  return `next-auth.session-token=${await encode({ token: { sid, email, name: email }, secret: dashboard.secret, maxAge: 3600 })}`;
}

async function call(cookie: string, method: string, path: string, body?: unknown) {
  const response = await dashboard.api.call(path, { method, body, cookie });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as any) : null };
}

const auditOf = async (action: string) =>
  (await getDashboardDb()).all<{ user_email: string; target: string | null; outcome: string; detail: string | null }>(
    "SELECT user_email, target, outcome, detail FROM audit_log WHERE action = @action ORDER BY id",
    { action },
  );

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, env.demoPassword);
}, 120_000);

afterAll(() => dashboard?.close());

describe("a user's own sessions", () => {
  it("lists the user's live sessions with browser, address and times, marking the caller's own", async () => {
    const laptop = await signedIn("planner@plantdesk.demo", LAPTOP);
    const phone = await signedIn("planner@plantdesk.demo", PHONE);
    await signedIn("engineer@plantdesk.demo", LAPTOP);
    const fromLaptop = await call(laptop, "GET", "/api/account/sessions");
    expect(fromLaptop.status).toBe(200);
    expect(fromLaptop.body.data).toHaveLength(2);
    const mine = fromLaptop.body.data.find((session: any) => session.current);
    expect(mine).toMatchObject({ userAgent: LAPTOP.userAgent, address: "10.1.2.3", method: "credentials", current: true });
    expect(Number.isNaN(Date.parse(mine.signedInAt))).toBe(false);
    expect(fromLaptop.body.data.find((session: any) => !session.current)).toMatchObject({ userAgent: PHONE.userAgent, address: "10.9.8.7" });
    // The phone sees the same two, its own marked.
    const fromPhone = await call(phone, "GET", "/api/account/sessions");
    expect(fromPhone.body.data.find((session: any) => session.current).address).toBe("10.9.8.7");
    // Nothing of the cookie's id or the stored hash is in the answer.
    const rows = await (await getDashboardDb()).all<{ id_hash: string }>("SELECT id_hash FROM user_sessions");
    for (const row of rows) expect(JSON.stringify(fromLaptop.body)).not.toContain(row.id_hash);
  });

  it("ending the other client's session makes its next request unauthenticated; this one goes on; audited", async () => {
    const laptop = await signedIn("supervisor@plantdesk.demo", LAPTOP);
    const phone = await signedIn("supervisor@plantdesk.demo", PHONE);
    expect((await call(phone, "GET", "/api/me")).status).toBe(200);
    const phoneHandle = (await call(laptop, "GET", "/api/account/sessions")).body.data.find((session: any) => !session.current).handle;
    const ended = await call(laptop, "DELETE", `/api/account/sessions/${phoneHandle}`);
    expect([ended.status, ended.body]).toEqual([200, { ended: 1 }]);
    expect((await call(phone, "GET", "/api/me")).status).toBe(401);
    expect((await call(phone, "GET", "/api/plants/RTM1/jobs-done?pageSize=1")).status).toBe(401);
    expect((await call(laptop, "GET", "/api/me")).status).toBe(200);
    expect((await call(laptop, "GET", "/api/account/sessions")).body.data).toHaveLength(1);
    // Ended already: 404, and the audit row says so too.
    expect((await call(laptop, "DELETE", `/api/account/sessions/${phoneHandle}`)).status).toBe(404);
    const rows = (await auditOf("session.end")).filter((row) => row.user_email === "supervisor@plantdesk.demo");
    expect(rows.map((row) => [row.target, row.outcome])).toEqual([
      [`session ${phoneHandle}`, "SUCCESS"],
      [`session ${phoneHandle}`, "NOT_FOUND"],
    ]);
    expect(JSON.parse(rows[0]!.detail!)).toEqual({ current: false });
  });

  it("sign out everywhere else keeps only the caller's session; other users' stay", async () => {
    const [one, two, three] = [await signedIn("admin@plantdesk.demo", LAPTOP), await signedIn("admin@plantdesk.demo", PHONE), await signedIn("admin@plantdesk.demo", PHONE)];
    const bystander = await signedIn("engineer@plantdesk.demo", PHONE);
    const answer = await call(two, "POST", "/api/account/sessions/end-others", {});
    expect([answer.status, answer.body]).toEqual([200, { ended: 2 }]);
    expect((await call(one, "GET", "/api/me")).status).toBe(401);
    expect((await call(three, "GET", "/api/me")).status).toBe(401);
    expect((await call(two, "GET", "/api/me")).status).toBe(200);
    expect((await call(bystander, "GET", "/api/me")).status).toBe(200);
    const [row] = (await auditOf("session.end-others")).filter((candidate) => candidate.user_email === "admin@plantdesk.demo");
    expect([row!.outcome, JSON.parse(row!.detail!)]).toEqual(["SUCCESS", { ended: 2 }]);
  });

  it("nobody ends another user's session, and a malformed handle is refused", async () => {
    const victim = await signedIn("planner@plantdesk.demo", PHONE);
    const attacker = await signedIn("engineer@plantdesk.demo", LAPTOP);
    const handle = (await call(victim, "GET", "/api/account/sessions")).body.data.find((session: any) => session.current).handle;
    expect((await call(attacker, "DELETE", `/api/account/sessions/${handle}`)).status).toBe(404);
    expect((await call(victim, "GET", "/api/me")).status).toBe(200);
    expect((await call(attacker, "DELETE", "/api/account/sessions/not-a-handle")).status).toBe(400);
    // Without a session: 401, nothing listed.
    expect((await dashboard.api.call("/api/account/sessions")).status).toBe(401);
  });

  it("ending one's own current session signs this client out", async () => {
    const only = await signedIn("engineer@plantdesk.demo", PHONE);
    const handle = (await call(only, "GET", "/api/account/sessions")).body.data.find((session: any) => session.current).handle;
    const ended = await call(only, "DELETE", `/api/account/sessions/${handle}`);
    expect(ended.status).toBe(200);
    expect((await call(only, "GET", "/api/me")).status).toBe(401);
    const rows = (await auditOf("session.end")).filter((row) => row.user_email === "engineer@plantdesk.demo");
    expect(JSON.parse(rows.at(-1)!.detail!)).toEqual({ current: true });
  });
});
