/**
 * The plant's library of saved queries (docs/boards.md, "The query library") in the dashboard's
 * store, SQLite or PostgreSQL with the same SQL. Deleting one removes the row: a link to it then
 * says it is gone (404), and nothing else names it (a panel or monitor keeps its own copy).
 */
import type { SqlExecutor } from "@/lib/platform/sql";
import type { TSavedQuery, TSavedQueryBody } from "@/modules/boards/contract/saved-queries";

/** A saved query as stored: whether the signed-in user may change it is the API's to say. */
export type StoredSavedQuery = Omit<TSavedQuery, "canEdit">;

interface SavedQueryRow {
  id: number;
  plant_id: string;
  title: string;
  description: string;
  tags: string;
  query: string;
  owner: string;
  created_at: string;
  updated_by: string;
  updated_at: string;
  last_run_at: string | null;
  last_run_by: string | null;
}

function toSavedQuery(row: SavedQueryRow): StoredSavedQuery {
  return {
    id: Number(row.id),
    plantId: row.plant_id,
    title: row.title,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    query: row.query,
    owner: row.owner,
    createdAt: row.created_at,
    updatedBy: row.updated_by,
    updatedAt: row.updated_at,
    lastRunAt: row.last_run_at,
    lastRunBy: row.last_run_by,
  };
}

const iso = (now: number) => new Date(now).toISOString();

/** By title; bounded by the per-plant limit (DASHBOARD_LIMITS.maxSavedQueries). */
export async function listSavedQueries(db: SqlExecutor, plantId: string): Promise<StoredSavedQuery[]> {
  return (await db.all<SavedQueryRow>("SELECT * FROM saved_queries WHERE plant_id = @plantId ORDER BY title, id", { plantId })).map(toSavedQuery);
}

export async function countSavedQueries(db: SqlExecutor, plantId: string): Promise<number> {
  return Number((await db.get<{ n: number }>("SELECT count(*) AS n FROM saved_queries WHERE plant_id = @plantId", { plantId }))!.n);
}

export async function getSavedQuery(db: SqlExecutor, plantId: string, id: number): Promise<StoredSavedQuery | null> {
  const row = await db.get<SavedQueryRow>("SELECT * FROM saved_queries WHERE plant_id = @plantId AND id = @id", { plantId, id });
  return row ? toSavedQuery(row) : null;
}

export async function createSavedQuery(db: SqlExecutor, plantId: string, body: TSavedQueryBody, by: string, now = Date.now()): Promise<StoredSavedQuery> {
  const row = await db.get<SavedQueryRow>(
    `INSERT INTO saved_queries (plant_id, title, description, tags, query, owner, created_at, updated_by, updated_at)
     VALUES (@plantId, @title, @description, @tags, @query, @by, @at, @by, @at) RETURNING *`,
    { plantId, title: body.title, description: body.description, tags: JSON.stringify(body.tags), query: body.query, by, at: iso(now) },
  );
  return toSavedQuery(row!);
}

export async function replaceSavedQuery(db: SqlExecutor, plantId: string, id: number, body: TSavedQueryBody, by: string, now = Date.now()): Promise<StoredSavedQuery | null> {
  const row = await db.get<SavedQueryRow>(
    `UPDATE saved_queries SET title = @title, description = @description, tags = @tags, query = @query, updated_by = @by, updated_at = @at
     WHERE plant_id = @plantId AND id = @id RETURNING *`,
    { plantId, id, title: body.title, description: body.description, tags: JSON.stringify(body.tags), query: body.query, by, at: iso(now) },
  );
  return row ? toSavedQuery(row) : null;
}

export async function deleteSavedQuery(db: SqlExecutor, plantId: string, id: number): Promise<StoredSavedQuery | null> {
  const row = await db.get<SavedQueryRow>("DELETE FROM saved_queries WHERE plant_id = @plantId AND id = @id RETURNING *", { plantId, id });
  return row ? toSavedQuery(row) : null;
}

/** Someone opened it to run (the explorer, a panel or a monitor took its text): the library shows when, and who. */
export async function markSavedQueryRun(db: SqlExecutor, plantId: string, id: number, by: string, now = Date.now()): Promise<StoredSavedQuery | null> {
  const row = await db.get<SavedQueryRow>("UPDATE saved_queries SET last_run_at = @at, last_run_by = @by WHERE plant_id = @plantId AND id = @id RETURNING *", { plantId, id, by, at: iso(now) });
  return row ? toSavedQuery(row) : null;
}
