/** The `user` operator commands, run as the operator runs them (tsx scripts/ops.ts) on a temporary database. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { sqliteSql } from "@/lib/platform/sql";
import { runOps } from "@/lib/service/testing/run-ops";
import { afterAll, describe, expect, it } from "vitest";
import { verifyCredentials } from "./users";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-user-ops-"));

const ops = (args: string[], input?: string) => runOps(dataDir, args, input);

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("npm run ops -- user …", () => {
  it("adds a user with a password from stdin, lists without secrets, disables", async () => {
    const added = ops(["user", "add", "--email", "Kim@Example.com", "--role", "supervisor", "--plants", "RTM1,HOU1", "--password-stdin", "--json"], "a-long-password\n");
    expect(added.status, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ email: "kim@example.com", role: "supervisor", plants: ["RTM1", "HOU1"], disabled: false, hasPassword: true });

    const db = sqliteSql(new Database(path.join(dataDir, "dashboard.sqlite")));
    try {
      expect(await verifyCredentials(db, "kim@example.com", "a-long-password")).not.toBeNull();
      expect(await verifyCredentials(db, "kim@example.com", "a-long-password\n")).toBeNull();

      const listed = ops(["user", "list", "--json"]);
      expect(listed.status).toBe(0);
      expect(listed.stdout).not.toMatch(/\$2[aby]\$|a-long-password/);
      expect(JSON.parse(listed.stdout)).toContainEqual(expect.objectContaining({ email: "kim@example.com", disabled: false }));

      expect(ops(["user", "disable", "kim@example.com"]).status).toBe(0);
      expect(await verifyCredentials(db, "kim@example.com", "a-long-password")).toBeNull();
    } finally {
      await db.close();
    }
  });

  it("refuses bad arguments with a clear message and a non-zero exit", () => {
    const badRole = ops(["user", "add", "--email", "x@y.z", "--role", "boss", "--plants", "*"]);
    expect(badRole.status).toBe(2);
    expect(badRole.stderr).toContain("--role must be one of planner, supervisor, engineer, admin");
    const badPlant = ops(["user", "add", "--email", "x@y.z", "--role", "admin", "--plants", "NOPE1"]);
    expect(badPlant.status).toBe(2);
    expect(badPlant.stderr).toContain("Unknown plant(s) NOPE1");
    const shortPassword = ops(["user", "add", "--email", "x@y.z", "--role", "admin", "--plants", "*", "--password-stdin"], "short\n");
    expect(shortPassword.status).toBe(2);
    expect(ops(["user", "disable", "nobody@y.z"]).status).toBe(1);
  });

  it("adds a user without a password with an invitation link shown once, and signs a user out everywhere", () => {
    const added = ops(["user", "add", "--email", "inv@example.com", "--role", "engineer", "--plants", "RTM1", "--json"]);
    expect(added.status, added.stderr).toBe(0);
    const body = JSON.parse(added.stdout) as { invitationUrl: string; hasPassword: boolean };
    expect(body.hasPassword).toBe(false);
    expect(body.invitationUrl).toMatch(/^http:\/\/localhost:\d+\/invite\/[A-Za-z0-9_-]{43}$/);
    const signedOut = ops(["user", "sign-out", "inv@example.com", "--json"]);
    expect(signedOut.status, signedOut.stderr).toBe(0);
    expect(JSON.parse(signedOut.stdout)).toEqual({ ended: 0 });
  });
});
