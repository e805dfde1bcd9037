/**
 * The audit log stays bounded and records refusals (issue 35): failed sign-ins are one row per
 * address, outcome and minute with a count (a fixed clock), the retention prune deletes only rows
 * past AUDIT_RETENTION_DAYS, on SQLite and PostgreSQL; and a refused admin call (403) over real
 * HTTP writes a row saying who tried what. Before: every failed sign-in was a row of its own, no
 * prune existed, and a planner's GET /api/users or /api/audit left no trace.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => (await import("@/lib/bff/testing/environment")).setTestEnvironment("audit-bounds", { DEMO_PASSWORD: "demo-password-for-tests", DEMO_LIVE: "0" }));

import type { SqlDb } from "@/lib/platform/sql";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { describeWithService } from "@/lib/testing/with-service";
import { startEmbeddedDashboard, type EmbeddedDashboard } from "@/lib/bff/testing/dashboards";
import { ANONYMOUS, pruneAudit, recordAudit, recordFailedSignIn } from "./audit";
import { getDashboardDb, openDashboardSql } from "./database";

const T0 = Date.parse("2026-03-10T12:00:10.000Z");

function boundsSuite(open: () => Promise<SqlDb>): void {
  let db: SqlDb;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(() => db?.close());

  it("aggregates failed sign-ins to one row per address, outcome and minute, counting attempts and the first accounts", async () => {
    const attempts: Promise<void>[] = [];
    for (let i = 0; i < 40; i++) attempts.push(recordFailedSignIn(db, { address: "198.51.100.7", account: `user${i % 8}@example.com`, outcome: "INVALID_CREDENTIALS", httpStatus: 401 }, new Date(T0 + i * 1000)));
    attempts.push(recordFailedSignIn(db, { address: "198.51.100.7", account: "x@example.com", outcome: "THROTTLED", httpStatus: 429 }, new Date(T0)));
    attempts.push(recordFailedSignIn(db, { address: "203.0.113.9", account: "x@example.com", outcome: "INVALID_CREDENTIALS", httpStatus: 401 }, new Date(T0)));
    await Promise.all(attempts);
    const rows = await db.all<{ at: string; user_email: string; target: string; outcome: string; detail: string }>(
      "SELECT at, user_email, target, outcome, detail FROM audit_log WHERE action = 'auth.sign-in' ORDER BY target, outcome, at",
    );
    const view = rows.map((row) => [row.at, row.user_email, row.target, row.outcome, JSON.parse(row.detail).count]);
    // 12:00:10 … 12:00:49 is one minute: 40 attempts, one row.
    expect(view).toEqual([
      ["2026-03-10T12:00:00.000Z", ANONYMOUS, "198.51.100.7", "INVALID_CREDENTIALS", 40],
      ["2026-03-10T12:00:00.000Z", ANONYMOUS, "198.51.100.7", "THROTTLED", 1],
      ["2026-03-10T12:00:00.000Z", ANONYMOUS, "203.0.113.9", "INVALID_CREDENTIALS", 1],
    ]);
    const accounts = JSON.parse(rows[0]!.detail).accounts as Record<string, number>;
    expect(Object.keys(accounts)).toHaveLength(5); // the first five accounts; the rest only in the count
    expect(accounts["user0@example.com"]).toBe(5);
    // The next minute opens a row of its own.
    await recordFailedSignIn(db, { address: "198.51.100.7", account: "user0@example.com", outcome: "INVALID_CREDENTIALS", httpStatus: 401 }, new Date(T0 + 60_000));
    expect(await db.all("SELECT at FROM audit_log WHERE target = '198.51.100.7' AND outcome = 'INVALID_CREDENTIALS' ORDER BY at")).toHaveLength(2);
  });

  it("prunes rows older than the retention, in batches, and nothing newer", async () => {
    for (const at of ["2025-01-01T00:00:00.000Z", "2025-02-02T23:59:59.000Z", "2025-02-03T00:00:01.000Z", "2026-03-10T00:00:00.000Z"]) {
      await db.run("INSERT INTO audit_log (at, user_email, action, outcome, http_status) VALUES (@at, 'old@example.com', 'task.create', 'SUCCESS', 200)", { at });
    }
    const now = Date.parse("2026-03-10T00:00:00.000Z");
    // 400 days before now is 2025-02-03T00:00:00Z: the first two rows go, in batches of one.
    expect(await pruneAudit(db, 400, now, 1)).toBe(2);
    expect((await db.all<{ at: string }>("SELECT at FROM audit_log WHERE user_email = 'old@example.com' ORDER BY at")).map((row) => row.at)).toEqual([
      "2025-02-03T00:00:01.000Z",
      "2026-03-10T00:00:00.000Z",
    ]);
    expect(await pruneAudit(db, 400, now)).toBe(0);
  });
}

describe("audit bounds on SQLite", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-bounds-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  boundsSuite(() => openDashboardSql({ dataDir }));
});

describeWithService("postgres", "audit bounds on PostgreSQL", (service) => {
  let schema: TestSchema | undefined;
  afterAll(() => schema?.drop());
  boundsSuite(async () => {
    schema ??= await createTestSchema(service.url);
    return openDashboardSql({ dataDir: "/nonexistent", DATABASE_URL: schema.url });
  });
});

describe("a refused admin call over HTTP", () => {
  let dashboard: EmbeddedDashboard;
  beforeAll(async () => {
    dashboard = await startEmbeddedDashboard(env, "demo-password-for-tests");
  }, 120_000);
  afterAll(() => dashboard?.close());

  it("writes an audit row: who, what, when, and 403 — for admin-only reads too", async () => {
    const planner = await dashboard.cookieFor("planner@plantdesk.demo");
    const before = Date.now();
    for (const [method, target] of [
      ["GET", "/api/users"],
      ["GET", "/api/audit"],
      ["POST", "/api/users/1/sign-out"],
    ] as const) {
      const response = await dashboard.api.call(target, { method, cookie: planner, ...(method === "POST" ? { body: {} } : {}) });
      expect([target, response.status]).toEqual([target, 403]);
    }
    const rows = await (await getDashboardDb()).all<{ at: string; user_email: string; action: string; target: string; outcome: string; http_status: number }>(
      "SELECT at, user_email, action, target, outcome, http_status FROM audit_log WHERE user_email = 'planner@plantdesk.demo' AND outcome = 'FORBIDDEN' ORDER BY id",
    );
    expect(rows.map((row) => [row.action, row.target, row.http_status])).toEqual([
      ["access.denied", "GET /api/users", 403],
      ["access.denied", "GET /api/audit", 403],
      ["access.denied", "POST /api/users/1/sign-out", 403],
    ]);
    for (const row of rows) expect(Date.parse(row.at)).toBeGreaterThanOrEqual(before - 1000);
    // An allowed call adds no such row.
    await recordAudit(await getDashboardDb(), { userEmail: "marker@example.com", action: "task.create", outcome: "SUCCESS", httpStatus: 201 });
    expect((await dashboard.api.call("/api/users", { cookie: await dashboard.cookieFor("admin@plantdesk.demo") })).status).toBe(200);
    expect(await (await getDashboardDb()).all("SELECT id FROM audit_log WHERE action = 'access.denied' AND user_email = 'admin@plantdesk.demo'")).toEqual([]);
  });
});
