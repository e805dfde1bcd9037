/**
 * The key of the session JWTs. Configured (NEXTAUTH_SECRET) it is used as is; otherwise (embedded
 * demo mode) one is generated on first use and kept in SQLite, so a restart keeps everyone signed
 * in and the CLI, the server and Next's route bundles all agree. It is never printed.
 */
import { randomBytes } from "node:crypto";
import type { Database } from "better-sqlite3";

const KEY = "session_secret";

export function resolveSessionSecret(db: Database, configured: string | null): string {
  if (configured) return configured;
  // INSERT OR IGNORE then read: two processes starting together end up with the same secret.
  db.prepare("INSERT OR IGNORE INTO dashboard_settings (key, value) VALUES (?, ?)").run(KEY, randomBytes(32).toString("base64url"));
  return (db.prepare("SELECT value FROM dashboard_settings WHERE key = ?").get(KEY) as { value: string }).value;
}
