/**
 * Fuzz: random pipelines over the whole grammar (core and extended operators, `let`, junk tokens)
 * are compiled AND executed on DuckDB. The only failures allowed are refusals: a KqlError from the
 * compiler, or a DuckDB data error the telemetry store answers as 400 INVALID_QUERY. Anything else
 * would be a 500.
 *
 * KQL_FUZZ_RUNS sets the number of pipelines: 2,000 by default (about 30 s here); the 10,000-run check
 * is `KQL_FUZZ_RUNS=10000 npx vitest run lib/kql/fuzz.test.ts` (about 2.5 min on 2 cores).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { evaluationError } from "@/lib/service/telemetry/duckdb/errors";
import { compileKql } from "./compile";
import { KqlError } from "./errors";
import { kqlQuery } from "./testing/arbitrary";
import { FIXTURE_SQL } from "./testing/fixture";
import { createFixtureDatabase, runCompiled, unscopedSources } from "../service/telemetry/testing/duckdb.test-support";

const RUNS = Number(process.env.KQL_FUZZ_RUNS ?? 2_000);
const NOW = new Date("2026-01-02T12:00:00Z");

let db: DuckDBConnection;
beforeAll(async () => {
  db = await createFixtureDatabase(FIXTURE_SQL);
});

describe("fuzz", () => {
  it(`${RUNS} random pipelines compile and run, or are refused as INVALID_QUERY`, async () => {
    const outcome = { ran: 0, refused: 0, dataErrors: 0 };
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 9, arbitrary: kqlQuery({ extended: true, junk: 0, maxOperators: 6 }) }, { weight: 1, arbitrary: kqlQuery({ extended: true, junk: 1 }) }), async (query) => {
        let compiled;
        try {
          compiled = compileKql(query, { sources: unscopedSources(), now: NOW });
        } catch (error) {
          if (!(error instanceof KqlError)) throw error;
          expect(error.line).toBeGreaterThanOrEqual(1);
          expect(error.column).toBeGreaterThanOrEqual(1);
          outcome.refused++;
          return;
        }
        try {
          const result = await runCompiled(db, compiled);
          expect(result.rows.every((row) => row.length === compiled.columns.length)).toBe(true);
          outcome.ran++;
        } catch (error) {
          if (!evaluationError(error)) throw new Error(`${(error as Error).message}\nquery: ${query}\nsql: ${compiled.sql}`);
          outcome.dataErrors++;
        }
      }),
      { numRuns: RUNS },
    );
    // Most generated pipelines are valid: the generator is exercising the engine, not only its errors.
    expect(outcome.ran).toBeGreaterThan(RUNS * 0.5);
    console.log(`fuzz: ${RUNS} pipelines, ${outcome.ran} ran, ${outcome.refused} refused (KqlError), ${outcome.dataErrors} data errors (INVALID_QUERY)`);
  }, 600_000);
});
