/**
 * Each user's telemetry query history: every query the user runs is remembered (one entry per
 * distinct query text, with the range and plants it last ran with and how often), entries can be
 * starred and titled, and unstarred ones beyond the newest HISTORY_LIMIT are dropped. At most
 * STARRED_LIMIT entries are starred: a user's history is bounded whatever they do.
 */
import type { SqlDb, SqlExecutor, SqlParams } from "@/lib/platform/sql";
import { invalidInput } from "@/lib/contract/errors";
import type { THistoryEntry as HistoryEntry, THistoryRecord, THistoryUpdate } from "@/lib/contract/dashboard";

const HISTORY_LIMIT = 200;
export const STARRED_LIMIT = 100;

/** 400 when starring `entryId` (or a new entry, null) would make more than STARRED_LIMIT. */
async function checkStarredRoom(db: SqlExecutor, userEmail: string, query: string | null, id: number | null): Promise<void> {
  const starred = (await db.get<{ n: number }>(
    "SELECT count(*) AS n FROM query_history WHERE user_email = @userEmail AND starred = 1 AND NOT (query IS NOT DISTINCT FROM @query OR id IS NOT DISTINCT FROM @id)",
    { userEmail, query, id },
  ))!;
  if (starred.n >= STARRED_LIMIT) {
    throw invalidInput(`At most ${STARRED_LIMIT} queries can be starred; unstar one first.`, [{ field: "starred", problem: `at most ${STARRED_LIMIT} starred queries` }]);
  }
}

interface HistoryRow {
  id: number;
  query: string;
  plant_ids: string | null;
  start_time: string | null;
  end_time: string | null;
  title: string | null;
  starred: number;
  run_count: number;
  created_at: string;
  last_run_at: string;
}

function toEntry(row: HistoryRow): HistoryEntry {
  return {
    id: row.id,
    query: row.query,
    plantIds: row.plant_ids ? (JSON.parse(row.plant_ids) as string[]) : null,
    startTime: row.start_time,
    endTime: row.end_time,
    title: row.title,
    starred: row.starred === 1,
    runCount: row.run_count,
    createdAt: row.created_at,
    lastRunAt: row.last_run_at,
  };
}

export async function recordQuery(db: SqlDb, userEmail: string, entry: THistoryRecord): Promise<HistoryEntry> {
  const now = new Date().toISOString();
  return db.transaction(async (tx) => {
    if (entry.starred) await checkStarredRoom(tx, userEmail, entry.query, null);
    await tx.run(
      `INSERT INTO query_history (user_email, query, plant_ids, start_time, end_time, title, starred, run_count, created_at, last_run_at)
       VALUES (@userEmail, @query, @plantIds, @startTime, @endTime, @title, @starred, 1, @now, @now)
       ON CONFLICT (user_email, query) DO UPDATE SET plant_ids = excluded.plant_ids, start_time = excluded.start_time,
         end_time = excluded.end_time, title = COALESCE(excluded.title, query_history.title),
         starred = CASE WHEN excluded.starred > query_history.starred THEN excluded.starred ELSE query_history.starred END,
         run_count = query_history.run_count + 1, last_run_at = excluded.last_run_at`,
      {
        userEmail,
        query: entry.query,
        plantIds: entry.plantIds ? JSON.stringify(entry.plantIds) : null,
        startTime: entry.startTime ?? null,
        endTime: entry.endTime ?? null,
        title: entry.title ?? null,
        starred: entry.starred ? 1 : 0,
        now,
      },
    );
    await tx.run(
      `DELETE FROM query_history WHERE user_email = @userEmail AND starred = 0 AND id NOT IN (
         SELECT id FROM query_history WHERE user_email = @userEmail ORDER BY last_run_at DESC, id DESC LIMIT @limit)`,
      { userEmail, limit: HISTORY_LIMIT },
    );
    return toEntry((await tx.get<HistoryRow>("SELECT * FROM query_history WHERE user_email = @userEmail AND query = @query", {
      userEmail,
      query: entry.query,
    }))!);
  });
}

/** Starred first, then most recently run. */
export async function listHistory(db: SqlExecutor, userEmail: string, { starredOnly = false } = {}): Promise<HistoryEntry[]> {
  const rows = await db.all<HistoryRow>(
    `SELECT * FROM query_history WHERE user_email = @userEmail ${starredOnly ? "AND starred = 1" : ""}
     ORDER BY starred DESC, last_run_at DESC, id DESC`,
    { userEmail },
  );
  return rows.map(toEntry);
}

/** Null when the entry does not exist or belongs to someone else. */
export async function updateHistory(db: SqlExecutor, userEmail: string, update: THistoryUpdate): Promise<HistoryEntry | null> {
  const sets: string[] = [];
  const params: SqlParams = { id: update.id, userEmail };
  if (update.starred) await checkStarredRoom(db, userEmail, null, update.id);
  if (update.starred !== undefined) {
    sets.push("starred = @starred");
    params.starred = update.starred ? 1 : 0;
  }
  if (update.title !== undefined) {
    sets.push("title = @title");
    params.title = update.title || null;
  }
  if (sets.length > 0) await db.run(`UPDATE query_history SET ${sets.join(", ")} WHERE id = @id AND user_email = @userEmail`, params);
  const row = await db.get<HistoryRow>("SELECT * FROM query_history WHERE id = @id AND user_email = @userEmail", { id: update.id, userEmail });
  return row ? toEntry(row) : null;
}
