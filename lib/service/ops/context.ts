import { getConfig, type AppConfig } from "@/lib/config";
import { seedMaintenanceIfEmpty } from "../seed/maintenance";
import { openDatabase, type SqliteDatabase } from "../store/sqlite";
import type { OpsContext } from "./command";

/**
 * The operator's view of the data: the SQLite database, migrated, with the demo data seeded when
 * the server has never run (so `plants` and `token issue` work on a fresh clone).
 */
export function createOpsContext(json: boolean, config: AppConfig = getConfig()): OpsContext & { close(): void } {
  let db: SqliteDatabase | undefined;
  return {
    config,
    json,
    db() {
      if (!db) {
        db = openDatabase(config.dataDir);
        seedMaintenanceIfEmpty(db, { seed: config.SEED, today: new Date().toISOString().slice(0, 10) });
      }
      return db;
    },
    result(human, value) {
      console.log(json ? JSON.stringify(value, null, 2) : human);
    },
    close() {
      db?.close();
    },
  };
}
