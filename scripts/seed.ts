/**
 * `npm run seed` creates and seeds the databases in DATA_DIR when they are empty (the server does
 * the same on first start). `npm run seed -- --reset` deletes them first and rebuilds all demo
 * data from SEED: plant tokens, users and everything else in them are lost. Stop the server first.
 * Servers started with TELEMETRY_READ_ONLY=1 (several instances on one DATA_DIR) never write the
 * telemetry files: this is what creates and fills them, before they start.
 */
import fs from "node:fs";
import path from "node:path";
import { getConfig } from "../lib/config";
import { createServiceRuntime } from "../lib/service/runtime";
import { DASHBOARD_DATABASE_FILE } from "../lib/dashboard-store/database";
import { SERVICE_DATABASE_FILE } from "../lib/service/database";
import { keepFilesPrivate } from "../lib/platform/private-files";
import { isStartupError } from "../lib/platform/startup-error";

keepFilesPrivate();

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== "--reset");
if (unknown.length > 0) {
  console.error(`Unknown argument: ${unknown.join(" ")}\nUsage: npm run seed [-- --reset]`);
  process.exit(2);
}

const config = getConfig();
if (args.includes("--reset") && config.DATABASE_URL) {
  // Dropping shared tables is not a demo command: with PostgreSQL the operator resets the schema.
  console.error("--reset deletes the SQLite and DuckDB files only; with DATABASE_URL, drop and recreate the PostgreSQL schema yourself.");
  process.exit(2);
}
if (args.includes("--reset") && fs.existsSync(config.dataDir)) {
  // The SQLite file with its WAL companions, and every per-customer telemetry database.
  const doomed = fs
    .readdirSync(config.dataDir)
    .filter((name) => name.startsWith(SERVICE_DATABASE_FILE) || name.startsWith(DASHBOARD_DATABASE_FILE) || /^telemetry-.*\.duckdb(\.wal)?$/.test(name));
  for (const name of doomed) fs.rmSync(path.join(config.dataDir, name), { force: true });
  console.log(`Removed ${doomed.length} database file(s) from ${config.dataDir}.`);
}

const started = Date.now();
// The seed is the one writer of the telemetry files, also where the servers open them read-only.
const runtime = await createServiceRuntime({ ...config, TELEMETRY_READ_ONLY: false }).catch((error: unknown) => {
  if (!isStartupError(error)) throw error;
  console.error(error.message);
  process.exit(1);
});
const count = async (table: string) => (await runtime.sql.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n;
const where = config.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : config.dataDir;
console.log(
  `Demo data in ${where} (SEED=${config.SEED}): ${await count("plants")} plants, ${await count("assets")} assets, ` +
    `${await count("jobs_done")} jobs done, ${await count("planned_jobs")} planned jobs, ${await count("tasks")} tasks, ${await count("parts")} parts ` +
    `(${Date.now() - started} ms).`,
);
await runtime.close();
