/**
 * The kernel's SQL interface (lib/platform/sql.ts) on both engines (here, not beside it: the kernel
 * imports nothing above it, test helpers included): the same statements, with the same named and list
 * parameters, give the same rows; a transaction commits or rolls back as a whole; on SQLite every
 * other call waits while a transaction is open.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { createTestSchema, type TestSchema } from "./postgres-schema";
import { describeWithService } from "./with-service";
import { openPostgres } from "../platform/postgres";
import { sqliteSql, type SqlDb } from "../platform/sql";
import { applyMigrations } from "../platform/sqlite";
import type { Migration } from "../platform/migration";

const MIGRATIONS: Migration[] = [{ version: 1, name: "things", sql: `CREATE TABLE things (id TEXT PRIMARY KEY, n INTEGER NOT NULL, note TEXT)` }];

function sqlSuite(open: () => Promise<SqlDb>) {
  let db: SqlDb;
  beforeAll(async () => {
    db = await open();
    for (const [id, n] of [["a", 1], ["b", 2], ["c", 3], ["d@x", 4]] as const) await db.run(`INSERT INTO things (id, n) VALUES (@id, @n)`, { id, n });
  });
  afterAll(() => db.close());

  it("binds named parameters, a name used twice, and leaves @ inside string literals alone", async () => {
    expect(await db.all(`SELECT id, n FROM things WHERE n >= @low AND n <= @low + 1 ORDER BY id`, { low: 2 })).toEqual([
      { id: "b", n: 2 },
      { id: "c", n: 3 },
    ]);
    expect(await db.get(`SELECT id FROM things WHERE id = 'd@x' AND n = @n`, { n: 4 })).toEqual({ id: "d@x" });
    expect(await db.get(`SELECT id FROM things WHERE id = @id`, { id: "none" })).toBeUndefined();
  });

  it("gives rows as arrays in column order", async () => {
    expect(await db.arrays(`SELECT n, id FROM things WHERE id < @before ORDER BY id`, { before: "c" })).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
  });

  it("spells a list parameter for its engine, the statement the same for any number of values", async () => {
    for (const ids of [["a", "c"], ["b"], []]) {
      const params = { min: 0 };
      const where = db.oneOf("id", "ids", ids, params);
      const found = await db.all<{ id: string }>(`SELECT id FROM things WHERE ${where} AND n > @min ORDER BY id`, params);
      expect(found.map((row) => row.id)).toEqual(ids);
    }
  });

  it("counts the rows a write changed", async () => {
    expect(await db.run(`UPDATE things SET note = @note WHERE n < @n`, { note: "low", n: 3 })).toEqual({ changes: 2 });
    expect(await db.run(`UPDATE things SET note = @note WHERE id = @id`, { note: "x", id: "none" })).toEqual({ changes: 0 });
  });

  it("refuses a statement whose named parameter is not given", async () => {
    await expect(db.get(`SELECT id FROM things WHERE id = @id`, {})).rejects.toThrow();
  });

  it("commits a transaction as a whole, or rolls all of it back when it throws", async () => {
    await db.transaction(async (tx) => {
      await tx.run(`INSERT INTO things (id, n) VALUES (@id, @n)`, { id: "t1", n: 10 });
      await tx.run(`UPDATE things SET n = n + 1 WHERE id = @id`, { id: "t1" });
    });
    expect(await db.get(`SELECT n FROM things WHERE id = @id`, { id: "t1" })).toEqual({ n: 11 });
    await expect(
      db.transaction(async (tx) => {
        await tx.run(`INSERT INTO things (id, n) VALUES (@id, @n)`, { id: "t2", n: 20 });
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(await db.get(`SELECT n FROM things WHERE id = @id`, { id: "t2" })).toBeUndefined();
  });
}

describe("SQLite", () => {
  sqlSuite(async () => {
    const sqlite = new Database(":memory:");
    applyMigrations(sqlite, MIGRATIONS);
    return sqliteSql(sqlite);
  });

  it("makes other calls wait while a transaction is open, so none joins it", async () => {
    const sqlite = new Database(":memory:");
    applyMigrations(sqlite, MIGRATIONS);
    const db = sqliteSql(sqlite);
    const seen: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tx = db.transaction(async (inside) => {
      await inside.run(`INSERT INTO things (id, n) VALUES (@id, @n)`, { id: "in", n: 1 });
      await held;
      seen.push("commit");
      throw new Error("rolled back");
    });
    const outside = db.run(`INSERT INTO things (id, n) VALUES (@id, @n)`, { id: "out", n: 2 }).then(() => seen.push("outside"));
    release();
    await expect(tx).rejects.toThrow("rolled back");
    await outside;
    expect(seen).toEqual(["commit", "outside"]);
    expect(await db.all(`SELECT id FROM things ORDER BY id`)).toEqual([{ id: "out" }]);
    await db.close();
  });
});

describeWithService("postgres", "PostgreSQL", (service) => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await createTestSchema(service.url);
  });
  afterAll(() => schema?.drop());
  sqlSuite(() => openPostgres(schema.url, MIGRATIONS, "sqltest"));
});
