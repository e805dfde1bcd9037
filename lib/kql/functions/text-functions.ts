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

/* Punycode (RFC 3492) on ClickHouse (chdb has no punycodeEncode): text.ts's loops as arrayFold. */

/** ClickHouse: adapt(delta, points, first) of RFC 3492 (text.ts adapt). */
const chAdapt = (delta: string, points: string, first: string) =>
  bind([`intDiv(${delta}, if(${first}, 700, 2))`], "pa", ([d0]) =>
    bind([`arrayFold((kql_ad, kql_ai) -> if(kql_ad.1 > 455, tuple(toInt64(intDiv(kql_ad.1, 35)), toInt64(kql_ad.2 + 36)), kql_ad), range(8), tuple(toInt64(${d0} + intDiv(${d0}, ${points})), toInt64(0)))`], "pb", ([r]) => `toInt64(${r}.2 + intDiv(36 * ${r}.1, ${r}.1 + 38))`),
  );

const chDigit = (d: string) => `char(if(${d} < 26, 97 + ${d}, 22 + ${d}))`;

/** ClickHouse: a variable-length integer q with the bias, as digits (text.ts punycodeEncode's inner loop). */
const chPunyInteger = (q: string, bias: string) => {
  const t = `least(greatest(36 * kql_pi - ${bias}, 1), 26)`;
  const step = `if(kql_ps.3 = 1, kql_ps, ${bind([t], "pt", ([tt]) => `if(kql_ps.2 < ${tt}, tuple(concat(kql_ps.1, ${chDigit("kql_ps.2")}), kql_ps.2, toUInt8(1)), tuple(concat(kql_ps.1, ${chDigit(`${tt} + (kql_ps.2 - ${tt}) % (36 - ${tt})`)}), toInt64(intDiv(kql_ps.2 - ${tt}, 36 - ${tt})), toUInt8(0)))`)})`;
  return `arrayFold((kql_ps, kql_pi) -> ${step}, range(1, 12), tuple('', toInt64(${q}), toUInt8(0))).1`;
};

/** ClickHouse: the punycode of a text (text.ts punycodeEncode). */
function chPunycodeEncode(text: string): string {
  return bind([`arrayMap(kql_c -> ${chCodepoint("kql_c")}, extractAll(ifNull(${text}, ''), '(?s).'))`], "pe", ([cps]) => {
    const basic = `arrayFilter(kql_x -> kql_x < 128, ${cps})`;
    // Per code point of the text: (output, delta, bias, handled) with n = m.
    const inner = `arrayFold((kql_q, kql_x) -> if(kql_x < kql_m, tuple(kql_q.1, toInt64(kql_q.2 + 1), kql_q.3, kql_q.4), if(kql_x = kql_m, tuple(concat(kql_q.1, ${chPunyInteger("kql_q.2", "kql_q.3")}), toInt64(0), ${chAdapt("kql_q.2", "kql_q.4 + 1", `kql_q.4 = length(${basic})`)}, toInt64(kql_q.4 + 1)), kql_q)), ${cps}, tuple(kql_o.1, toInt64(kql_o.3 + (kql_m - kql_o.2) * (kql_o.5 + 1)), kql_o.4, kql_o.5))`;
    // Per distinct code point beyond ASCII, ascending: (output, n, delta, bias, handled).
    const outer = `arrayFold((kql_o, kql_m) -> ${bind([inner], "pi", ([r]) => `tuple(${r}.1, toInt64(kql_m + 1), toInt64(${r}.2 + 1), ${r}.3, ${r}.4)`)}, arraySort(arrayDistinct(arrayFilter(kql_x -> kql_x >= 128, ${cps}))), tuple(concat(arrayStringConcat(arrayMap(kql_x -> char(kql_x), ${basic})), if(length(${basic}) > 0, '-', '')), toInt64(128), toInt64(0), toInt64(72), toInt64(length(${basic}))))`;
    return `${outer}.1`;
  });
}

/** ClickHouse: the text a punycode string encodes, '' when it is not valid punycode (text.ts punycodeDecode). */
function chPunycodeDecode(code: string): string {
  return bind([`ifNull(${code}, '')`], "pd", ([c]) => {
    const dash = `if(position(${c}, '-') > 0, length(${c}) - position(reverse(${c}), '-') + 1, 0)`;
    return bind([dash], "pdd", ([d]) => {
      const basic = `if(${d} > 1, substring(${c}, 1, ${d} - 1), '')`;
      const digits = `extractAll(substring(${c}, if(${d} > 1, ${d} + 1, 1)), '(?s).')`;
      const value = "multiIf(kql_ch BETWEEN '0' AND '9', toInt64(reinterpretAsUInt8(kql_ch)) - 22, kql_ch BETWEEN 'A' AND 'Z', toInt64(reinterpretAsUInt8(kql_ch)) - 65, kql_ch BETWEEN 'a' AND 'z', toInt64(reinterpretAsUInt8(kql_ch)) - 97, 36)";
      // State: (code points, n, i, bias, old i, w, k, error).
      const t = "least(greatest(kql_s.7 - kql_s.4, 1), 26)";
      const step = bind([value], "pv", ([v]) =>
        bind([`toInt64(kql_s.3 + ${v} * kql_s.6)`], "pw", ([i]) =>
          `multiIf(kql_s.8 = 1 OR ${v} >= 36 OR ${i} > 71303104, tuple(kql_s.1, kql_s.2, kql_s.3, kql_s.4, kql_s.5, kql_s.6, kql_s.7, toUInt8(1)), ${v} < ${t.replaceAll("kql_s.4", "kql_s.4")}, ${bind([`${chAdapt(`${i} - kql_s.5`, "length(kql_s.1) + 1", "kql_s.5 = 0")}`, `toInt64(kql_s.2 + intDiv(${i}, length(kql_s.1) + 1))`, `toInt64(${i} % (length(kql_s.1) + 1))`], "pn", ([bias, n, at]) => `tuple(arrayConcat(arraySlice(kql_s.1, 1, ${at}), [${n}], arraySlice(kql_s.1, ${at} + 1)), ${n}, toInt64(${at} + 1), ${bias}, toInt64(${at} + 1), toInt64(1), toInt64(36), toUInt8(${n} > 1114111))`)}, tuple(kql_s.1, kql_s.2, toInt64(${i}), kql_s.4, kql_s.5, toInt64(kql_s.6 * (36 - ${t})), toInt64(kql_s.7 + 36), kql_s.8))`,
        ),
      );
      const fold = `arrayFold((kql_s, kql_ch) -> ${step}, ${digits}, tuple(arrayMap(kql_b -> toInt64(reinterpretAsUInt8(kql_b)), extractAll(${basic}, '(?s).')), toInt64(128), toInt64(0), toInt64(72), toInt64(0), toInt64(1), toInt64(36), toUInt8(length(${basic}) != lengthUTF8(${basic}) OR match(${basic}, '[^\\\\x00-\\\\x7f]'))))`;
      return bind([fold], "pf", ([f]) => `if(${f}.8 = 1 OR ${f}.7 != 36, '', arrayStringConcat(arrayMap(kql_x -> ${chUtf8("kql_x")}, ${f}.1)))`);
    });
  });
}

/** A domain's labels on ClickHouse (text.ts labels: '.', '。', '．', '｡'). */
const chLabels = (domain: string) => `splitByChar('.', replaceAll(replaceAll(replaceAll(ifNull(${domain}, ''), '。', '.'), '．', '.'), '｡', '.'))`;

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
  // Punycode (RFC 3492; text.ts for DuckDB, the same loops folded on ClickHouse).
  scalar("punycode_from_string", {
    args: "input_string: string",
    result: "string",
    sql: { duckdb: "kql_punycode_encode($0)", clickhouse: ({ args: [text] }) => chPunycodeEncode(text!) },
    doc: "the string's punycode (RFC 3492)",
  }),
  scalar("punycode_to_string", {
    args: "input_string: string",
    result: "string",
    sql: { duckdb: "kql_punycode_decode($0)", clickhouse: ({ args: [code] }) => chPunycodeDecode(code!) },
    doc: "the text a punycode string encodes; empty when it is not valid punycode",
  }),
  scalar("punycode_domain_to_string", {
    args: "domain: string",
    result: "string",
    sql: {
      duckdb: "kql_punycode_domain_encode($0)",
      clickhouse: ({ args: [domain] }) => `arrayStringConcat(arrayMap(kql_l -> if(length(kql_l) = lengthUTF8(kql_l), kql_l, concat('xn--', ${chPunycodeEncode("kql_l")})), ${chLabels(domain!)}), '.')`,
    },
    doc: "the domain with each label beyond ASCII as xn--punycode (labels split at '.' and the ideographic and full-width dots)",
  }),
  scalar("punycode_domain_from_string", {
    args: "encoded_string: string",
    result: "string",
    sql: {
      duckdb: "kql_punycode_domain_decode($0)",
      clickhouse: ({ args: [domain] }) => {
        const decoded = `arrayMap(kql_l -> if(startsWith(lower(kql_l), 'xn--'), ${chPunycodeDecode("substring(kql_l, 5)")}, kql_l), kql_ls)`;
        return bind([chLabels(domain!)], "pd", ([labels]) => bind([decoded.replace("kql_ls", labels!)], "pe", ([d]) => `if(arrayExists((kql_l, kql_d) -> startsWith(lower(kql_l), 'xn--') AND kql_d = '', ${labels}, ${d}), '', arrayStringConcat(${d}, '.'))`));
      },
    },
    doc: "the domain with each xn-- label decoded from punycode; empty when a label does not decode",
  }),
];
