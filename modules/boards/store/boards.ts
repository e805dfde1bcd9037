/**
 * A plant's dashboards in the dashboard's store (SQLite or PostgreSQL through the one SQL
 * interface; the same SQL on both). Every save names the version it started from and raises it by
 * one in the same statement (`WHERE version = @version`), so of two people saving the same board the
 * second is refused and loses nothing: they reload and see the first one's change.
 */
import type { SqlExecutor } from "@/lib/platform/sql";
import type { TBoardFolder, TBoardPlacement, TBoardSharing, TDashboard, TDashboardDefinition, TDashboardSummary } from "@/modules/boards/contract/boards";
import type { Role } from "@/lib/contract/roles";

/** A board as stored: what the signed-in user may do with it is the API's to say (contract/access.ts). */
export type StoredDashboard = Omit<TDashboard, "canEdit">;

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
  folder_id: number | null;
  visibility: TBoardSharing["visibility"];
  visibility_role: Role | null;
  owner: string;
}

function toDashboard(row: DashboardRow): StoredDashboard {
  return {
    id: Number(row.id),
    plantId: row.plant_id,
    folderId: row.folder_id === null ? null : Number(row.folder_id),
    sharing: { visibility: row.visibility, role: row.visibility === "role" ? row.visibility_role : null },
    owner: row.owner,
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
    folderId: dashboard.folderId,
    sharing: dashboard.sharing,
    owner: dashboard.owner,
    canEdit: dashboard.canEdit,
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

/** By title; bounded by the per-plant limit. Who sees which is the API's to filter (contract/access.ts). */
export async function listDashboards(db: SqlExecutor, plantId: string): Promise<StoredDashboard[]> {
  const rows = await db.all<DashboardRow>("SELECT * FROM dashboards WHERE plant_id = @plantId AND deleted_at IS NULL ORDER BY title, id", { plantId });
  return rows.map(toDashboard);
}

export async function getDashboard(db: SqlExecutor, plantId: string, id: number): Promise<StoredDashboard | null> {
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
  options: { seed?: string; now?: number; placement?: TBoardPlacement } = {},
): Promise<StoredDashboard | null> {
  const at = new Date(options.now ?? Date.now()).toISOString();
  const placement = options.placement ?? { folderId: null, sharing: { visibility: "plant", role: null } };
  const row = await db.get<DashboardRow>(
    `INSERT INTO dashboards (plant_id, title, definition, version, seed, created_by, created_at, updated_by, updated_at, folder_id, visibility, visibility_role, owner)
     VALUES (@plantId, @title, @definition, 1, @seed, @by, @at, @by, @at, @folderId, @visibility, @role, @by) ON CONFLICT (plant_id, seed) WHERE seed IS NOT NULL DO NOTHING RETURNING *`,
    {
      plantId,
      title: definition.title,
      definition: JSON.stringify(definition),
      seed: options.seed ?? null,
      by,
      at,
      folderId: placement.folderId,
      visibility: placement.sharing.visibility,
      role: placement.sharing.role,
    },
  );
  return row ? toDashboard(row) : null;
}

export type SaveOutcome = { ok: true; dashboard: StoredDashboard } | { ok: false; reason: "missing" } | { ok: false; reason: "conflict"; current: StoredDashboard };

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

/**
 * Moves a board to a folder and says who sees it. Not a new version: the definition is unchanged,
 * and a draft someone is editing still saves (its `If-Match` names the definition's version).
 */
export async function placeDashboard(db: SqlExecutor, plantId: string, id: number, placement: TBoardPlacement, by: string, now = Date.now()): Promise<StoredDashboard | null> {
  const row = await db.get<DashboardRow>(
    `UPDATE dashboards SET folder_id = @folderId, visibility = @visibility, visibility_role = @role, updated_by = @by, updated_at = @now
     WHERE plant_id = @plantId AND id = @id AND deleted_at IS NULL RETURNING *`,
    { folderId: placement.folderId, visibility: placement.sharing.visibility, role: placement.sharing.role, by, now: new Date(now).toISOString(), plantId, id },
  );
  return row ? toDashboard(row) : null;
}

interface FolderRow {
  id: number;
  name: string;
  created_by: string;
  created_at: string;
}

const toFolder = (row: FolderRow): TBoardFolder => ({ id: Number(row.id), name: row.name, createdBy: row.created_by, createdAt: row.created_at });
/** Folder names compare without case: "Line 2" and "line 2" are one folder. */
const nameKey = (name: string) => name.trim().toLowerCase();

export async function listFolders(db: SqlExecutor, plantId: string): Promise<TBoardFolder[]> {
  return (await db.all<FolderRow>("SELECT id, name, created_by, created_at FROM dashboard_folders WHERE plant_id = @plantId ORDER BY name_key, id", { plantId })).map(toFolder);
}

export async function getFolder(db: SqlExecutor, plantId: string, id: number): Promise<TBoardFolder | null> {
  const row = await db.get<FolderRow>("SELECT id, name, created_by, created_at FROM dashboard_folders WHERE plant_id = @plantId AND id = @id", { plantId, id });
  return row ? toFolder(row) : null;
}

export async function folderNamed(db: SqlExecutor, plantId: string, name: string): Promise<TBoardFolder | null> {
  const row = await db.get<FolderRow>("SELECT id, name, created_by, created_at FROM dashboard_folders WHERE plant_id = @plantId AND name_key = @key", { plantId, key: nameKey(name) });
  return row ? toFolder(row) : null;
}

/** A new folder; null when the plant has one of that name already. */
export async function createFolder(db: SqlExecutor, plantId: string, name: string, by: string, now = Date.now()): Promise<TBoardFolder | null> {
  const row = await db.get<FolderRow>(
    `INSERT INTO dashboard_folders (plant_id, name, name_key, created_by, created_at) VALUES (@plantId, @name, @key, @by, @at)
     ON CONFLICT (plant_id, name_key) DO NOTHING RETURNING id, name, created_by, created_at`,
    { plantId, name: name.trim(), key: nameKey(name), by, at: new Date(now).toISOString() },
  );
  return row ? toFolder(row) : null;
}

export async function countFolders(db: SqlExecutor, plantId: string): Promise<number> {
  return Number((await db.get<{ n: number }>("SELECT count(*) AS n FROM dashboard_folders WHERE plant_id = @plantId", { plantId }))!.n);
}

export type FolderOutcome = { ok: true; folder: TBoardFolder } | { ok: false; reason: "missing" | "taken" | "not-empty" };

export async function renameFolder(db: SqlExecutor, plantId: string, id: number, name: string): Promise<FolderOutcome> {
  const other = await folderNamed(db, plantId, name);
  if (other && other.id !== id) return { ok: false, reason: "taken" };
  const row = await db.get<FolderRow>("UPDATE dashboard_folders SET name = @name, name_key = @key WHERE plant_id = @plantId AND id = @id RETURNING id, name, created_by, created_at", {
    name: name.trim(),
    key: nameKey(name),
    plantId,
    id,
  });
  return row ? { ok: true, folder: toFolder(row) } : { ok: false, reason: "missing" };
}

/** Only an empty folder goes (every board counts, private ones of others too): no board is ever left in a folder that is gone. */
export async function deleteFolder(db: SqlExecutor, plantId: string, id: number): Promise<FolderOutcome> {
  const folder = await getFolder(db, plantId, id);
  if (!folder) return { ok: false, reason: "missing" };
  const row = await db.get<FolderRow>(
    `DELETE FROM dashboard_folders WHERE plant_id = @plantId AND id = @id
       AND NOT EXISTS (SELECT 1 FROM dashboards WHERE plant_id = @plantId AND folder_id = @id AND deleted_at IS NULL)
     RETURNING id, name, created_by, created_at`,
    { plantId, id },
  );
  return row ? { ok: true, folder: toFolder(row) } : { ok: false, reason: "not-empty" };
}
