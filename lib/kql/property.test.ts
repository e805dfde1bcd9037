/**
 * Property tests: random pipelines from the grammar (testing/arbitrary.ts) either compile or throw
 * KqlError; compiled ones run on DuckDB without error; and with a scoped source they never see a
 * row outside the scope (the result's row count equals the same query over only the in-scope rows).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileKql, type KqlSource } from "./compile";
import { KqlError } from "./errors";
import { kqlQuery } from "./testing/arbitrary";
import { FIXTURE_SQL } from "./testing/fixture";
import { createFixtureDatabase, runCompiled } from "./testing/duckdb.test-support";
import type { TableName } from "./tables";

const NOW = new Date("2026-01-02T12:00:00Z");
const SCOPE_START = Date.parse("2026-01-01T00:20:00Z");
const SCOPE_END = Date.parse("2026-01-02T00:03:00Z");

const scopeParams = {
  scope_start: { type: "TIMESTAMP" as const, value: SCOPE_START },
  scope_end: { type: "TIMESTAMP" as const, value: SCOPE_END },
  scope_p0: { type: "VARCHAR" as const, value: "RTM1" },
};

/** The scope as the telemetry store builds it: time range + plant filter beneath the query. */
const scoped: Record<TableName, KqlSource> = {
  States: { sql: 'SELECT * FROM "States" WHERE "Timestamp" >= $scope_start AND "Timestamp" < $scope_end AND "PlantId" IN ($scope_p0)', params: scopeParams },
  Events: {
    sql: 'SELECT * FROM "Events" WHERE "StartTime" < $scope_end AND ("EndTime" IS NULL OR "EndTime" >= $scope_start) AND "PlantId" IN ($scope_p0)',
    params: scopeParams,
  },
};
/** The same rows, materialised: what the query may see. */
const inScopeOnly: Record<TableName, KqlSource> = {
  States: { sql: 'SELECT * FROM "ScopedStates"', params: {} },
  Events: { sql: 'SELECT * FROM "ScopedEvents"', params: {} },
};

let db: DuckDBConnection;
beforeAll(async () => {
  db = await createFixtureDatabase([
    ...FIXTURE_SQL,
    // Rows that must never be seen: another plant, and times outside the range.
    `INSERT INTO "States" SELECT 'X9', 'leak', "Timestamp" + INTERVAL 400 DAY, 99999, 'OUT1', "DataMetadata", "MessageMetadata", 'state', NULL, "IngestionTimestamp" FROM "States"`,
    `INSERT INTO "Events" SELECT 'EX', 'OUT1', 'X9', 'Leak', 'Critical', 'leak', "StartTime", NULL, 99999, "DataMetadata", "MessageMetadata" FROM "Events"`,
  ]);
  await db.run(`CREATE TABLE "ScopedStates" AS ${scoped.States.sql.replace(/\$scope_start/g, `make_timestamp(${SCOPE_START * 1000})`).replace(/\$scope_end/g, `make_timestamp(${SCOPE_END * 1000})`).replace("$scope_p0", "'RTM1'")}`);
  await db.run(`CREATE TABLE "ScopedEvents" AS ${scoped.Events.sql.replace(/\$scope_start/g, `make_timestamp(${SCOPE_START * 1000})`).replace(/\$scope_end/g, `make_timestamp(${SCOPE_END * 1000})`).replace("$scope_p0", "'RTM1'")}`);
});

const withoutRender = (query: string) => query.replace(/\|\s*render\b.*$/s, "");

describe("random pipelines", () => {
  it("compile or throw KqlError, and run on DuckDB", async () => {
    await fc.assert(
      fc.asyncProperty(kqlQuery(), async (query) => {
        let compiled;
        try {
          compiled = compileKql(query, { sources: scoped, now: NOW });
        } catch (error) {
          if (!(error instanceof KqlError)) throw error;
          expect(error.line).toBeGreaterThanOrEqual(1);
          expect(error.column).toBeGreaterThanOrEqual(1);
          return;
        }
        const result = await runCompiled(db, compiled);
        expect(result.rows.every((row) => row.length === compiled.columns.length)).toBe(true);
      }),
      { numRuns: 400 },
    );
  }, 120_000);

  it("never see a row outside the scope", async () => {
    await fc.assert(
      fc.asyncProperty(kqlQuery({ junk: 0 }), async (query) => {
        let counted;
        let reference;
        try {
          counted = compileKql(`${withoutRender(query)} | count`, { sources: scoped, now: NOW });
          reference = compileKql(`${withoutRender(query)} | count`, { sources: inScopeOnly, now: NOW });
        } catch (error) {
          if (error instanceof KqlError) return;
          throw error;
        }
        const [actual, expected] = [await runCompiled(db, counted), await runCompiled(db, reference)];
        expect(actual.rows).toEqual(expected.rows);
        const plain = await runCompiled(db, compileKql(query, { sources: scoped, now: NOW }));
        const text = JSON.stringify(plain.rows);
        for (const marker of ["OUT1", "X9", "leak", "Leak"]) expect(text).not.toContain(marker);
      }),
      { numRuns: 250 },
    );
  }, 120_000);
});
