/**
 * A plant's dashboards in the store (dashboards.ts), on SQLite and on PostgreSQL: a save names the
 * version it edited, so of two saves from the same version the second is refused and the first one's
 * change is kept whole; a seed makes one board per plant, even raced and after a delete; plants
 * never see each other's boards.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, describe } from "vitest";
import type { SqlDb } from "@/lib/platform/sql";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { describeWithService } from "@/lib/testing/with-service";
import { openDashboardSql } from "@/lib/dashboard-store/database";
import { createDashboard, deleteDashboard, getDashboard, listDashboards, replaceDashboard } from "./boards";
import { PLANT_HEALTH, PLANT_HEALTH_SEED } from "./plant-health";

function dashboardSuite(open: () => Promise<SqlDb>): void {
  let db: SqlDb;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(() => db?.close());

  it("keeps the first of two saves from one version and refuses the second, naming the current version", async () => {
    const board = (await createDashboard(db, "RTM1", { ...PLANT_HEALTH, title: "Line 1" }, "eve@example.com"))!;
    expect(board.version).toBe(1);
    const first = await replaceDashboard(db, "RTM1", board.id, 1, { ...board.definition, title: "Line 1 (Eve)" }, "eve@example.com");
    const second = await replaceDashboard(db, "RTM1", board.id, 1, { ...board.definition, title: "Line 1 (Sam)", panels: [] }, "sam@example.com");
    expect(first).toMatchObject({ ok: true, dashboard: { version: 2, updatedBy: "eve@example.com" } });
    expect(second).toMatchObject({ ok: false, reason: "conflict", current: { version: 2, updatedBy: "eve@example.com" } });
    const stored = (await getDashboard(db, "RTM1", board.id))!;
    expect(stored.definition.title).toBe("Line 1 (Eve)");
    expect(stored.definition.panels).toHaveLength(PLANT_HEALTH.panels.length);

    // Another plant's board is not found through this plant, and a delete names the version too.
    expect(await getDashboard(db, "HOU1", board.id)).toBeNull();
    expect(await replaceDashboard(db, "HOU1", board.id, 2, board.definition, "x@example.com")).toEqual({ ok: false, reason: "missing" });
    expect(await deleteDashboard(db, "RTM1", board.id, 1)).toMatchObject({ ok: false, reason: "conflict" });
    expect(await deleteDashboard(db, "RTM1", board.id, 2)).toMatchObject({ ok: true });
    expect(await getDashboard(db, "RTM1", board.id)).toBeNull();
    expect(await deleteDashboard(db, "RTM1", board.id, null)).toEqual({ ok: false, reason: "missing" });
  });

  it("seeds a board once per plant, raced or after a delete", async () => {
    const raced = await Promise.all(Array.from({ length: 5 }, () => createDashboard(db, "OUL1", PLANT_HEALTH, "seed", { seed: PLANT_HEALTH_SEED })));
    expect(raced.filter((board) => board !== null)).toHaveLength(1);
    const seeded = raced.find((board) => board !== null)!;
    await deleteDashboard(db, "OUL1", seeded.id, null);
    expect(await createDashboard(db, "OUL1", PLANT_HEALTH, "seed", { seed: PLANT_HEALTH_SEED })).toBeNull();
    expect(await createDashboard(db, "HOU1", PLANT_HEALTH, "seed", { seed: PLANT_HEALTH_SEED })).not.toBeNull();
    expect((await listDashboards(db, "HOU1")).map((board) => board.definition.title)).toEqual(["Plant health"]);
    expect(await listDashboards(db, "OUL1")).toEqual([]);
  });
}

describe("dashboards on SQLite", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-dashboards-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  dashboardSuite(() => openDashboardSql({ dataDir }));
});

describeWithService("postgres", "dashboards on PostgreSQL", (service) => {
  let schema: TestSchema | undefined;
  afterAll(() => schema?.drop());
  dashboardSuite(async () => {
    schema ??= await createTestSchema(service.url);
    return openDashboardSql({ dataDir: "/nonexistent", DATABASE_URL: schema.url });
  });
});
