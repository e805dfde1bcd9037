/**
 * A plant's dashboards in the dashboard's store (SQLite or PostgreSQL through the one SQL
 * interface; the same SQL on both). Every save names the version it started from and raises it by
 * one in the same statement (`WHERE version = @version`), so of two people saving the same board the
 * second is refused and loses nothing: they reload and see the first one's change.
 */
import type { SqlExecutor } from "@/lib/platform/sql";
import type { TDashboard, TDashboardDefinition, TDashboardSummary } from "@/modules/boards/contract/boards";

interface DashboardRow {
  id: number;
  plant_id: string;
  title: string;
  definition: string;
  version: number;
  created_by: string;
  created_at: string;
  updated_by: string;
  updated_at: string;
}

function toDashboard(row: DashboardRow): TDashboard {
  return {
    id: Number(row.id),
    plantId: row.plant_id,
    version: Number(row.version),
    definition: JSON.parse(row.definition) as TDashboardDefinition,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedBy: row.updated_by,
    updatedAt: row.updated_at,
  };
}

export function summarize(dashboard: TDashboard): TDashboardSummary {
  return {
    id: dashboard.id,
    title: dashboard.definition.title,
    description: dashboard.definition.description,
    panelCount: dashboard.definition.panels.length,
    version: dashboard.version,
    updatedBy: dashboard.updatedBy,
    updatedAt: dashboard.updatedAt,
  };
}

export async function countDashboards(db: SqlExecutor, plantId: string): Promise<number> {
  return Number((await db.get<{ n: number }>("SELECT count(*) AS n FROM dashboards WHERE plant_id = @plantId AND deleted_at IS NULL", { plantId }))!.n);
}

/** By title; bounded by the per-plant limit. */
export async function listDashboards(db: SqlExecutor, plantId: string): Promise<TDashboard[]> {
  const rows = await db.all<DashboardRow>("SELECT * FROM dashboards WHERE plant_id = @plantId AND deleted_at IS NULL ORDER BY title, id", { plantId });
  return rows.map(toDashboard);
}

export async function getDashboard(db: SqlExecutor, plantId: string, id: number): Promise<TDashboard | null> {
  const row = await db.get<DashboardRow>("SELECT * FROM dashboards WHERE plant_id = @plantId AND id = @id AND deleted_at IS NULL", { plantId, id });
  return row ? toDashboard(row) : null;
}

/**
 * A new board at version 1. With `seed`, at most one board per plant ever comes from it: null when
 * it already did (another instance seeded it, or it was seeded and deleted).
 */
export async function createDashboard(
  db: SqlExecutor,
  plantId: string,
  definition: TDashboardDefinition,
  by: string,
  options: { seed?: string; now?: number } = {},
): Promise<TDashboard | null> {
  const at = new Date(options.now ?? Date.now()).toISOString();
  const row = await db.get<DashboardRow>(
    `INSERT INTO dashboards (plant_id, title, definition, version, seed, created_by, created_at, updated_by, updated_at)
     VALUES (@plantId, @title, @definition, 1, @seed, @by, @at, @by, @at) ON CONFLICT (plant_id, seed) WHERE seed IS NOT NULL DO NOTHING RETURNING *`,
    { plantId, title: definition.title, definition: JSON.stringify(definition), seed: options.seed ?? null, by, at },
  );
  return row ? toDashboard(row) : null;
}

export type SaveOutcome = { ok: true; dashboard: TDashboard } | { ok: false; reason: "missing" } | { ok: false; reason: "conflict"; current: TDashboard };

/** Replaces the definition if the board is still at `version`; otherwise says why nothing changed. */
export async function replaceDashboard(
  db: SqlExecutor,
  plantId: string,
  id: number,
  version: number,
  definition: TDashboardDefinition,
  by: string,
  now = Date.now(),
): Promise<SaveOutcome> {
  const row = await db.get<DashboardRow>(
    `UPDATE dashboards SET title = @title, definition = @definition, version = version + 1, updated_by = @by, updated_at = @now
     WHERE plant_id = @plantId AND id = @id AND version = @version AND deleted_at IS NULL RETURNING *`,
    { title: definition.title, definition: JSON.stringify(definition), by, now: new Date(now).toISOString(), plantId, id, version },
  );
  if (row) return { ok: true, dashboard: toDashboard(row) };
  return missingOrConflict(db, plantId, id);
}

/** Deletes the board if it is still at `version` (null: whatever version it is at). */
export async function deleteDashboard(db: SqlExecutor, plantId: string, id: number, version: number | null, now = Date.now()): Promise<SaveOutcome> {
  const at = new Date(now).toISOString();
  const row = await db.get<DashboardRow>(
    `UPDATE dashboards SET deleted_at = @at, updated_at = @at WHERE plant_id = @plantId AND id = @id AND deleted_at IS NULL AND (@checkVersion = 0 OR version = @version) RETURNING *`,
    { at, plantId, id, checkVersion: version === null ? 0 : 1, version: version ?? 0 },
  );
  if (row) return { ok: true, dashboard: toDashboard(row) };
  return missingOrConflict(db, plantId, id);
}

async function missingOrConflict(db: SqlExecutor, plantId: string, id: number): Promise<SaveOutcome> {
  const current = await getDashboard(db, plantId, id);
  return current ? { ok: false, reason: "conflict", current } : { ok: false, reason: "missing" };
}
