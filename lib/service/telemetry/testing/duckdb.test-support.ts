/**
 * TEST-ONLY support: an in-memory DuckDB with the tables of tables.ts, compiled queries bound and
 * their rows rendered as JSON as the telemetry store does it (duckdb/json-rows.ts, with the DuckDB
 * dialect's rowJson). Imports @duckdb/node-api, so nothing in the engine may import this file (the
 * engine stays free of Node imports).
 */
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { bindParams } from "@/lib/service/telemetry/duckdb/store";
import { streamJsonRows } from "@/lib/service/telemetry/duckdb/json-rows";
import { createTableSql } from "@/lib/service/telemetry/duckdb/schema";
import { registerKqlFunctions } from "@/lib/service/telemetry/duckdb/kql-functions";
import { compileKql, type CompileOptions, type KqlSource } from "@/lib/kql/compile";
import { TABLE_NAMES, type TableName } from "@/lib/kql/tables";
import type { ResultColumn, SqlParams } from "@/lib/kql/types";
import { queryOutput, TEST_LIMITS, type QueryOutput } from "@/lib/kql/testing/rows.test-support";

export async function createFixtureDatabase(fixtureSql: string[]): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  registerKqlFunctions(connection);
  for (const table of TABLE_NAMES) await connection.run(createTableSql(table));
  for (const sql of fixtureSql) await connection.run(sql);
  return connection;
}

export async function runCompiled(
  connection: DuckDBConnection,
  compiled: { sql: string; params: SqlParams; columns: ResultColumn[] },
): Promise<QueryOutput> {
  const rendered = await streamJsonRows(connection, compiled, bindParams(compiled.params), TEST_LIMITS);
  return queryOutput(compiled, rendered.parts);
}

export async function runKql(connection: DuckDBConnection, query: string, options: Partial<CompileOptions> = {}): Promise<QueryOutput> {
  const compiled = compileKql(query, { sources: options.sources ?? unscopedSources(), now: options.now, parameters: options.parameters, database: options.database });
  return runCompiled(connection, compiled);
}

export function unscopedSources(): Record<TableName, KqlSource> {
  return {
    States: { sql: 'SELECT * FROM "States"', params: {} },
    Events: { sql: 'SELECT * FROM "Events"', params: {} },
  };
}
