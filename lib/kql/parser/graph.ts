/**
 * The graph operators (ADX's graph semantics): `make-graph` and what follows it. A graph is not a
 * table, so `make-graph … | graph-mark-components … | graph-match …` (or graph-shortest-paths,
 * graph-to-table) is read as one operator; graph.ts plans it.
 */
import type { GraphEdgePattern, GraphMatch, GraphNodePattern, GraphOperator, Name, Operator, TabularExpr } from "../ast";
import { Cursor, describe, fail, isName, isPunct, isWord } from "./cursor";
import { parseAssignments, parseExpr } from "./expressions";

/** The graph operators that read a graph; alone (without make-graph before them) they are refused by name. */
export const GRAPH_OPERATORS = new Set(["graph-match", "graph-shortest-paths", "graph-to-table", "graph-mark-components"]);

/** `make-graph [with_node_id=Name] Source --> Target [with_node_id=Name] [with T on Key]` and the graph operators after it (the cursor past `make-graph`). */
export function parseMakeGraph(c: Cursor, from: number): Operator {
  let nodeId = c.readOptions(new Set(["with_node_id"])).get("with_node_id")?.value;
  const source = c.expectName("the edges' source column");
  c.expectPunct("-");
  c.expectPunct("-");
  if (!isPunct(c.peek(), ">")) fail(c.peek(), "make-graph needs directed edges: Source --> Target");
  c.next();
  const target = c.expectName("the edges' target column");
  nodeId = c.readOptions(new Set(["with_node_id"])).get("with_node_id")?.value ?? nodeId;
  let nodes: GraphOperator["nodes"];
  if (isWord(c.peek(), "with")) {
    c.next();
    const table = nodesTable(c);
    c.expectWord("on");
    nodes = { table, key: c.expectName("the nodes' id column") };
    if (isPunct(c.peek(), ",")) fail(c.peek(), "make-graph with several node tables is not supported; union them into one first");
  }
  nodeId = c.readOptions(new Set(["with_node_id"])).get("with_node_id")?.value ?? nodeId;
  if (isWord(c.peek(), "partitioned")) fail(c.peek(), "make-graph … partitioned-by is not supported; filter the edges to one partition, or use partition by Column ( … ) around the graph operators");
  let components: Name | undefined;
  for (;;) {
    if (!isPunct(c.peek(), "|") || !GRAPH_OPERATORS.has(c.peek(1).text)) fail(c.peek(), "make-graph gives a graph: follow it with graph-match, graph-shortest-paths or graph-to-table");
    c.next();
    const operator = c.next();
    if (operator.text === "graph-mark-components") {
      const options = c.readOptions(new Set(["kind", "with_component_id"]));
      const kind = options.get("kind");
      if (kind && kind.value.text !== "weak") fail(c.tokenAt(kind.value.span), `graph-mark-components kind=${kind.value.text} is not supported; only weak components (edges in either direction)`);
      components = options.get("with_component_id")?.value ?? { text: "ComponentId", span: { from: operator.from, to: operator.to } };
      continue;
    }
    const final = operator.text === "graph-to-table" ? toTable(c, operator.from) : parseMatch(c, operator.from, operator.text === "graph-shortest-paths");
    return { kind: "graph", source, target, nodes, nodeId, components, final, span: c.spanFrom(from) };
  }
}

/** A nodes table: a name, or a parenthesised query (a bare query would read the graph operators as its own). */
function nodesTable(c: Cursor): TabularExpr {
  if (isPunct(c.peek(), "(")) {
    c.next();
    const table = c.tabular();
    c.expectPunct(")");
    return table;
  }
  const name = c.expectName("the nodes' table");
  return { source: { kind: "name", name, span: name.span }, operators: [], span: name.span };
}

function toTable(c: Cursor, from: number): GraphOperator["final"] {
  const what = c.next();
  if (what.text !== "nodes" && what.text !== "edges") fail(what, `Expected nodes or edges after graph-to-table but found ${describe(what)}`);
  const options = c.readOptions(new Set(["with_node_id", "with_source_id", "with_target_id"]));
  if (options.size) fail(c.tokenAt([...options.values()][0]!.span), "graph-to-table's with_node_id, with_source_id and with_target_id (ADX's internal node ids) are not supported; the nodes' id column is there");
  if (isWord(c.peek(), "as") || isPunct(c.peek(), ",")) fail(c.peek(), "graph-to-table of nodes and edges together (two results) is not supported; write one graph-to-table per query");
  return { kind: "to-table", what: what.text as "nodes", span: c.spanFrom(from) };
}

/** `graph-match [cycles=…] pattern, … [where …] project …`; graph-shortest-paths takes `output=any|all`. */
function parseMatch(c: Cursor, from: number, shortest: boolean): GraphMatch {
  const options = c.readOptions(new Set(shortest ? ["output"] : ["cycles"]));
  const cycles = options.get("cycles");
  if (cycles && !["unique_edges", "none", "all"].includes(cycles.value.text)) fail(c.tokenAt(cycles.value.span), `cycles must be unique_edges, none or all, not '${cycles.value.text}'`);
  const output = options.get("output");
  if (output && output.value.text !== "any" && output.value.text !== "all") fail(c.tokenAt(output.value.span), `output must be any or all, not '${output.value.text}'`);
  const patterns = c.commaList(() => parsePattern(c));
  const where = c.after("where", () => parseExpr(c));
  if (!isWord(c.peek(), "project")) fail(c.peek(), `Expected 'project' (the columns ${shortest ? "graph-shortest-paths" : "graph-match"} gives) but found ${describe(c.peek())}`);
  c.next();
  const project = parseAssignments(c);
  return {
    kind: "match",
    shortest: shortest ? { all: output?.value.text === "all" } : undefined,
    cycles: (cycles?.value.text as GraphMatch["cycles"]) ?? (shortest ? "none" : "unique_edges"),
    patterns,
    where,
    project,
    span: c.spanFrom(from),
  };
}

/** `(a)-[e]->(b)<-[f*1..3]-(c)--(d)`. */
function parsePattern(c: Cursor): GraphMatch["patterns"][number] {
  const start = c.peek().from;
  const nodes = [patternNode(c)];
  const edges: GraphEdgePattern[] = [];
  while (isPunct(c.peek(), "-") || (isPunct(c.peek(), "<") && isPunct(c.peek(1), "-"))) {
    edges.push(patternEdge(c));
    nodes.push(patternNode(c));
  }
  if (!edges.length) fail(c.peek(), `Expected an edge (-[e]->, <-[e]-, -[e]-, -->) after the node but found ${describe(c.peek())}`);
  return { nodes, edges, span: c.spanFrom(start) };
}

function patternNode(c: Cursor): GraphNodePattern {
  const open = c.expectPunct("(");
  const name = isName(c.peek()) ? c.expectName("a node name") : undefined;
  c.expectPunct(")");
  return { name, span: c.spanFrom(open.from) };
}

function patternEdge(c: Cursor): GraphEdgePattern {
  const start = c.peek().from;
  const incoming = isPunct(c.peek(), "<");
  if (incoming) c.next();
  c.expectPunct("-");
  let name: Name | undefined;
  let variable = false;
  let [min, max] = [1, 1];
  if (isPunct(c.peek(), "[")) {
    c.next();
    if (isName(c.peek())) name = c.expectName("an edge name");
    if (isPunct(c.peek(), "*")) {
      c.next();
      variable = true;
      min = count(c);
      max = min;
      if (isPunct(c.peek(), "..")) {
        c.next();
        max = count(c);
      }
      if (min < 1 || max < min) fail(c.peek(), `An edge's length range must be 1 or more, the smaller bound first (*${min}..${max})`);
    }
    c.expectPunct("]");
  }
  c.expectPunct("-");
  const outgoing = isPunct(c.peek(), ">");
  if (outgoing) c.next();
  if (incoming && outgoing) fail(c.peek(), "An edge points one way (-[e]->, <-[e]-) or either way (-[e]-)");
  return { name, direction: incoming ? "in" : outgoing ? "out" : "any", variable, min, max, span: c.spanFrom(start) };
}

function count(c: Cursor): number {
  const token = c.next();
  const value = token.kind === "number" ? Number(token.value ?? token.text) : NaN;
  if (!Number.isInteger(value)) fail(token, `Expected a whole number of edges but found ${describe(token)}`);
  return value;
}
