/** The editor-facing API: tokens for highlighting, tolerant parsing, diagnostics and completions. */
import { describe, expect, it } from "vitest";
import { AGGREGATE_FUNCTIONS, SCALAR_FUNCTIONS } from "./functions/table";
import { completionsAt, diagnose, FUNCTION_DOCS, hoverAt, parse, tokenize } from "./index";
import { functionDoc } from "./catalog";

describe("tokenize", () => {
  it("gives kinds and offsets for highlighting, and never throws", () => {
    const tokens = tokenize('States | where Name has "temp" and Timestamp > ago(1h) // note\n| project-away Value');
    const kinds = tokens.map((t) => `${t.kind}:${t.text}`);
    expect(kinds).toContain("identifier:States");
    expect(kinds).toContain("keyword:where");
    expect(kinds).toContain('string:"temp"');
    expect(kinds).toContain("timespan:1h");
    expect(kinds).toContain("comment:// note");
    expect(kinds).toContain("keyword:project-away");
    const away = tokens.find((t) => t.text === "project-away")!;
    expect({ line: away.line, column: away.column }).toEqual({ line: 2, column: 3 });
    expect(tokenize('States | where "open').at(-2)?.problem).toMatch(/Unterminated/);
    expect(tokenize("datetime(2026-01-01T00:00:00Z)")[0]).toMatchObject({ kind: "datetime", value: "2026-01-01T00:00:00Z" });
  });
});

describe("parse and diagnose", () => {
  it("keeps parsing after a broken operator", () => {
    const { ast, diagnostics } = parse("States | where | take 5 | project Name,");
    expect(ast?.query?.operators.map((o) => o.kind)).toEqual(["take"]);
    expect(diagnostics.map((d) => d.column)).toEqual([16, 40]);
  });
  it("reports semantic errors with their span", () => {
    expect(diagnose("States | where Nme == 'x'")).toEqual([{ line: 1, column: 16, from: 15, to: 18, message: "Unknown column 'Nme'" }]);
    expect(diagnose("States | take 5")).toEqual([]);
  });
});

describe("completionsAt", () => {
  const labels = (text: string, options?: { dataPointNames?: string[] }) => completionsAt(text, text.length, options).options.map((o) => o.label);
  it("offers tables, then operators after a pipe", () => {
    expect(labels("St").slice(0, 2)).toEqual(["States", "Events"]);
    expect(labels("St")).toEqual(expect.arrayContaining(["let", "union", "print", "range", "datatable"]));
    expect(labels("let x = 1; ")).toContain("States");
    expect(completionsAt("St", 2).from).toBe(0);
    expect(labels("States | ")).toContain("summarize");
    expect(labels("States | su")).toContain("where");
    for (const operator of ["make-series", "mv-expand", "join", "lookup", "union", "top-nested", "project-reorder", "project-keep", "parse", "sample", "as", "getschema"]) {
      expect(labels("States | ")).toContain(operator);
    }
  });
  it("offers the columns in scope at that point of the pipeline", () => {
    expect(labels("States | where ")).toContain("Timestamp");
    const afterSummarize = labels("States | summarize n = count() by DeviceId | where ");
    expect(afterSummarize).toContain("n");
    expect(afterSummarize).not.toContain("Timestamp");
    expect(labels("Events | project ")).toContain("Severity");
  });
  it("offers aggregations in summarize, metadata keys, chart kinds and data point names", () => {
    expect(labels("States | summarize ")).toContain("percentile");
    expect(labels("States | where ")).not.toContain("percentile");
    expect(labels("States | make-series ")).toContain("percentiles");
    expect(labels("States | where ")).toEqual(expect.arrayContaining(["startofday", "strcat", "series_fir", "has_any", "matches regex"]));
    expect(labels("States | where DataMetadata.")).toEqual(["Unit", "Area", "Line", "DeviceType"]);
    expect(labels("States | render ")).toContain("timechart");
    expect(labels('States | where Name == "te', { dataPointNames: ["temperature", "pressure"] })).toEqual(["temperature", "pressure"]);
    expect(completionsAt('States | where Name == "te', 25).from).toBe(24);
  });
});

describe("hoverAt", () => {
  it("has documentation for every function the engine knows", () => {
    const undocumented = [...SCALAR_FUNCTIONS, ...AGGREGATE_FUNCTIONS].filter((name) => !FUNCTION_DOCS[name]);
    expect(undocumented).toEqual([]);
  });
  it("gives every function a signature and a one-line description, in hover and in completion alike", () => {
    const without = [...SCALAR_FUNCTIONS, ...AGGREGATE_FUNCTIONS].filter((name) => {
      const doc = functionDoc(name);
      return !doc || !doc.signature.startsWith(`${name}(`) || doc.description.length < 5 || doc.description.includes("\n");
    });
    expect(without).toEqual([]);
    const query = "States | summarize avg(todouble(Value))";
    expect(hoverAt(query, query.indexOf("avg") + 1)).toMatchObject({ signature: "avg(x): real", description: "the mean of the values" });
    const inSummarize = completionsAt("States | summarize a", 20).options.find((option) => option.label === "avg");
    expect(inSummarize).toMatchObject({ kind: "function", detail: "avg(x): real", info: "the mean of the values" });
    const scalar = completionsAt("States | extend x = tod", 23).options.find((option) => option.label === "todouble");
    expect(scalar).toMatchObject({ detail: "todouble(x): real", info: "converts to a real number (null if it cannot)" });
    const session = "States | sort by Timestamp asc | extend s = row_window_session(Timestamp, 1h, 5m)";
    const sessionDoc = {
      signature: "row_window_session(Expr, MaxDistanceFromFirst, MaxDistanceBetweenNeighbors [, Restart]): datetime",
      description: "the value of Expr where the row's session starts, in a serialized row set",
    };
    expect(hoverAt(session, session.indexOf("row_window") + 1)).toMatchObject(sessionDoc);
    const sessionOption = completionsAt("States | sort by Timestamp asc | extend s = row_w", 49).options.find((option) => option.label === "row_window_session");
    expect(sessionOption).toMatchObject({ kind: "function", detail: sessionDoc.signature, info: sessionDoc.description });
  });
  it("documents operators, functions and statements", () => {
    const query = "let x = 1; States | make-series c = count() on Timestamp step 1h | extend s = series_fir(c, repeat(1, 3))";
    expect(hoverAt(query, query.indexOf("make-series") + 2)?.text).toMatch(/^make-series/);
    expect(hoverAt(query, query.indexOf("series_fir") + 1)?.text).toMatch(/^series_fir\(/);
    expect(hoverAt(query, 1)?.text).toMatch(/^let /);
    expect(hoverAt(query, query.indexOf("Timestamp") + 1)).toBeNull();
  });
});
