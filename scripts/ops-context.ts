import { getConfig, type AppConfig } from "@/lib/config";
import { openDashboardSql } from "@/lib/dashboard-store/database";
import type { ServiceSql } from "../lib/service/database";
import type { SqlDb } from "../lib/platform/sql";
import type { OpsContext } from "../lib/platform/ops/command";

/**
 * The operator's view of the data: the service's database, migrated, with the demo data seeded when
 * the server has never run (so `plants` and `token issue` work on a fresh clone), and the
 * dashboard's own database for the user commands. Each is opened only when a command needs it.
 */
export function createOpsContext(json: boolean, config: AppConfig = getConfig()): OpsContext & { close(): Promise<void> } {
  let db: Promise<ServiceSql> | undefined;
  let dashboardDb: Promise<SqlDb> | undefined;
  return {
    config,
    json,
    db() {
      // The service's assembly seeds a fresh database (docs/architecture.md "Demo apart"); loaded only
      // when a command needs the database, so `ingest status` starts as fast as before.
      db ??= import("../lib/service/runtime").then(({ openSeededServiceSql }) => openSeededServiceSql(config, new Date().toISOString().slice(0, 10)));
      return db;
    },
    dashboardDb() {
      dashboardDb ??= openDashboardSql(config);
      return dashboardDb;
    },
    result(human, value) {
      console.log(json ? JSON.stringify(value, null, 2) : human);
    },
    async close() {
      await (await db?.catch(() => undefined))?.close();
      await (await dashboardDb?.catch(() => undefined))?.close();
    },
  };
}
