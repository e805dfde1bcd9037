/**
 * Opening a SQLite file the way every store of the project wants it: created 0600 (it may hold
 * secrets), WAL mode so the operator CLI can write while the server runs, foreign keys on, and the
 * store's versioned migrations applied. Each store owns its file and its migrations
 * (lib/service/database.ts for the service, lib/dashboard-store/database.ts for the dashboard).
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Migration } from "./migration";

export type SqliteDatabase = Database.Database;

/** Opens (creating when missing, readable by its owner only) the database file and applies pending migrations. */
export function openSqlite(file: string, migrations: readonly Migration[]): SqliteDatabase {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // SQLite gives its -wal and -shm companions the main file's permissions.
  fs.closeSync(fs.openSync(file, "a", 0o600));
  fs.chmodSync(file, 0o600);
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  // The CLI and the server share the file; wait for the other's write instead of failing at once.
  db.pragma("busy_timeout = 5000");
  // WAL makes NORMAL durable against application crashes; only an OS crash may lose the last commit.
  db.pragma("synchronous = NORMAL");
  applyMigrations(db, migrations);
  return db;
}

/**
 * Applies every migration newer than the database, each in its own transaction together with its
 * row in `schema_migrations`, so a failing migration leaves the database at the previous version.
 */
export function applyMigrations(db: SqliteDatabase, migrations: readonly Migration[]): number[] {
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
