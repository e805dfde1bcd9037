/** The maintenance store on the engine the service's database runs on (lib/service/database.ts opens it). */
import type { PostgresSqlDb } from "../../platform/postgres";
import type { SqliteSqlDb } from "../../platform/sql";
import { createSqliteMaintenanceStore, type MaintenanceStore } from "./store";
import { createPostgresMaintenanceStore } from "./store-postgres";

export function createMaintenanceStore(sql: SqliteSqlDb | PostgresSqlDb): MaintenanceStore {
  return sql.engine === "postgres" ? createPostgresMaintenanceStore(sql.pool) : createSqliteMaintenanceStore(sql);
}
