/** KQL's strings functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, scalar, type FunctionEntry, type SpellInput } from "./entry";

/**
 * indexof: the occurrences are found one after another (each search starts after the previous
 * occurrence, so they do not overlap). The searched range is length + 1 characters from start:
 * the page's printed outputs ask for it (indexof("abcdefgabcdefg", "cde", 1, 10, 2) is 9, an
 * occurrence ending at index 11), and its other eight examples agree.
 */
function indexOf(engine: "duckdb" | "clickhouse", { args: [source, lookup, start, length, occurrence] }: SpellInput): string {
  const [from, len, occ] = [start ?? "0", length ?? "-1", occurrence ?? "1"];
  if (engine === "duckdb") {
    const n = `length(${source})`;
    const begin = `CASE WHEN ${from} < 0 THEN greatest(${n} + ${from}, 0) ELSE ${from} END`;
    const searched = `substr(${source}, ${begin} + 1, CASE WHEN ${len} = -1 THEN ${n} ELSE ${len} + 1 END)`;
    const after = `CASE WHEN kql_p = 0 THEN 1 ELSE kql_p + length(${lookup}) END`;
    const found = `strpos(substr(${searched}, ${after}), ${lookup})`;
    const nth = `list_reduce(range(${occ}), (kql_p, kql_i) -> CASE WHEN kql_p < 0 THEN kql_p WHEN ${found} = 0 THEN -1 ELSE ${found} + ${after} - 1 END, 0)`;
    return `CASE WHEN ${len} < -1 OR ${occ} < 0 THEN NULL WHEN ${occ} = 0 THEN -1 ELSE list_transform([${nth}], kql_at -> CASE WHEN kql_at <= 0 THEN -1 ELSE kql_at - 1 + ${begin} END)[1] END`;
  }
  const chBody = `arrayMap((kql_s, kql_l, kql_f, kql_n, kql_o) -> multiIf(kql_n < -1 OR kql_o < 0, NULL, kql_o = 0, -1, arrayMap(kql_b -> arrayMap(kql_at -> if(kql_at <= 0, -1, kql_at - 1 + kql_b), [arrayFold((kql_p, kql_i) -> if(kql_p < 0, kql_p, arrayMap(kql_from -> if(positionUTF8(substringUTF8(kql_s, kql_b + 1, if(kql_n = -1, lengthUTF8(kql_s), kql_n + 1)), kql_l, kql_from) = 0, -1, toInt64(positionUTF8(substringUTF8(kql_s, kql_b + 1, if(kql_n = -1, lengthUTF8(kql_s), kql_n + 1)), kql_l, kql_from))), [toUInt64(if(kql_p = 0, 1, kql_p + lengthUTF8(kql_l)))])[1]), range(toUInt64(kql_o)), toNullable(toInt64(0)))])[1], [if(kql_f < 0, greatest(toInt64(lengthUTF8(kql_s)) + kql_f, 0), kql_f)])[1]), [ifNull(${source}, '')], [ifNull(${lookup}, '')], [toInt64(assumeNotNull(${from}))], [toInt64(assumeNotNull(${len}))], [toInt64(assumeNotNull(${occ}))])[1]`;
  return `if(isNull(${from}) OR isNull(${len}) OR isNull(${occ}), NULL, ${chBody})`;
}

export const STRINGS: readonly FunctionEntry[] = [
  documented("scalar", "strlen", "strlen(s): long — characters"),
  documented("scalar", "tolower", "tolower(s): string — the text in lower case"),
  documented("scalar", "toupper", "toupper(s): string — the text in upper case"),
  documented("scalar", "strcat", "strcat(a, b, …): string — the texts joined"),
  documented("scalar", "strcat_delim", "strcat_delim(Delimiter, a, b, …): string — the texts joined with a delimiter"),
  documented("scalar", "split", "split(s, Delimiter [, Index]): dynamic array — the text split at each delimiter"),
  documented("scalar", "extract", "extract(Regex, Group, s [, typeof(T)]) — the regex group's match in the text"),
  documented("scalar", "extract_all", "extract_all(Regex, s): dynamic array — every match of the regex's groups"),
  documented("scalar", "substring", "substring(s, Start [, Length]): string — part of the text from Start (0-based)"),
  documented("scalar", "replace_string", "replace_string(s, Lookup, Rewrite): string — every occurrence of Lookup replaced"),
  documented("scalar", "replace_regex", "replace_regex(s, Regex, Rewrite): string — every regex match replaced"),
  documented("scalar", "trim", "trim(Regex, s): string — the regex removed from both ends"),
  documented("scalar", "trim_start", "trim_start(Regex, s): string — the regex removed from the start"),
  documented("scalar", "trim_end", "trim_end(Regex, s): string — the regex removed from the end"),
  scalar("indexof", {
    args: "source: text, lookup: text, start?: long, length?: long, occurrence?: long",
    result: "long",
    nulls: "may",
    sql: { duckdb: (input) => indexOf("duckdb", input), clickhouse: (input) => indexOf("clickhouse", input) },
    doc: "the 0-based index of the occurrence-th (1) occurrence of lookup in source from start (negative: from the end) within length characters (-1: to the end); -1 when absent, null for a length below -1 or an occurrence below 0",
  }),
  documented("scalar", "reverse", "reverse(s): string — the text reversed"),
  documented("scalar", "countof", "countof(s, Lookup): long — how often Lookup occurs in the text"),
  documented("scalar", "strrep", "strrep(s, N [, Delimiter]): string — the text repeated N times"),
  documented("scalar", "string_size", "string_size(s): long — bytes"),
  scalar("strcmp", { args: "string1: string, string2: string", result: "long", nulls: "never", sql: { duckdb: "CAST(CASE WHEN $0 < $1 THEN -1 WHEN $0 > $1 THEN 1 ELSE 0 END AS BIGINT)", clickhouse: "toInt64(CASE WHEN $0 < $1 THEN -1 WHEN $0 > $1 THEN 1 ELSE 0 END)" }, doc: "-1, 0 or 1 as string1 sorts before, with or after string2 (ordinal)" }),
  scalar("translate", {
    args: "searchList: string, replacementList: string, source: string",
    result: "string",
    // ADX: a replacement list shorter than the search list repeats its last character; an empty one deletes.
    sql: {
      duckdb: "translate($2, $0, CASE WHEN $1 = '' THEN '' ELSE rpad(left($1, CAST(length($0) AS INTEGER)), CAST(length($0) AS INTEGER), right($1, 1)) END)",
      // ClickHouse's translateUTF8 takes constant lists only: character by character instead.
      clickhouse:
        "arrayStringConcat(arrayMap(kql_c -> if(indexOf(extractAll($0, '(?s).'), kql_c) = 0, kql_c, if($1 = '', '', extractAll($1, '(?s).')[least(indexOf(extractAll($0, '(?s).'), kql_c), lengthUTF8($1))])), extractAll($2, '(?s).')))",
    },
    doc: "source with each character of searchList replaced by the one at the same place in replacementList",
  }),
  scalar("base64_encode_tostring", { args: "text: string", result: "string", sql: { duckdb: "to_base64(encode($0))", clickhouse: "base64Encode($0)" }, doc: "the UTF-8 text encoded as base64" }),
  scalar("base64_decode_tostring", { args: "base64: string", result: "string", sql: { duckdb: "try(decode(from_base64($0)))", clickhouse: "arrayMap(kql_d -> if(isValidUTF8(kql_d), kql_d, ''), [tryBase64Decode($0)])[1]" }, doc: "base64 decoded to UTF-8 text ('' when it is not valid base64 of UTF-8)" }),
  scalar("regex_quote", {
    args: "text: string",
    result: "string",
    // .NET's Regex.Escape escapes \ * + ? | { [ ( ) ^ $ . # and white space, and nothing else.
    sql: { duckdb: "regexp_replace($0, '([\\\\*+?|{\\[()^$.# ])', '\\\\\\1', 'g')", clickhouse: "replaceRegexpAll($0, '([\\\\\\\\*+?|{\\\\[()^$.# ])', '\\\\\\\\\\\\1')" },
    doc: "the text with the characters a regular expression reads escaped",
  }),
  scalar("isascii", { args: "text: string", result: "bool", nulls: "never", sql: { duckdb: "NOT regexp_matches($0, '[^\\x00-\\x7F]')", clickhouse: "NOT match($0, '[^\\\\x00-\\\\x7F]')" }, doc: "whether every character is ASCII" }),
  scalar("new_guid", {
    args: "",
    result: "string",
    nulls: "never",
    volatile: true,
    // ADX's guid type is not modelled: a random (version 4) UUID as its text.
    sql: { duckdb: "CAST(uuid() AS VARCHAR)", clickhouse: ({ salt }) => `toString(generateUUIDv4(${salt}))` },
    doc: "a new random GUID, as text",
  }),
  scalar("isutf8", { args: "text: string", result: "bool", nulls: "never", sql: { duckdb: "($0 IS NOT NULL OR true)", clickhouse: "isValidUTF8($0)" }, doc: "whether the text is valid UTF-8 (DuckDB's text always is)" }),
  scalar("url_decode", { args: "encoded: string", result: "string", sql: { duckdb: "url_decode(replace($0, '+', ' '))", clickhouse: "decodeURLFormComponent($0)" }, doc: "URL-encoded text decoded ('+' is a space)" }),
];
