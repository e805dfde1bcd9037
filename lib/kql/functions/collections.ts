/**
 * KQL's array_sort_asc / array_sort_desc (one array) and parse_path (entry.ts says what an entry
 * holds; docs/kql-functions.md how to add one), spelled in each engine's SQL.
 */
import { scalar, type FunctionEntry, type SpellInput } from "./entry";

/**
 * ADX's order of an array's elements: numbers, then strings (ordinal), then the other values in
 * their order; nulls first or last (last by default). Descending reverses it, nulls still where
 * asked. Each element is sorted by a key (null place, type rank, number, text, position).
 */
function sortArray(engine: "duckdb" | "clickhouse", desc: boolean, { args: [array, nullsLast] }: SpellInput): string {
  const last = nullsLast ?? "true";
  if (engine === "duckdb") {
    // A JSON null element is SQL's NULL in a JSON[] list.
    const nullRank = `CASE WHEN coalesce(json_type(kql_x) = 'NULL', true) = (${last}) THEN ${desc ? 0 : 1} ELSE ${desc ? 1 : 0} END`;
    const typeRank = "CASE WHEN json_type(kql_x) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN 0 WHEN json_type(kql_x) = 'VARCHAR' THEN 1 ELSE 2 END";
    const number = "CASE WHEN json_type(kql_x) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN CAST(kql_x AS DOUBLE) ELSE 0 END";
    const text = "CASE WHEN json_type(kql_x) = 'VARCHAR' THEN kql_x ->> '$' ELSE '' END";
    const keyed = `list_transform(CAST(${array} AS JSON[]), lambda kql_x, kql_i: struct_pack(n := ${nullRank}, t := ${typeRank}, v := ${number}, s := ${text}, i := kql_i, x := kql_x))`;
    return `CASE WHEN json_type(${array}) = 'ARRAY' THEN to_json(list_transform(${desc ? "list_reverse_sort" : "list_sort"}(${keyed}), lambda kql_k: kql_k.x)) END`;
  }
  const raw = `JSONExtractArrayRaw(ifNull(${array}, 'null'))`;
  const isNull = "(kql_x = 'null')";
  const nullRank = `if(${isNull} = ${last}, ${desc ? 0 : 1}, ${desc ? 1 : 0})`;
  const typeRank = "multiIf(JSONType(kql_x) IN ('Int64', 'UInt64', 'Double'), 0, JSONType(kql_x) = 'String', 1, 2)";
  const key = `(${nullRank}, ${typeRank}, if(JSONType(kql_x) IN ('Int64', 'UInt64', 'Double'), JSONExtractFloat(kql_x), 0), if(JSONType(kql_x) = 'String', JSONExtractString(kql_x), ''), kql_i)`;
  return `if(JSONType(ifNull(${array}, 'null')) = 'Array', concat('[', arrayStringConcat(${desc ? "arrayReverseSort" : "arraySort"}((kql_x, kql_i) -> ${key}, ${raw}, arrayEnumerate(${raw})), ','), ']'), NULL)`;
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
      args: ["array: dynamic", "array: dynamic, nulls_last: bool"],
      result: "dynamic",
      nulls: "may",
      sql: { duckdb: (input) => sortArray("duckdb", way === "desc", input), clickhouse: (input) => sortArray("clickhouse", way === "desc", input) },
      doc: `the array sorted ${way === "asc" ? "ascending" : "descending"} (numbers, then strings, then other values), nulls last unless nulls_last is false; one array (several arrays sorted together are not supported yet)`,
    }),
  ),
  scalar("parse_path", {
    args: "path: string",
    result: "dynamic",
    sql: { duckdb: ({ args: [path] }) => parsePath("duckdb", path!), clickhouse: ({ args: [path] }) => parsePath("clickhouse", path!) },
    doc: "the path's parts as a bag: Scheme, RootPath, DirectoryPath, DirectoryName, Filename, Extension, AlternateDataStreamName",
  }),
];
