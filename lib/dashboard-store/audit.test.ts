/**
 * The audit log's filter and export (audit.ts) on a real store, SQLite and PostgreSQL: days are the
 * reader's days in their zone (an entry at 23:30 UTC is the next day in Amsterdam), the user filter
 * matches part of an e-mail or a name in any case (a `%` typed is a percent sign, not a wildcard),
 * and the CSV speaks words and local times with their offset.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZAuditQuery } from "@/lib/contract/audit";
import type { SqlDb } from "@/lib/platform/sql";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { describeWithService } from "@/lib/testing/with-service";
import { auditCsv, auditFilterOf, queryAudit } from "./audit";
import { openDashboardSql } from "./database";
import { upsertUser } from "./users";

/** [at, user, action, outcome] rows written as they are, so their instants are known. */
const ROWS: [string, string, string, string][] = [
  ["2026-03-09T22:59:59.000Z", "ann.smith@example.com", "task.create", "SUCCESS"], // 23:59:59 on the 9th in Amsterdam
  ["2026-03-09T23:30:00.000Z", "bob@example.com", "task.transition", "INVALID_TRANSITION"], // 00:30 on the 10th in Amsterdam
  ["2026-03-10T12:00:00.000Z", "ann.smith@example.com", "stock-level.submit", "SUCCESS"],
  ["2026-03-10T23:10:00.000Z", "carol%x@example.com", "task.update", "SUCCESS"], // the 11th in Amsterdam, still the 10th in UTC
];

function auditSuite(open: () => Promise<SqlDb>): void {
  let db: SqlDb;
  beforeAll(async () => {
    db = await open();
    await upsertUser(db, { email: "bob@example.com", name: "Robert Mulder", role: "planner", plants: ["RTM1"] });
    for (const [at, user, action, outcome] of ROWS) {
      await db.run(`INSERT INTO audit_log (at, user_email, plant_id, action, target, outcome, http_status, detail) VALUES (@at, @user, 'RTM1', @action, 'T-1', @outcome, @httpStatus, @detail)`, {
        at,
        user,
        action,
        outcome,
        httpStatus: outcome === "SUCCESS" ? 200 : 412,
        detail: JSON.stringify({ to: "PENDING" }),
      });
    }
  });
  afterAll(() => db?.close());

  const find = async (query: Record<string, string>) => {
    const filter = auditFilterOf(ZAuditQuery.parse(query));
    return (await queryAudit(db, filter, 1, 100)).data.map((row) => row.at);
  };

  it("reads days in the reader's zone: a day in Amsterdam is not the UTC day", async () => {
    expect(await find({ from: "2026-03-10", to: "2026-03-10", tz: "Europe/Amsterdam" })).toEqual(["2026-03-10T12:00:00.000Z", "2026-03-09T23:30:00.000Z"]);
    expect(await find({ from: "2026-03-10", to: "2026-03-10", tz: "UTC" })).toEqual(["2026-03-10T23:10:00.000Z", "2026-03-10T12:00:00.000Z"]);
    expect(await find({ from: "2026-03-10", to: "2026-03-10" })).toEqual(await find({ from: "2026-03-10", to: "2026-03-10", tz: "UTC" }));
    // Houston is on CDT (UTC-5) since 8 March: its 9th runs to 05:00 UTC on the 10th.
    expect(await find({ to: "2026-03-09", tz: "America/Chicago" })).toEqual(["2026-03-09T23:30:00.000Z", "2026-03-09T22:59:59.000Z"]);
    // Instants are taken as they are, with any offset.
    expect(await find({ from: "2026-03-10T13:00:00+01:00", to: "2026-03-10T13:00:01+01:00" })).toEqual(["2026-03-10T12:00:00.000Z"]);
  });

  it("finds a user by part of the e-mail or the name, in any case; % and _ are literal", async () => {
    expect(new Set(await find({ user: "ANN.S" }))).toEqual(new Set(["2026-03-09T22:59:59.000Z", "2026-03-10T12:00:00.000Z"]));
    expect(await find({ user: "mulder" })).toEqual(["2026-03-09T23:30:00.000Z"]);
    expect(await find({ user: "l%x" })).toEqual(["2026-03-10T23:10:00.000Z"]);
    expect(await find({ user: "%" })).toEqual(["2026-03-10T23:10:00.000Z"]);
    expect(await find({ user: "_" })).toEqual([]);
    expect(await find({ user: "nobody" })).toEqual([]);
  });

  it("exports words and the reader's local time with its offset", async () => {
    const csv = await auditCsv(db, auditFilterOf(ZAuditQuery.parse({ from: "2026-03-10", to: "2026-03-10", tz: "Europe/Amsterdam" })), "Europe/Amsterdam");
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe("Time (Europe/Amsterdam),User,Plant,Action,Target,Outcome,HTTP status,Detail,Entry");
    expect(lines[1]).toMatch(/^2026-03-10T13:00:00\+01:00,ann\.smith@example\.com,RTM1,Stock level recorded,T-1,Success,200,to: PENDING,\d+$/);
    expect(lines[2]).toMatch(/^2026-03-10T00:30:00\+01:00,bob@example\.com,RTM1,Task moved,T-1,Move not allowed \(412\),412,to: PENDING,\d+$/);
    expect(lines).toHaveLength(3);
    const houston = await auditCsv(db, auditFilterOf(ZAuditQuery.parse({ user: "carol" })), "America/Chicago");
    expect(houston.split("\r\n")[1]).toMatch(/^2026-03-10T18:10:00-05:00,/);
  });

  it("refuses an unknown zone and a malformed day with the schema's words", () => {
    expect(ZAuditQuery.safeParse({ tz: "Mars/Olympus" }).error?.issues[0]?.message).toMatch(/IANA time zone/);
    expect(ZAuditQuery.safeParse({ from: "2026-02-30" }).success).toBe(false);
    expect(ZAuditQuery.safeParse({ from: "yesterday" }).success).toBe(false);
  });
}

describe("audit log on SQLite", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-audit-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  auditSuite(() => openDashboardSql({ dataDir }));
});

describeWithService("postgres", "audit log on PostgreSQL", (service) => {
  let schema: TestSchema | undefined;
  afterAll(() => schema?.drop());
  auditSuite(async () => {
    schema ??= await createTestSchema(service.url);
    return openDashboardSql({ dataDir: "/nonexistent", DATABASE_URL: schema.url });
  });
});
