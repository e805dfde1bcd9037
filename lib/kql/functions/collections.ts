/**
 * KQL's array_sort_asc / array_sort_desc, array_split and parse_path (entry.ts says what an entry
 * holds; docs/kql-functions.md how to add one), spelled in each engine's SQL.
 */
import { scalar, type FunctionEntry, type SpellInput } from "./entry";

/**
 * ADX's order of an array's elements: numbers, then strings (ordinal), then the other values in
 * their order; nulls first or last (last by default). Descending reverses it, nulls still where
 * asked. Each element is sorted by a key (null place, type rank, number, text, position).
 * With several arrays (`array_sort_asc(a, b, …)`) the first array's order rearranges the others:
 * the value is the array of the rearranged arrays, null for each one whose length differs from the
 * first's (multiResult in special-analysis.ts spreads it into columns `a_sorted`, `b_sorted`, …).
 */
function sortArray(engine: "duckdb" | "clickhouse", desc: boolean, { args, types }: SpellInput): string {
  const several = args.length > 2 || (args.length === 2 && types[1] === "dynamic");
  const [array, nullsLast] = args;
  const last = several ? "true" : (nullsLast ?? "true");
  if (engine === "duckdb") {
    // A JSON null element is SQL's NULL in a JSON[] list.
    const nullRank = `CASE WHEN coalesce(json_type(kql_x) = 'NULL', true) = (${last}) THEN ${desc ? 0 : 1} ELSE ${desc ? 1 : 0} END`;
    const typeRank = "CASE WHEN json_type(kql_x) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN 0 WHEN json_type(kql_x) = 'VARCHAR' THEN 1 ELSE 2 END";
    const number = "CASE WHEN json_type(kql_x) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN CAST(kql_x AS DOUBLE) ELSE 0 END";
    const text = "CASE WHEN json_type(kql_x) = 'VARCHAR' THEN kql_x ->> '$' ELSE '' END";
    const keyed = `list_transform(CAST(${array} AS JSON[]), lambda kql_x, kql_i: struct_pack(n := ${nullRank}, t := ${typeRank}, v := ${number}, s := ${text}, i := kql_i, x := kql_x))`;
    const sorted = `${desc ? "list_reverse_sort" : "list_sort"}(${keyed})`;
    if (!several) return `CASE WHEN json_type(${array}) = 'ARRAY' THEN to_json(list_transform(${sorted}, lambda kql_k: kql_k.x)) END`;
    const order = `list_transform(${sorted}, lambda kql_k: kql_k.i)`;
    const rearranged = args.map((a) => `CASE WHEN json_type(${a}) = 'ARRAY' AND len(CAST(${a} AS JSON[])) = len(CAST(${array} AS JSON[])) THEN to_json(list_transform(${order}, lambda kql_p: CAST(${a} AS JSON[])[kql_p])) ELSE 'null'::JSON END`);
    return `CASE WHEN json_type(${array}) = 'ARRAY' THEN to_json([${rearranged.join(", ")}]) END`;
  }
  const raw = `JSONExtractArrayRaw(ifNull(${array}, 'null'))`;
  const isNull = "(kql_x = 'null')";
  const nullRank = `if(${isNull} = ${last}, ${desc ? 0 : 1}, ${desc ? 1 : 0})`;
  const typeRank = "multiIf(JSONType(kql_x) IN ('Int64', 'UInt64', 'Double'), 0, JSONType(kql_x) = 'String', 1, 2)";
  const key = `(${nullRank}, ${typeRank}, if(JSONType(kql_x) IN ('Int64', 'UInt64', 'Double'), JSONExtractFloat(kql_x), 0), if(JSONType(kql_x) = 'String', JSONExtractString(kql_x), ''), kql_i)`;
  const isArray = `JSONType(ifNull(${array}, 'null')) = 'Array'`;
  if (!several) return `if(${isArray}, concat('[', arrayStringConcat(${desc ? "arrayReverseSort" : "arraySort"}((kql_x, kql_i) -> ${key}, ${raw}, arrayEnumerate(${raw})), ','), ']'), NULL)`;
  const order = `${desc ? "arrayReverseSort" : "arraySort"}((kql_i, kql_x) -> ${key}, arrayEnumerate(${raw}), ${raw})`;
  const rearranged = args.map((a) => {
    const other = `JSONExtractArrayRaw(ifNull(${a}, 'null'))`;
    return `if(JSONType(ifNull(${a}, 'null')) = 'Array' AND length(${other}) = length(${raw}), concat('[', arrayStringConcat(arrayMap(kql_p -> ${other}[kql_p], ${order}), ','), ']'), 'null')`;
  });
  return `if(${isArray}, concat('[', ${rearranged.join(", ',', ")}, ']'), NULL)`;
}

/**
 * array_split: the array cut before each index (one index or an array of them; a negative index
 * counts from the end; indexes are clamped to the array), as an array of the pieces.
 */
function arraySplit(engine: "duckdb" | "clickhouse", array: string, indices: string): string {
  if (engine === "duckdb") {
    const list = `CAST(${array} AS JSON[])`;
    const wanted = `CASE WHEN json_type(${indices}) = 'ARRAY' THEN list_transform(CAST(${indices} AS JSON[]), lambda kql_x: TRY_CAST(kql_x AS BIGINT)) ELSE [TRY_CAST(${indices} AS BIGINT)] END`;
    const clamped = `list_transform(${wanted}, lambda kql_x: least(greatest(CASE WHEN kql_x < 0 THEN kql_x + len(${list}) ELSE kql_x END, 0), len(${list})))`;
    const bounds = `flatten([[0], ${clamped}, [len(${list})]])`;
    const pieces = `list_transform([${bounds}], lambda kql_b: list_transform(range(1, len(kql_b)), lambda kql_k: ${list}[kql_b[kql_k] + 1 : kql_b[kql_k + 1]]))[1]`;
    return `CASE WHEN json_type(${array}) = 'ARRAY' AND json_type(${indices}) IN ('ARRAY', 'BIGINT', 'UBIGINT') THEN to_json(${pieces}) END`;
  }
  const raw = `JSONExtractArrayRaw(ifNull(${array}, 'null'))`;
  const n = `toInt64(length(${raw}))`;
  const idx = `ifNull(${indices}, 'null')`;
  const wanted = `if(JSONType(${idx}) = 'Array', arrayMap(kql_x -> JSONExtractInt(kql_x), JSONExtractArrayRaw(${idx})), [JSONExtractInt(${idx})])`;
  const bounds = `arrayConcat([toInt64(0)], arrayMap(kql_x -> least(greatest(if(kql_x < 0, kql_x + ${n}, kql_x), 0), ${n}), ${wanted}), [${n}])`;
  const pieces = `arrayMap(kql_b -> arrayStringConcat(arrayMap(kql_k -> concat('[', arrayStringConcat(arraySlice(${raw}, kql_b[kql_k] + 1, greatest(kql_b[kql_k + 1] - kql_b[kql_k], 0)), ','), ']'), range(1, length(kql_b))), ','), [${bounds}])[1]`;
  return `if(JSONType(ifNull(${array}, 'null')) = 'Array' AND JSONType(${idx}) IN ('Array', 'Int64', 'UInt64'), concat('[', ${pieces}, ']'), NULL)`;
}

/** parse_path's parts, each a regular expression's first group over the path (or over the part named). */
interface PathParts {
  scheme: string;
  rest: string;
  root: string;
  dir: string;
  file: string;
}

function parsePath(engine: "duckdb" | "clickhouse", path: string): string {
  // DuckDB's string literals keep backslashes; ClickHouse's escape them.
  const re = (r: string) => (engine === "duckdb" ? `'${r}'` : `'${r.replace(/\\/g, "\\\\")}'`);
  const extract = (s: string, r: string) => (engine === "duckdb" ? `regexp_extract(${s}, ${re(r)}, 1)` : `extract(${s}, ${re(r)})`);
  const s = engine === "duckdb" ? `coalesce(${path}, '')` : `ifNull(${path}, '')`;
  const p: PathParts = {
    scheme: extract(s, "^([A-Za-z][A-Za-z0-9+.-]*)://"),
    rest: extract(s, "^(?:[A-Za-z][A-Za-z0-9+.-]*://)?(.*)$"),
    root: "",
    dir: "",
    file: "",
  };
  p.root = extract(p.rest, "^([A-Za-z]:)");
  p.dir = extract(p.rest, "^(.*)[\\\\/]");
  p.file = extract(p.rest, "([^\\\\/]*)$");
  const filename = extract(p.file, "^([^:]*)");
  const parts: [string, string][] = [
    ["Scheme", p.scheme],
    ["RootPath", p.root],
    ["DirectoryPath", p.dir],
    ["DirectoryName", extract(p.dir, "([^\\\\/]*)$")],
    ["Filename", filename],
    ["Extension", extract(filename, "\\.([^.]*)$")],
    ["AlternateDataStreamName", extract(p.file, "^[^:]*:(.*)$")],
  ];
  if (engine === "duckdb") return `json_object(${parts.map(([k, v]) => `'${k}', ${v}`).join(", ")})`;
  return `concat('{', ${parts.map(([k, v]) => `'"${k}":', toJSONString(${v})`).join(", ',', ")}, '}')`;
}

export const COLLECTIONS: readonly FunctionEntry[] = [
  ...(["asc", "desc"] as const).map((way) =>
    scalar(`array_sort_${way}`, {
      args: ["array: dynamic", "array: dynamic, nulls_last: bool", "array: dynamic, arrays...: dynamic"],
      result: "dynamic",
      nulls: "may",
      sql: { duckdb: (input) => sortArray("duckdb", way === "desc", input), clickhouse: (input) => sortArray("clickhouse", way === "desc", input) },
      doc: `the array sorted ${way === "asc" ? "ascending" : "descending"} (numbers, then strings, then other values), nulls last unless nulls_last is false; with several arrays, the others rearranged as the first (null where a length differs; nulls_last is then not taken)`,
    }),
  ),
  scalar("array_split", {
    args: "array: dynamic, indices: dynamic",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: ({ args: [array, indices] }) => arraySplit("duckdb", array!, indices!), clickhouse: ({ args: [array, indices] }) => arraySplit("clickhouse", array!, indices!) },
    doc: "the array cut before each index (a long or an array of longs; negative indexes count from the end), as an array of arrays",
  }),
  scalar("parse_path", {
    args: "path: string",
    result: "dynamic",
    sql: { duckdb: ({ args: [path] }) => parsePath("duckdb", path!), clickhouse: ({ args: [path] }) => parsePath("clickhouse", path!) },
    doc: "the path's parts as a bag: Scheme, RootPath, DirectoryPath, DirectoryName, Filename, Extension, AlternateDataStreamName",
  }),
];
