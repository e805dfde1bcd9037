/**
 * PostgreSQL for the operator state when `DATABASE_URL` is set (docs/architecture.md, "Stores"):
 * a `pg` pool behind the SqlDb interface of sql.ts, and the migration runner of both stores. Several
 * instances share one database: migrations take an advisory lock, so instances starting together
 * apply each migration once. The connection string is never logged or put in an error message
 * (it may carry a password).
 */
import pg from "pg";
import { postgresSql, type Migration } from "./migration";
import { numberPlaceholders, type SqlDb, type SqlExecutor } from "./sql";
import { inTransaction } from "./transaction";

/** BIGINT (count(*), identity columns) as a JS number: our counts and ids stay far below 2^53. */
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

export interface PostgresSqlDb extends SqlDb {
  readonly engine: "postgres";
  readonly pool: pg.Pool;
}

export interface PostgresOptions {
  /** Connections at most (per process). */
  max?: number;
}

/** A schema other than the default is chosen in the URL: `?options=-c%20search_path%3D<schema>`. */
export function openPostgresPool(url: string, options: PostgresOptions = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types });
  // An idle connection that the server drops must not crash the process; the next query reconnects.
  pool.on("error", (error) => console.error(`PostgreSQL connection error: ${error.message}`));
  return pool;
}

function executor(client: pg.Pool | pg.PoolClient): SqlExecutor {
  return {
    engine: "postgres",
    all: async <T>(sql: string, params: readonly unknown[] = []) => (await client.query(numberPlaceholders(sql), [...params])).rows as T[],
    get: async <T>(sql: string, params: readonly unknown[] = []) => (await client.query(numberPlaceholders(sql), [...params])).rows[0] as T | undefined,
    run: async (sql: string, params: readonly unknown[] = []) => ({ changes: (await client.query(numberPlaceholders(sql), [...params])).rowCount ?? 0 }),
  };
}

/** Runs `fn` on one connection inside BEGIN … COMMIT (ROLLBACK when it throws). */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>, begin = "BEGIN"): Promise<T> {
  const client = await pool.connect();
  try {
    return await inTransaction((sql) => client.query(sql), () => fn(client), begin);
  } finally {
    client.release();
  }
}

export function postgresSqlDb(pool: pg.Pool): PostgresSqlDb {
  return {
    ...executor(pool),
    engine: "postgres",
    pool,
    transaction: (fn) => withTransaction(pool, (client) => fn(executor(client))),
    close: () => pool.end(),
  };
}

/**
 * Applies every migration newer than the schema, all in one transaction under an advisory lock
 * (PostgreSQL's DDL is transactional): an instance starting at the same time waits, then finds them
 * applied. `lockKey` tells the two stores apart when they share a database.
 */
export async function applyPostgresMigrations(pool: pg.Pool, migrations: readonly Migration[], lockKey: string): Promise<number[]> {
  return withTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext(current_schema() || $1))", [lockKey]);
    await client.query(`CREATE TABLE IF NOT EXISTS ${lockKey}_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`);
    const applied = new Set((await client.query<{ version: number }>(`SELECT version FROM ${lockKey}_migrations`)).rows.map((r) => r.version));
    const done: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await client.query(postgresSql(migration));
      await client.query(`INSERT INTO ${lockKey}_migrations (version, name, applied_at) VALUES ($1, $2, $3)`, [
        migration.version,
        migration.name,
        new Date().toISOString(),
      ]);
      done.push(migration.version);
    }
    return done;
  });
}

/** Opens the pool and brings the schema up to date. */
export async function openPostgres(url: string, migrations: readonly Migration[], lockKey: string, options: PostgresOptions = {}): Promise<PostgresSqlDb> {
  const pool = openPostgresPool(url, options);
  try {
    await applyPostgresMigrations(pool, migrations, lockKey);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return postgresSqlDb(pool);
}
