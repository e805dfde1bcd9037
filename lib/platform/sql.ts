/**
 * One small asynchronous SQL interface over both engines of the operator state: SQLite (the
 * embedded default, better-sqlite3) and PostgreSQL (`DATABASE_URL`, lib/platform/postgres.ts).
 * Modules whose SQL is the same on both (plant tokens, telemetry clients, the dashboard's users,
 * audit log and query history) are written once against it. Statements use `?` placeholders; the
 * PostgreSQL side numbers them. Results are plain rows; integers come back as JS numbers on both.
 */
import type { SqliteDatabase } from "./sqlite";

export type SqlEngine = "sqlite" | "postgres";
export type SqlRow = Record<string, unknown>;

export interface SqlExecutor {
  readonly engine: SqlEngine;
  all<T = SqlRow>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  get<T = SqlRow>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** A write; `changes` is the number of rows it inserted, updated or deleted. */
  run(sql: string, params?: readonly unknown[]): Promise<{ changes: number }>;
}

export interface SqlDb extends SqlExecutor {
  /**
   * Runs `fn` in one transaction (SQLite: BEGIN IMMEDIATE; PostgreSQL: READ COMMITTED on one pooled
   * connection) and commits, or rolls back when it throws. Write rules that need more than that
   * (a conditional UPDATE, INSERT … ON CONFLICT) say so in their SQL.
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The SQLite side. better-sqlite3 is synchronous, so every call completes before it returns; only a
 * transaction spans awaits, and while one is open every other call on this connection waits for it
 * (otherwise another request's statement would join the open transaction). `exclusive` gives the
 * same guarantee to code that uses the connection directly (the maintenance store's own
 * synchronous transactions).
 */
export interface SqliteSqlDb extends SqlDb {
  readonly engine: "sqlite";
  readonly sqlite: SqliteDatabase;
  exclusive<T>(fn: () => T): Promise<T>;
}

export function sqliteSql(db: SqliteDatabase): SqliteSqlDb {
  const statements = new Map<string, ReturnType<SqliteDatabase["prepare"]>>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (statements.size >= 500) statements.clear();
      statements.set(sql, statement);
    }
    return statement;
  };
  const direct: SqlExecutor = {
    engine: "sqlite",
    all: async <T>(sql: string, params: readonly unknown[] = []) => prepare(sql).all(params as unknown[]) as T[],
    get: async <T>(sql: string, params: readonly unknown[] = []) => prepare(sql).get(params as unknown[]) as T | undefined,
    run: async (sql: string, params: readonly unknown[] = []) => ({ changes: prepare(sql).run(params as unknown[]).changes }),
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
    sqlite: db,
    all: (sql, params) => whenIdle(() => direct.all(sql, params)),
    get: (sql, params) => whenIdle(() => direct.get(sql, params)),
    run: (sql, params) => whenIdle(() => direct.run(sql, params)),
    exclusive: (fn) => whenIdle(fn),
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
      db.close();
    },
  };
}

/** `?` → `$1, $2, …` outside string literals and quoted identifiers (PostgreSQL's placeholders). */
export function numberPlaceholders(sql: string): string {
  let out = "";
  let n = 0;
  let quote: string | null = null;
  for (const char of sql) {
    if (quote) {
      if (char === quote) quote = null;
      out += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      out += char;
    } else if (char === "?") {
      out += `$${++n}`;
    } else {
      out += char;
    }
  }
  return out;
}
