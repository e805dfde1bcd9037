/**
 * KQL's byte-array encodings and regular-expression search beyond strings.ts:
 * base64_decode_toarray, base64_encode_fromarray, indexof_regex (entry.ts says what an entry
 * holds; docs/kql-functions.md how to add one).
 */
import { scalar, type FunctionEntry } from "./entry";

/** ClickHouse: `body` over the values, each computed once. */
const bind = (values: string[], tag: string, body: (names: string[]) => string) => {
  const names = values.map((_, i) => `kql_${tag}${i}`);
  return `arrayMap((${names.join(", ")}) -> ${body(names)}, ${values.map((v) => `[${v}]`).join(", ")})[1]`;
};

/**
 * The regular expression whose group 1 is the text before the occurrence-th match of `lookup`
 * (matches do not overlap: each one is consumed before the next is looked for).
 */
const beforeMatch = (lookup: string, occurrence: number, concat: (parts: string[]) => string) =>
  concat([`'(?s)^((?:.*?(?:'`, lookup, `')){${occurrence - 1}}.*?)(?:'`, lookup, `')'`]);

export const ENCODINGS: readonly FunctionEntry[] = [
  scalar("base64_decode_toarray", {
    args: "base64: string",
    result: "dynamic",
    nulls: "may",
    sql: {
      duckdb: ({ args: [b] }) => `(SELECT to_json(list_transform(range(0, strlen(kql_h) // 2), kql_i -> CAST(('0x' || substr(kql_h, 2 * kql_i + 1, 2)) AS BIGINT))) FROM (SELECT hex(try(from_base64(${b}))) AS kql_h) WHERE kql_h IS NOT NULL)`,
      // tryBase64Decode gives '' for text that is not base64 (unpadded included, as DuckDB's): null, as on DuckDB.
      clickhouse: ({ args: [b] }) =>
        bind([`ifNull(${b}, '')`, `tryBase64Decode(ifNull(${b}, ''))`], "b64", ([text, bytes]) => `if(${text} != '' AND ${bytes} = '', NULL, toJSONString(arrayMap(kql_i -> toInt64(reinterpretAsUInt8(substring(${bytes}, kql_i, 1))), range(1, length(${bytes}) + 1))))`),
    },
    doc: "base64 decoded to its bytes, as an array of longs (null when it is not base64)",
  }),
  scalar("base64_encode_fromarray", {
    args: "base64_input: dynamic",
    result: "string",
    nulls: "may",
    sql: {
      duckdb: ({ args: [a] }) => `(SELECT CASE WHEN list_bool_and(list_transform(kql_l, kql_b -> kql_b BETWEEN 0 AND 255)) IS NOT FALSE THEN to_base64(unhex(list_reduce(list_transform(kql_l, kql_b -> lpad(hex(kql_b), 2, '0')), (kql_x, kql_y) -> kql_x || kql_y, ''))) END FROM (SELECT TRY_CAST(CAST(${a} AS JSON) AS BIGINT[]) AS kql_l))`,
      clickhouse: ({ args: [a] }) =>
        bind([`JSONExtract(ifNull(${a}, 'null'), 'Array(Nullable(Int64))')`], "b64", ([list]) => `if(arrayAll(kql_b -> kql_b BETWEEN 0 AND 255, ${list}), base64Encode(arrayStringConcat(arrayMap(kql_b -> char(kql_b), ${list}))), '')`),
    },
    doc: "the bytes of the array (longs 0-255) encoded as base64 ('' when an element is not a byte)",
  }),
  scalar("indexof_regex", {
    args: "source: string, lookup: const string, start?: long, length?: long, occurrence?: const long",
    result: "long",
    nulls: "may",
    checkConsts: ([, , , , occurrence]) => (occurrence !== undefined && Number(occurrence) < 1 ? "indexof_regex()'s occurrence must be 1 or more" : undefined),
    sql: {
      duckdb: ({ args: [source, lookup, start, length], consts }) => {
        const regex = beforeMatch(lookup!, Number(consts[4] ?? 1), (parts) => `(${parts.join(" || ")})`);
        const from = start ?? "0";
        const searched = `substring(${source}, ${from} + 1, CASE WHEN ${length ?? "-1"} = -1 THEN length(${source}) ELSE ${length ?? "-1"} END)`;
        return `CASE WHEN ${from} < 0 OR ${length ?? "-1"} < -1 THEN NULL WHEN regexp_matches(${searched}, ${regex}) THEN ${from} + length(regexp_extract(${searched}, ${regex}, 1)) ELSE -1 END`;
      },
      clickhouse: ({ args: [source, lookup, start, length], consts }) => {
        const regex = beforeMatch(lookup!, Number(consts[4] ?? 1), (parts) => `concat(${parts.join(", ")})`);
        return bind([`ifNull(${source}, '')`, start ?? "0", length ?? "-1"], "ir", ([s, from, len]) => {
          const searched = `substringUTF8(${s}, ${from} + 1, if(${len} = -1, lengthUTF8(${s}), ${len}))`;
          return `multiIf(${from} < 0 OR ${len} < -1, NULL, match(${searched}, ${regex}), ${from} + toInt64(lengthUTF8(regexpExtract(${searched}, ${regex}, 1))), -1)`;
        });
      },
    },
    doc: "the 0-based index of the occurrence-th match (1 by default; matches do not overlap) of the regular expression in source from start (0) for length characters (-1: to the end); -1 when none, null for a negative start",
  }),
];
