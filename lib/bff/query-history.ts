/**
 * Each user's telemetry query history: every query the user runs is remembered (one entry per
 * distinct query text, with the range and plants it last ran with and how often), entries can be
 * starred and titled, and unstarred ones beyond the newest HISTORY_LIMIT are dropped.
 */
import type { Database } from "better-sqlite3";
import { z } from "zod";

export const HISTORY_LIMIT = 200;

export interface HistoryEntry {
  id: number;
  query: string;
  plantIds: string[] | null;
  startTime: string | null;
  endTime: string | null;
  title: string | null;
  starred: boolean;
  runCount: number;
  createdAt: string;
  lastRunAt: string;
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

/** Body of POST /api/telemetry/history (also what a query run records). */
export const ZHistoryRecord = z.object({
  query: z.string().trim().min(1, "must not be empty").max(20_000, "must be at most 20000 characters"),
  plantIds: z.array(z.string().max(64)).max(100).nullish(),
  startTime: z.string().max(40).nullish(),
  endTime: z.string().max(40).nullish(),
  title: z.string().trim().max(200).nullish(),
  starred: z.boolean().optional(),
});

/** Body of PATCH /api/telemetry/history. */
export const ZHistoryUpdate = z.object({
  id: z.number().int().positive(),
  starred: z.boolean().optional(),
  title: z.string().trim().max(200).nullable().optional(),
});

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

export function recordQuery(db: Database, userEmail: string, entry: z.output<typeof ZHistoryRecord>): HistoryEntry {
  const now = new Date().toISOString();
  return db.transaction(() => {
    db.prepare(
      `INSERT INTO query_history (user_email, query, plant_ids, start_time, end_time, title, starred, run_count, created_at, last_run_at)
       VALUES (@user, @query, @plantIds, @startTime, @endTime, @title, @starred, 1, @now, @now)
       ON CONFLICT (user_email, query) DO UPDATE SET plant_ids = excluded.plant_ids, start_time = excluded.start_time,
         end_time = excluded.end_time, title = COALESCE(excluded.title, query_history.title),
         starred = MAX(query_history.starred, excluded.starred), run_count = query_history.run_count + 1,
         last_run_at = excluded.last_run_at`,
    ).run({
      user: userEmail,
      query: entry.query,
      plantIds: entry.plantIds ? JSON.stringify(entry.plantIds) : null,
      startTime: entry.startTime ?? null,
      endTime: entry.endTime ?? null,
      title: entry.title ?? null,
      starred: entry.starred ? 1 : 0,
      now,
    });
    db.prepare(
      `DELETE FROM query_history WHERE user_email = ? AND starred = 0 AND id NOT IN (
         SELECT id FROM query_history WHERE user_email = ? ORDER BY last_run_at DESC, id DESC LIMIT ?)`,
    ).run(userEmail, userEmail, HISTORY_LIMIT);
    const row = db.prepare("SELECT * FROM query_history WHERE user_email = ? AND query = ?").get(userEmail, entry.query) as HistoryRow;
    return toEntry(row);
  })();
}

/** Starred first, then most recently run. */
export function listHistory(db: Database, userEmail: string, { starredOnly = false } = {}): HistoryEntry[] {
  const rows = db
    .prepare(
      `SELECT * FROM query_history WHERE user_email = ? ${starredOnly ? "AND starred = 1" : ""}
       ORDER BY starred DESC, last_run_at DESC, id DESC`,
    )
    .all(userEmail) as HistoryRow[];
  return rows.map(toEntry);
}

/** Null when the entry does not exist or belongs to someone else. */
export function updateHistory(db: Database, userEmail: string, update: z.output<typeof ZHistoryUpdate>): HistoryEntry | null {
  const sets: string[] = [];
  const values: Record<string, unknown> = { id: update.id, user: userEmail };
  if (update.starred !== undefined) {
    sets.push("starred = @starred");
    values.starred = update.starred ? 1 : 0;
  }
  if (update.title !== undefined) {
    sets.push("title = @title");
    values.title = update.title || null;
  }
  if (sets.length > 0) db.prepare(`UPDATE query_history SET ${sets.join(", ")} WHERE id = @id AND user_email = @user`).run(values);
  const row = db.prepare("SELECT * FROM query_history WHERE id = ? AND user_email = ?").get(update.id, userEmail) as HistoryRow | undefined;
  return row ? toEntry(row) : null;
}
