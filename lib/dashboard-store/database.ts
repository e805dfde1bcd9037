/**
 * The dashboard's own store: users and roles, the audit log, query history, monitors, dashboards
 * and the generated session secret. By default the SQLite file `DATA_DIR/dashboard.sqlite`; with `DATABASE_URL` the
 * PostgreSQL database the service's store uses too (its tables and migrations are apart: see
 * DASHBOARD_MIGRATIONS_KEY). Apart from the service's store, so a dashboard in remote mode opens
 * nothing of the embedded service.
 */
import path from "node:path";
import { getConfig } from "@/lib/config";
import { openPostgres } from "@/lib/platform/postgres";
import { sqliteSql, type SqlDb } from "@/lib/platform/sql";
import { openSqlite, type SqliteDatabase } from "@/lib/platform/sqlite";
import usersAudit from "./migrations/001-users-audit";
import signIn from "./migrations/010-sign-in";
import monitors from "@/modules/monitors/store/migrations/020-monitors";
import dashboards from "@/modules/boards/store/migrations/030-boards";
import alerting from "@/modules/monitors/store/migrations/036-alerting";
import routing from "@/modules/monitors/store/migrations/038-routing";
import notifications from "@/modules/notifications/store/migrations/039-notifications";
import workspace from "@/modules/boards/store/migrations/042-workspace";
import sessionClient from "./migrations/043-session-client";

export const DASHBOARD_DATABASE_FILE = "dashboard.sqlite";

export const DASHBOARD_MIGRATIONS = [usersAudit, signIn, monitors, dashboards, alerting, routing, notifications, workspace, sessionClient];

/** Tells the dashboard's migrations from the service's when both share one PostgreSQL schema. */
export const DASHBOARD_MIGRATIONS_KEY = "dashboard";

export function openDashboardDatabase(dataDir: string): SqliteDatabase {
  return openSqlite(path.join(dataDir, DASHBOARD_DATABASE_FILE), DASHBOARD_MIGRATIONS);
}

/** PostgreSQL when `DATABASE_URL` is set, the SQLite file otherwise; migrations applied. */
export async function openDashboardSql(config: { dataDir: string; DATABASE_URL?: string }): Promise<SqlDb> {
  if (config.DATABASE_URL) return openPostgres(config.DATABASE_URL, DASHBOARD_MIGRATIONS, DASHBOARD_MIGRATIONS_KEY);
  return sqliteSql(openDashboardDatabase(config.dataDir));
}

/**
 * The process's dashboard store, opened on first use: one connection for the `/api/` routes and the
 * pages (which reach it through the server, lib/bff/page-server.ts).
 */
let dashboardDb: Promise<SqlDb> | null = null;

export function getDashboardDb(): Promise<SqlDb> {
  dashboardDb ??= openDashboardSql(getConfig()).catch((error: unknown) => {
    dashboardDb = null;
    throw error;
  });
  return dashboardDb;
}

export async function closeDashboardDb(): Promise<void> {
  const db = dashboardDb;
  dashboardDb = null;
  await (await db?.catch(() => undefined))?.close();
}
