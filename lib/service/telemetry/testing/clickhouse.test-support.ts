/**
 * TEST-ONLY support: the KQL fixture in ClickHouse (chdb, in process), queries compiled with the
 * ClickHouse dialect and run through the telemetry store's own statements (rows rendered as JSON
 * by ClickHouse, clickhouse/sql.ts), so the conformance and property suites compare the two
 * engines answer for answer. Imports chdb: nothing in the engine may import this file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { clickhouseDialect, clickhouseParams } from "@/lib/kql/dialect/clickhouse";
import { compileKql, type CompileOptions, type KqlSource } from "@/lib/kql/compile";
import type { TableName } from "@/lib/kql/tables";
import type { ResultColumn, SqlParams } from "@/lib/kql/types";
import { chdbExecutor } from "@/lib/service/telemetry/clickhouse/chdb-executor";
import type { ClickHouseExecutor } from "@/lib/service/telemetry/clickhouse/executor";
import { createCustomerSchema, querySettings, rowsStatement, rowsToJsonArray } from "@/lib/service/telemetry/clickhouse/sql";
import { queryOutput, TEST_LIMITS, type QueryOutput } from "@/lib/kql/testing/rows.test-support";

const FIXTURE_DATABASE = "kql_fixture";

export interface ClickHouseFixture {
  executor: ClickHouseExecutor;
  database: string;
  close(): Promise<void>;
}

let shared: ClickHouseExecutor | undefined;

/** chdb allows one session per process: every fixture of a test file shares it. */
export function sharedChdb(): ClickHouseExecutor {
  shared ??= chdbExecutor(fs.mkdtempSync(path.join(os.tmpdir(), "plantdesk-chdb-")));
  return shared;
}

/**
 * The fixture's DuckDB statements (testing/fixture.ts) in ClickHouse's spelling: timestamps with
 * their milliseconds, tables in the fixture's database.
 */
function toClickHouseSql(sql: string, database: string): string {
  return sql
    .replace(/TIMESTAMP '([^']*)'/g, "toDateTime64('$1', 3, 'UTC')")
    .replace(/"(States|Events|ScopedStates|ScopedEvents)"/g, `"${database}"."$1"`);
}

export async function createClickHouseFixture(fixtureSql: string[], database = FIXTURE_DATABASE, executor: ClickHouseExecutor = sharedChdb()): Promise<ClickHouseFixture> {
  await executor.command(`DROP DATABASE IF EXISTS "${database}"`);
  // The fixture keeps its rows in insertion order (ORDER BY tuple()), as DuckDB's table does, so rows
  // that tie under a query's sort (or feed make_list) come out in the same order on both engines.
  for (const statement of createCustomerSchema(database)) await executor.command(statement.replace(/ENGINE = (Replacing)?MergeTree PARTITION BY .*$/, "ENGINE = MergeTree ORDER BY tuple()"));
  for (const sql of fixtureSql) await executor.command(toClickHouseSql(sql, database));
  return { executor, database, close: () => executor.command(`DROP DATABASE IF EXISTS "${database}"`) };
}

export function unscopedClickHouseSources(database: string): Record<TableName, KqlSource> {
  return {
    States: { sql: `SELECT * FROM "${database}"."States"`, params: {} },
    Events: { sql: `SELECT * FROM "${database}"."Events"`, params: {} },
  };
}

export async function runCompiledOnClickHouse(
  executor: ClickHouseExecutor,
  compiled: { sql: string; params: SqlParams; columns: ResultColumn[] },
): Promise<QueryOutput> {
  const statement = rowsStatement(compiled, TEST_LIMITS.maxRows, querySettings({ timeoutMs: 60_000 }));
  const output = await executor.query(statement, clickhouseParams(compiled.params));
  return queryOutput(compiled, [rowsToJsonArray(output).json]);
}

export async function runKqlOnClickHouse(fixture: ClickHouseFixture, query: string, options: Partial<CompileOptions> = {}): Promise<QueryOutput> {
  const compiled = compileKql(query, { sources: options.sources ?? unscopedClickHouseSources(fixture.database), now: options.now, dialect: clickhouseDialect, parameters: options.parameters, database: options.database });
  return runCompiledOnClickHouse(fixture.executor, compiled);
}
