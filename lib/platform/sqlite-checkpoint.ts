/**
 * SQLite's WAL checkpoints, off the request loop. Left to itself, SQLite checkpoints inside the
 * commit that grows the write-ahead log past 1,000 pages: that commit copies the log into the
 * database and syncs it, and with better-sqlite3 it does so on the event loop, so every request
 * waiting behind it waits for a disk sync. A burst of writes (a plans tick opening 1,000 plans'
 * tasks, bench:maintenance phase 5) made the reads beside it 1.7-1.9x slower at p95 (medians of 3); with the
 * checkpoints away from the loop, 1.27 (docs/architecture.md, "SQLite's checkpoints, off the request loop").
 *
 * A worker thread with its own connection checkpoints PASSIVE every second (it never waits for
 * the server's readers or writers). The server's own connection keeps a late checkpoint as a
 * fallback (FALLBACK_PAGES), for a worker that fails or falls behind.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { SqliteDatabase } from "./sqlite";

const EVERY_MS = 1000;
/** The server connection's own checkpoint, when the log passes 10,000 pages (40 MB with 4 KiB pages). */
const FALLBACK_PAGES = 10_000;
/** SQLite's default, back in force if the worker cannot run. */
const SQLITE_DEFAULT_PAGES = 1000;

// CommonJS, run by the worker (eval): its own connection, a PASSIVE checkpoint per tick, a last one at "stop".
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 0");
const checkpoint = () => { try { db.pragma("wal_checkpoint(PASSIVE)"); } catch {} };
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on("message", () => { clearInterval(timer); checkpoint(); db.close(); parentPort.postMessage("stopped"); parentPort.close(); });
`;

/** Starts the background checkpoints of a database file; the returned function stops them (before the connection closes). */
export function checkpointInBackground(db: SqliteDatabase): () => Promise<void> {
  if (db.memory) return async () => undefined;
  // Resolved from the project, not from this module: Next bundles this file into its server chunks.
  const driver = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: db.name, driver, everyMs: EVERY_MS } });
  // Never keeps a process (the operator's CLI, a test) alive on its own.
  worker.unref();
  db.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`);
  let running = true;
  worker.once("error", () => {
    running = false;
    if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
  });
  worker.once("exit", () => (running = false));
  return async () => {
    if (!running) return;
    const stopped = new Promise<void>((resolve) => {
      worker.once("message", () => resolve());
      worker.once("exit", () => resolve());
    });
    worker.postMessage("stop");
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    await worker.terminate();
  };
}
