/**
 * KQL's text functions beyond strings.ts: replace_strings, unicode_codepoints_*, has_any_index,
 * url_encode*, format_bytes, parse_urlquery, parse_csv (entry.ts says what an entry holds;
 * docs/kql-functions.md how to add one). DuckDB runs text.ts's rules as JavaScript scalar
 * functions (udfs.ts) where it has no function with ADX's answer; ClickHouse spells the same
 * rules with its own functions. What a function builds is bounded (budget.ts VALUE_LIMITS).
 */
import { runtimeTooLarge, VALUE_LIMITS } from "../budget";
import { scalar, type FunctionEntry } from "./entry";

/** ClickHouse: `body` over the values, each computed once. */
const bind = (values: string[], tag: string, body: (names: string[]) => string) => {
  const names = values.map((_, i) => `kql_${tag}${i}`);
  return `arrayMap((${names.join(", ")}) -> ${body(names)}, ${values.map((v) => `[${v}]`).join(", ")})[1]`;
};

/** ClickHouse: the string `s`, refused past the string limit. */
const chBounded = (fn: string, s: string) => bind([s], "lim", ([r]) => `if(throwIf(length(${r}) > ${VALUE_LIMITS.stringBytes}, '${runtimeTooLarge(fn, "string")}') = 0, ${r}, '')`);

/** DuckDB: the dynamic arguments as one JSON array's text, for text.ts. */
const duckJsonList = (args: string[]) => `CAST(to_json([${args.join(", ")}]) AS VARCHAR)`;
const chRaw = (json: string) => `JSONExtractArrayRaw(ifNull(${json}, 'null'))`;
const chIsArray = (json: string) => `JSONType(ifNull(${json}, 'null')) = 'Array'`;

/** ClickHouse: the code point of a one-character UTF-8 string, from its bytes. */
const chCodepoint = (c: string) => {
  const b = (k: number) => `toInt64(reinterpretAsUInt8(substring(${c}, ${k}, 1)))`;
  return `multiIf(length(${c}) = 1, ${b(1)}, length(${c}) = 2, bitAnd(${b(1)}, 31) * 64 + bitAnd(${b(2)}, 63), length(${c}) = 3, bitAnd(${b(1)}, 15) * 4096 + bitAnd(${b(2)}, 63) * 64 + bitAnd(${b(3)}, 63), bitAnd(${b(1)}, 7) * 262144 + bitAnd(${b(2)}, 63) * 4096 + bitAnd(${b(3)}, 63) * 64 + bitAnd(${b(4)}, 63))`;
};

/** ClickHouse: a code point's UTF-8 character. */
const chUtf8 = (cp: string) =>
  `multiIf(${cp} < 128, char(${cp}), ${cp} < 2048, char(192 + intDiv(${cp}, 64), 128 + ${cp} % 64), ${cp} < 65536, char(224 + intDiv(${cp}, 4096), 128 + intDiv(${cp}, 64) % 64, 128 + ${cp} % 64), char(240 + intDiv(${cp}, 262144), 128 + intDiv(${cp}, 4096) % 64, 128 + intDiv(${cp}, 64) % 64, 128 + ${cp} % 64))`;

/** ClickHouse: a query string's key=value pairs (split at '&', decoded) as a JSON object's text. */
function chQueryParameters(query: string): string {
  const pairs = `arrayFilter(kql_p -> kql_p != '', splitByChar('&', ifNull(${query}, '')))`;
  const key = `decodeURLComponent(splitByChar('=', kql_p)[1])`;
  const value = `if(position(kql_p, '=') = 0, '', decodeURLComponent(substring(kql_p, position(kql_p, '=') + 1)))`;
  return `concat('{', arrayStringConcat(arrayMap(kql_p -> concat(toJSONString(${key}), ':', toJSONString(${value})), ${pairs}), ','), '}')`;
}

/**
 * parse_url's parts: scheme://[user[:password]@]host[:port][path][?query][#fragment] (a host in
 * brackets is an IPv6 address). The groups, in order: scheme, user, password, host, port, path, query, fragment.
 */
const URL_PATTERN = "^([A-Za-z][A-Za-z0-9+.-]*)://(?:([^:@/?#]*)(?::([^@/?#]*))?@)?(\\[[^\\]]*\\]|[^:/?#]*)(?::([0-9]*))?([^?#]*)(?:\\?([^#]*))?(?:#(.*))?$";
/** The result's keys in ADX's order, each with its group. */
const URL_KEYS: readonly [string, number][] = [["Scheme", 1], ["Host", 4], ["Port", 5], ["Path", 6], ["Username", 2], ["Password", 3]];

const UNITS = ["Bytes", "KB", "MB", "GB", "TB", "PB", "EB"];

/** format_bytes' unit: the one named, else the largest whose size (1024^k) the value reaches. */
function formatBytes(engine: "duckdb" | "clickhouse", size: string, precision: string, units: string | undefined): string {
  const list = `[${UNITS.map((u) => `'${u}'`).join(", ")}]`;
  const reached = UNITS.slice(1).map((_, k) => `(abs(${size}) >= ${1024 ** (k + 1)})`);
  if (engine === "duckdb") {
    const auto = `(${reached.map((r) => `CAST(${r} AS INTEGER)`).join(" + ")})`;
    const k = units ? `coalesce(list_position(${list}, ${units}) - 1, ${auto})` : auto;
    const value = `round(CAST(${size} AS DOUBLE) / pow(1024, ${k}), CAST(${precision} AS INTEGER))`;
    return `regexp_replace(CAST(${value} AS VARCHAR), '\\.0$', '') || ' ' || ${list}[${k} + 1]`;
  }
  const auto = `(${reached.map((r) => `toInt64(${r})`).join(" + ")})`;
  const k = units ? `if(indexOf(${list}, ${units}) > 0, toInt64(indexOf(${list}, ${units})) - 1, ${auto})` : auto;
  return bind([k], "fb", ([n]) => `concat(toString(round(toFloat64(${size}) / pow(1024, ${n}), toInt64(${precision}))), ' ', ${list}[${n} + 1])`);
}

export const TEXT_FUNCTIONS: readonly FunctionEntry[] = [
  scalar("replace_strings", {
    args: "text: string, lookups: dynamic, rewrites: dynamic",
    result: "string",
    sql: {
      duckdb: "kql_replace_strings($0, CAST($1 AS VARCHAR), CAST($2 AS VARCHAR))",
      // Each lookup in turn replaces its occurrences with a marker of control characters no lookup
      // holds (so a later lookup cannot match inside an earlier claim), then each marker becomes its rewrite.
      clickhouse: ({ args: [text, lookups, rewrites] }) =>
        `if(${chIsArray(lookups!)} AND ${chIsArray(rewrites!)}, ${bind([`ifNull(${text}, '')`, chRaw(lookups!), chRaw(rewrites!)], "rs", ([t, l, r]) => {
          const marker = (k: string) => `concat(char(1), repeat(char(2), ${k}), char(1))`;
          const valid = (k: string) => `(JSONType(${l}[${k}]) = 'String' AND JSONExtractString(${l}[${k}]) != '')`;
          const rewrite = (k: string) => `if(${k} <= length(${r}) AND JSONType(${r}[${k}]) = 'String', JSONExtractString(${r}[${k}]), JSONExtractString(${l}[${k}]))`;
          const ks = `range(1, length(${l}) + 1)`;
          const claimed = `arrayFold((kql_acc, kql_k) -> if(${valid("kql_k")}, replaceAll(kql_acc, JSONExtractString(${l}[kql_k]), ${marker("kql_k")}), kql_acc), ${ks}, ${t})`;
          return bind([claimed], "rsc", ([c]) => {
            const size = `length(${c}) + arraySum(arrayMap(kql_k -> countSubstrings(${c}, ${marker("kql_k")}) * length(${rewrite("kql_k")}), ${ks}))`;
            const out = `arrayFold((kql_acc, kql_k) -> replaceAll(kql_acc, ${marker("kql_k")}, ${rewrite("kql_k")}), ${ks}, ${c})`;
            return `if(throwIf(${size} > ${VALUE_LIMITS.stringBytes}, '${runtimeTooLarge("replace_strings", "string")}') = 0, ${out}, '')`;
          });
        })}, NULL)`,
    },
    nulls: "may",
    doc: "the text with each lookup's occurrences replaced by the rewrite at the same index, all at once (earlier lookups first; a non-string rewrite keeps the text)",
  }),
  scalar("unicode_codepoints_from_string", {
    args: "text: string",
    result: "dynamic",
    sql: {
      duckdb: "to_json(list_transform(regexp_extract_all($0, '(?s).', 0), lambda kql_c: CAST(unicode(kql_c) AS BIGINT)))",
      clickhouse: ({ args: [text] }) => `toJSONString(arrayMap(kql_c -> ${chCodepoint("kql_c")}, extractAll(ifNull(${text}, ''), '(?s).')))`,
    },
    doc: "the text's Unicode code points, as an array of longs",
  }),
  scalar("unicode_codepoints_to_string", {
    args: "values...: dynamic",
    result: "string",
    nulls: "may",
    sql: {
      duckdb: ({ args }) => `kql_codepoints_to_string(${duckJsonList(args)})`,
      clickhouse: ({ args }) => {
        const raw = `arrayConcat(${args.map((a) => `if(${chIsArray(a)}, ${chRaw(a)}, [ifNull(${a}, 'null')])`).join(", ")})`;
        return bind([raw], "cp", ([list]) => {
          const valid = `arrayAll(kql_x -> JSONType(kql_x) IN ('Int64', 'UInt64') AND toInt64OrZero(kql_x) BETWEEN 0 AND 1114111 AND NOT toInt64OrZero(kql_x) BETWEEN 55296 AND 57343, ${list})`;
          return `if(${valid}, ${chBounded("unicode_codepoints_to_string", `arrayStringConcat(arrayMap(kql_x -> ${chUtf8("toInt64OrZero(kql_x)")}, ${list}))`)}, NULL)`;
        });
      },
    },
    doc: "the characters of the code points (numbers, or arrays of numbers); '' when one is not a code point",
  }),
  scalar("has_any_index", {
    args: "source: string, lookups: dynamic",
    result: "long",
    nulls: "may",
    sql: {
      duckdb: "kql_has_any_index($0, CAST($1 AS VARCHAR))",
      clickhouse: ({ args: [source, lookups] }) => {
        const texts = `arrayMap(kql_x -> multiIf(JSONType(kql_x) = 'String', JSONExtractString(kql_x), JSONType(kql_x) IN ('Int64', 'UInt64', 'Double'), kql_x, ''), ${chRaw(lookups!)})`;
        const has = `kql_l != '' AND match(lower(ifNull(${source}, '')), concat('(^|[^0-9A-Za-z])', regexpQuoteMeta(lower(kql_l)), '($|[^0-9A-Za-z])'))`;
        return `if(${chIsArray(lookups!)}, toInt64(arrayFirstIndex(kql_l -> ${has}, ${texts})) - 1, NULL)`;
      },
    },
    doc: "the index of the first lookup (texts or numbers) the source has as a term (as the has operator), -1 when none",
  }),
  ...(["url_encode", "url_encode_component"] as const).map((name) =>
    scalar(name, {
      args: "url: string",
      result: "string",
      sql: {
        duckdb: `kql_${name}($0)`,
        clickhouse: ({ args: [url] }) =>
          chBounded(
            name,
            `arrayStringConcat(arrayMap(kql_c -> multiIf(match(kql_c, '^[A-Za-z0-9._!*()-]$'), kql_c, kql_c = ' ', '${name === "url_encode" ? "+" : "%20"}', replaceRegexpAll(lower(hex(kql_c)), '(..)', '%\\\\1')), extractAll(ifNull(${url}, ''), '(?s).')))`,
          ),
      },
      doc: `the text URL-encoded (UTF-8 bytes as %xx in lower-case hex, letters, digits and -_.!*() kept, a space as ${name === "url_encode" ? "'+'" : "%20"})`,
    }),
  ),
  scalar("format_bytes", {
    args: ["size: real, precision?: long, units?: string"],
    result: "string",
    sql: {
      duckdb: ({ args: [size, precision, units] }) => formatBytes("duckdb", size!, precision ?? "0", units),
      clickhouse: ({ args: [size, precision, units] }) => formatBytes("clickhouse", size!, precision ?? "0", units),
    },
    doc: "the size in bytes as text with its unit (Bytes, KB, MB, … the largest it reaches, or units), rounded to precision digits (0 by default)",
  }),
  scalar("parse_urlquery", {
    args: "query: string",
    result: "dynamic",
    sql: {
      duckdb: "CAST(kql_parse_urlquery($0) AS JSON)",
      clickhouse: ({ args: [query] }) => `concat('{"Query Parameters":', ${chQueryParameters(query!)}, '}')`,
    },
    doc: "the query string's key=value pairs (split at '&', decoded) as {\"Query Parameters\": {key: value, …}}",
  }),
  scalar("parse_csv", {
    args: "csv_text: string",
    result: "dynamic",
    sql: {
      duckdb: "CAST(kql_parse_csv($0) AS JSON)",
      // text.ts's parseCsv, folded over the characters: (fields, field, in quotes, a quote just closed, record ended).
      clickhouse: ({ args: [csv] }) => {
        const state = (fields: string, field: string, quoted: string, closed: string, ended: string) => `tuple(${fields}, ${field}, toUInt8(${quoted}), toUInt8(${closed}), toUInt8(${ended}))`;
        const [fields, field, quoted, closed, ended] = ["kql_s.1", "kql_s.2", "kql_s.3", "kql_s.4", "kql_s.5"];
        const step = `multiIf(${ended} = 1, kql_s,
          ${quoted} = 1, if(kql_c = '"', ${state(fields, field, "0", "1", "0")}, ${state(fields, `concat(${field}, kql_c)`, "1", "0", "0")}),
          kql_c = '"', multiIf(${closed} = 1, ${state(fields, `concat(${field}, '"')`, "1", "0", "0")}, ${field} = '', ${state(fields, field, "1", "0", "0")}, ${state(fields, `concat(${field}, kql_c)`, "0", "0", "0")}),
          kql_c = ',', ${state(`arrayPushBack(${fields}, ${field})`, "''", "0", "0", "0")},
          kql_c IN ('\\n', '\\r'), ${state(fields, field, "0", "0", "1")},
          ${state(fields, `concat(${field}, kql_c)`, "0", "0", "0")})`;
        const folded = `arrayFold((kql_s, kql_c) -> ${step.replace(/\n\s+/g, " ")}, extractAll(ifNull(${csv}, ''), '(?s).'), ${state("CAST([], 'Array(String)')", "''", "0", "0", "0")})`;
        return `toJSONString(arrayMap(kql_f -> arrayPushBack(kql_f.1, kql_f.2), [${folded}])[1])`;
      },
    },
    doc: "the first comma-separated record's fields as an array of strings (quoted fields keep commas and line breaks, \"\" is a quote)",
  }),
  scalar("parse_url", {
    args: "url: string",
    result: "dynamic",
    sql: {
      duckdb: ({ args: [url] }) => {
        const group = (i: number) => `regexp_extract(${url}, '${URL_PATTERN}', ${i})`;
        const parts = URL_KEYS.map(([key, i]) => `'${key}', ${group(i)}`).join(", ");
        const query = `json_extract(CAST(kql_parse_urlquery(${group(7)}) AS JSON), '$."Query Parameters"')`;
        return `CASE WHEN regexp_matches(${url}, '${URL_PATTERN}') THEN json_object(${parts}, 'Query Parameters', ${query}, 'Fragment', ${group(8)}) ELSE CAST('{}' AS JSON) END`;
      },
      clickhouse: ({ args: [url] }) =>
        bind([`extractGroups(ifNull(${url}, ''), '${URL_PATTERN}')`], "url", ([g]) => {
          const parts = URL_KEYS.map(([key, i]) => `'"${key}":', toJSONString(${g}[${i}]), ','`).join(", ");
          return `if(length(${g}) = 0 OR ${g}[1] = '', '{}', concat('{', ${parts}, '"Query Parameters":', ${chQueryParameters(`${g}[7]`)}, ',"Fragment":', toJSONString(${g}[8]), '}'))`;
        }),
    },
    doc: "the URL's parts: {Scheme, Host, Port, Path, Username, Password, Query Parameters: {key: value}, Fragment} ('' for a part it lacks; {} when it is not scheme://…)",
  }),
];
