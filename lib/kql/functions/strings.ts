/** KQL's strings functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, scalar, type FunctionEntry } from "./entry";

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
  documented("scalar", "indexof", "indexof(s, Lookup [, Start]): long (-1 if absent) — where Lookup first occurs in the text"),
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
  scalar("base64_decode_tostring", { args: "base64: string", result: "string", sql: { duckdb: "try(decode(from_base64($0)))", clickhouse: "tryBase64Decode($0)" }, doc: "base64 decoded to UTF-8 text ('' when it is not valid base64 of UTF-8)" }),
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
