/**
 * Tabular operators: what follows each `|`. One case per operator in `parseOperator`; the ones
 * with a grammar of their own (join, make-series, mv-expand, top-nested, parse) have a function
 * each. A table inside an operator (join's right side, union's tables) is read through
 * `Cursor.tabular`.
 */
import type { Expr, JoinKey, MakeSeriesAggregate, MvExpandItem, Name, Operator, ParsePart, SortKey, TabularExpr, TopNestedLevel, UnionOptions } from "../ast";
import { Cursor, describe, fail, isName, isPunct, isWord } from "./cursor";
import { parseAdditive, parseAssignment, parseAssignments, parseExpr, parsePrimary } from "./expressions";
import { parseSearchOperator } from "./search";
import { DESUGARED_PLUGINS, readPlugin } from "./plugins";
import { GRAPH_OPERATORS, parseMakeGraph } from "./graph";

/** KQL operators and statements this engine refuses: named in the error instead of "Unknown operator". */
export const UNSUPPORTED_OPERATORS = new Set([
  "fork", "facet", "find",
  "reduce", "sample-distinct", "top-hitters", "project-smart",
  "externaldata", "graph-merge", "consume", "execute",
  "assert-schema", "macro-expand", "partition-by",
]);

export function parseOperator(c: Cursor): Operator {
  const token = c.next();
  const from = token.from;
  const word = isName(token) ? token.text : "";
  if (UNSUPPORTED_OPERATORS.has(word)) return fail(token, `'${word}' is not supported`);
  if (GRAPH_OPERATORS.has(word)) return fail(token, `'${word}' reads a graph: write make-graph before it`);
  switch (word) {
    case "make-graph":
      return parseMakeGraph(c, from);
    case "evaluate":
      return parseEvaluate(c, from);
    case "scan":
      return parseScan(c, from);
    case "invoke": {
      const name = c.expectName("a function name after 'invoke'");
      c.expectPunct("(");
      const args: Expr[] = [];
      const tabularArgs: TabularExpr[] = [];
      while (!isPunct(c.peek(), ")")) {
        if (args.length || tabularArgs.length) c.expectPunct(",");
        if (c.startsTabular()) tabularArgs.push(c.tabular());
        else args.push(parseExpr(c));
      }
      c.expectPunct(")");
      return { kind: "invoke", call: { kind: "call", name, args, tabularArgs, span: c.spanFrom(name.span.from) }, span: c.spanFrom(from) };
    }
    case "search":
      return parseSearchOperator(c, from);
    case "where":
    case "filter":
      return { kind: "where", predicate: parseExpr(c), span: c.spanFrom(from) };
    case "project":
      return { kind: "project", items: parseAssignments(c), span: c.spanFrom(from) };
    case "extend":
      return { kind: "extend", items: parseAssignments(c), span: c.spanFrom(from) };
    case "serialize": {
      const end = c.peek().kind === "eof" || isPunct(c.peek(), "|") || isPunct(c.peek(), ")") || isPunct(c.peek(), ";");
      return { kind: "serialize", items: end ? [] : parseAssignments(c), span: c.spanFrom(from) };
    }
    case "project-away":
    case "project-keep":
      return { kind: word, columns: parseNamePatterns(c), span: c.spanFrom(from) };
    case "project-by-names":
      return { kind: "project-by-names", names: c.commaList(() => parseExpr(c)), span: c.spanFrom(from) };
    case "project-rename": {
      const renames = c.commaList(() => {
        const to = c.expectName("a new column name");
        c.expectPunct("=");
        return { to, from: c.expectName("a column name") };
      });
      return { kind: "project-rename", renames, span: c.spanFrom(from) };
    }
    case "project-reorder": {
      const columns: Extract<Operator, { kind: "project-reorder" }>["columns"] = c.commaList(() => {
        const name = parseNamePattern(c);
        const order = ["asc", "desc", "granny-asc", "granny-desc"].find((o) => isWord(c.peek(), o)) as "asc" | undefined;
        if (order) c.next();
        return { name, order };
      });
      return { kind: "project-reorder", columns, span: c.spanFrom(from) };
    }
    case "summarize": {
      c.readOptions(new Set());
      const aggregates = isWord(c.peek(), "by") ? [] : parseAssignments(c);
      const by = c.after("by", () => parseAssignments(c)) ?? [];
      if (!aggregates.length && !by.length) fail(c.peek(), "summarize needs an aggregation or a 'by' clause");
      return { kind: "summarize", aggregates, by, span: c.spanFrom(from) };
    }
    case "order":
    case "sort": {
      c.expectWord("by");
      return { kind: "sort", keys: parseSortKeys(c), span: c.spanFrom(from) };
    }
    case "top": {
      const count = parseExpr(c);
      c.expectWord("by");
      return { kind: "top", count, keys: parseSortKeys(c), span: c.spanFrom(from) };
    }
    case "take":
    case "limit":
      return { kind: "take", count: parseExpr(c), span: c.spanFrom(from) };
    case "sample":
      return { kind: "sample", count: parseExpr(c), span: c.spanFrom(from) };
    case "distinct": {
      c.readOptions(new Set());
      if (isPunct(c.peek(), "*")) {
        c.next();
        return { kind: "distinct", columns: "*", span: c.spanFrom(from) };
      }
      return { kind: "distinct", columns: parseAssignments(c), span: c.spanFrom(from) };
    }
    case "count":
      return { kind: "count", span: c.spanFrom(from) };
    case "getschema":
      return { kind: "getschema", span: c.spanFrom(from) };
    case "as": {
      c.readOptions(new Set(["hint.materialized"]));
      const name = c.expectName("a name after 'as'");
      c.tabularNames.add(name.text);
      c.scalarNames.delete(name.text);
      return { kind: "as", name, span: c.spanFrom(from) };
    }
    case "union": {
      const { options, tables } = parseUnionArgs(c);
      return { kind: "union", options, tables, span: c.spanFrom(from) };
    }
    case "join":
    case "lookup":
      return parseJoin(c, word, from);
    case "make-series":
      return parseMakeSeries(c, from);
    case "mv-expand":
      return parseMvExpand(c, from);
    case "mv-apply":
      return parseMvApply(c, from);
    case "partition":
      return parsePartition(c, from);
    case "top-nested":
      return parseTopNested(c, from);
    case "parse-kv":
      return parseParseKv(c, from);
    case "parse":
    case "parse-where":
      return parseParse(c, from, word === "parse-where");
    case "render": {
      const chart = c.expectName("a chart kind (timechart, barchart, …)");
      const properties: { name: string; value: Expr }[] = [];
      if (isWord(c.peek(), "with")) {
        c.next();
        c.expectPunct("(");
        while (!isPunct(c.peek(), ")")) {
          if (properties.length) c.expectPunct(",");
          const name = c.expectName("a property name");
          c.expectPunct("=");
          properties.push({ name: name.text, value: parseRenderValue(c) });
        }
        c.expectPunct(")");
      }
      if (c.peek().kind !== "eof" && !isPunct(c.peek(), ";")) fail(c.peek(), "render must be the last operator");
      return { kind: "render", chart, properties, span: c.spanFrom(from) };
    }
    default:
      return fail(token, token.kind === "eof" ? "Expected an operator after '|'" : `Unknown operator '${token.text}'`);
  }
}

export function parseUnionArgs(c: Cursor): { options: UnionOptions; tables: TabularExpr[] } {
  const raw = c.readOptions(new Set(["kind", "withsource", "isfuzzy"]));
  const kind = raw.get("kind");
  if (kind && kind.value.text !== "inner" && kind.value.text !== "outer") fail(c.tokenAt(kind.value.span), `union kind must be inner or outer, not '${kind.value.text}'`);
  const options: UnionOptions = { kind: (kind?.value.text as "inner" | "outer") ?? "outer", withsource: raw.get("withsource")?.value, isfuzzy: raw.get("isfuzzy")?.value.text === "true" };
  const tables = c.commaList((): TabularExpr => {
    const token = c.peek();
    if (isPunct(token, "(")) {
      c.next();
      const tabular = c.tabular();
      c.expectPunct(")");
      return tabular;
    }
    const name = c.expectName("a table name");
    if (name.text.includes("*")) fail(token, "Wildcard table names are not supported");
    return { source: { kind: "name", name, span: name.span }, operators: [], span: name.span };
  });
  return { options, tables };
}

/** A column name, possibly with `*` wildcards (`Data*`). */
function parseNamePattern(c: Cursor): Name {
  const start = c.peek();
  let text = "";
  let end = start.to;
  while ((isName(c.peek()) || isPunct(c.peek(), "*")) && (text === "" || c.peek().from === end)) {
    const token = c.next();
    text += token.text;
    end = token.to;
  }
  if (!text) fail(start, `Expected a column name but found ${describe(start)}`);
  return { text, span: { from: start.from, to: end } };
}

function parseNamePatterns(c: Cursor): Name[] {
  return c.commaList(() => parseNamePattern(c));
}

/**
 * Plugins that reach out of the service or run code of their own: a query here reads only its own
 * database and runs no foreign code (docs/api.md §6), so these are refused with the reason.
 */
const REFUSED_PLUGINS: [RegExp, string][] = [
  [/^http_request(_post)?$/, "sends an HTTP request out of the service"],
  [/^(sql|mysql|postgresql|cosmosdb_sql|azure_digital_twins_query)_request$/, "queries a database outside the service"],
  [/^(python|r|csharp)$/, "runs code written in the query"],
  [/^ai_/, "calls an AI service outside the service"],
  [/^execute_(query|show_command|script)$|^execute_/, "runs another query or a management command built as text"],
  [/^(external_datatable|infer_storage_schema\w*)$/, "reads storage outside the service"],
];

/** `evaluate plugin(…)` as a query's source (`evaluate http_request(…)`): refused, with the reason for an outbound plugin. */
export function refuseSourcePlugin(c: Cursor): never {
  c.next();
  const plugin = c.peek();
  const refused = REFUSED_PLUGINS.find(([pattern]) => pattern.test(plugin.text));
  if (refused) fail(plugin, `Plugin '${plugin.text}' is refused: it ${refused[1]}; a query here reads only its own database and runs no outside code`);
  return fail(plugin, `Plugin '${plugin.text}' of 'evaluate' is not supported`);
}

/** `evaluate [hint.* = …] plugin(args)`: `preview(N)` reads the first N rows (ADX's first result); other plugins are refused by name. */
function parseEvaluate(c: Cursor, from: number): Operator {
  c.readOptions(new Set());
  const plugin = c.peek();
  if (!isName(plugin)) fail(plugin, `Expected a plugin name after 'evaluate' but found ${describe(plugin)}`);
  const refused = REFUSED_PLUGINS.find(([pattern]) => pattern.test(plugin.text));
  if (refused) fail(plugin, `Plugin '${plugin.text}' is refused: it ${refused[1]}; a query here reads only its own database and runs no outside code`);
  if (plugin.text === "preview") {
    c.next();
    c.expectPunct("(");
    const count = parseExpr(c);
    c.expectPunct(")");
    return { kind: "take", count, span: c.spanFrom(from) };
  }
  if (DESUGARED_PLUGINS.has(plugin.text)) {
    const read = readPlugin(c, from);
    if (read.kind === "operator") return read.operator;
    const inner = read.cursor;
    const operators = [parseOperator(inner)];
    while (isPunct(inner.peek(), "|")) {
      inner.next();
      operators.push(parseOperator(inner));
    }
    if (inner.peek().kind !== "eof") fail(plugin, `Plugin '${plugin.text}' could not be read: unexpected ${describe(inner.peek())}`);
    return { kind: "pipeline", operators, span: c.spanFrom(from) };
  }
  return fail(plugin, `Plugin '${plugin.text}' of 'evaluate' is not supported`);
}

/**
 * `scan [with_match_id = Id] [declare (v: type [= default], …)] with (step s [output = all | none]: Condition [=> v = Expr, …]; …)`
 * (ADX). `output=last` is refused: it needs to know that a later row does not match the step again.
 */
function parseScan(c: Cursor, from: number): Operator {
  const options = c.readOptions(new Set(["with_match_id"]));
  const matchId = options.get("with_match_id")?.value;
  const declare: Extract<Operator, { kind: "scan" }>["declare"] = [];
  if (isWord(c.peek(), "declare")) {
    c.next();
    c.expectPunct("(");
    declare.push(
      ...c.commaList(() => {
        const name = c.expectName("a variable name");
        c.expectPunct(":");
        const type = c.expectName("a type");
        const value = isPunct(c.peek(), "=") ? (c.next(), parseExpr(c)) : undefined;
        return { name, type, value };
      }),
    );
    c.expectPunct(")");
  }
  c.expectWord("with");
  c.expectPunct("(");
  const steps: Extract<Operator, { kind: "scan" }>["steps"] = [];
  while (!isPunct(c.peek(), ")")) {
    c.expectWord("step");
    const name = c.expectName("a step name");
    let output: "all" | "none" = "all";
    if (isWord(c.peek(), "output") && isPunct(c.peek(1), "=")) {
      c.next();
      c.next();
      const value = c.next();
      if (value.text === "last") fail(value, "scan's output=last is not supported; use output=all and keep the last row of each match (summarize arg_max by the match id)");
      if (value.text !== "all" && value.text !== "none") fail(value, `Expected all, last or none but found ${describe(value)}`);
      output = value.text as "all" | "none";
    }
    c.expectPunct(":");
    const condition = parseExpr(c);
    const assignments: { name: Name; value: Expr }[] = [];
    // `=>` is the tokens `=` and `>`.
    if (isPunct(c.peek(), "=") && isPunct(c.peek(1), ">")) {
      c.next();
      c.next();
      assignments.push(
        ...c.commaList(() => {
          const target = c.expectName("a declared variable");
          c.expectPunct("=");
          return { name: target, value: parseExpr(c) };
        }),
      );
    }
    c.expectPunct(";");
    steps.push({ name, output, condition, assignments });
  }
  c.expectPunct(")");
  if (!steps.length) fail(c.peek(), "scan needs at least one step");
  return { kind: "scan", matchId, declare, steps, span: c.spanFrom(from) };
}

function parseJoin(c: Cursor, word: "join" | "lookup", from: number): Operator {
  const options = c.readOptions(new Set(["kind"]));
  const kind = options.get("kind");
  const joinKind = kind?.value.text ?? (word === "join" ? "innerunique" : "leftouter");
  let right: TabularExpr;
  if (isPunct(c.peek(), "(")) {
    c.next();
    right = c.tabular();
    c.expectPunct(")");
  } else {
    const name = c.expectName("the right table of the join");
    right = { source: { kind: "name", name, span: name.span }, operators: [], span: name.span };
  }
  if (isWord(c.peek(), "where")) fail(c.peek(), `'${word} … where' is not supported; use 'on'`);
  c.expectWord("on");
  const on: JoinKey[] = [];
  do {
    if (on.length) c.next();
    on.push(parseJoinKey(c));
  } while (isPunct(c.peek(), ",") || isWord(c.peek(), "and"));
  return { kind: word, joinKind, kindSpan: kind?.value.span, right, on, span: c.spanFrom(from) };
}

function parseJoinKey(c: Cursor): JoinKey {
  const start = c.peek();
  const side = (): { side: string; name: Name } | null => {
    const token = c.peek();
    if ((token.text === "$left" || token.text === "$right") && isPunct(c.peek(1), ".")) {
      c.next();
      c.next();
      return { side: token.text, name: c.expectName("a column name") };
    }
    return null;
  };
  const a = side();
  if (a && a.side !== "$left") fail(start, "A join condition is written $left.column == $right.column");
  if (!a) {
    const name = c.expectName("a column name or $left.column == $right.column");
    return { left: name, right: name, span: name.span };
  }
  c.expectPunct("==");
  const b = side();
  if (!b || b.side === a.side) fail(c.peek(), "Expected the other side of the condition ($left.column == $right.column)");
  return { left: a.name, right: b!.name, span: c.spanFrom(start.from) };
}

function parseMakeSeries(c: Cursor, from: number): Operator {
  const kind = c.readOptions(new Set(["kind"])).get("kind");
  if (kind && kind.value.text !== "nonempty") fail(c.tokenAt(kind.value.span), `make-series kind must be nonempty, not '${kind.value.text}'`);
  const aggregates = c.commaList((): MakeSeriesAggregate => {
    const start = c.peek().from;
    const item = parseAssignment(c);
    const defaultValue = c.after("default", () => {
      c.expectPunct("=");
      return parseExpr(c);
    });
    return { name: item.name, expr: item.expr, default: defaultValue, span: c.spanFrom(start) };
  });
  c.expectWord("on");
  // The axis is a column or arithmetic (not a comparison), so `on Timestamp in range(…)` stops before `in`.
  const axis = parseAdditive(c);
  const by = () => c.after("by", () => parseAssignments(c)) ?? [];
  const series = { kind: "make-series" as const, nonEmpty: kind !== undefined, aggregates, axis };
  if (isWord(c.peek(), "in")) {
    // `in range(start, stop, step)` (ADX's older form): the bins are bin()'s, from start's to stop's inclusive.
    c.next();
    const range = c.next();
    if (range.text !== "range") fail(range, `Expected range(start, stop, step) after 'in' but found ${describe(range)}`);
    c.expectPunct("(");
    const start = parseExpr(c);
    c.expectPunct(",");
    const stop = parseExpr(c);
    c.expectPunct(",");
    const step = parseExpr(c);
    c.expectPunct(")");
    const bin = (x: Expr): Expr => ({ kind: "call", name: "bin", nameSpan: x.span, args: [x, step], star: false, span: x.span });
    const end: Expr = { kind: "binary", op: "+", opSpan: stop.span, left: bin(stop), right: step, span: stop.span };
    return { ...series, from: bin(start), to: end, step, by: by(), span: c.spanFrom(from) };
  }
  const start = c.after("from", () => parseExpr(c));
  const end = c.after("to", () => parseExpr(c));
  c.expectWord("step");
  const step = parseExpr(c);
  return { ...series, from: start, to: end, step, by: by(), span: c.spanFrom(from) };
}

function parseMvExpand(c: Cursor, from: number): Operator {
  const { items, bagExpansion, itemIndex } = parseMvItems(c);
  const limit = c.after("limit", () => parseExpr(c));
  return { kind: "mv-expand", items, bagExpansion, itemIndex, limit, span: c.spanFrom(from) };
}

/** mv-expand's and mv-apply's options and arrays: `[bagexpansion=…] [with_itemindex=Name] [Name =] expr [to typeof(type)], …`. */
function parseMvItems(c: Cursor): { items: MvExpandItem[]; bagExpansion: "bag" | "array"; itemIndex?: Name } {
  const options = c.readOptions(new Set(["bagexpansion", "with_itemindex", "kind"]));
  const items: MvExpandItem[] = c.commaList(() => {
    const start = c.peek().from;
    const item = parseAssignment(c);
    const toType = c.after("to", () => {
      c.expectWord("typeof");
      c.expectPunct("(");
      const name = c.expectName("a type");
      c.expectPunct(")");
      return name;
    });
    return { name: item.name, expr: item.expr, toType, span: c.spanFrom(start) };
  });
  const bag = (options.get("bagexpansion") ?? options.get("kind"))?.value.text;
  if (bag && bag !== "bag" && bag !== "array") fail(c.peek(), `bagexpansion must be bag or array, not '${bag}'`);
  return { items, bagExpansion: (bag as "bag" | "array") ?? "bag", itemIndex: options.get("with_itemindex")?.value };
}

/** `mv-apply [options] items [limit N] on (operators)`. */
function parseMvApply(c: Cursor, from: number): Operator {
  const { items, bagExpansion, itemIndex } = parseMvItems(c);
  const limit = c.after("limit", () => parseExpr(c));
  c.expectWord("on");
  return { kind: "mv-apply", items, bagExpansion, itemIndex, limit, subquery: parseSubPipeline(c), span: c.spanFrom(from) };
}

/** `partition [hint.* = …] by Column (operators)`. */
function parsePartition(c: Cursor, from: number): Operator {
  c.readOptions(new Set());
  c.expectWord("by");
  const by = c.expectName("the column to partition by");
  if (isPunct(c.peek(), "{")) fail(c.peek(), "partition by … { … } is not supported; write partition by Column (operators)");
  return { kind: "partition", by, subquery: parseSubPipeline(c), span: c.spanFrom(from) };
}

/** `( operator | operator … )`: operators without a source, run on rows the enclosing operator gives. */
function parseSubPipeline(c: Cursor): Operator[] {
  const open = c.expectPunct("(");
  c.enter(open);
  try {
    const operators = [parseOperator(c)];
    while (isPunct(c.peek(), "|")) {
      c.next();
      operators.push(parseOperator(c));
    }
    c.expectPunct(")");
    return operators;
  } finally {
    c.leave();
  }
}

function parseTopNested(c: Cursor, from: number): Operator {
  const levels: TopNestedLevel[] = [];
  let token = c.peek();
  for (;;) {
    const start = token.from;
    let count: Expr | undefined;
    if (!isWord(c.peek(), "of")) count = parseExpr(c);
    c.expectWord("of");
    const of = parseAssignment(c);
    const others = c.after("with", () => {
      c.expectWord("others");
      c.expectPunct("=");
      return parseExpr(c);
    });
    c.expectWord("by");
    const by = parseAssignment(c);
    if (isWord(c.peek(), "asc") || isWord(c.peek(), "desc")) {
      if (c.next().text === "asc") fail(c.peek(), "top-nested '… asc' is not supported");
    }
    levels.push({ count, of, others, by, span: c.spanFrom(start) });
    if (!isPunct(c.peek(), ",")) break;
    c.next();
    token = c.expectWord("top-nested");
  }
  return { kind: "top-nested", levels, span: c.spanFrom(from) };
}

function parseParse(c: Cursor, from: number, filter: boolean): Operator {
  const options = c.readOptions(new Set(["kind", "flags"]));
  const kindOption = options.get("kind");
  const kind = kindOption?.value.text ?? "simple";
  if (kind !== "simple" && kind !== "regex" && kind !== "relaxed") fail(c.tokenAt(kindOption!.value.span), `parse kind must be simple, regex or relaxed, not '${kind}'`);
  const flags = options.get("flags");
  if (flags && kind !== "regex") fail(c.tokenAt(flags.value.span), "parse flags= needs kind=regex");
  if (flags && !/^[imsU]+$/.test(flags.value.text)) fail(c.tokenAt(flags.value.span), `parse flags must be of i, m, s and U, not '${flags.value.text}'`);
  const source = parseExpr(c);
  c.expectWord("with");
  const parts: ParsePart[] = [];
  for (;;) {
    const token = c.peek();
    if (token.kind === "string") {
      c.next();
      parts.push({ kind: "text", value: token.value ?? "", span: { from: token.from, to: token.to } });
    } else if (isPunct(token, "*")) {
      c.next();
      parts.push({ kind: "star", span: { from: token.from, to: token.to } });
    } else if (isName(token)) {
      c.next();
      const name = { text: token.text, span: { from: token.from, to: token.to } };
      let type: Name | undefined;
      if (isPunct(c.peek(), ":")) {
        c.next();
        type = c.expectName("a type");
      }
      parts.push({ kind: "column", name, type, span: c.spanFrom(token.from) });
    } else break;
  }
  if (!parts.length) fail(c.peek(), "Expected a parse pattern (\"text\", column:type, *)");
  return { kind: "parse", mode: kind as "simple", flags: flags?.value.text, filter, source, parts, span: c.spanFrom(from) };
}

/** `parse-kv expr as (key: type, …) [with (name = value, …)]`; a key may be a bracketed string (`['event time']`). */
function parseParseKv(c: Cursor, from: number): Operator {
  const source = parseExpr(c);
  c.expectWord("as");
  c.expectPunct("(");
  const keys = c.commaList(() => {
    let name: Name;
    if (isPunct(c.peek(), "[")) {
      const open = c.next();
      const token = c.next();
      if (token.kind !== "string") fail(token, `Expected a quoted key name but found ${describe(token)}`);
      c.expectPunct("]");
      name = { text: token.value ?? "", span: c.spanFrom(open.from) };
    } else name = c.expectName("a key name");
    c.expectPunct(":");
    return { name, type: c.expectName("a type") };
  });
  c.expectPunct(")");
  const options: { name: Name; value: Expr }[] = [];
  if (isWord(c.peek(), "with")) {
    c.next();
    c.expectPunct("(");
    options.push(...c.commaList(() => {
      const name = c.expectName("a parse-kv option");
      c.expectPunct("=");
      return { name, value: parsePrimary(c) };
    }));
    c.expectPunct(")");
  }
  return { kind: "parse-kv", source, keys, options, span: c.spanFrom(from) };
}

/** Render properties: literals, or a parenthesised list of names (`ycolumns=(a, b)`) as text. */
function parseRenderValue(c: Cursor): Expr {
  const token = c.peek();
  if (isPunct(token, "(")) {
    c.next();
    const names: string[] = [];
    while (!isPunct(c.peek(), ")")) {
      if (names.length) c.expectPunct(",");
      names.push(c.expectName("a column name").text);
    }
    c.expectPunct(")");
    return { kind: "literal", type: "string", value: names.join(","), span: c.spanFrom(token.from) };
  }
  if (token.kind === "identifier") {
    c.next();
    return { kind: "literal", type: "string", value: token.text, span: { from: token.from, to: token.to } };
  }
  return parsePrimary(c);
}

function parseSortKeys(c: Cursor): SortKey[] {
  return c.commaList(() => {
    const from = c.peek().from;
    const key: SortKey = { expr: parseExpr(c), span: { from, to: from } };
    if (isWord(c.peek(), "asc") || isWord(c.peek(), "desc")) key.direction = c.next().text as "asc" | "desc";
    const nulls = c.after("nulls", () => {
      const which = c.peek();
      if (!isWord(which, "first") && !isWord(which, "last")) fail(which, `Expected 'first' or 'last' but found ${describe(which)}`);
      return c.next().text as "first" | "last";
    });
    if (nulls) key.nulls = nulls;
    key.span = c.spanFrom(from);
    return key;
  });
}
