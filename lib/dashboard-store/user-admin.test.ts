/**
 * The rules of user management that the Users page and the operator CLI share (user-admin.ts), on
 * a real SQLite store: a new user gets a one-time invitation; bad input and unknown plants are
 * refused with nothing changed; the last admin can be neither demoted nor disabled, nobody
 * disables themselves; disabling ends the user's sessions; every change, refused or not, is audited.
 * On SQLite and on PostgreSQL (the dashboard's store with DATABASE_URL).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlDb } from "@/lib/platform/sql";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { describeWithService } from "@/lib/testing/with-service";
import { openDashboardSql } from "./database";
import { consumeInvitation, peekInvitation } from "./invitations";
import { checkSession, createSession } from "./sessions";
import { addUser, CLI_ACTOR, endUserSessions, inviteUser, setUserEnabled, updateUser, UserAdminError, type UserAdminContext } from "./user-admin";
import { bindIdentity, createWaitingUser, findUser, findUserByIdentity, listUsers } from "./users";

const policy = { idleMs: 3_600_000, absoluteMs: 8 * 3_600_000 };

function userAdminSuite(open: () => Promise<SqlDb>): void {
  let db: SqlDb;
  let cli: UserAdminContext;
  beforeAll(async () => {
    db = await open();
    cli = { db, actor: CLI_ACTOR, servedPlants: ["RTM1", "HOU1"] };
  });
  afterAll(() => db?.close());
  const audits = async (target: string) => (await db.all<{ action: string; outcome: string; user_email: string }>("SELECT action, outcome, user_email FROM audit_log WHERE target = @target ORDER BY id", {
    target,
  }));

  it("adds a user with a one-time invitation, and refuses the same e-mail again", async () => {
    const { user, invitation } = await addUser(cli, { email: "Nia@Example.com", role: "planner", plants: ["RTM1"] }, { invite: true });
    expect(user).toMatchObject({ email: "nia@example.com", role: "planner", plants: ["RTM1"], hasPassword: false });
    expect(await peekInvitation(db, invitation!.token)).toBe(user.id);
    expect(await consumeInvitation(db, invitation!.token)).toBe(user.id);
    expect(await consumeInvitation(db, invitation!.token)).toBeNull();
    await expect(addUser(cli, { email: "nia@example.com", role: "admin", plants: "*" })).rejects.toThrow("already a user");
    expect((await findUser(db, "nia@example.com"))?.role).toBe("planner");
    expect(await audits("nia@example.com")).toEqual([
      { action: "user.add", outcome: "SUCCESS", user_email: "(operator CLI)" },
      { action: "user.add", outcome: "INVALID_INPUT", user_email: "(operator CLI)" },
    ]);
  });

  it("lets an admin's invitation win over a waiting SSO user of that address: the SSO binding and its sessions end", async () => {
    // Someone signed in by SSO with an address they merely claimed, and waits for access.
    const waiting = (await createWaitingUser(db, { email: "new.hire@example.com", name: "Claimed" }))!;
    await bindIdentity(db, "https://sso.example.com", "outsider", waiting.id);
    const sid = await createSession(db, waiting.id, "oidc", policy);
    const { token } = await inviteUser(cli, waiting.id);
    expect(await findUserByIdentity(db, "https://sso.example.com", "outsider")).toBeNull();
    expect(await checkSession(db, sid, policy)).toBeNull();
    expect(await peekInvitation(db, token)).toBe(waiting.id);
    // A user who was granted plants keeps their binding when invited again (a new link, nothing more).
    const granted = (await createWaitingUser(db, { email: "granted@example.com", name: "Granted" }))!;
    await bindIdentity(db, "https://sso.example.com", "granted", granted.id);
    await updateUser(cli, granted.id, { plants: ["RTM1"] });
    await inviteUser(cli, granted.id);
    expect((await findUserByIdentity(db, "https://sso.example.com", "granted"))?.id).toBe(granted.id);
  });

  it("refuses bad input and unknown plants, changing nothing", async () => {
    const before = (await listUsers(db)).length;
    await expect(addUser(cli, { email: "not-an-address", role: "planner", plants: ["RTM1"] })).rejects.toBeInstanceOf(UserAdminError);
    await expect(addUser(cli, { email: "x@example.com", role: "planner", plants: ["NOPE1"] })).rejects.toThrow("Unknown plant(s) NOPE1");
    await expect(addUser(cli, { email: "y@example.com", role: "planner", plants: [] })).rejects.toThrow("at least one plant");
    expect((await listUsers(db)).length).toBe(before);
  });

  it("keeps the last admin an enabled admin, and lets nobody disable themselves", async () => {
    const { user: ada } = await addUser(cli, { email: "ada@example.com", role: "admin", plants: "*" });
    await expect(updateUser(cli, ada.id, { role: "planner" })).rejects.toThrow("last admin");
    await expect(setUserEnabled(cli, ada.id, false)).rejects.toThrow("last enabled admin");
    const { user: bo } = await addUser(cli, { email: "bo@example.com", role: "admin", plants: "*" });
    const asAda: UserAdminContext = { ...cli, actor: { email: ada.email, id: ada.id } };
    await expect(setUserEnabled(asAda, ada.id, false)).rejects.toThrow("your own account");
    expect((await setUserEnabled(asAda, bo.id, false)).disabled).toBe(true);
    expect((await setUserEnabled(asAda, bo.id, true)).disabled).toBe(false);
    expect((await audits("bo@example.com")).map((row) => `${row.action} ${row.user_email}`)).toEqual(["user.add (operator CLI)", "user.disable ada@example.com", "user.enable ada@example.com"]);
  });

  it("ends a disabled user's sessions, and signs a user out everywhere on request", async () => {
    const { user } = await addUser(cli, { email: "sam@example.com", role: "supervisor", plants: ["HOU1"] });
    const [one, two] = [await createSession(db, user.id, "credentials", policy), await createSession(db, user.id, "oidc", policy)];
    expect(await endUserSessions(cli, user.id)).toBe(2);
    expect(await checkSession(db, one, policy)).toBeNull();
    const three = await createSession(db, user.id, "credentials", policy);
    await setUserEnabled(cli, user.id, false);
    expect(await checkSession(db, three, policy)).toBeNull();
    expect(two).not.toBe(three);
    await expect(inviteUser(cli, user.id)).rejects.toThrow("Enable the user");
    await expect(endUserSessions(cli, 999_999)).rejects.toMatchObject({ problem: "not-found" });
  });

  it("changes role and plants, and a new invitation replaces the old", async () => {
    const { user, invitation } = await addUser(cli, { email: "kim@example.com", role: "engineer", plants: ["RTM1"] }, { invite: true });
    expect(await updateUser(cli, user.id, { role: "supervisor", plants: "*" })).toMatchObject({ role: "supervisor", plants: "*" });
    const next = await inviteUser(cli, user.id);
    expect(await peekInvitation(db, invitation!.token)).toBeNull();
    expect(await peekInvitation(db, next.token)).toBe(user.id);
  });
}

describe("user administration on SQLite", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-user-admin-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  userAdminSuite(() => openDashboardSql({ dataDir }));
});

describeWithService("postgres", "user administration on PostgreSQL", (service) => {
  let schema: TestSchema | undefined;
  afterAll(() => schema?.drop());
  userAdminSuite(async () => {
    schema ??= await createTestSchema(service.url);
    return openDashboardSql({ dataDir: "/nonexistent", DATABASE_URL: schema.url });
  });
});
