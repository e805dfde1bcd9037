/**
 * The digests of tdigest()/percentilew() for DuckDB (the entries in sketches.ts, registered in
 * udfs.ts; ClickHouse spells the same rule with arrayCumSum). A digest is the JSON array of
 * [value, weight] pairs sorted by value (docs/api.md, "Sketches"); a percentile is the smallest
 * value whose cumulative weight reaches P % of the total, as percentile()'s nearest rank with
 * every weight 1. Pure: no DuckDB import here.
 */

type Pair = [number, number];

function pairsOf(json: string): Pair[] | null {
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) return null;
  const pairs = parsed.filter((p): p is Pair => Array.isArray(p) && typeof p[0] === "number" && typeof p[1] === "number");
  return pairs.sort((a, b) => a[0] - b[0]);
}

function percentileOf(pairs: readonly Pair[], fraction: number): number | null {
  if (!pairs.length) return null;
  const total = pairs.reduce((sum, p) => sum + p[1], 0);
  let cumulative = 0;
  for (const [value, weight] of pairs) {
    cumulative += weight;
    if (cumulative >= fraction * total) return value;
  }
  return pairs[pairs.length - 1]![0];
}

/** The percentile (0–100) of a digest; null for an empty one. */
export function digestPercentile(json: string, percent: number): number | null {
  const pairs = pairsOf(json);
  return pairs ? percentileOf(pairs, percent / 100) : null;
}

/** Several percentiles (a JSON array of 0–100) as a JSON array; null for an empty digest. */
export function digestPercentiles(json: string, percents: string): string | null {
  const pairs = pairsOf(json);
  const wanted: unknown = JSON.parse(percents);
  if (!pairs?.length || !Array.isArray(wanted)) return null;
  return JSON.stringify(wanted.map((p) => (typeof p === "number" ? percentileOf(pairs, p / 100) : null)));
}

/** The weight of the values at most `value` (rank_tdigest); `percent` gives it as a share of the total (percentrank_tdigest). */
export function digestRank(json: string, value: number, percent: boolean): number | null {
  const pairs = pairsOf(json);
  if (!pairs?.length) return null;
  const rank = pairs.reduce((sum, p) => sum + (p[0] <= value ? p[1] : 0), 0);
  return percent ? (100 * rank) / pairs.reduce((sum, p) => sum + p[1], 0) : rank;
}

/** The kinds of value seen at one place of buildschema()'s values, in the order first seen. */
interface Shape {
  kinds: (string | "object" | "array")[];
  keys: Map<string, Shape>;
  items: Shape | null;
}

const emptyShape = (): Shape => ({ kinds: [], keys: new Map(), items: null });

function primitive(value: unknown): string {
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "long" : "double";
  return "string";
}

function observe(shape: Shape, value: unknown): void {
  if (value === null || value === undefined) return;
  const kind = Array.isArray(value) ? "array" : typeof value === "object" ? "object" : primitive(value);
  if (!shape.kinds.includes(kind)) shape.kinds.push(kind);
  if (Array.isArray(value)) {
    shape.items ??= emptyShape();
    for (const item of value) observe(shape.items, item);
  } else if (kind === "object") {
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (!shape.keys.has(key)) shape.keys.set(key, emptyShape());
      observe(shape.keys.get(key)!, v);
    }
  }
}

function written(shape: Shape): unknown {
  const each = shape.kinds.map((kind) =>
    kind === "object" ? Object.fromEntries([...shape.keys].filter(([, s]) => s.kinds.length).map(([k, s]) => [k, written(s)])) : kind === "array" ? { "`indexer`": shape.items?.kinds.length ? written(shape.items) : null } : kind,
  );
  return each.length === 1 ? each[0] : each;
}

/**
 * buildschema() of a JSON array of values: an object's keys (in the order first seen), an array's
 * elements under "`indexer`", a value's type (long, double, string, bool); a place where several
 * kinds were seen lists them in the order first seen (the page's printed schema). Nulls are left out.
 */
export function buildSchema(json: string): string | null {
  const values: unknown = JSON.parse(json);
  if (!Array.isArray(values)) return null;
  const shape = emptyShape();
  for (const value of values) observe(shape, value);
  return shape.kinds.length ? JSON.stringify(written(shape)) : null;
}
