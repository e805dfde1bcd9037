/**
 * Hostile input: deep nesting, long chains and huge constructs give a KqlError (400 INVALID_QUERY)
 * with line and column, or run; never a stack overflow or another error.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { beforeAll, describe, expect, it } from "vitest";
import { compileKql } from "./compile";
import { KqlError } from "./errors";
import { MAX_NESTING } from "./parser";
import { FIXTURE_SQL } from "./testing/fixture";
import { createFixtureDatabase, runKql, unscopedSources } from "../service/telemetry/testing/duckdb.test-support";

let db: DuckDBConnection;
beforeAll(async () => {
  db = await createFixtureDatabase(FIXTURE_SQL);
});

function refusal(query: string): KqlError {
  try {
    compileKql(query, { sources: unscopedSources() });
  } catch (error) {
    expect(error).toBeInstanceOf(KqlError);
    return error as KqlError;
  }
  throw new Error(`expected a KqlError for ${query.slice(0, 80)}`);
}

describe("deep nesting is refused with a position", () => {
  const cases: [string, string, RegExp][] = [
    ["1,000 nested parentheses", `States | where ${"(".repeat(1000)}true${")".repeat(1000)}`, /nested deeper than 100/],
    ["100,000 nested parentheses", `States | where ${"(".repeat(100_000)}true${")".repeat(100_000)}`, /nested deeper than 100/],
    ["3,000 '+' terms", `States | extend x = ${Array.from({ length: 3000 }, () => "1").join(" + ")}`, /nested deeper than 100.*'\+'/],
    ["nested iff", `print x = ${"iff(true, ".repeat(200)}1${", 2)".repeat(200)}`, /nested deeper/],
    ["5,000 unary minus", `print x = ${"-".repeat(5000)}1`, /nested deeper/],
    ["nested dynamic arrays", `print x = dynamic(${"[".repeat(500)}${"]".repeat(500)})`, /nested deeper/],
    ["nested sub-queries", `${"States | join (".repeat(120)}States${") on DeviceId".repeat(120)}`, /nested deeper/],
    ["a member chain", `States | extend x = DataMetadata${".a".repeat(300)}`, /nested deeper/],
    ["exploding let expansion", "let a = States | union States; let b = a | union a; let c = b | union b; let d = c | union c; let e = d | union d; let f = e | union e; let g = f | union f; g | count", /more than 64 tables/],
    ["too many operators", `States${" | where true".repeat(400)}`, /at most 300 operators/],
    ["nested grouping", `States${" | summarize count() by DeviceId".repeat(20)}`, /group rows at most 16 times/],
    ["a huge range", "range x from 1 to 100000000 step 1", /at most 1,000,000/],
    ["a long make-series", "States | make-series count() on Timestamp from datetime(2020-01-01) to datetime(2026-01-01) step 1s", /at most 100,000/],
    ["a huge datatable", `datatable(a:long) [${Array.from({ length: 20_000 }, (_, i) => i).join(",")}]`, /at most 10000 values/],
  ];
  for (const [name, query, message] of cases) {
    it(name, () => {
      const error = refusal(query);
      expect(error.detail).toMatch(message);
      expect(error.line).toBeGreaterThanOrEqual(1);
      expect(error.column).toBeGreaterThanOrEqual(1);
    });
  }
  it(`allows nesting up to ${MAX_NESTING} levels in practice`, async () => {
    const result = await runKql(db, `print x = ${"(".repeat(40)}1${")".repeat(40)} + ${"abs(".repeat(20)}-2${")".repeat(20)}`);
    expect(result.rows).toEqual([[3]]);
  });
});

describe("long flat chains are iterative", () => {
  it("3,000 'or' terms compile and run", async () => {
    const query = `States | where ${Array.from({ length: 3000 }, (_, i) => `Value == ${i}`).join(" or ")} | count`;
    expect((await runKql(db, query)).rows).toEqual([[6]]);
  });
  it("3,000 'and' terms compile and run", async () => {
    const query = `States | where ${Array.from({ length: 3000 }, (_, i) => `Value != ${i + 1000}`).join(" and ")} | count`;
    // `!=` with a null is true (the pressure row without a value counts too).
    expect((await runKql(db, query)).rows).toEqual([[12]]);
  });
  it("an 'in' list of 4,000 values runs", async () => {
    const query = `States | where Name in (${Array.from({ length: 4000 }, (_, i) => `"n${i}"`).join(", ")}, "running") | count`;
    expect((await runKql(db, query)).rows).toEqual([[1]]);
  });
  it("300 pipeline operators run", async () => {
    expect((await runKql(db, `States${" | take 100".repeat(299)} | count`)).rows).toEqual([[12]]);
  });
});
