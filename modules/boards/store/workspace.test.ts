/**
 * Workspace organisation in the store (docs/boards.md), on SQLite and PostgreSQL: boards made
 * before migration 042 stay shared with the plant and are owned by their creator; folder names are
 * unique in a plant whatever their case, and only an empty folder goes; a board's placement is kept
 * without a new version; the saved-query library keeps its rows by id through a rename.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SqlDb } from "@/lib/platform/sql";
import { openPostgres } from "@/lib/platform/postgres";
import { sqliteSql } from "@/lib/platform/sql";
import { openSqlite } from "@/lib/platform/sqlite";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { describeWithService } from "@/lib/testing/with-service";
import { DASHBOARD_MIGRATIONS, DASHBOARD_MIGRATIONS_KEY } from "@/lib/dashboard-store/database";
import { createDashboard, createFolder, deleteFolder, getDashboard, listFolders, placeDashboard, renameFolder } from "./boards";
import { createSavedQuery, deleteSavedQuery, getSavedQuery, markSavedQueryRun, replaceSavedQuery } from "./saved-queries";
import { PLANT_HEALTH } from "./plant-health";

const BEFORE = DASHBOARD_MIGRATIONS.filter((migration) => migration.version < 42);
const OLD_ROW = `INSERT INTO dashboards (plant_id, title, definition, version, created_by, created_at, updated_by, updated_at)
  VALUES ('RTM1', 'Old board', '${JSON.stringify(PLANT_HEALTH).replace(/'/g, "''")}', 3, 'eve@example.com', '2026-01-01T00:00:00.000Z', 'sam@example.com', '2026-01-02T00:00:00.000Z')`;

function workspaceSuite(open: (migrations: typeof DASHBOARD_MIGRATIONS) => Promise<SqlDb>): void {
  it("migrates an existing board to the whole plant, owned by its creator, in no folder", async () => {
    const old = await open(BEFORE);
    await old.run(OLD_ROW);
    await old.close();
    const db = await open(DASHBOARD_MIGRATIONS);
    try {
      const id = Number((await db.get<{ id: number }>("SELECT id FROM dashboards WHERE title = 'Old board'"))!.id);
      expect(await getDashboard(db, "RTM1", id)).toMatchObject({ version: 3, owner: "eve@example.com", folderId: null, sharing: { visibility: "plant", role: null } });
    } finally {
      await db.close();
    }
  });

  it("keeps folder names unique per plant in any case, deletes only empty ones, and places boards without a new version", async () => {
    const db = await open(DASHBOARD_MIGRATIONS);
    try {
      const line = (await createFolder(db, "RTM1", " Line 2 ", "eve@example.com"))!;
      expect(line.name).toBe("Line 2");
      expect(await createFolder(db, "RTM1", "line 2", "sam@example.com")).toBeNull();
      expect(await createFolder(db, "HOU1", "LINE 2", "sam@example.com")).not.toBeNull();
      const other = (await createFolder(db, "RTM1", "Utilities", "eve@example.com"))!;
      expect(await renameFolder(db, "RTM1", other.id, "LINE 2")).toEqual({ ok: false, reason: "taken" });
      expect(await renameFolder(db, "RTM1", line.id, "line 2 (pumps)")).toMatchObject({ ok: true, folder: { id: line.id, name: "line 2 (pumps)" } });
      expect((await listFolders(db, "RTM1")).map((folder) => folder.name)).toEqual(["line 2 (pumps)", "Utilities"]);

      const board = (await createDashboard(db, "RTM1", PLANT_HEALTH, "eve@example.com"))!;
      expect(board).toMatchObject({ owner: "eve@example.com", sharing: { visibility: "plant", role: null }, folderId: null });
      const placed = (await placeDashboard(db, "RTM1", board.id, { folderId: line.id, sharing: { visibility: "role", role: "planner" } }, "eve@example.com"))!;
      expect(placed).toMatchObject({ version: 1, folderId: line.id, sharing: { visibility: "role", role: "planner" } });
      expect(await placeDashboard(db, "HOU1", board.id, { folderId: null, sharing: { visibility: "plant", role: null } }, "x")).toBeNull();

      expect(await deleteFolder(db, "RTM1", line.id)).toEqual({ ok: false, reason: "not-empty" });
      await placeDashboard(db, "RTM1", board.id, { folderId: null, sharing: { visibility: "private", role: null } }, "eve@example.com");
      expect(await deleteFolder(db, "RTM1", line.id)).toMatchObject({ ok: true });
      expect(await deleteFolder(db, "RTM1", line.id)).toEqual({ ok: false, reason: "missing" });
    } finally {
      await db.close();
    }
  });

  it("keeps a saved query by id through a rename, marks its last run, and deletes it", async () => {
    const db = await open(DASHBOARD_MIGRATIONS);
    try {
      const body = { title: "Pump temperatures", description: "Hourly", tags: ["pumps", "line 2"], query: "States | take 1" };
      const saved = await createSavedQuery(db, "RTM1", body, "eve@example.com", Date.parse("2026-03-01T00:00:00Z"));
      expect(saved).toMatchObject({ owner: "eve@example.com", tags: ["pumps", "line 2"], lastRunAt: null });
      const renamed = (await replaceSavedQuery(db, "RTM1", saved.id, { ...body, title: "Pump temperatures (hourly)" }, "admin@example.com"))!;
      expect(renamed).toMatchObject({ id: saved.id, title: "Pump temperatures (hourly)", owner: "eve@example.com", updatedBy: "admin@example.com" });
      expect(await markSavedQueryRun(db, "RTM1", saved.id, "sam@example.com", Date.parse("2026-03-02T08:00:00Z"))).toMatchObject({ lastRunAt: "2026-03-02T08:00:00.000Z", lastRunBy: "sam@example.com" });
      expect(await getSavedQuery(db, "HOU1", saved.id)).toBeNull();
      expect(await deleteSavedQuery(db, "RTM1", saved.id)).not.toBeNull();
      expect(await getSavedQuery(db, "RTM1", saved.id)).toBeNull();
    } finally {
      await db.close();
    }
  });
}

describe("workspace on SQLite", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-workspace-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  workspaceSuite(async (migrations) => sqliteSql(openSqlite(path.join(dataDir, "dashboard.sqlite"), migrations)));
});

describeWithService("postgres", "workspace on PostgreSQL", (service) => {
  let schema: TestSchema | undefined;
  afterAll(() => schema?.drop());
  workspaceSuite(async (migrations) => {
    schema ??= await createTestSchema(service.url);
    return openPostgres(schema.url, migrations, DASHBOARD_MIGRATIONS_KEY);
  });
});
