/**
 * KQL's bag_zip, bag_set_key and bag_remove_keys (entry.ts says what an entry holds;
 * docs/kql-functions.md how to add one), spelled in each engine's SQL: DuckDB rebuilds a bag from
 * its (key, value) pairs as a MAP turned to JSON, ClickHouse from JSONExtractKeysAndValuesRaw as
 * JSON text. A key is a name or a JSONPath `$.a.b` (a nested key); the keys are literals, so the
 * path's depth is known when the SQL is written.
 */
import { scalar, type FunctionEntry } from "./entry";

type Engine = "duckdb" | "clickhouse";

/** A key or `$.a.b` path as its parts. */
const pathOf = (key: string): string[] => (key.startsWith("$.") ? key.slice(2).split(".") : key.startsWith("$['") && key.endsWith("']") ? [key.slice(3, -2)] : [key]);

/** Text inside a SQL string literal. */
const text = (s: string) => `'${s.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
const duckText = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** DuckDB: the bag's (k, v) pairs, v as JSON. */
const duckPairs = (bag: string, level: number) => `list_transform(json_keys(${bag}), lambda kql_k${level}: {'k': kql_k${level}, 'v': json_extract(${bag}, '$."' || replace(kql_k${level}, '"', '\\"') || '"')})`;
const duckBag = (pairs: string) => `to_json(map_from_entries(${pairs}))`;

/** bag_zip: the keys (string elements only, the first of equal keys) paired with the values at their positions (null past the end or when values is not an array). */
function bagZip(engine: Engine, keys: string, values: string): string {
  if (engine === "duckdb") {
    const list = `CAST(${keys} AS JSON[])`;
    const value = `coalesce(CASE WHEN json_type(${values}) = 'ARRAY' THEN CAST(${values} AS JSON[])[kql_i] END, 'null'::JSON)`;
    const kept = `list_filter(range(1, len(${list}) + 1), lambda kql_i: json_type(${list}[kql_i]) = 'VARCHAR' AND list_position(${list}, ${list}[kql_i]) = kql_i)`;
    return `CASE WHEN json_type(${keys}) = 'ARRAY' THEN ${duckBag(`list_transform(${kept}, lambda kql_i: {'k': ${list}[kql_i] ->> '$', 'v': ${value}})`)} END`;
  }
  const raw = `JSONExtractArrayRaw(ifNull(${keys}, 'null'))`;
  const vals = `JSONExtractArrayRaw(ifNull(${values}, 'null'))`;
  const kept = `arrayFilter(kql_i -> JSONType(${raw}[kql_i]) = 'String' AND indexOf(${raw}, ${raw}[kql_i]) = kql_i, arrayEnumerate(${raw}))`;
  const pair = `concat(toJSONString(JSONExtractString(${raw}[kql_i])), ':', if(kql_i <= length(${vals}), ${vals}[kql_i], 'null'))`;
  return `if(JSONType(ifNull(${keys}, 'null')) = 'Array', concat('{', arrayStringConcat(arrayMap(kql_i -> ${pair}, ${kept}), ','), '}'), NULL)`;
}

/** The bag with the path's last key set to `value` (JSON), the bags on the way created or replaced when they are not bags. */
function setKey(engine: Engine, bag: string, path: string[], value: string, level = 0): string {
  const [key, ...rest] = path;
  if (engine === "duckdb") {
    const child = `CASE WHEN json_type(${bag}, ${duckText(`$."${key!.replaceAll('"', '\\"')}"`)}) = 'OBJECT' THEN json_extract(${bag}, ${duckText(`$."${key!.replaceAll('"', '\\"')}"`)}) ELSE '{}'::JSON END`;
    const v = rest.length ? setKey(engine, child, rest, value, level + 1) : value;
    const others = `list_filter(${duckPairs(bag, level)}, lambda kql_p${level}: kql_p${level}.k <> ${duckText(key!)})`;
    return duckBag(`list_concat(${others}, [{'k': ${duckText(key!)}, 'v': ${v}}])`);
  }
  const child = `if(JSONType(${bag}, ${text(key!)}) = 'Object', JSONExtractRaw(${bag}, ${text(key!)}), '{}')`;
  const v = rest.length ? setKey(engine, child, rest, value, level + 1) : value;
  const others = `arrayMap(kql_p${level} -> concat(toJSONString(kql_p${level}.1), ':', kql_p${level}.2), arrayFilter(kql_p${level} -> kql_p${level}.1 != ${text(key!)}, JSONExtractKeysAndValuesRaw(ifNull(${bag}, 'null'))))`;
  return `concat('{', arrayStringConcat(arrayConcat(${others}, [concat(${text(`"${key!.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}":`)}, ${v})]), ','), '}')`;
}

/** The paths to remove as a tree: a key maps to true (remove it) or to the paths below it. */
type Removal = Map<string, true | Removal>;

function removalTree(keys: unknown): Removal {
  const tree: Removal = new Map();
  const list = Array.isArray(keys) ? keys : [];
  for (const key of list) {
    if (typeof key !== "string") continue;
    let node = tree;
    const path = pathOf(key);
    path.forEach((part, i) => {
      const at = node.get(part);
      if (at === true) return;
      if (i === path.length - 1) node.set(part, true);
      else {
        const next: Removal = at ?? new Map();
        node.set(part, next);
        node = next;
      }
    });
  }
  return tree;
}

function removeKeys(engine: Engine, bag: string, tree: Removal, level = 0): string {
  const gone = [...tree].filter(([, v]) => v === true).map(([k]) => k);
  const below = [...tree].filter((e): e is [string, Removal] => e[1] !== true);
  const p = `kql_p${level}`;
  if (engine === "duckdb") {
    let pairs = duckPairs(bag, level);
    if (gone.length) pairs = `list_filter(${pairs}, lambda ${p}: NOT list_contains([${gone.map(duckText).join(", ")}], ${p}.k))`;
    if (below.length) {
      const value = `CASE ${below.map(([k, sub]) => `WHEN ${p}.k = ${duckText(k)} AND json_type(${p}.v) = 'OBJECT' THEN ${removeKeys(engine, `${p}.v`, sub, level + 1)}`).join(" ")} ELSE ${p}.v END`;
      pairs = `list_transform(${pairs}, lambda ${p}: {'k': ${p}.k, 'v': ${value}})`;
    }
    return duckBag(pairs);
  }
  let pairs = `JSONExtractKeysAndValuesRaw(ifNull(${bag}, 'null'))`;
  if (gone.length) pairs = `arrayFilter(${p} -> NOT has([${gone.map(text).join(", ")}], ${p}.1), ${pairs})`;
  const value = below.length ? `multiIf(${below.map(([k, sub]) => `${p}.1 = ${text(k)} AND JSONType(${p}.2) = 'Object', ${removeKeys(engine, `${p}.2`, sub, level + 1)}`).join(", ")}, ${p}.2)` : `${p}.2`;
  return `concat('{', arrayStringConcat(arrayMap(${p} -> concat(toJSONString(${p}.1), ':', ${value}), ${pairs}), ','), '}')`;
}

const isBag = (engine: Engine, bag: string, body: string) => (engine === "duckdb" ? `CASE WHEN json_type(${bag}) = 'OBJECT' THEN ${body} END` : `if(JSONType(ifNull(${bag}, 'null')) = 'Object', ${body}, NULL)`);

const parsedKeys = (json: unknown): unknown => {
  try {
    return typeof json === "string" ? JSON.parse(json) : json;
  } catch {
    return undefined;
  }
};

export const BAGS: readonly FunctionEntry[] = [
  scalar("bag_zip", {
    args: "keys: dynamic, values: dynamic",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: ({ args: [k, v] }) => bagZip("duckdb", k!, v!), clickhouse: ({ args: [k, v] }) => bagZip("clickhouse", k!, v!) },
    doc: "a property bag of the keys (the string elements of an array) paired with the values at the same positions (null where values is shorter or not an array)",
  }),
  scalar("bag_set_key", {
    args: "bag: dynamic, key: const string, value: dynamic",
    result: "dynamic",
    nulls: "may",
    sql: {
      duckdb: ({ args: [bag, , value], consts: [, key] }) => isBag("duckdb", bag!, setKey("duckdb", bag!, pathOf(String(key)), `coalesce(${value}, 'null'::JSON)`)),
      clickhouse: ({ args: [bag, , value], consts: [, key] }) => isBag("clickhouse", bag!, setKey("clickhouse", bag!, pathOf(String(key)), `ifNull(${value}, 'null')`)),
    },
    doc: "the bag with the key (a name or a JSONPath such as '$.a.b', creating the bags on the way) set to the value",
  }),
  scalar("bag_remove_keys", {
    args: "bag: dynamic, keys: const dynamic",
    result: "dynamic",
    nulls: "may",
    checkConsts: ([, keys]) => (Array.isArray(parsedKeys(keys)) ? undefined : "bag_remove_keys() needs keys as a literal array, such as dynamic(['a', '$.b.c'])"),
    sql: {
      duckdb: ({ args: [bag], consts: [, keys] }) => isBag("duckdb", bag!, removeKeys("duckdb", bag!, removalTree(parsedKeys(keys)))),
      clickhouse: ({ args: [bag], consts: [, keys] }) => isBag("clickhouse", bag!, removeKeys("clickhouse", bag!, removalTree(parsedKeys(keys)))),
    },
    doc: "the bag without the keys listed (names or JSONPaths such as '$.a.b')",
  }),
];
