/**
 * The compile cache (compile-cache.ts): a hit has the SQL a fresh compile would have and the
 * current scope's values; anything that shapes the SQL, or an instant a query's now() read, misses.
 */
import { describe, expect, it } from "vitest";
import { compileKql, type CompileOptions } from "@/lib/kql";
import { createCompileCache } from "./compile-cache";
import { scopedSources } from "./duckdb/store";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const scope = (offsetDays: number, plantIds: string[] | null = null) => ({ start: new Date(T0 + offsetDays * DAY), end: new Date(T0 + (offsetDays + 1) * DAY), plantIds });
const options = (offsetDays: number, plantIds: string[] | null = null, now = new Date(T0)): CompileOptions => ({ sources: scopedSources(scope(offsetDays, plantIds)), now, database: "CUST-A" });
const fresh = (text: string, o: CompileOptions) => compileKql(text, o);

describe("compile cache", () => {
  const QUERY = 'States | where DeviceId == "D1" and Name == "Temperature" | summarize avg(Value) by bin(Timestamp, 1h)';

  it("a re-run over another range reuses the SQL and binds the new range", () => {
    const cache = createCompileCache();
    const first = cache.compile(QUERY, options(0));
    const second = cache.compile(QUERY, options(5));
    expect(second.columns).toBe(first.columns); // the kept compile, not a new one
    const expected = fresh(QUERY, options(5));
    expect(second.sql).toBe(expected.sql);
    expect(second.params).toEqual(expected.params);
    expect(second.params.scope_start).toEqual({ type: "TIMESTAMP", value: T0 + 5 * DAY });
  });

  it("another plant list, text, database or parameter value compiles again", () => {
    const cache = createCompileCache();
    const first = cache.compile(QUERY, options(0));
    for (const [text, o] of [
      [QUERY, options(0, ["P1", "P2"])],
      [`${QUERY} | count`, options(0)],
      [QUERY, { ...options(0), database: "CUST-B" }],
    ] as const) {
      const next = cache.compile(text, o);
      expect(next.columns).not.toBe(first.columns);
      expect(next.sql).toBe(fresh(text, o).sql);
      expect(next.params).toEqual(fresh(text, o).params);
    }
    const declared = "declare query_parameters(d: string); States | where DeviceId == d | count";
    const a = cache.compile(declared, { ...options(0), parameters: { d: "D1" } });
    const b = cache.compile(declared, { ...options(0), parameters: { d: "D2" } });
    expect(b.params).toEqual(fresh(declared, { ...options(0), parameters: { d: "D2" } }).params);
    expect(b.params).not.toEqual(a.params);
  });

  it("a query that reads now() is kept only for the same instant", () => {
    const cache = createCompileCache();
    const text = "States | where Timestamp > ago(1h) | count";
    const first = cache.compile(text, options(0, null, new Date(T0)));
    expect(first.readsNow).toBe(true);
    expect(cache.compile(text, options(0, null, new Date(T0))).columns).toBe(first.columns);
    const later = cache.compile(text, options(0, null, new Date(T0 + 60_000)));
    expect(later.columns).not.toBe(first.columns);
    expect(later.params).toEqual(fresh(text, options(0, null, new Date(T0 + 60_000))).params);
    expect(cache.compile("print x = 1", options(0)).readsNow).toBe(false);
  });

  it("keeps at most its number of entries, least recently used out", () => {
    const cache = createCompileCache(2);
    const a = cache.compile("print a = 1", options(0));
    cache.compile("print b = 1", options(0));
    expect(cache.compile("print a = 1", options(0)).columns).toBe(a.columns);
    cache.compile("print c = 1", options(0)); // b goes
    expect(cache.compile("print a = 1", options(0)).columns).toBe(a.columns);
    const b = cache.compile("print b = 1", options(0));
    expect(cache.compile("print b = 1", options(0)).columns).toBe(b.columns);
  });

  it("does not keep a query that fails", () => {
    const cache = createCompileCache();
    expect(() => cache.compile("States | where", options(0))).toThrow();
    expect(() => cache.compile("States | where", options(0))).toThrow();
  });
});
