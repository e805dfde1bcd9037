/**
 * `evaluate` plugins that are other operators in ADX's own terms (docs/kql-conformance.md): each is
 * written as a short KQL pipeline over its arguments (`rows_near` as prev()/next(), the sliding
 * window plugins as an mv-expand of every row into the bins whose window holds it, `bag_unpack` with
 * an output schema as an extend). The pipeline's own tokens take the plugin name's place in the text;
 * the arguments keep theirs, so an error in an argument still points at it. `ipv4_lookup` and
 * `ipv6_lookup` are a join on "address in range", `geo_polygon_lookup` and `geo_line_lookup` one on
 * "point in the polygon" / "point near the line" (kql/plugins.ts plans them), `dcount_intersect` an extend of
 * the sketches' intersections.
 */
import type { Expr, Name, Operator, TabularExpr } from "../ast";
import { tokenize, type Token } from "../lexer";
import { Cursor, describe, fail, isName, isPunct } from "./cursor";
import { parseExpr } from "./expressions";

interface Arg {
  /** `name = value` arguments (`return_unmatched = true`). */
  name?: string;
  expr: Expr;
  tokens: Token[];
}

/** What `evaluate <plugin>(…)` stands for: operators to read from spelled-out tokens, or an operator. */
type Plugin = { kind: "tokens"; cursor: Cursor } | { kind: "operator"; operator: Operator };

export const DESUGARED_PLUGINS = new Set(["narrow", "rows_near", "bag_unpack", "rolling_percentile", "sliding_window_counts", "activity_counts_metrics", "active_users_count", "ipv4_lookup", "ipv6_lookup", "geo_polygon_lookup", "geo_line_lookup", "dcount_intersect"]);

/** Reads `plugin(args) [: (schema)]` (the cursor at the plugin's name) for a plugin of DESUGARED_PLUGINS. */
export function readPlugin(c: Cursor, from: number): Plugin {
  const plugin = c.next();
  c.expectPunct("(");
  if (plugin.text === "ipv4_lookup" || plugin.text === "ipv6_lookup") return { kind: "operator", operator: ipLookup(c, plugin, from) };
  if (plugin.text === "geo_polygon_lookup" || plugin.text === "geo_line_lookup") return { kind: "operator", operator: geoLookup(c, plugin, from) };
  if (plugin.text === "narrow") {
    // Its columns are the input's, known only when planning (kql/plugins.ts).
    if (!isPunct(c.peek(), ")")) fail(c.peek(), "narrow() takes no arguments");
    c.next();
    return { kind: "operator", operator: { kind: "narrow", span: c.spanFrom(from) } };
  }
  const args = readArgs(c);
  const schema = readSchema(c);
  const arity = (min: number, max: number) => {
    if (args.length < min || args.length > max) fail(plugin, `${plugin.text}() takes ${min === max ? min : `${min} to ${max}`} arguments, not ${args.length}`);
  };
  const column = (i: number, what: string) => {
    const e = args[i]!.expr;
    if (e.kind !== "column") fail(args[i]!.tokens[0]!, `${plugin.text}() needs a column name as its ${what}`);
    return (e as { name: string }).name;
  };
  const literal = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  const quoted = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name) ? name : `[${literal(name)}]`);
  const dims = (first: number) => args.slice(first).map((_, i) => `__a${first + i}`);
  if (schema && plugin.text !== "bag_unpack") fail(plugin, `An output schema is not supported for ${plugin.text}()`);
  switch (plugin.text) {
    case "rows_near": {
      // rows_near(Condition, NumRows [, RowsAfter]): the rows within NumRows before / RowsAfter after a row that meets the condition.
      arity(2, 3);
      const count = (i: number) => {
        const value = literalValue(args[i]!, plugin);
        if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 1000) fail(args[i]!.tokens[0]!, "rows_near() needs a constant row count from 0 to 1,000");
        return value as number;
      };
      const before = count(1);
      const after = args.length > 2 ? count(2) : before;
      // A row is near a hit up to `before` rows ahead of it (next) or `after` rows behind it (prev).
      const near = ["__near_hit", ...Array.from({ length: after }, (_, i) => `prev(__near_hit, ${i + 1})`), ...Array.from({ length: before }, (_, i) => `next(__near_hit, ${i + 1})`)];
      return spelled(c, plugin, `extend __near_hit = coalesce(__a0, false) | extend __near = ${near.map((n) => `coalesce(${n}, false)`).join(" or ")} | where __near | project-away __near_hit, __near`, args);
    }
    case "bag_unpack": {
      // bag_unpack(Column [, Prefix]) : (schema): ADX takes the columns from the data; with the schema written out they are known here.
      arity(1, 2);
      if (!schema) fail(plugin, "bag_unpack() needs its output schema here: evaluate bag_unpack(Column) : (*, Key: type, …)");
      const bag = column(0, "first argument");
      const prefix = args[1] ? String(literalValue(args[1], plugin)) : "";
      const columns = schema!.filter((s) => s !== "*") as { name: Name; type: Name }[];
      const extend = columns.map(({ name, type }) => {
        const key = name.text.startsWith(prefix) ? name.text.slice(prefix.length) : name.text;
        return `${quoted(name.text)} = ${CONVERT[type.text] ?? fail(c.tokenAt(type.span), `Unknown type '${type.text}'`)}(__a0[${literal(key)}])`;
      });
      // `*` (first, as Kusto.Language reads it) stands for the input's other columns.
      const star = schema!.indexOf("*");
      if (star > 0) fail(plugin, "In bag_unpack's output schema '*' comes first: (*, Key: type, …)");
      const parts = extend.length ? [`extend ${extend.join(", ")}`] : [];
      parts.push(star < 0 ? `project ${columns.map((s) => quoted(s.name.text)).join(", ")}` : `project-away ${quoted(bag)}`);
      return spelled(c, plugin, parts.join(" | "), args);
    }
    case "rolling_percentile": {
      // rolling_percentile(Value, Percentile, Index, BinSize, BinsToLookback [, dims…]): each bin's percentile over itself and the bins before it.
      if (args.length < 5) arity(5, 5);
      const value = column(0, "value column");
      const percentile = literalValue(args[1]!, plugin);
      const index = column(2, "index column");
      const lookback = literalValue(args[4]!, plugin);
      const name = quoted(`rolling_${lookback}_percentile_${value}_${percentile}`);
      const by = [`${quoted(index)} = __rp_at`, ...dims(5)].join(", ");
      return spelled(c, plugin, `extend __rp_bin = bin(__a2, __a3) | mv-expand __rp_k = range(0, tolong(__a4) - 1) to typeof(long) | extend __rp_at = __rp_bin + (__a3) * __rp_k | summarize ${name} = percentile(__a0, __a1), __rp_own = countif(__rp_k == 0) by ${by} | where __rp_own > 0 | project-away __rp_own`, args);
    }
    case "sliding_window_counts": {
      // sliding_window_counts(Id, Timeline, Start, End, LookbackWindow, Bin [, dims…]): rows and distinct ids in each bin's
      // lookback window (the columns as Kusto.Language names them: Count, Dcount; the page prints "dcount").
      if (args.length < 6) arity(6, 6);
      const timeline = args[1]!.expr.kind === "column" ? column(1, "timeline") : "Timestamp";
      const by = [`${quoted(timeline)} = __sw_at`, ...dims(6)].join(", ");
      return spelled(c, plugin, `extend __sw_bin = bin_at(__a1, __a5, __a2) | mv-expand __sw_k = range(0, tolong((__a4) / (__a5)) - 1) to typeof(long) | extend __sw_at = __sw_bin + (__a5) * __sw_k | where __sw_at >= (__a2) and __sw_at <= (__a3) | summarize Count = count(), Dcount = dcount(__a0) by ${by}`, args);
    }
    case "dcount_intersect": {
      // dcount_intersect(hll1, hll2 [, …hll16]), per row: s0 the distinct count of the first sketch, s<i> that of the first
      // i + 1 sketches' intersection (Kusto.Language's schema: the input's columns, then s0…s<n-1> of type long). The
      // sketches here are exact (hll() keeps the distinct values), so the intersection is too.
      arity(2, 16);
      const counts = args.map((_, i) => `s${i} = ${i === 0 ? "dcount_hll(__a0)" : `array_length(set_intersect(${args.slice(0, i + 1).map((_, k) => `__a${k}`).join(", ")}))`}`);
      return spelled(c, plugin, `extend ${counts.join(", ")}`, args);
    }
    case "active_users_count": {
      // active_users_count(Id, Timeline, Start, End, LookbackWindow, Period, ActivePeriodsCount, Bin): per bin, the distinct ids
      // seen at a moment when they had been seen in at least ActivePeriodsCount periods of the LookbackWindow up to it
      // (t - LookbackWindow excluded): each id's periods counted forward into the periods whose window holds them.
      arity(8, 8);
      const timeline = args[1]!.expr.kind === "column" ? column(1, "timeline") : "Timestamp";
      return spelled(
        c,
        plugin,
        `extend __au_day = bin_at(__a1, __a5, __a2) | summarize by __au_id = __a0, __au_day | mv-expand __au_k = range(0, tolong((__a4) / (__a5)) - 1) to typeof(long) | extend __au_at = __au_day + (__a5) * __au_k | summarize __au_n = count(), __au_own = countif(__au_k == 0) by __au_id, __au_at | where __au_own > 0 and __au_n >= (__a6) | extend __au_bin = bin_at(__au_at, __a7, __a2) | where __au_bin >= (__a2) and __au_bin <= (__a3) | summarize dcount = dcount(__au_id) by ${quoted(timeline)} = __au_bin`,
        args,
      );
    }
    case "activity_counts_metrics": {
      // activity_counts_metrics(Id, Timeline, Start, End, Window): per window the rows, distinct ids, ids first seen and all ids seen so far.
      arity(5, 5);
      const timeline = args[1]!.expr.kind === "column" ? column(1, "timeline") : "Timestamp";
      return spelled(
        c,
        plugin,
        `extend __acm_bin = bin_at(__a1, __a4, __a2) | where __acm_bin >= (__a2) and __acm_bin <= (__a3) | summarize __acm_n = count() by __acm_id = __a0, __acm_bin | sort by __acm_id asc, __acm_bin asc | extend __acm_new = row_number() == 1 or __acm_id != prev(__acm_id) | summarize ['count'] = sum(__acm_n), dcount = count(), new_dcount = countif(__acm_new) by ${quoted(timeline)} = __acm_bin | sort by ${quoted(timeline)} asc | extend aggregated_dcount = row_cumsum(new_dcount)`,
        args,
      );
    }
  }
  return fail(plugin, `Plugin '${plugin.text}' of 'evaluate' is not supported`);
}

/** Names that would not read as a column name in the spelled-out pipeline. */
const KEYWORDS = new Set(["count", "by", "on", "with", "and", "or", "not", "in", "to", "from", "step", "of", "kind", "true", "false", "null", "let", "where", "project", "extend", "summarize", "sort", "order", "asc", "desc", "typeof", "between"]);

const CONVERT: Record<string, string> = {
  string: "tostring", long: "tolong", int: "toint", real: "toreal", double: "toreal", bool: "tobool", boolean: "tobool",
  datetime: "todatetime", date: "todatetime", timespan: "totimespan", time: "totimespan", guid: "toguid", decimal: "todecimal", dynamic: "todynamic",
};

function literalValue(arg: Arg, plugin: Token): string | number | boolean {
  const e = arg.expr;
  if (e.kind === "literal" && e.value !== null) return e.value;
  if (e.kind === "unary" && e.op === "-" && e.operand.kind === "literal" && typeof e.operand.value === "number") return -e.operand.value;
  return fail(arg.tokens[0]!, `${plugin.text}() needs a constant here, not ${describe(arg.tokens[0]!)}`);
}

/** The arguments up to the closing `)` (already past the opening one). */
function readArgs(c: Cursor): Arg[] {
  const args: Arg[] = [];
  if (isPunct(c.peek(), ")")) {
    c.next();
    return args;
  }
  for (;;) {
    const name = isName(c.peek()) && isPunct(c.peek(1), "=") ? c.next().text : undefined;
    if (name) c.next();
    const start = c.index;
    const expr = parseExpr(c);
    args.push({ name, expr, tokens: c.tokens.slice(start, c.index) });
    if (isPunct(c.peek(), ",")) {
      c.next();
      continue;
    }
    c.expectPunct(")");
    return args;
  }
}

/** `: (*, Name: type, …)` after a plugin call: the output schema ADX would otherwise take from the data. */
function readSchema(c: Cursor): ("*" | { name: Name; type: Name })[] | undefined {
  if (!isPunct(c.peek(), ":")) return undefined;
  c.next();
  c.expectPunct("(");
  const items = c.commaList(() => {
    if (isPunct(c.peek(), "*")) {
      c.next();
      return "*" as const;
    }
    const name = c.expectName("a column name");
    c.expectPunct(":");
    return { name, type: c.expectName("a type") };
  });
  c.expectPunct(")");
  return items;
}

/** The template's tokens at the plugin name's place, `__aN` replaced by argument N's own tokens in parentheses. */
function spelled(c: Cursor, at: Token, template: string, args: Arg[]): Plugin {
  const here = (t: Token): Token => ({ ...t, from: at.from, to: at.to, line: at.line, column: at.column });
  const tokens: Token[] = [];
  for (const t of tokenize(template)) {
    const arg = t.kind === "identifier" && /^__a\d+$/.test(t.text) ? args[Number(t.text.slice(3))] : undefined;
    if (arg) tokens.push(here({ ...t, kind: "punctuation", text: "(" }), ...arg.tokens, here({ ...t, kind: "punctuation", text: ")" }));
    else tokens.push(here(t));
  }
  return { kind: "tokens", cursor: c.derive(tokens) };
}

/** `ipv4_lookup(LookupTable, SourceKey, LookupKey [, ExtraKey…] [, return_unmatched])`, past the `(`. */
function ipLookup(c: Cursor, plugin: Token, from: number): Operator {
  const table: TabularExpr = c.tabular();
  const names: Name[] = [];
  let unmatched = false;
  while (isPunct(c.peek(), ",")) {
    c.next();
    const token = c.peek();
    if (isName(token) && token.text === "return_unmatched" && isPunct(c.peek(1), "=")) {
      c.next();
      c.next();
      unmatched = readBool(c);
    } else if (token.kind === "keyword" && (token.text === "true" || token.text === "false")) unmatched = readBool(c);
    else if (isName(token) && (token.text === "true" || token.text === "false")) unmatched = readBool(c);
    else names.push(c.expectName("a column name"));
  }
  c.expectPunct(")");
  if (names.length < 2) fail(plugin, `${plugin.text}() needs the lookup table, the source's address column and the lookup table's range column`);
  return { kind: "ip-lookup", family: plugin.text === "ipv4_lookup" ? "ipv4" : "ipv6", table, source: names[0]!, key: names[1]!, extraKeys: names.slice(2), unmatched, span: c.spanFrom(from) };
}

/**
 * `geo_polygon_lookup(LookupTable, LookupPolygonKey, SourceLongitude, SourceLatitude [, radius] [, return_unmatched]
 * [, lookup_area_radius] [, return_lookup_key])` and `geo_line_lookup(…, Radius, …)` (the same with a required radius),
 * past the `(`: arguments by position or by name. lookup_area_radius only tunes ADX's index, so it is read and ignored.
 */
function geoLookup(c: Cursor, plugin: Token, from: number): Operator {
  const line = plugin.text === "geo_line_lookup";
  const table: TabularExpr = c.tabular();
  const names: Name[] = [];
  const positional = ["radius", "return_unmatched", "lookup_area_radius", "return_lookup_key"];
  const options = new Map<string, { expr: Expr; token: Token }>();
  while (isPunct(c.peek(), ",")) {
    c.next();
    const token = c.peek();
    if (names.length < 3) {
      names.push(c.expectName("a column name"));
      continue;
    }
    let name = positional[options.size];
    if (isName(token) && isPunct(c.peek(1), "=")) {
      if (!positional.includes(token.text)) fail(token, `${plugin.text}() has no argument '${token.text}'`);
      name = token.text;
      c.next();
      c.next();
    }
    if (!name || options.has(name)) fail(token, `${plugin.text}() takes at most 8 arguments, each once`);
    options.set(name!, { expr: parseExpr(c), token });
  }
  c.expectPunct(")");
  if (names.length < 3) fail(plugin, `${plugin.text}() needs the lookup table, its ${line ? "line" : "polygon"} column and the source's longitude and latitude columns`);
  const radius = options.get("radius")?.expr;
  if (line && !radius) fail(plugin, "geo_line_lookup() needs a radius in metres after the latitude column");
  const flag = (name: string) => {
    const option = options.get(name);
    if (!option) return false;
    const e = option.expr;
    if (e.kind !== "literal" || typeof e.value !== "boolean") fail(option.token, `${plugin.text}()'s ${name} must be true or false`);
    return (e as { value: boolean }).value;
  };
  return {
    kind: "geo-lookup",
    shape: line ? "line" : "polygon",
    table,
    key: names[0]!,
    longitude: names[1]!,
    latitude: names[2]!,
    radius,
    unmatched: flag("return_unmatched"),
    lookupKey: flag("return_lookup_key"),
    span: c.spanFrom(from),
  };
}

function readBool(c: Cursor): boolean {
  const token = c.next();
  if (token.text !== "true" && token.text !== "false") fail(token, `Expected true or false but found ${describe(token)}`);
  return token.text === "true";
}
