/**
 * Conformance: every value a query builds is bounded (budget.ts VALUE_LIMITS, issue 19). Sizes the
 * compiler knows are refused when compiling; sizes that depend on data are checked in the SQL of
 * both engines before the value is built, and the engine's error becomes the service's 400
 * INVALID_QUERY naming the function and the limit (duckdb/errors.ts, clickhouse/errors.ts).
 */
import { describe, expect, it } from "vitest";
import { evaluationError } from "@/lib/service/telemetry/duckdb/errors";
import { clickhouseQueryError } from "@/lib/service/telemetry/clickhouse/errors";
import { compileKql } from "../compile";
import { KqlError } from "../errors";
import { unscopedSources } from "../../service/telemetry/testing/duckdb.test-support";
import { conformance, ENGINES, runOn, type Engine } from "../../service/telemetry/testing/kql-conformance";

/** A string of 11,264 bytes the compiler cannot size (it depends on a row). */
const DATA_STRING = `range i from 1 to 1 step 1 | extend s = strrep(strcat("abcdefghij", tostring(i)), 1024)`;

async function refusedOn(engine: Engine, q: string): Promise<string> {
  try {
    await runOn(engine, q);
  } catch (error) {
    const answer = engine === "duckdb" ? evaluationError(error) : clickhouseQueryError(error);
    if (!answer) throw error;
    expect(answer.code).toBe("INVALID_QUERY");
    return answer.message;
  }
  throw new Error(`expected ${engine} to refuse ${q}`);
}

describe("sizes known when compiling", () => {
  it("strrep nested three deep is refused at the call that passes the limit, naming both sizes", () => {
    // Old main: answered 200 after building a 629 MB string.
    const q = `print s = strlen(strrep(strrep(strrep("abcdefghij", 1024), 1024), 60))`;
    expect(() => compileKql(q, { sources: unscopedSources() })).toThrow(KqlError);
    try {
      compileKql(q, { sources: unscopedSources() });
    } catch (error) {
      expect((error as KqlError).detail).toBe("strrep would build a string of 10,485,760 bytes; the limit is 1,048,576");
      expect((error as KqlError).column).toBe(25);
    }
  });

  it("strcat of known strings is sized too", () => {
    const q = `let s = strrep("abcdefghij", 1024); let t = strcat(s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s); print n = strlen(strcat(t, t))`;
    expect(() => compileKql(q, { sources: unscopedSources() })).toThrow(/strcat would build a string of 1,310,720 bytes; the limit is 1,048,576/);
  });
});

describe("sizes that depend on data are checked by the engine before the value is built", () => {
  const cases: [string, string, RegExp][] = [
    ["strrep", `${DATA_STRING} | project n = strlen(strrep(s, 1024))`, /strrep would build a string larger than the limit of 1,048,576 bytes/],
    ["strrep with a delimiter", `${DATA_STRING} | project n = strlen(strrep(s, 100, ","))`, /strrep would build a string larger than the limit of 1,048,576 bytes/],
    ["strcat", `${DATA_STRING} | extend t = strcat(${Array(64).fill("s").join(", ")}) | project n = strlen(strcat(t, t))`, /strcat would build a string larger than the limit of 1,048,576 bytes/],
    ["strcat_delim", `${DATA_STRING} | extend t = strcat(${Array(64).fill("s").join(", ")}) | project n = strlen(strcat_delim(",", t, t))`, /strcat_delim would build a string larger than/],
    ["replace_string", `range i from 1 to 1 step 1 | extend s = strrep(strcat("aa", tostring(i)), 1024) | project n = strlen(replace_string(s, "a", strrep("b", 1024)))`, /replace_string would build a string larger than the limit of 1,048,576 bytes/],
    ["replace_regex", `range i from 1 to 1 step 1 | extend s = strrep(strcat("aa", tostring(i)), 1024) | project n = strlen(replace_regex(s, "a", strrep("b", 1024)))`, /replace_regex would build a string larger than the limit of 1,048,576 bytes/],
    ["repeat", `${DATA_STRING} | project n = array_length(repeat(s, 10000))`, /repeat would build a dynamic value larger than the limit of 16,777,216 bytes/],
    ["pack_array", `${DATA_STRING} | extend r = repeat(s, 1000) | project n = array_length(pack_array(r, r))`, /pack_array would build a dynamic value larger than the limit of 16,777,216 bytes/],
    ["make_list", "range i from 1 to 100001 step 1 | summarize l = make_list(i) | project n = array_length(l)", /make_list would build a list longer than the limit of 100,000 elements/],
    ["make_set", "range i from 1 to 100001 step 1 | summarize l = make_set(i) | project n = array_length(l)", /make_set would build a list longer than the limit of 100,000 elements/],
    // range with bounds computed when the query runs: its rows are counted there (budget.ts LIMITS.rangeRows).
    ["range to toscalar()", "range x from 1 to toscalar(print n = 2000000) step 1 | count", /range would produce more than 1000000 rows/],
  ];
  for (const [name, q, message] of cases) {
    for (const engine of ENGINES) {
      it(`${name} (${engine})`, async () => {
        expect(await refusedOn(engine, q)).toMatch(message);
      });
    }
  }
});

describe("values within the limits are built as before", () => {
  conformance([
    { q: 'range i from 1 to 1 step 1 | extend s = strrep(strcat("abcdefghij", tostring(i)), 1024) | project n = strlen(strrep(s, 93)), d = strlen(strrep(s, 2, "--"))', rows: [[1_047_552, 22_530]], columns: ["n", "d"] },
    { q: 'range i from 1 to 1 step 1 | extend s = strrep(strcat("ab", tostring(i)), 3) | project r = replace_string(s, "b", "xyz"), g = replace_regex(s, "(b)", @"<\\1>")', rows: [["axyz1axyz1axyz1", "a<b>1a<b>1a<b>1"]], columns: ["r", "g"] },
    { q: "range i from 1 to 100000 step 1 | summarize l = make_list(i), s = make_set(i % 10) | project n = array_length(l), m = array_length(s)", rows: [[100_000, 10]], columns: ["n", "m"] },
    { q: "range i from 1 to 200000 step 1 | summarize l = make_list(i, 5) | project n = array_length(l)", rows: [[5]], columns: ["n"] },
  ]);
});
