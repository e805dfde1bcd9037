/**
 * Server-side sessions on a real SQLite store, with the clock passed in: a session lives while it
 * is used within the idle timeout and until its absolute lifetime, whatever happens to the
 * cookie; sign-out and an admin's "sign out everywhere" end it at once; only the id's hash is kept.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteSql } from "@/lib/platform/sql";
import { openDashboardDatabase } from "./database";
import { activeSessionCounts, checkSession, createSession, listUserSessions, revokeOtherSessions, revokeSession, revokeUserSession, revokeUserSessions } from "./sessions";
import { addUser, CLI_ACTOR } from "./user-admin";
import { setPassword, upsertUser } from "./users";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-sessions-"));
const db = sqliteSql(openDashboardDatabase(dataDir));
afterAll(async () => {
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const MINUTE = 60_000;
const policy = { idleMs: 30 * MINUTE, absoluteMs: 8 * 60 * MINUTE };
const userId = async (email: string) => (await upsertUser(db, { email, role: "planner", plants: ["RTM1"] })).id;

describe("sessions", () => {
  it("end after the idle timeout, but live on while used", async () => {
    const id = await userId("idle@example.com");
    const sid = await createSession(db, id, "credentials", policy, 0);
    expect(await checkSession(db, sid, policy, 29 * MINUTE)).toBe(id);
    // Used at 29 min: another 30 from there.
    expect(await checkSession(db, sid, policy, 58 * MINUTE)).toBe(id);
    expect(await checkSession(db, sid, policy, 58 * MINUTE + 30 * MINUTE)).toBeNull();
  });

  it("end at the absolute lifetime however busy, and a shorter setting counts at once", async () => {
    const id = await userId("busy@example.com");
    const sid = await createSession(db, id, "oidc", policy, 0);
    for (let at = 10 * MINUTE; at < 8 * 60 * MINUTE; at += 10 * MINUTE) expect(await checkSession(db, sid, policy, at)).toBe(id);
    expect(await checkSession(db, sid, policy, 8 * 60 * MINUTE)).toBeNull();
    const other = await createSession(db, id, "oidc", policy, 0);
    expect(await checkSession(db, other, { ...policy, absoluteMs: 60 * MINUTE }, 61 * MINUTE)).toBeNull();
  });

  it("end at sign-out and when an admin signs the user out everywhere; other users' stay", async () => {
    const id = await userId("out@example.com");
    const bystander = await userId("bystander@example.com");
    const [one, two, three] = [await createSession(db, id, "credentials", policy, 0), await createSession(db, id, "oidc", policy, 0), await createSession(db, bystander, "credentials", policy, 0)];
    await revokeSession(db, one, MINUTE);
    expect(await checkSession(db, one, policy, 2 * MINUTE)).toBeNull();
    expect(await checkSession(db, two, policy, 2 * MINUTE)).toBe(id);
    expect((await activeSessionCounts(db, policy, 2 * MINUTE)).get(id)).toBe(1);
    expect(await revokeUserSessions(db, id, 3 * MINUTE)).toBe(1);
    expect(await checkSession(db, two, policy, 4 * MINUTE)).toBeNull();
    expect(await checkSession(db, three, policy, 4 * MINUTE)).toBe(bystander);
  });

  it("end when the password is reset (an invitation's new password) or changed by the operator; other users' stay (issue 35)", async () => {
    const now = Date.now();
    const id = await userId("reset@example.com");
    const bystander = await userId("bystander2@example.com");
    const [stolen, mine, theirs] = [await createSession(db, id, "credentials", policy, now), await createSession(db, id, "oidc", policy, now), await createSession(db, bystander, "credentials", policy, now)];
    await setPassword(db, id, "a-brand-new-password");
    expect(await checkSession(db, stolen, policy, now + MINUTE)).toBeNull();
    expect(await checkSession(db, mine, policy, now + MINUTE)).toBeNull();
    expect(await checkSession(db, theirs, policy, now + MINUTE)).toBe(bystander);
    const again = await createSession(db, id, "credentials", policy, Date.now());
    const cli = { db, actor: CLI_ACTOR, servedPlants: ["RTM1", "HOU1"] };
    await addUser(cli, { email: "reset@example.com", role: "planner", plants: ["RTM1"], password: "another-new-password" }, { replace: true });
    expect(await checkSession(db, again, policy, Date.now() + MINUTE)).toBeNull();
    // Changing role or plants without a password keeps the sessions.
    const kept = await createSession(db, id, "credentials", policy, Date.now());
    await addUser(cli, { email: "reset@example.com", role: "planner", plants: ["RTM1", "HOU1"] }, { replace: true });
    expect(await checkSession(db, kept, policy, Date.now() + MINUTE)).toBe(id);
  });

  it("list a user's live sessions with their client, and end one by its handle or all but one (the Sessions page)", async () => {
    const id = await userId("own@example.com");
    const other = await userId("other-own@example.com");
    const laptop = await createSession(db, id, "credentials", policy, 0, { userAgent: "Firefox/133.0", address: "10.0.0.1" });
    const phone = await createSession(db, id, "oidc", policy, MINUTE, { userAgent: "x".repeat(1_000), address: null });
    const idle = await createSession(db, id, "credentials", policy, 0);
    const theirs = await createSession(db, other, "credentials", policy, 0);
    expect(await checkSession(db, laptop, policy, 20 * MINUTE)).toBe(id);
    expect(await checkSession(db, phone, policy, 25 * MINUTE)).toBe(id);
    // At 40 min the third is idle (30 min unused): not listed. Most recently used first.
    const listed = await listUserSessions(db, id, laptop, policy, 40 * MINUTE);
    expect(listed.map((session) => [session.method, session.address, session.current, session.lastSeenAt])).toEqual([
      ["oidc", null, false, 25 * MINUTE],
      ["credentials", "10.0.0.1", true, 20 * MINUTE],
    ]);
    expect(listed[0]!.userAgent).toHaveLength(400);
    expect(listed[1]).toMatchObject({ userAgent: "Firefox/133.0", createdAt: 0 });
    // A handle is no id and no stored hash, and another user's handle ends nothing of theirs.
    const handles = listed.map((session) => session.handle);
    expect(handles.every((handle) => /^[A-Za-z0-9_-]{22}$/.test(handle) && handle !== laptop && handle !== phone)).toBe(true);
    const [theirHandle] = (await listUserSessions(db, other, null, policy, 1)).map((session) => session.handle);
    expect(await revokeUserSession(db, id, theirHandle!, 41 * MINUTE)).toBe(false);
    expect(await checkSession(db, theirs, policy, 10 * MINUTE)).toBe(other);
    expect(await revokeUserSession(db, id, handles[0]!, 41 * MINUTE)).toBe(true);
    expect(await checkSession(db, phone, policy, 42 * MINUTE)).toBeNull();
    expect(await revokeUserSession(db, id, handles[0]!, 43 * MINUTE)).toBe(false);
    // All but the laptop's: the idle one is ended too (it is still within its lifetime).
    expect(await revokeOtherSessions(db, id, laptop, 44 * MINUTE)).toBe(1);
    expect(await checkSession(db, laptop, policy, 45 * MINUTE)).toBe(id);
    expect(await checkSession(db, idle, policy, 1)).toBeNull();
  });

  it("keep only a hash of the id, and refuse an unknown one", async () => {
    const id = await userId("hash@example.com");
    const sid = await createSession(db, id, "credentials", policy, 0);
    const rows = await db.all<{ id_hash: string }>("SELECT id_hash FROM user_sessions");
    expect(rows.some((row) => row.id_hash === sid)).toBe(false);
    expect(await checkSession(db, `${sid}x`, policy, 1)).toBeNull();
  });
});
