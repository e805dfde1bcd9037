/**
 * TEST-ONLY support: an in-memory DuckDB with the tables of tables.ts, parameter binding of compiled
 * queries and row conversion through result.ts. Imports @duckdb/node-api, so nothing in the engine
 * may import this file (the engine stays free of Node imports).
 */
import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  DuckDBInstance,
  DuckDBTimestampValue,
  TIMESTAMP,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from "@duckdb/node-api";
import { compileKql, type CompileOptions, type KqlSource } from "../compile";
import { toJsonValue, type JsonValue } from "../result";
import { createTableSql, TABLE_NAMES, type TableName } from "../tables";
import type { ResultColumn, SqlParams, SqlParamType } from "../types";

const TYPES: Record<SqlParamType, DuckDBType> = { VARCHAR, BIGINT, DOUBLE, BOOLEAN, TIMESTAMP };

/** Compiled params → what `connection.run(sql, values, types)` takes. */
export function bindParams(params: SqlParams): { values: Record<string, DuckDBValue>; types: Record<string, DuckDBType> } {
  const values: Record<string, DuckDBValue> = {};
  const types: Record<string, DuckDBType> = {};
  for (const [name, { type, value }] of Object.entries(params)) {
    types[name] = TYPES[type];
    if (value === null) values[name] = null;
    else if (type === "TIMESTAMP") values[name] = new DuckDBTimestampValue(BigInt(value as number) * 1000n);
    else if (type === "BIGINT") values[name] = BigInt(value as number);
    else values[name] = value;
  }
  return { values, types };
}

export async function createFixtureDatabase(fixtureSql: string[]): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  for (const table of TABLE_NAMES) await connection.run(createTableSql(table));
  for (const sql of fixtureSql) await connection.run(sql);
  return connection;
}

export interface QueryOutput {
  columns: ResultColumn[];
  rows: JsonValue[][];
  sql: string;
}

export async function runCompiled(
  connection: DuckDBConnection,
  compiled: { sql: string; params: SqlParams; columns: ResultColumn[] },
): Promise<QueryOutput> {
  const { values, types } = bindParams(compiled.params);
  const reader = await connection.runAndReadAll(compiled.sql, values, types);
  const rows = reader.getRows().map((row) => row.map((value, i) => toJsonValue(compiled.columns[i]!.kqlType, toPlain(value))));
  return { columns: compiled.columns, rows, sql: compiled.sql };
}

export async function runKql(connection: DuckDBConnection, query: string, options: Partial<CompileOptions> = {}): Promise<QueryOutput> {
  const compiled = compileKql(query, { sources: options.sources ?? unscopedSources(), now: options.now });
  return runCompiled(connection, compiled);
}

export function unscopedSources(): Record<TableName, KqlSource> {
  return {
    States: { sql: 'SELECT * FROM "States"', params: {} },
    Events: { sql: 'SELECT * FROM "Events"', params: {} },
  };
}

/** DuckDB value objects → plain JS the result converter understands (lists/JSON as text or arrays). */
function toPlain(value: DuckDBValue): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof DuckDBTimestampValue) return value;
  return String(value);
}
