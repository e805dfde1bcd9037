/**
 * The maintenance store on PostgreSQL (`DATABASE_URL`): the engine under the store of store.ts,
 * whose SQL and row mapping both engines share. Several instances write through their own pools at
 * once, so each write rule is one transaction whose SQL itself decides races (READ COMMITTED,
 * PostgreSQL's default); what is particular to PostgreSQL is here:
 * - task creation locks the plant's row FOR UPDATE, so task numbers are handed out one at a time
 *   per plant (SQLite's BEGIN IMMEDIATE excludes every other writer instead);
 * - `@name` parameters become `$n`, and a list parameter is an array (`= ANY(…)`).
 * Text columns use the "C" collation (migration.ts), so ids sort as plain strings, as in SQLite.
 */
import type pg from "pg";
import { withTransaction } from "../../platform/postgres";
import { createMaintenanceStoreOn, type MaintenanceStore, type Params, type Row, type StoreStatements } from "./store";

/** `@name` parameters (the shared store's form) → `$n` and a value list. */
function positional(sql: string, params: Params): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const index = new Map<string, number>();
  const text = sql.replace(/@([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    let n = index.get(name);
    if (n === undefined) {
      if (!(name in params)) throw new Error(`Missing SQL parameter @${name}.`);
      values.push(params[name]);
      n = values.length;
      index.set(name, n);
    }
    return `$${n}`;
  });
  return { text, values };
}

function statements(db: pg.Pool | pg.PoolClient): StoreStatements {
  const query = (sql: string, params: Params = {}) => db.query(positional(sql, params));
  return {
    all: async <T = Row>(sql: string, params?: Params) => (await query(sql, params)).rows as T[],
    arrays: async (sql, params = {}) => (await db.query({ ...positional(sql, params), rowMode: "array" })).rows,
    get: async <T = Row>(sql: string, params?: Params) => (await query(sql, params)).rows[0] as T | undefined,
    run: async (sql, params) => (await query(sql, params)).rowCount ?? 0,
  };
}

export function createPostgresMaintenanceStore(pool: pg.Pool): MaintenanceStore {
  const onPool = statements(pool);
  return createMaintenanceStoreOn({
    ...onPool,
    count: async (sql, params) => (await onPool.get<{ total: number }>(sql, params))!.total,
    oneOf(column, name, values, params) {
      params[name] = values;
      return `${column} = ANY(@${name})`;
    },
    transaction: (fn) => withTransaction(pool, (client) => fn(statements(client))),
    plantWriteLock: `SELECT 1 FROM plants WHERE id = @plantId FOR UPDATE`,
  });
}
