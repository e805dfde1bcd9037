/**
 * The service's database: maintenance data and the service's operator state (plant tokens,
 * telemetry clients and signing keys, devices). By default the SQLite file
 * `DATA_DIR/plantdesk.sqlite`; with `DATABASE_URL` a PostgreSQL database that several instances
 * share. Each domain brings its migrations; versions are unique across them and applied in
 * ascending order, by either engine (lib/platform/migration.ts). The dashboard keeps its own
 * store (lib/dashboard-store/database.ts). The demo's seed is wired in by the assembly
 * (lib/service/runtime.ts, docs/architecture.md "Demo apart").
 */
import path from "node:path";
import { MAINTENANCE_MIGRATIONS } from "@/modules/maintenance/store/migrations";
import { openPostgres, type PostgresSqlDb } from "../platform/postgres";
import { sqliteSql, type SqliteSqlDb } from "../platform/sql";
import { openSqlite } from "../platform/sqlite";
import telemetryClients from "./telemetry/migrations/002-telemetry-clients";
import telemetryClientLabels from "./telemetry/migrations/004-telemetry-client-labels";
import telemetryDevices from "./telemetry/migrations/006-telemetry-devices";
import sparkplugHost from "./telemetry/migrations/020-sparkplug-host";
import deviceOwners from "./telemetry/migrations/041-device-owners";

export const SERVICE_DATABASE_FILE = "plantdesk.sqlite";

const SERVICE_MIGRATIONS = [...MAINTENANCE_MIGRATIONS, telemetryClients, telemetryClientLabels, telemetryDevices, sparkplugHost, deviceOwners].sort((a, b) => a.version - b.version);

/** Tells the service's migrations from the dashboard's when both stores share one PostgreSQL schema. */
const SERVICE_MIGRATIONS_KEY = "service";

export type ServiceSql = SqliteSqlDb | PostgresSqlDb;

/** PostgreSQL when `DATABASE_URL` is set, the SQLite file otherwise; migrations applied. */
export async function openServiceSql(config: { dataDir: string; DATABASE_URL?: string }): Promise<ServiceSql> {
  if (config.DATABASE_URL) return openPostgres(config.DATABASE_URL, SERVICE_MIGRATIONS, SERVICE_MIGRATIONS_KEY);
  return sqliteSql(openSqlite(path.join(config.dataDir, SERVICE_DATABASE_FILE), SERVICE_MIGRATIONS));
}
