/**
 * The WAL checkpoints off the request loop (sqlite-checkpoint.ts): bursts of writes on the server's
 * connection never checkpoint in its commits (the fallback is 10,000 pages), yet the log is copied
 * back between bursts by the worker, so the next burst starts the log again from its beginning.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteSql } from "./sql";
import { openSqlite } from "./sqlite";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const MIGRATIONS = [{ version: 1, name: "rows", sql: "CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)" }];
/** One burst: 2,000 rows of 1 KiB, in one transaction (about 600 pages of log). */
async function burst(sql: ReturnType<typeof sqliteSql>, from: number) {
  await sql.transaction(async (tx) => {
    for (let i = 0; i < 2000; i++) await tx.run(`INSERT INTO rows (id, body) VALUES (@id, @body)`, { id: from + i, body: "x".repeat(1024) });
  });
}
const walBytes = (file: string) => fs.statSync(`${file}-wal`).size;

describe("SQLite checkpoints in the background", () => {
  it("keeps the log to about one burst: the worker checkpoints between bursts, the server's commits never do", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-wal-"));
    dirs.push(dir);
    const file = path.join(dir, "db.sqlite");
    const db = openSqlite(file, MIGRATIONS);
    const sql = sqliteSql(db);
    try {
      expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(10_000);
      await burst(sql, 0);
      const one = walBytes(file);
      for (let round = 1; round <= 5; round++) {
        // A checkpoint between bursts lets the next burst write the log from its start again.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await burst(sql, round * 2000);
      }
      // Without the worker: six bursts in one log (the fallback is far away), six times the first.
      expect(walBytes(file)).toBeLessThan(one * 2);
      expect(db.prepare("SELECT count(*) AS n FROM rows").get()).toEqual({ n: 12_000 });
    } finally {
      await sql.close();
    }
    // Closed cleanly: the worker let go of the file, and the rows are in the database itself.
    const again = openSqlite(file, MIGRATIONS);
    expect(again.prepare("SELECT count(*) AS n FROM rows").get()).toEqual({ n: 12_000 });
    again.close();
  }, 30_000);
});
