/**
 * PostgreSQL for the operator state when `DATABASE_URL` is set (docs/architecture.md, "Stores"):
 * a `pg` pool behind the SqlDb interface of sql.ts (named parameters become `$n`, list parameters
 * arrays), and the migration runner of both stores. Several
 * instances share one database: migrations take an advisory lock, so instances starting together
 * apply each migration once. The connection string is never logged or put in an error message
 * (it may carry a password).
 */
import pg from "pg";
import { postgresSql, type Migration } from "./migration";
import type { SqlDb, SqlExecutor, SqlParams } from "./sql";
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

interface PostgresOptions {
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

/**
 * `@name` → `$n` outside string literals and quoted identifiers: each distinct name gets one number,
 * in order of first use. Kept per SQL text (the statements are a fixed set, and the list queries'
 * filters make a handful of variants each).
 */
interface Converted {
  text: string;
  names: string[];
}
const converted = new Map<string, Converted>();
const MAX_CONVERTED = 500;
/** Longer texts are one-off bulk statements (the demo seed's copy), not worth keeping. */
const MAX_CACHED_LENGTH = 20_000;

/** A string literal or quoted identifier (kept as it is), or a named parameter. */
const TOKEN = /'[^']*'|"[^"]*"|@([A-Za-z_][A-Za-z0-9_]*)/g;

function namedToPositional(sql: string): Converted {
  let found = converted.get(sql);
  if (found) return found;
  const names: string[] = [];
  const numbers = new Map<string, number>();
  const text = sql.replace(TOKEN, (token, name: string | undefined) => {
    if (name === undefined) return token;
    let n = numbers.get(name);
    if (n === undefined) numbers.set(name, (n = names.push(name)));
    return `$${n}`;
  });
  found = { text, names };
  if (sql.length <= MAX_CACHED_LENGTH) {
    if (converted.size >= MAX_CONVERTED) converted.clear();
    converted.set(sql, found);
  }
  return found;
}

/** The statement as pg takes it; every parameter the statement names must be a member of `params`. */
function query(sql: string, params: SqlParams = {}): { text: string; values: unknown[] } {
  const { text, names } = namedToPositional(sql);
  return {
    text,
    values: names.map((name) => {
      if (!(name in params)) throw new Error(`Missing SQL parameter @${name}.`);
      return params[name];
    }),
  };
}

const oneOf: SqlExecutor["oneOf"] = (column, name, values, params) => {
  params[name] = values;
  return `${column} = ANY(@${name})`;
};

function executor(client: pg.Pool | pg.PoolClient): SqlExecutor {
  return {
    engine: "postgres",
    all: async <T>(sql: string, params?: SqlParams) => (await client.query(query(sql, params))).rows as T[],
    get: async <T>(sql: string, params?: SqlParams) => (await client.query(query(sql, params))).rows[0] as T | undefined,
    arrays: async (sql: string, params?: SqlParams) => (await client.query({ ...query(sql, params), rowMode: "array" })).rows as unknown[][],
    run: async (sql: string, params?: SqlParams) => ({ changes: (await client.query(query(sql, params))).rowCount ?? 0 }),
    oneOf,
  };
}

/** Runs `fn` on one connection inside BEGIN … COMMIT (ROLLBACK when it throws). */
async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>, begin = "BEGIN"): Promise<T> {
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
async function applyPostgresMigrations(pool: pg.Pool, migrations: readonly Migration[], lockKey: string): Promise<number[]> {
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

