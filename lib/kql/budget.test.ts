/**
 * The compiler's own bounds (budget.ts, issue 19): queries whose SQL would grow faster than their
 * text are refused with a positioned KqlError after a bounded amount of counted work, never after
 * building the large thing. Assertions are on counted work and sizes, never on wall time
 * (bench/kql-compile.ts measures the time).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMPILE_LIMITS } from "./budget";
import { compileKql } from "./compile";
import { duckdbDialect } from "./dialect/duckdb";
import { clickhouseDialect } from "./dialect/clickhouse";
import { diagnose } from "./diagnose";
import { KqlError } from "./errors";
import { unscopedSources } from "../service/telemetry/testing/duckdb.test-support";

const doubling = (steps: number) => ["let a0 = 1;", ...Array.from({ length: steps }, (_, i) => `let a${i + 1} = a${i} + a${i};`), `print x = a${steps}`].join("\n");
const nestedCalls = (levels: number) => `let f = (x:long){ x + x }; print ${"f(".repeat(levels)}1${")".repeat(levels)}`;
const callsTwice = (levels: number) => ["let f0 = (x:long){ x };", ...Array.from({ length: levels }, (_, i) => `let f${i + 1} = (x:long){ f${i}(f${i}(x)) };`), `print x = f${levels}(1)`].join("\n");

function refusal(query: string, dialect = duckdbDialect): KqlError {
  try {
    compileKql(query, { sources: unscopedSources(), dialect });
  } catch (error) {
    expect(error).toBeInstanceOf(KqlError);
    return error as KqlError;
  }
  throw new Error(`expected a KqlError for ${query.slice(0, 80)}`);
}

describe("a let doubling chain", () => {
  it("is refused at the line where the expansion passes the limit, before any SQL is built", () => {
    // Old main: built 2^24 terms of SQL (26 s on the server) before its length check.
    const error = refusal(doubling(24));
    expect(error.detail).toMatch(/expands to 65,535 terms .* at most 50,000 are allowed/);
    // a15 = a14 + a14 is the first with more than 50,000 terms: line 16 (a0 is line 1).
    expect(error.line).toBe(16);
    // One step per expression analysed: the tree is shared, never walked in full.
    expect(error.work).toBeLessThan(200);
  });

  it("compiles below the limit, rendering each shared term once", () => {
    const compiled = compileKql(doubling(12), { sources: unscopedSources() });
    expect(compiled.sql.length).toBeGreaterThan(8192 * 3);
    expect(compiled.work).toBeLessThan(100);
  });
});

describe("nested user-function calls", () => {
  it("17 levels of f(f(…)) with f = x + x are refused by the expanded size", () => {
    // Old main: 0.66 s and 2^17 terms of SQL, then refused by its length.
    const error = refusal(nestedCalls(17));
    expect(error.detail).toMatch(/expands to .* terms/);
    expect(error.work).toBeLessThan(200);
  });

  it("100 levels are refused by the parser's nesting limit", () => {
    expect(refusal(nestedCalls(100)).detail).toMatch(/nested deeper than 100 levels/);
  });

  it("functions that call the previous one twice stop at the work limit (the tree stays small, the analysis does not)", () => {
    // f30(1) analyses f0's body 2^30 times although its result is `1`: old main never ends.
    const error = refusal(callsTwice(30));
    expect(error.detail).toMatch(/more than 100,000 steps/);
    expect(error.work).toBeLessThanOrEqual(COMPILE_LIMITS.work + 1);
  });
});

describe("templates that spell an operand twice", () => {
  it("nested sqrt renders each level once, and is refused when the SQL would pass 1,000,000 characters", () => {
    // sqrt(x) is CASE WHEN x >= 0 THEN sqrt(x) END: old main rendered 2^n nodes (≈1 s at 18 levels).
    const ok = compileKql(`print x = ${"sqrt(".repeat(12)}2.0${")".repeat(12)}`, { sources: unscopedSources() });
    expect(ok.work).toBeLessThan(40);
    for (const dialect of [duckdbDialect, clickhouseDialect]) {
      const error = refusal(`print x = ${"sqrt(".repeat(40)}2.0${")".repeat(40)}`, dialect);
      expect(error.detail).toMatch(/SQL would be longer than 1,000,000 characters/);
      expect(error.work).toBeLessThan(200);
    }
  });
});

describe("long let chains", () => {
  it("a chain nesting deeper than the engines take is refused, not a stack overflow", () => {
    // Old main: 2,000 `let aN = aN-1 + 1` overflowed the stack (a 500, RangeError).
    const chain = ["let a0 = 1;", ...Array.from({ length: 300 }, (_, i) => `let a${i + 1} = a${i} + 1;`), "print x = a300"].join("\n");
    expect(refusal(chain).detail).toMatch(/nests 2\d\d levels deep .* at most 250 are allowed/);
  });

  it("more than 500 let statements are refused at the 501st (each copies the names in view)", () => {
    // Old main: 2,000 lets took 0.2 s in copies alone (quadratic), 8,000 over 1 s.
    const lets = Array.from({ length: 2000 }, (_, i) => `let a${i} = ${i % 100};`).join("\n");
    const error = refusal(`${lets}\nprint x = a1`);
    expect(error.detail).toBe("A query may have at most 500 let statements");
    expect(error.line).toBe(501);
  });

  it("200 function calls over 400 names in view are charged for the copies", () => {
    const lets = Array.from({ length: 400 }, (_, i) => `let a${i} = ${i % 100};`).join("\n");
    const calls = Array.from({ length: 200 }, (_, i) => `x${i} = f(${i % 100})`).join(", ");
    const compiled = compileKql(`${lets}\nlet f = (x:long){ x + 1 };\nprint ${calls}`, { sources: unscopedSources() });
    expect(compiled.work).toBeGreaterThan(200 * 400);
    expect(compiled.work).toBeLessThanOrEqual(COMPILE_LIMITS.work);
  });
});

describe("the work a compile reports", () => {
  it("is at least one unit per expression and at most the limit", () => {
    const compiled = compileKql("States | where Value > 10 | summarize avg(Value) by DeviceId", { sources: unscopedSources() });
    expect(compiled.work).toBeGreaterThan(3);
    expect(compiled.work).toBeLessThan(100);
  });
});

describe("the browser editor's diagnostics (components/telemetry/kql-services.ts) use the same bounds", () => {
  it("a shared ?q= doubling chain gets one positioned mark, after bounded work", () => {
    // Old main: diagnose() built the whole SQL in the tab (freezing it for seconds at 20+ steps).
    const [mark, ...rest] = diagnose(doubling(24));
    expect(rest).toEqual([]);
    expect(mark).toMatchObject({ line: 16, message: expect.stringMatching(/expands to 65,535 terms/) });
  });
});

describe("property: any mix of lets, function calls and builders compiles within the bounds or is refused by them", () => {
  /** Queries of nested lets (numbers doubling, strings by strcat/strrep, arrays by pack_array), a user function and nested calls of it. */
  const hostile = fc
    .record({
      numbers: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom("+", "*", "-")), { minLength: 1, maxLength: 30 }),
      strings: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom("strcat", "strrep", "pack")), { minLength: 1, maxLength: 30 }),
      times: fc.integer({ min: 0, max: 2000 }),
      body: fc.constantFrom("x + x", "x * 2", "x + y", "iff(x > 0, x, y)"),
      calls: fc.integer({ min: 0, max: 40 }),
    })
    .map(({ numbers, strings, times, body, calls }) => {
      const lets = ["let n0 = 1;", 'let s0 = "abcdefghij";'];
      numbers.forEach(([i, j, op], k) => lets.push(`let n${k + 1} = n${i % (k + 1)} ${op} n${j % (k + 1)};`));
      strings.forEach(([i, j, kind], k) => {
        const [a, b] = [`s${i % (k + 1)}`, `s${j % (k + 1)}`];
        const value = kind === "strcat" ? `strcat(${a}, ${b})` : kind === "strrep" ? `strrep(${a}, ${times})` : `tostring(pack_array(${a}, ${b}))`;
        lets.push(`let s${k + 1} = ${value};`);
      });
      lets.push(`let f = (x:long, y:long = 1){ ${body} };`);
      const call = `${"f(".repeat(calls)}n${numbers.length}${")".repeat(calls)}`;
      return `${lets.join("\n")}\nprint n = ${call}, s = strlen(s${strings.length})`;
    });

  it("never exceeds the work or SQL limits, and the work stays linear in the text", () => {
    fc.assert(
      fc.property(hostile, (text) => {
        try {
          const compiled = compileKql(text, { sources: unscopedSources() });
          expect(compiled.sql.length).toBeLessThanOrEqual(COMPILE_LIMITS.sqlLength);
          // Shared trees are analysed and rendered once: work is bounded by the text, not by the expansion.
          expect(compiled.work).toBeLessThanOrEqual(Math.min(COMPILE_LIMITS.work, 4 * text.length + 200));
        } catch (error) {
          expect(error).toBeInstanceOf(KqlError);
          const refusal = error as KqlError;
          expect(refusal.detail).toMatch(/expands to [\d,]+ terms|nests [\d,]+ levels|would build a string of [\d,]+ bytes|nested deeper than 100 levels|SQL would be longer/);
          expect(refusal.work).toBeLessThanOrEqual(Math.min(COMPILE_LIMITS.work + 1, 4 * text.length + 200));
        }
      }),
      { numRuns: 300 },
    );
  });
});
