/**
 * Shared harness of the conformance suites: query → exact expected rows on the fixture
 * (lib/kql/testing/fixture.ts), in an in-memory DuckDB and in ClickHouse (chdb, in process, through the
 * telemetry store's own statements): both engines must give the expected answer. Rows are compared
 * in order when the query sorts, as multisets otherwise; reals to 1e-9; column names and types
 * when given.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { beforeAll, it, expect } from "vitest";
import type { JsonValue } from "@/lib/kql/types";
import { FIXTURE_SQL } from "@/lib/kql/testing/fixture";
import { createFixtureDatabase, runKql } from "./duckdb.test-support";
import type { QueryOutput } from "@/lib/kql/testing/rows.test-support";
import { createClickHouseFixture, runKqlOnClickHouse, type ClickHouseFixture } from "./clickhouse.test-support";

const NOW = new Date("2026-01-02T12:00:00Z");

interface Case {
  q: string;
  rows: JsonValue[][];
  columns?: string[];
  types?: string[];
  /** Values of the query's `declare query_parameters(…)`, as a request sends them. */
  parameters?: Record<string, string>;
  /**
   * An engine that does not give this answer yet, and why: its case is reported as skipped (so the
   * gap shows in every run's count) until the defect is fixed. Never for a case that merely flakes.
   */
  knownGap?: Partial<Record<Engine, string>>;
}

let db: DuckDBConnection;
let clickhouse: ClickHouseFixture;
beforeAll(async () => {
  [db, clickhouse] = await Promise.all([createFixtureDatabase(FIXTURE_SQL), createClickHouseFixture(FIXTURE_SQL)]);
}, 60_000);

export type Engine = "duckdb" | "clickhouse";
export const ENGINES: Engine[] = ["duckdb", "clickhouse"];

/** A query on one engine's copy of the fixture. */
export function runOn(engine: Engine, q: string, options: Parameters<typeof runKql>[2] = {}): Promise<QueryOutput> {
  return engine === "duckdb" ? runKql(db, q, { now: NOW, ...options }) : runKqlOnClickHouse(clickhouse, q, { now: NOW, ...options });
}

/** A query on the harness's fixture database (for checks beyond rows: render hints, scoped sources). */
export function runOnFixture(q: string, options: Parameters<typeof runKql>[2] = {}) {
  return runKql(db, q, { now: NOW, ...options });
}

function close(actual: JsonValue, expected: JsonValue): boolean {
  if (typeof actual === "number" && typeof expected === "number") return Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
  if (Array.isArray(actual) && Array.isArray(expected)) return actual.length === expected.length && actual.every((a, i) => close(a, expected[i]!));
  if (actual && expected && typeof actual === "object" && typeof expected === "object") {
    const keys = Object.keys(expected);
    return keys.length === Object.keys(actual).length && keys.every((k) => close((actual as Record<string, JsonValue>)[k]!, (expected as Record<string, JsonValue>)[k]!));
  }
  return actual === expected;
}

/** The last pipeline sorts (so row order is part of the answer). */
const ordered = (q: string) => /\|\s*(sort|order|top)\b[^|]*$/.test(q) || /\|\s*(sort|order)\b/.test(q.split(";").pop()!) && !/\|\s*(summarize|distinct|join|union|lookup|count|mv-expand)\b[^|]*$/.test(q);

export function conformance(list: Case[]): void {
  for (const c of list) for (const engine of ENGINES) check(engine, c);
}

function check(engine: Engine, c: Case): void {
  {
    const gap = c.knownGap?.[engine];
    (gap ? it.skip : it)(`${engine === "duckdb" ? c.q : `[clickhouse] ${c.q}`}${gap ? ` (known gap: ${gap})` : ""}`, async () => {
      const result = await runOn(engine, c.q, c.parameters ? { parameters: c.parameters } : {});
      if (c.columns) expect(result.columns.map((col) => col.name)).toEqual(c.columns);
      if (c.types) expect(result.columns.map((col) => col.kqlType)).toEqual(c.types);
      let actual = result.rows;
      let expected = c.rows;
      if (!ordered(c.q)) {
        const key = (row: JsonValue[]) => JSON.stringify(row);
        actual = [...actual].sort((a, b) => key(a).localeCompare(key(b)));
        expected = [...expected].sort((a, b) => key(a).localeCompare(key(b)));
      }
      if (!close(actual, expected)) expect({ rows: actual, sql: result.sql }).toEqual({ rows: expected, sql: result.sql });
    });
  }
}
