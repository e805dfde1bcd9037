/**
 * Variable substitution (lib/kql/variables.ts): a value always becomes one string literal whose
 * decoded value is exactly the value — quotes, backslashes, newlines, `|` and KQL keywords
 * included — so no value can add query text; `$names` in strings and comments are left alone;
 * an unknown name is a problem with its place; `$__bin` follows the range.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileKql } from "./compile";
import { unscopedSources } from "../service/telemetry/testing/duckdb.test-support";
import { tokenize } from "./lexer";
import { binFor, kqlStringLiteral, maskVariables, substituteVariables, timespanLiteral, variablesUsed } from "./variables";
import { diagnose } from "./diagnose";

describe("kqlStringLiteral", () => {
  it("is one string token whose value is the text, for any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
        const tokens = tokenize(kqlStringLiteral(text));
        expect(tokens.map((token) => token.kind)).toEqual(["string", "eof"]);
        expect(tokens[0]!.problem).toBeUndefined();
        expect(tokens[0]!.value).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});

describe("substituteVariables", () => {
  const query = 'States\n| where DeviceId == $device and Name == $point // $device in a comment\n| extend Note = "$device"\n| summarize avg(todouble(Value)) by bin(Timestamp, $__bin)';

  it("replaces each $name token by its literal and $__bin by the bin, leaving strings and comments", () => {
    const result = substituteVariables(query, { device: "PUMP-1", point: "Temperature" }, "15m");
    expect(result).toEqual({
      ok: true,
      query: 'States\n| where DeviceId == "PUMP-1" and Name == "Temperature" // $device in a comment\n| extend Note = "$device"\n| summarize avg(todouble(Value)) by bin(Timestamp, 15m)',
    });
  });

  it("keeps a hostile value inside its literal: the compiled query compares with exactly that value", () => {
    const hostile = 'x" or 1 == 1 | take 100000 //\n| union Events';
    const result = substituteVariables("States | where DeviceId == $device | count", { device: hostile }, "1h");
    if (!result.ok) throw new Error(result.problem.message);
    const compiled = compileKql(result.query, { sources: unscopedSources() });
    expect(JSON.stringify(compiled.params)).toContain(JSON.stringify(hostile).slice(1, -1));
    expect(compiled.sql).not.toMatch(/union|100000/i);
    // The whole value is one token: the query has the same shape as with a harmless value.
    const shape = (text: string) => tokenize(text).map((token) => token.kind);
    expect(shape(result.query)).toEqual(shape('States | where DeviceId == "a" | count'));
  });

  it("says which name is unknown and where", () => {
    expect(substituteVariables("States\n| where DeviceId == $devise", { device: "A" }, "1h")).toEqual({
      ok: false,
      problem: { name: "devise", line: 2, column: 21, message: "$devise is not a variable of this dashboard" },
    });
  });

  it("lists the names a query uses, not those in strings or comments", () => {
    expect(variablesUsed(query).map((use) => use.name)).toEqual(["device", "point", "__bin"]);
  });

  it("chooses $__bin so a range has at most about 150 points", () => {
    expect(binFor(3_600_000)).toBe("1m");
    expect(binFor(86_400_000)).toBe("10m");
    expect(binFor(7 * 86_400_000)).toBe("3h");
    expect(binFor(30 * 86_400_000)).toBe("6h");
    expect(binFor(400 * 86_400_000)).toBe("1d");
    expect(() => substituteVariables("States", {}, "1h; drop")).toThrow();
  });

  it("replaces $__range, $__from and $__to from the board's range, and only when it is known", () => {
    const text = "States | where Timestamp between ($__from .. $__to) | summarize count() by bin(Timestamp, $__range)";
    expect(substituteVariables(text, {}, "1h", 30 * 86_400_000)).toEqual({
      ok: true,
      query: "States | where Timestamp between (ago(30d) .. now()) | summarize count() by bin(Timestamp, 30d)",
    });
    expect(substituteVariables(text, {}, "1h")).toMatchObject({ ok: false, problem: { name: "__from" } });
    expect(timespanLiteral(6 * 3_600_000)).toBe("6h");
    expect(timespanLiteral(90 * 60_000)).toBe("90m");
  });
});

describe("maskVariables", () => {
  it("gives the editor's diagnostics a valid query at the same offsets, and leaves unknown names to be reported", () => {
    const text = "States\n| where DeviceId == $device and Name == $point and Timestamp > $__from\n| summarize avg(todouble(Value)) by bin(Timestamp, $__bin)";
    const masked = maskVariables(text, new Set(["device", "point"]));
    expect(masked.length).toBe(text.length);
    expect(diagnose(text).length).toBeGreaterThan(0);
    expect(diagnose(masked)).toEqual([]);
    const unknown = maskVariables("States | where DeviceId == $devise", new Set(["device"]));
    const problems = diagnose(unknown);
    expect(problems.length).toBeGreaterThan(0);
    expect(unknown.slice(problems[0]!.from, problems[0]!.to)).toContain("devise");
  });
});
