/**
 * `parse-kv expr as (key: type, …) [with (…)]`: each listed key's first value in the text, as a
 * column of its type (null, or '' for a string, when the key is absent). One regular expression per
 * key, its text a query parameter (never spliced into SQL), read with the engines' regex groups:
 *
 * - `pair_delimiter`/`kv_delimiter`: a key starts the text or follows a pair delimiter; its value
 *   runs to the next pair delimiter, or with `greedy=true` to the next `delimiter key kv_delimiter`;
 * - neither: any non-alphanumeric character delimits, a value is a run of word characters;
 * - `quote` (one character, or an opening and a closing one; repeatable) may wrap keys and values,
 *   `escape` characters inside a quoted value escape the next one (and are removed).
 *
 * Leading and trailing white space of values is dropped (ADX). `regex=` is refused.
 */
import type { Operator } from "./ast";
import { LIMITS } from "./budget";
import type { TExpr } from "./ir";
import { scopeOf, type Block, type OperatorPlanner } from "./block";

export function parseKv(planner: OperatorPlanner, block: Block, operator: Extract<Operator, { kind: "parse-kv" }>): Block {
  const analyzer = planner.analyzer;
  const option = (name: string) => operator.options.filter((o) => o.name.text === name).map((o) => {
    const value = analyzer.constant(analyzer.scalar(o.value, new Map()));
    if (typeof value !== "string" && typeof value !== "boolean") analyzer.error(o.value.span, `parse-kv ${name} needs a constant`);
    return { value: value as string | boolean, span: o.value.span };
  });
  for (const o of operator.options) {
    if (o.name.text === "regex") analyzer.error(o.name.span, "parse-kv with (regex=…) is not supported; use pair_delimiter and kv_delimiter, or extract()");
    if (!["pair_delimiter", "kv_delimiter", "quote", "escape", "greedy"].includes(o.name.text)) analyzer.error(o.name.span, `Unknown parse-kv option '${o.name.text}'`);
  }
  const text = (name: string) => {
    const found = option(name);
    if (found.length > 1) analyzer.error(found[1]!.span, `parse-kv ${name} is given twice`);
    if (found[0] && (typeof found[0].value !== "string" || !found[0].value)) analyzer.error(found[0].span, `parse-kv ${name} needs a non-empty string`);
    return found[0]?.value as string | undefined;
  };
  const pairDelimiter = text("pair_delimiter");
  const kvDelimiter = text("kv_delimiter");
  if ((pairDelimiter === undefined) !== (kvDelimiter === undefined)) analyzer.error(operator.span, "parse-kv needs both pair_delimiter and kv_delimiter, or neither");
  const greedy = option("greedy").some((o) => o.value === true || o.value === "true");
  const quotes = option("quote").map((o) => {
    const q = String(o.value);
    if (q.length !== 1 && q.length !== 2) analyzer.error(o.span, "parse-kv quote is one character, or an opening and a closing one");
    return [q[0]!, q[q.length - 1]!] as const;
  });
  const escapes = option("escape").map((o) => {
    const e = String(o.value);
    if (e.length !== 1) analyzer.error(o.span, "parse-kv escape is one character");
    return e;
  });
  const escapeClass = escapes.map(classChar).join("");
  const quoted = quotes.map(([open, close]) => `${esc(open)}((?:${escapeClass ? `[${escapeClass}].|` : ""}[^${classChar(close)}${escapeClass}])*)${esc(close)}`);
  const opens = quotes.map(([open]) => classChar(open)).join("");
  let unquoted: string;
  let before: string;
  let between: string;
  if (pairDelimiter !== undefined) {
    const pd = esc(pairDelimiter);
    const nextKey = `${pd}\\s*[^${[...new Set(pairDelimiter + kvDelimiter!)].map(classChar).join("")}]+?\\s*${esc(kvDelimiter!)}`;
    unquoted = `(.*?)\\s*(?:${greedy ? nextKey : pd}|$)`;
    before = `(?:^|${pd})\\s*`;
    between = `\\s*${esc(kvDelimiter!)}\\s*`;
  } else {
    unquoted = "(\\w*)";
    before = "(?:^|\\W)";
    between = `[^\\w${opens}]+`;
  }
  const source = analyzer.asText(analyzer.scalar(operator.source, scopeOf(block)));
  const columns = [...block.columns];
  for (const key of operator.keys) {
    const type = analyzer.typeName(key.type);
    const name = esc(key.name.text);
    const keyPattern = `(?:${[name, ...quotes.map(([open, close]) => `${esc(open)}${name}${esc(close)}`)].join("|")})`;
    const regex = `(?s)${before}${keyPattern}${between}(?:${[...quoted, unquoted].join("|")})`;
    if (regex.length > LIMITS.regexLength) analyzer.error(key.name.span, `The parse-kv pattern of '${key.name.text}' is longer than ${LIMITS.regexLength} characters`);
    analyzer.checkRegex(regex, key.name.span);
    const pattern = analyzer.param("VARCHAR", regex, "string");
    const groups = [...quoted, unquoted].map((_, i) => {
      let value: TExpr = analyzer.op("regex_group", [source, pattern, analyzer.param("BIGINT", i + 1, "long")], "string", false);
      if (i < quoted.length && escapeClass) value = analyzer.op("replace_regex", [value, analyzer.param("VARCHAR", `[${escapeClass}](.)`, "string"), analyzer.param("VARCHAR", "\\1", "string")], "string", false);
      return analyzer.op("empty_to_null", [value], "string", true);
    });
    const found = groups.length === 1 ? groups[0]! : analyzer.op("coalesce", groups, "string", true);
    const value = type === "string" ? analyzer.op("coalesce_empty", [found], "string", false) : analyzer.convert(found, type, key.name.span);
    const existing = columns.findIndex((c) => c.name === key.name.text);
    if (existing >= 0) columns.splice(existing, 1);
    columns.push({ name: key.name.text, expr: value });
  }
  return { ...block, columns };
}

function esc(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A character inside a `[…]` class. */
function classChar(ch: string): string {
  return /[\]\\^-]/.test(ch) ? `\\${ch}` : ch;
}
