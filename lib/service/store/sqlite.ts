/**
 * The SQLite database of the embedded service: maintenance data and all operator state (plant
 * tokens, telemetry clients, users, audit log). One file, `DATA_DIR/plantdesk.sqlite`, in WAL mode so
 * the operator CLI can write while the server runs.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { MIGRATIONS, type Migration } from "./migrations";

export type SqliteDatabase = Database.Database;

export const DATABASE_FILE = "plantdesk.sqlite";

/** Opens (creating when missing) the database file and applies pending migrations. */
export function openDatabase(dataDir: string): SqliteDatabase {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, DATABASE_FILE));
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  // The CLI and the server share the file; wait for the other's write instead of failing at once.
  db.pragma("busy_timeout = 5000");
  // WAL makes NORMAL durable against application crashes; only an OS crash may lose the last commit.
  db.pragma("synchronous = NORMAL");
  applyMigrations(db);
  return db;
}

/**
 * Applies every migration newer than the database, each in its own transaction together with its
 * row in `schema_migrations`, so a failing migration leaves the database at the previous version.
 */
export function applyMigrations(db: SqliteDatabase, migrations: readonly Migration[] = MIGRATIONS): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = new Set(
    (db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map((row) => row.version),
  );
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
  const done: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    // IMMEDIATE: two processes starting at once must not both apply the same migration.
    db.transaction(() => {
      const again = db.prepare("SELECT 1 FROM schema_migrations WHERE version = ?").get(migration.version);
      if (again) return;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
      done.push(migration.version);
    }).immediate();
  }
  return done;
}
