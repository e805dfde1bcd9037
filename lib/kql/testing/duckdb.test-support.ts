/**
 * TEST-ONLY support: an in-memory DuckDB with the tables of tables.ts, compiled queries bound as the
 * telemetry store binds them, and row conversion through result.ts. Imports @duckdb/node-api, so nothing in the engine
 * may import this file (the engine stays free of Node imports).
 */
import {
  DuckDBInstance,
  DuckDBTimestampValue,
  type DuckDBConnection,
  type DuckDBValue,
} from "@duckdb/node-api";
import { bindParams } from "@/lib/service/telemetry/duckdb-store";
import { compileKql, type CompileOptions, type KqlSource } from "../compile";
import { toJsonValue, type JsonValue } from "../result";
import { createTableSql, TABLE_NAMES, type TableName } from "../tables";
import type { ResultColumn, SqlParams } from "../types";

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
