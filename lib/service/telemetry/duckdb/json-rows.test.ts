/**
 * The rows DuckDB renders as JSON (json-rows.ts) are the rows testing/reference-json.ts's converter gives
 * for the same query, value for value and in the same order — checked on random pipelines over the
 * KQL fixture, and on the values where the two could part: nulls, non-finite numbers, -0, datetimes
 * outside 0001–9999, timespans, JSON that is not JSON. And the limits are met from inside DuckDB.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileKql, KqlError } from "@/lib/kql";
import { kqlQuery } from "@/lib/kql/testing/arbitrary";
import { createFixtureDatabase, unscopedSources } from "@/lib/service/telemetry/testing/duckdb.test-support";
import { FIXTURE_SQL } from "@/lib/kql/testing/fixture";
import type { ResultColumn } from "@/lib/kql";
import { bindParams } from "./store";
import { JsonRowsLimitError, streamJsonRows } from "./json-rows";
import { referenceRows } from "./testing/reference-json";

const NOW = new Date("2026-01-02T12:00:00Z");
const LIMITS = { maxRows: 500_000, maxBytes: 64 * 1024 * 1024 };

let db: DuckDBConnection;
beforeAll(async () => {
  db = await createFixtureDatabase(FIXTURE_SQL);
});

async function both(statement: { sql: string; params: Parameters<typeof bindParams>[0]; columns: ResultColumn[] }) {
  // What a client reads: the converter's values after JSON serialisation (-0 becomes 0).
  const reference = JSON.parse(JSON.stringify(await referenceRows(db, statement))) as unknown[][];
  const rendered = await streamJsonRows(db, statement, bindParams(statement.params), LIMITS);
  return { reference, rendered: JSON.parse(textOf(rendered.parts)) as unknown[][], rendering: rendered };
}

const PICKS_AMONG_TIES = /\b(take|limit|top|top-nested|sample|arg_min|arg_max|take_any|any)\b/;
const textOf = (parts: Uint8Array[]) => Buffer.concat(parts).toString("utf8");
const sortedRows = (rows: unknown[][]) => rows.map((row) => JSON.stringify(row)).sort();

describe("rows rendered as JSON inside DuckDB", () => {
  it("equal the converter's rows for random pipelines", async () => {
    await fc.assert(
      fc.asyncProperty(kqlQuery({ junk: 0 }), async (query) => {
        let compiled;
        try {
          compiled = compileKql(query, { sources: unscopedSources(), now: NOW });
        } catch (error) {
          if (error instanceof KqlError) return;
          throw error;
        }
        const { reference, rendered, rendering } = await both(compiled);
        // Without a total order two runs may list rows differently: compare them as multisets
        // (the order is checked below on queries that fix it). Operators that pick some rows among
        // equals (take, top and arg_min/arg_max on ties, any) may even pick different ones in the
        // two runs, as ADX documents: there only the count must agree.
        if (PICKS_AMONG_TIES.test(query)) expect(rendered.length, query).toBe(reference.length);
        else expect(sortedRows(rendered), query).toEqual(sortedRows(reference));
        expect(rendering.rowCount).toBe(reference.length);
        expect(rendering.bytes).toBe(Buffer.concat(rendering.parts).length);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it("equal the converter's rows on the edge values of each type", async () => {
    const columns: ResultColumn[] = [
      { name: "s", kqlType: "string" },
      { name: "b", kqlType: "bool" },
      { name: "l", kqlType: "long" },
      { name: "i", kqlType: "int" },
      { name: "r", kqlType: "real" },
      { name: "d", kqlType: "datetime" },
      { name: "t", kqlType: "timespan" },
      { name: "j", kqlType: "dynamic" },
      { name: "x", kqlType: "dynamic" },
    ];
    const sql = `SELECT * FROM (VALUES
      ('a"b\\c' || chr(1) || chr(8232) || 'é', true, 9007199254740993::BIGINT, -7::INTEGER, 1.5::DOUBLE, TIMESTAMP '2026-01-02 03:04:05.678', 90061000001::BIGINT, '{"k":[1,"x",null]}'::JSON, 2.5::DOUBLE),
      (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
      ('', false, 0::BIGINT, 0::INTEGER, -0.0::DOUBLE, TIMESTAMP '0001-01-01 00:00:00', -1500000::BIGINT, '"text"'::JSON, 'NaN'::DOUBLE),
      ('x', false, -1::BIGINT, 1::INTEGER, 'Infinity'::DOUBLE, TIMESTAMP '9999-12-31 23:59:59.999', 0::BIGINT, '[]'::JSON, '-Infinity'::DOUBLE),
      ('y', true, 1::BIGINT, 2::INTEGER, 'NaN'::DOUBLE, TIMESTAMP '1969-12-31 23:59:59.9995', 1::BIGINT, 'null'::JSON, -0.0::DOUBLE),
      ('z', true, 2::BIGINT, 3::INTEGER, 1e21::DOUBLE, TIMESTAMP '10000-01-01 00:00:00', 86400000000::BIGINT, '{}'::JSON, 1e-7::DOUBLE)
    ) AS v(s, b, l, i, r, d, t, j, x)`;
    const { reference, rendered } = await both({ sql, params: {}, columns });
    expect(rendered).toEqual(reference);
    expect(rendered[1]).toEqual(["", null, null, null, null, null, null, null, null]);
  });

  it("keeps the query's order", async () => {
    for (const query of ["States | order by Timestamp asc, DeviceId asc, Name asc", "Events | top 3 by StartTime desc | project EventId, StartTime"]) {
      const { reference, rendered } = await both(compileKql(query, { sources: unscopedSources(), now: NOW }));
      expect(rendered, query).toEqual(reference);
      expect(rendered.length).toBeGreaterThan(2);
    }
  });

  it("keeps the query's order across groups of rows", async () => {
    const sql = "SELECT i FROM range(10000) AS t(i) ORDER BY i DESC";
    const { rendered } = await both({ sql, params: {}, columns: [{ name: "i", kqlType: "long" }] });
    expect(rendered.map((row) => row[0])).toEqual(Array.from({ length: 10000 }, (_, i) => 9999 - i));
  });

  it("stops at the row and byte limits, and answers exactly at them", async () => {
    const statement = { sql: "SELECT i FROM range(100000) AS t(i)", columns: [{ name: "i", kqlType: "long" as const }] };
    const bound = bindParams({});
    await expect(streamJsonRows(db, statement, bound, { maxRows: 5000, maxBytes: LIMITS.maxBytes })).rejects.toThrow(JsonRowsLimitError);
    await expect(streamJsonRows(db, statement, bound, { maxRows: LIMITS.maxRows, maxBytes: 10_000 })).rejects.toThrow(JsonRowsLimitError);
    const exact = await streamJsonRows(db, { ...statement, sql: "SELECT i FROM range(5000) AS t(i)" }, bound, { maxRows: 5000, maxBytes: LIMITS.maxBytes });
    expect(exact.rowCount).toBe(5000);
    const text = textOf(exact.parts);
    const fits = await streamJsonRows(db, { ...statement, sql: "SELECT i FROM range(5000) AS t(i)" }, bound, { maxRows: 5000, maxBytes: text.length });
    expect(textOf(fits.parts)).toBe(text);
    await expect(
      streamJsonRows(db, { ...statement, sql: "SELECT i FROM range(5000) AS t(i)" }, bound, { maxRows: 5000, maxBytes: text.length - 1 }),
    ).rejects.toThrow(JsonRowsLimitError);
  });

  it("answers an empty result as an empty array", async () => {
    const { rendered, rendering } = await both({ sql: "SELECT 1 AS x WHERE false", params: {}, columns: [{ name: "x", kqlType: "long" }] });
    expect(rendered).toEqual([]);
    expect(textOf(rendering.parts)).toBe("[]");
  });
});
