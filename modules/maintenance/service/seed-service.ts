/**
 * Seeds the demo maintenance data on first start (no plant yet); the same data on both engines:
 * SQLite writes it through the SQL interface in one transaction, PostgreSQL gets it generated into
 * an in-memory SQLite database and copied in batches (seed-postgres.ts). Wired in by the service's
 * assembly (lib/service/runtime.ts, docs/architecture.md "Demo apart"); the database module knows
 * nothing of it.
 */
import type { PostgresSqlDb } from "@/lib/platform/postgres";
import type { SqliteSqlDb } from "@/lib/platform/sql";
import { seedMaintenanceIfEmpty, type MaintenanceSeedOptions } from "./seed";
import { seedPostgresIfEmpty } from "./seed-postgres";

export async function seedServiceIfEmpty(sql: SqliteSqlDb | PostgresSqlDb, options: MaintenanceSeedOptions): Promise<boolean> {
  return sql.engine === "postgres" ? seedPostgresIfEmpty(sql, options) : seedMaintenanceIfEmpty(sql, options);
}
