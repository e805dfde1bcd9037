/**
 * The one SQL interface of the operator state, implemented by both engines: SQLite (the embedded
 * default, better-sqlite3, below) and PostgreSQL (`DATABASE_URL`, lib/platform/postgres.ts). Every
 * store is written once against it: the maintenance store, plant tokens, telemetry clients and
 * devices, the dashboard's users, sessions, audit log, query history, dashboards and monitors.
 *
 * Statements name their parameters: `@name` in the SQL, `{ name: value }` beside it (SQLite binds
 * them itself; PostgreSQL's side turns them into `$n`). A list parameter is spelled by the engine
 * (`oneOf`). Results are plain rows; integers come back as JS numbers on both engines. Each engine
 * keeps its statement cache in its implementation (prepared statements here, converted text there).
 */
import type { SqliteDatabase } from "./sqlite";
import { checkpointInBackground } from "./sqlite-checkpoint";

export type SqlEngine = "sqlite" | "postgres";
export type SqlRow = Record<string, unknown>;
/** Values of a statement's `@name` parameters; members the statement does not name are ignored. */
export type SqlParams = Record<string, unknown>;

export interface SqlExecutor {
  readonly engine: SqlEngine;
  all<T = SqlRow>(sql: string, params?: SqlParams): Promise<T[]>;
  get<T = SqlRow>(sql: string, params?: SqlParams): Promise<T | undefined>;
  /** Rows as arrays in the SELECT's column order (hot pages: no keyed object per row). */
  arrays(sql: string, params?: SqlParams): Promise<unknown[][]>;
  /** A write; `changes` is the number of rows it inserted, updated or deleted. */
  run(sql: string, params?: SqlParams): Promise<{ changes: number }>;
  /**
   * SQL for "`column` is one of `values`", the values put in `params[name]` as one parameter
   * (SQLite: a JSON array read by json_each; PostgreSQL: an array, `= ANY(…)`), so the statement's
   * text does not depend on how many values there are.
   */
  oneOf(column: string, name: string, values: readonly (string | number)[], params: SqlParams): string;
}

export interface SqlDb extends SqlExecutor {
  /**
   * Runs `fn` in one transaction (SQLite: BEGIN IMMEDIATE; PostgreSQL: READ COMMITTED on one pooled
   * connection) and commits, or rolls back when it throws. Write rules that need more than that
   * (a conditional UPDATE, INSERT … ON CONFLICT, a row locked FOR UPDATE) say so in their SQL.
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The SQLite side. better-sqlite3 is synchronous, so every call completes before it returns; only a
 * transaction spans awaits, and while one is open every other call on this connection waits for it
 * (otherwise another request's statement would join the open transaction).
 */
export interface SqliteSqlDb extends SqlDb {
  readonly engine: "sqlite";
}

type Statement = ReturnType<SqliteDatabase["prepare"]>;

/** Prepared statements are kept per SQL text (raw ones apart); a bound keeps client-chosen variants in check. */
const MAX_STATEMENTS = 500;

export function sqliteSql(db: SqliteDatabase): SqliteSqlDb {
  const stopCheckpoints = checkpointInBackground(db);
  const statements = new Map<string, Statement>();
  const prepare = (sql: string, raw = false): Statement => {
    const key = raw ? `raw\u0000${sql}` : sql;
    let statement = statements.get(key);
    if (!statement) {
      statement = db.prepare(sql);
      if (raw) statement.raw(true);
      if (statements.size >= MAX_STATEMENTS) statements.clear();
      statements.set(key, statement);
    }
    return statement;
  };
  const oneOf: SqlExecutor["oneOf"] = (column, name, values, params) => {
    params[name] = JSON.stringify(values);
    return `${column} IN (SELECT value FROM json_each(@${name}))`;
  };
  const NONE: SqlParams = {};
  const direct: SqlExecutor = {
    engine: "sqlite",
    all: async <T>(sql: string, params = NONE) => prepare(sql).all(params) as T[],
    get: async <T>(sql: string, params = NONE) => prepare(sql).get(params) as T | undefined,
    arrays: async (sql: string, params = NONE) => prepare(sql, true).all(params) as unknown[][],
    run: async (sql: string, params = NONE) => ({ changes: prepare(sql).run(params).changes }),
    oneOf,
  };

  // The tail of the queue of transactions; calls outside a transaction wait for it only while one is open.
  let tail: Promise<unknown> = Promise.resolve();
  let open = 0;
  const whenIdle = <T>(fn: () => T | Promise<T>): Promise<T> => {
    if (open > 0) return tail.then(fn, fn);
    try {
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(error);
    }
  };

  return {
    engine: "sqlite",
    all: (sql, params) => whenIdle(() => direct.all(sql, params)),
    get: (sql, params) => whenIdle(() => direct.get(sql, params)),
    arrays: (sql, params) => whenIdle(() => direct.arrays(sql, params)),
    run: (sql, params) => whenIdle(() => direct.run(sql, params)),
    oneOf,
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      open++;
      const result = tail.then(async () => {
        db.exec("BEGIN IMMEDIATE");
        try {
          const value = await fn(direct);
          db.exec("COMMIT");
          return value;
        } catch (error) {
          if (db.inTransaction) db.exec("ROLLBACK");
          throw error;
        }
      });
      tail = result.then(
        () => open--,
        () => open--,
      );
      return result;
    },
    async close() {
      await tail;
      await stopCheckpoints();
      db.close();
    },
  };
}
