/**
 * The key of the session JWTs. Configured (NEXTAUTH_SECRET) it is used as is; otherwise (embedded
 * demo mode) one is generated on first use and kept in the dashboard's store, so a restart keeps everyone signed
 * in and the CLI, the server and Next's route bundles all agree. It is never printed.
 */
import { randomBytes } from "node:crypto";
import type { SqlExecutor } from "@/lib/platform/sql";

const KEY = "session_secret";

export async function resolveSessionSecret(db: SqlExecutor, configured: string | null): Promise<string> {
  if (configured) return configured;
  // Insert unless present, then read: processes and instances starting together end up with the same secret.
  await db.run("INSERT INTO dashboard_settings (key, value) VALUES (@key, @value) ON CONFLICT (key) DO NOTHING", {
    key: KEY,
    value: randomBytes(32).toString("base64url"),
  });
  return (await db.get<{ value: string }>("SELECT value FROM dashboard_settings WHERE key = @key", { key: KEY }))!.value;
}
