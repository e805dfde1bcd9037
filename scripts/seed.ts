/**
 * `npm run seed` creates and seeds the databases in DATA_DIR when they are empty (the server does
 * the same on first start). `npm run seed -- --reset` deletes them first and rebuilds all demo
 * data from SEED: plant tokens, users and everything else in them are lost. Stop the server first.
 */
import fs from "node:fs";
import path from "node:path";
import { getConfig } from "../lib/config";
import { createServiceRuntime } from "../lib/service/runtime";
import { DATABASE_FILE } from "../lib/service/store/sqlite";

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== "--reset");
if (unknown.length > 0) {
  console.error(`Unknown argument: ${unknown.join(" ")}\nUsage: npm run seed [-- --reset]`);
  process.exit(2);
}

const config = getConfig();
if (args.includes("--reset") && fs.existsSync(config.dataDir)) {
  // The SQLite file with its WAL companions, and every per-customer telemetry database.
  const doomed = fs
    .readdirSync(config.dataDir)
    .filter((name) => name.startsWith(DATABASE_FILE) || /^telemetry-.*\.duckdb(\.wal)?$/.test(name));
  for (const name of doomed) fs.rmSync(path.join(config.dataDir, name), { force: true });
  console.log(`Removed ${doomed.length} database file(s) from ${config.dataDir}.`);
}

const started = Date.now();
const runtime = await createServiceRuntime(config);
const count = (table: string) => (runtime.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
console.log(
  `Demo data in ${config.dataDir} (SEED=${config.SEED}): ${count("plants")} plants, ${count("assets")} assets, ` +
    `${count("jobs_done")} jobs done, ${count("planned_jobs")} planned jobs, ${count("tasks")} tasks, ${count("parts")} parts ` +
    `(${Date.now() - started} ms).`,
);
await runtime.close();
