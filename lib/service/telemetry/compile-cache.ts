/**
 * Compiled queries kept by their text and everything else that shapes the SQL (issue 38's fixed
 * cost: a dashboard refreshing a panel, or a client re-running a query over a moving range, sends
 * the same text again and again; compiling it again took 0.4–4 ms). What differs between two such
 * runs is only parameter values: the scope's range and plants are bound parameters of the scoped
 * sources, so a hit takes the SQL as it is and the current sources' values. A query whose SQL
 * depends on `now()` (ago(), now(), a bin of now …: CompiledQuery.readsNow) is kept only for the
 * same instant. One cache per store (one dialect each). Bounded by entries (least recently used out) and by the text's length.
 */
import { compileKql, type CompiledQuery, type CompileOptions } from "@/lib/kql";

const COMPILE_CACHE_ENTRIES = 256;
/** Longer texts are compiled every time: they are rare and would make the cache's memory large. */
const MAX_TEXT = 8_192;

interface CompileCache {
  compile(text: string, options: CompileOptions): CompiledQuery;
}

/** The part of the options that decides the SQL's text (not the scope's parameter values). */
function shapeOf(text: string, options: CompileOptions): string {
  const sources = Object.entries(options.sources)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([table, s]) => [table, s!.sql, s!.narrower?.map((f) => f.sql), s!.series?.sql, Object.keys(s!.params).sort()]);
  return JSON.stringify([text, options.database ?? null, options.parameters ?? null, sources]);
}

export function createCompileCache(entries = COMPILE_CACHE_ENTRIES): CompileCache {
  const cache = new Map<string, { compiled: CompiledQuery; now: number }>();
  return {
    compile(text, options) {
      if (text.length > MAX_TEXT) return compileKql(text, options);
      const now = options.now ?? new Date();
      const key = shapeOf(text, options);
      const hit = cache.get(key);
      if (hit && (!hit.compiled.readsNow || hit.now === now.getTime())) {
        cache.delete(key);
        cache.set(key, hit);
        // Same SQL; the scope's values as they are now (every source param the SQL uses).
        const params = { ...hit.compiled.params };
        for (const source of Object.values(options.sources)) {
          for (const [name, value] of Object.entries(source!.params)) if (name in params) params[name] = value;
        }
        return { ...hit.compiled, params };
      }
      const compiled = compileKql(text, { ...options, now });
      cache.delete(key);
      cache.set(key, { compiled, now: now.getTime() });
      if (cache.size > entries) cache.delete(cache.keys().next().value!);
      return compiled;
    },
  };
}
