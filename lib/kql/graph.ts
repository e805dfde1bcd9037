/**
 * The graph operators (ADX's graph semantics, docs/kql-conformance.md "Graphs"): `make-graph` builds
 * the nodes and edges as two relations of the statement (CTEs), and the operator after it reads them.
 *
 * - The edges: the input's rows, each with its source and target node ids and a number of its own.
 * - The nodes: the nodes table's rows (`with T on Key`), plus a row of empty properties for each id
 *   an edge names that the table lacks (ADX); without a table, the ids the edges name, as one
 *   property (`with_node_id=Name`). When asked for, each node's in- and out-degree and its component.
 * - graph-match: a pattern is planned as joins, one per edge and one per node, for each fixed
 *   length a variable-length edge may take (`*1..3`: three forms, their rows unioned), bounded by
 *   LIMITS.graphPathLength, graphPatternForms and graphPatternEdges. `where` and `project` are
 *   rewritten per form: `n.prop` reads node n's join, `map(e, expr)` is pack_array of expr over e's
 *   edges, `all`/`any` the and/or of the predicate over them, `inner_nodes(e)` the nodes between.
 *   cycles=unique_edges (the default) keeps a variable-length edge from using one edge twice,
 *   cycles=none from passing one node twice.
 * - graph-shortest-paths: the same forms, then per pair of end nodes the shortest (output=any: one,
 *   the first by its nodes' ids; output=all: every one that short); its paths never pass a node twice.
 * - graph-to-table nodes / edges: the relation itself. graph-mark-components: the dialect's label
 *   propagation (connectedComponents), numbered by each component's smallest node id.
 */
import { mapSubexpressions, type Expr, type GraphEdgePattern, type GraphMatch, type GraphNodePattern, type GraphOperator, type Name, type Span } from "./ast";
import type { Env, Scope } from "./analyzer-api";
import { outputAliases, scopeOf, type Binding, type Block, type OperatorPlanner } from "./block";
import { LIMITS } from "./budget";
import type { TExpr } from "./ir";
import { nameOf } from "./names";
import type { KqlType } from "./types";
import { GRAPH_RELATION_MARK } from "./dialect/dialect";

const FROM = "__g_from";
const TO = "__g_to";
const EID = "__g_eid";
const KEY = "__g_key";
const DEG_IN = "__g_deg_in";
const DEG_OUT = "__g_deg_out";
const hidden = (name: string) => name.startsWith("__g_");

interface Column {
  name: string;
  alias: string;
  type: KqlType;
  nullable: boolean;
  dynamic?: "json" | "double";
}

/** A relation of the statement's WITH clause. */
interface Relation {
  name: string;
  columns: Column[];
}

interface NodeInstance {
  props: Scope;
  key: TExpr;
  degIn?: TExpr;
  degOut?: TExpr;
}

interface EdgeInstance {
  props: Scope;
  eid: TExpr;
}

type Variable = { kind: "node"; node: NodeInstance } | { kind: "edge"; edge: EdgeInstance } | { kind: "path"; hops: EdgeInstance[]; inner: NodeInstance[]; span: Span };

/** One element a map()/all()/any() reads: an edge or a node, whose properties are its bare names. */
type Element = { props: Scope; node?: NodeInstance };

export function planGraph(planner: OperatorPlanner, blockIn: Block, operator: GraphOperator, env: Env): Block {
  return new GraphPlan(planner, operator).plan(blockIn, env);
}

class GraphPlan {
  private readonly ctes: string[] = [];
  private edges!: Relation;
  private both?: Relation;
  private nodes!: Relation;
  private keyType!: KqlType;

  constructor(
    private readonly planner: OperatorPlanner,
    private readonly operator: GraphOperator,
  ) {}

  private get analyzer() {
    return this.planner.analyzer;
  }

  private q(name: string): string {
    return this.planner.dialect.quoteIdentifier(name);
  }

  plan(blockIn: Block, env: Env): Block {
    const operator = this.operator;
    const final = operator.final;
    this.planEdges(blockIn);
    const degrees = final.kind === "match" && usesDegrees([...(final.where ? [final.where] : []), ...final.project.map((p) => p.expr)]);
    this.planNodes(env, degrees);
    if (final.kind === "to-table") {
      const relation = final.what === "nodes" ? this.nodes : this.edges;
      return this.result(`SELECT * FROM ${this.q(relation.name)}`, relation.columns.filter((c) => !hidden(c.name)));
    }
    return this.match(final);
  }

  /** `WITH <the graph's relations> <select>` as the block's relation; `columns` are the select's. */
  private result(select: string, columns: Column[]): Block {
    const sql = `WITH ${this.ctes.join(", ")} SELECT ${columns.map((c) => this.q(c.alias)).join(", ")} FROM (${select}) AS ${this.q("g")}`;
    return this.planner.fromRelation(sql, this.planner.nextAlias(), columns);
  }

  private define(suffix: string, sql: string, columns: Column[]): Relation {
    const name = `${GRAPH_RELATION_MARK}${this.planner.nextAlias()}_${suffix}`;
    this.ctes.push(`${this.q(name)} AS (${sql})`);
    return { name, columns };
  }

  private defineBlock(suffix: string, block: Block): Relation {
    const { sql, aliases } = this.planner.renderAs(block);
    return this.define(suffix, sql, columnsOf(block.columns, aliases));
  }

  /** A fresh read of a relation (its own alias, for one join). */
  private read(relation: Relation): Block {
    return this.planner.fromRelation(`SELECT * FROM ${this.q(relation.name)}`, this.planner.nextAlias(), relation.columns);
  }

  private select(block: Block, columns: Binding[], aliases = outputAliases(columns)): string {
    return this.planner.dialect.select({ ...this.planner.emptyBlock(block.from), where: block.where, columns: columns.map((c, i) => ({ expr: c.expr, alias: aliases[i]! })), distinct: false });
  }

  private eq(a: TExpr, b: TExpr): TExpr {
    return this.analyzer.op("eq", [a, b], "bool", false);
  }

  private planEdges(blockIn: Block) {
    const { analyzer, operator } = this;
    const input = this.planner.wrap(blockIn);
    const scope = scopeOf(input);
    const end = (name: Name) => scope.get(name.text) ?? analyzer.error(name.span, `Unknown column '${name.text}' in make-graph's edges`);
    const [source, target] = [end(operator.source), end(operator.target)];
    if (source.type !== target.type) analyzer.error(operator.target.span, `make-graph needs source and target ids of one type, not ${source.type} and ${target.type}`);
    if (source.type === "dynamic") analyzer.error(operator.source.span, "make-graph needs node ids of a scalar type, not dynamic");
    this.keyType = source.type;
    // A number per edge (unique_edges tells edges apart by it), in an order the rows' values fix.
    const order = [source, target, ...input.columns.filter((c) => c.expr.type !== "dynamic").map((c) => c.expr)].map((expr) => ({ expr, desc: false }));
    const eid: TExpr = { type: "long", nullable: false, node: { op: "window", fn: "row_number", partition: [], order } };
    this.edges = this.defineBlock("e", { ...this.planner.emptyBlock(input.from), columns: [...input.columns, { name: FROM, expr: source }, { name: TO, expr: target }, { name: EID, expr: eid }] });
  }

  /** The edges read either way (`-[e]-`): each edge twice, its ends swapped in the second. */
  private bothWays(): Relation {
    if (this.both) return this.both;
    const selects = [false, true].map((swap) => {
      const read = this.read(this.edges);
      const columns = read.columns.map((c) => (!swap || (c.name !== FROM && c.name !== TO) ? c : { name: c.name, expr: scopeOf(read).get(c.name === FROM ? TO : FROM)! }));
      return this.select(read, columns, this.edges.columns.map((c) => c.alias));
    });
    this.both = this.define("b", this.planner.dialect.unionAll(selects), this.edges.columns);
    return this.both;
  }

  private planNodes(env: Env, degrees: boolean) {
    const { analyzer, planner, operator } = this;
    // Every id an edge names, once.
    const ends = [FROM, TO].map((name) => {
      const read = this.read(this.edges);
      return this.select(read, [{ name: "k", expr: scopeOf(read).get(name)! }], ["k"]);
    });
    const nullable = this.edges.columns.some((c) => (c.name === FROM || c.name === TO) && c.nullable);
    const idsBlock = planner.fromRelation(planner.dialect.unionAll(ends), planner.nextAlias(), [{ name: "k", alias: "k", type: this.keyType, nullable }]);
    const ids = this.defineBlock("k", { ...idsBlock, distinct: true });
    let nodes: Relation;
    if (operator.nodes) {
      const table = this.defineBlock("t", planner.wrap(planner.tabular(operator.nodes.table, env)));
      const keyName = operator.nodes.key;
      const keyColumn = table.columns.find((c) => c.name === keyName.text) ?? analyzer.error(keyName.span, `Unknown column '${keyName.text}' in make-graph's nodes`);
      if (keyColumn.type !== this.keyType && !(isWhole(keyColumn.type) && isWhole(this.keyType))) analyzer.error(keyName.span, `The nodes' ids are ${keyColumn.type} and the edges' ${this.keyType}: make-graph needs one type`);
      const rows = this.read(table);
      const rowScope = scopeOf(rows);
      const columns: Binding[] = [...rows.columns, { name: KEY, expr: rowScope.get(keyName.text)! }];
      const aliases = outputAliases(columns);
      // The ids the edges name that the nodes table lacks: nodes with empty properties (ADX).
      const missingIds = this.read(ids);
      const present = this.read(table);
      const id = scopeOf(missingIds).get("k")!;
      const from = planner.dialect.join("anti", missingIds.from, present.from, this.eq(id, scopeOf(present).get(keyName.text)!));
      const missing = columns.map((c) => ({ name: c.name, expr: c.name === keyName.text || c.name === KEY ? id : c.expr.type === "string" ? analyzer.op("empty_string", [], "string", false) : analyzer.nullOf(c.expr.type) }));
      const union = planner.dialect.unionAll([this.select(rows, columns, aliases), this.select(planner.emptyBlock(from), missing, aliases)]);
      nodes = this.define("n", union, columns.map((c, i) => ({ ...columnOf(c, aliases[i]!), nullable: c.expr.type !== "string" })));
    } else {
      const read = this.read(ids);
      const id = scopeOf(read).get("k")!;
      nodes = this.defineBlock("n", { ...read, columns: [{ name: operator.nodeId?.text ?? "NodeId", expr: id }, { name: KEY, expr: id }] });
    }
    if (degrees) nodes = this.withDegrees(nodes);
    if (operator.components) nodes = this.withComponents(nodes, operator.components);
    this.nodes = nodes;
  }

  /** Each node's in- and out-degree (edges into it, out of it) as hidden columns. */
  private withDegrees(nodes: Relation): Relation {
    const { analyzer, planner } = this;
    const read = this.read(nodes);
    const key = scopeOf(read).get(KEY)!;
    let from = read.from;
    const columns: Binding[] = [...read.columns];
    for (const [name, end] of [[DEG_IN, TO], [DEG_OUT, FROM]] as const) {
      const edges = this.read(this.edges);
      const count: TExpr = { type: "long", nullable: false, node: { op: "count", args: [] }, aggregate: true };
      const by = scopeOf(edges).get(end)!;
      const counted = planner.wrap({ ...edges, columns: [{ name: "k", expr: by }, { name: "c", expr: count }], groupBy: [by], aggregated: true });
      const cs = scopeOf(counted);
      from = planner.dialect.join("left", from, counted.from, this.eq(key, cs.get("k")!));
      columns.push({ name, expr: analyzer.op("coalesce", [{ ...cs.get("c")!, nullable: true }, analyzer.param("BIGINT", 0, "long")], "long", false) });
    }
    return this.defineBlock("d", { ...planner.emptyBlock(from), columns });
  }

  /** graph-mark-components: each node's weakly connected component (0, 1, … by smallest id) as property `name`. */
  private withComponents(nodes: Relation, name: Name): Relation {
    const { planner } = this;
    const nodeIds = this.read(nodes);
    const edges = this.read(this.edges);
    const es = scopeOf(edges);
    const spec = {
      nodes: this.select(nodeIds, [{ name: "k", expr: scopeOf(nodeIds).get(KEY)! }], ["k"]),
      edges: this.select(edges, [{ name: "f", expr: es.get(FROM)! }, { name: "t", expr: es.get(TO)! }], ["f", "t"]),
      rounds: LIMITS.graphComponentRounds,
      message: `graph-mark-components follows edges at most ${LIMITS.graphComponentRounds} steps from a node; this graph has a component whose nodes lie farther apart`,
      name: `${planner.nextAlias()}_c`,
    };
    const components = planner.fromRelation(planner.dialect.connectedComponents(spec), planner.nextAlias(), [
      { name: "k", alias: "k", type: this.keyType, nullable: false },
      { name: "id", alias: "id", type: "long", nullable: false },
    ]);
    const read = this.read(nodes);
    const cs = scopeOf(components);
    const from = planner.dialect.join("inner", read.from, components.from, this.eq(scopeOf(read).get(KEY)!, cs.get("k")!));
    const columns = [...read.columns.filter((c) => c.name !== name.text), { name: name.text, expr: cs.get("id")! }];
    return this.defineBlock("m", { ...planner.emptyBlock(from), columns });
  }

  private match(match: GraphMatch): Block {
    const { analyzer, planner } = this;
    const shortest = match.shortest;
    if (shortest && match.patterns.length > 1) analyzer.error(match.patterns[1]!.span, "graph-shortest-paths takes one path pattern");
    checkNames(this.analyzer, match);
    const edges = match.patterns.flatMap((p) => p.edges);
    for (const edge of edges) if (edge.max > LIMITS.graphPathLength) analyzer.error(edge.span, `A variable-length edge may have at most ${LIMITS.graphPathLength} edges (*1..${LIMITS.graphPathLength})`);
    const forms = edges.reduce((n, e) => n * (e.max - e.min + 1), 1);
    if (forms > LIMITS.graphPatternForms) analyzer.error(match.span, `The pattern has ${forms} forms of fixed length (the product of its edges' ranges); at most ${LIMITS.graphPatternForms} are allowed`);
    if (edges.reduce((n, e) => n + e.max, 0) > LIMITS.graphPatternEdges) analyzer.error(match.span, `The pattern may have at most ${LIMITS.graphPatternEdges} edges at its longest`);
    // Every combination of lengths, the shortest first.
    let lengths: number[][] = [[]];
    for (const edge of edges) lengths = lengths.flatMap((l) => Array.from({ length: edge.max - edge.min + 1 }, (_, i) => [...l, edge.min + i]));
    let names: string[] | undefined;
    let outputs: Column[] | undefined;
    const selects = lengths.map((form) => {
      analyzer.charge(match.span, form.length + 1);
      const planned = this.form(match, form);
      names ??= planned.columns.map((c) => c.name);
      const aliases = outputAliases(planned.columns);
      const columns = columnsOf(planned.columns, aliases);
      outputs = outputs ? outputs.map((o, i) => ({ ...o, nullable: o.nullable || columns[i]!.nullable })) : columns;
      return this.select(planned.block, planned.columns, aliases);
    });
    const union = this.result(planner.dialect.unionAll(selects), outputs!);
    if (!shortest) return union;
    // Per pair of ends, the shortest paths: one (the first by its nodes' ids) or every one that short.
    const scope = scopeOf(union);
    const [length, signature, first, last] = ["__g_length", "__g_path", "__g_first", "__g_last"].map((n) => scope.get(n)!) as [TExpr, TExpr, TExpr, TExpr];
    const order = shortest.all ? [{ expr: length, desc: false }] : [{ expr: length, desc: false }, { expr: signature, desc: false }];
    const rank: TExpr = { type: "long", nullable: false, node: { op: "window", fn: shortest.all ? "rank" : "row_number", partition: [first, last], order } };
    const chosen = planner.wrap({ ...union, qualify: [analyzer.op("le", [rank, analyzer.param("BIGINT", 1, "long")], "bool", false)] });
    return { ...chosen, columns: chosen.columns.filter((c) => !hidden(c.name)) };
  }

  /** One fixed-length form of the pattern: its joins, its filters and the projected columns. */
  private form(match: GraphMatch, lengths: number[]): { block: Block; columns: Binding[] } {
    const { analyzer, planner } = this;
    const vars = new Map<string, Variable>();
    const where: TExpr[] = [];
    let from: string | undefined;
    // Only the nodes whose properties, degrees or ids the query reads are joined; the others are the ids their edges hold.
    const exprs = [...(match.where ? [match.where] : []), ...match.project.map((p) => p.expr)];
    const readNames = namesIn(exprs, false);
    const innerRead = namesIn(exprs, true);
    const nodeInstance = (on?: TExpr, joined = true): NodeInstance => {
      if (!joined) return { props: new Map(), key: on! };
      const read = this.read(this.nodes);
      const scope = scopeOf(read);
      const key = scope.get(KEY)!;
      from = from === undefined ? read.from : planner.dialect.join("inner", from, read.from, this.eq(key, on!));
      return { props: new Map([...scope].filter(([name]) => !hidden(name))), key, degIn: scope.get(DEG_IN), degOut: scope.get(DEG_OUT) };
    };
    const bindNode = (pattern: GraphNodePattern, node: NodeInstance): NodeInstance => {
      if (!pattern.name) return node;
      const known = vars.get(pattern.name.text);
      if (known?.kind === "node") {
        where.push(this.eq(known.node.key, node.key));
        return known.node;
      }
      vars.set(pattern.name.text, { kind: "node", node });
      return node;
    };
    // From `start` along an edge of `length` edges (`reversed`: walking the pattern right to left).
    const hop = (start: NodeInstance, edge: GraphEdgePattern, length: number, reversed: boolean, endJoined: boolean) => {
      const direction = edge.direction === "any" ? "any" : (edge.direction === "out") !== reversed ? "out" : "in";
      const relation = direction === "any" ? this.bothWays() : this.edges;
      const [near, far] = direction === "in" ? [TO, FROM] : [FROM, TO];
      const hops: EdgeInstance[] = [];
      const path: NodeInstance[] = [start];
      for (let i = 0; i < length; i++) {
        const read = this.read(relation);
        const scope = scopeOf(read);
        // A pattern's first node, not joined, is the first edge's end.
        if (from === undefined) {
          from = read.from;
          path[0]!.key = scope.get(near)!;
        } else from = planner.dialect.join("inner", from, read.from, this.eq(scope.get(near)!, path[path.length - 1]!.key));
        hops.push({ props: new Map([...scope].filter(([name]) => !hidden(name))), eid: scope.get(EID)! });
        const last = i === length - 1;
        path.push(nodeInstance(scope.get(far)!, last ? endJoined : edge.name !== undefined && innerRead.has(edge.name.text)));
      }
      if (edge.variable && match.cycles !== "all") {
        const distinct = (values: TExpr[]) => values.forEach((a, i) => values.slice(i + 1).forEach((b) => where.push(analyzer.op("ne", [a, b], "bool", false))));
        if (match.cycles === "none") distinct(path.map((n) => n.key));
        else distinct(hops.map((h) => h.eid));
      }
      return { hops, inner: path.slice(1, -1), end: path[path.length - 1]! };
    };
    const needed = (node: GraphNodePattern) => node.name !== undefined && readNames.has(node.name.text);
    let edgeIndex = 0;
    const pathKeys: TExpr[] = [];
    for (const pattern of match.patterns) {
      const own = lengths.slice(edgeIndex, (edgeIndex += pattern.edges.length));
      const instances: NodeInstance[] = [];
      const inner: NodeInstance[][] = [];
      let start = pattern.nodes.findIndex((n) => n.name && vars.get(n.name.text)?.kind === "node");
      if (start < 0) {
        if (from !== undefined) analyzer.error(pattern.span, "Each pattern after the first must share a node with the patterns before it");
        start = 0;
        const first = pattern.nodes[0]!;
        instances[0] = bindNode(first, first.name && readNames.has(first.name.text) ? nodeInstance() : { props: new Map(), key: undefined as unknown as TExpr });
      } else instances[start] = (vars.get(pattern.nodes[start]!.name!.text) as { node: NodeInstance }).node;
      const bindEdge = (edge: GraphEdgePattern, hops: EdgeInstance[], between: NodeInstance[]) => {
        if (!edge.name) return;
        vars.set(edge.name.text, edge.variable ? { kind: "path", hops, inner: between, span: edge.span } : { kind: "edge", edge: hops[0]! });
      };
      for (let i = start + 1; i < pattern.nodes.length; i++) {
        const walked = hop(instances[i - 1]!, pattern.edges[i - 1]!, own[i - 1]!, false, needed(pattern.nodes[i]!));
        instances[i] = bindNode(pattern.nodes[i]!, walked.end);
        inner[i - 1] = walked.inner;
        bindEdge(pattern.edges[i - 1]!, walked.hops, walked.inner);
      }
      for (let i = start - 1; i >= 0; i--) {
        const walked = hop(instances[i + 1]!, pattern.edges[i]!, own[i]!, true, needed(pattern.nodes[i]!));
        instances[i] = bindNode(pattern.nodes[i]!, walked.end);
        inner[i] = [...walked.inner].reverse();
        bindEdge(pattern.edges[i]!, [...walked.hops].reverse(), inner[i]!);
      }
      if (!pathKeys.length) instances.forEach((node, i) => pathKeys.push(node.key, ...(inner[i] ?? []).map((n) => n.key)));
    }
    const rewriter = new Rewriter(analyzer, vars);
    if (match.where) where.push(analyzer.predicate(rewriter.rewrite(match.where), rewriter.scope));
    const columns: Binding[] = [];
    let unnamed = 0;
    for (const item of match.project) {
      if (item.names) analyzer.error(item.span, "Naming several columns with (a, b) = … is not supported in graph-match's project");
      const expr = analyzer.scalar(rewriter.rewrite(item.expr), rewriter.scope);
      const name = item.name?.text ?? nameOf(item.expr) ?? (item.expr.kind === "call" && item.expr.name.startsWith("node_") ? item.expr.name : undefined) ?? planner.columnName(columns, () => ++unnamed);
      if (columns.some((c) => c.name === name)) analyzer.error(item.span, `Column '${name}' is projected twice`);
      columns.push({ name, expr });
    }
    if (match.shortest) {
      const at = match.span;
      const text = (key: TExpr) => rewriter.bind(key, at);
      const parts: Expr[] = pathKeys.flatMap((key, i) => [...(i ? [literal("\u0001", at)] : []), call("tostring", [text(key)], at)]);
      const signature = analyzer.scalar(call("strcat", parts, at), rewriter.scope);
      const length = analyzer.param("BIGINT", lengths.reduce((a, b) => a + b, 0), "long");
      columns.push({ name: "__g_length", expr: length }, { name: "__g_path", expr: signature }, { name: "__g_first", expr: pathKeys[0]! }, { name: "__g_last", expr: pathKeys[pathKeys.length - 1]! });
    }
    return { block: { ...planner.emptyBlock(from!), where }, columns };
  }
}

/**
 * `where`/`project` of one form: a pattern element's property becomes a column bound to its join's
 * value, and map, all, any, inner_nodes, node_degree_in, node_degree_out and node_id are spelled out over the form's elements.
 */
class Rewriter {
  readonly scope = new Map<string, TExpr>();
  private count = 0;

  constructor(
    private readonly analyzer: OperatorPlanner["analyzer"],
    private readonly vars: Map<string, Variable>,
  ) {}

  bind(value: TExpr, span: Span): Expr {
    const name = `__g_${this.count++}`;
    this.scope.set(name, value);
    return { kind: "column", name, span };
  }

  rewrite(e: Expr, element?: Element): Expr {
    const r = (x: Expr) => this.rewrite(x, element);
    switch (e.kind) {
      case "column": {
        const property = element?.props.get(e.name);
        if (property) return this.bind(property, e.span);
        if (this.vars.has(e.name)) this.analyzer.error(e.span, `'${e.name}' is a pattern element: name one of its properties (${e.name}.property)`);
        return e;
      }
      case "member": {
        if (e.target.kind === "column" && this.vars.has(e.target.name) && !element?.props.has(e.target.name)) {
          const v = this.vars.get(e.target.name)!;
          if (v.kind === "path") this.analyzer.error(e.span, `'${e.target.name}' is a variable-length edge: read its edges with map(), all() or any()`);
          const props = v.kind === "node" ? v.node.props : v.edge.props;
          const value = typeof e.key === "string" ? props.get(e.key) : undefined;
          if (!value) this.analyzer.error(e.keySpan, `'${e.target.name}' has no property '${e.key}'`);
          return this.bind(value!, e.span);
        }
        return mapSubexpressions(e, r);
      }
      case "call":
        return this.call(e, element);
      default:
        return mapSubexpressions(e, r);
    }
  }

  private call(e: Extract<Expr, { kind: "call" }>, element?: Element): Expr {
    const { analyzer } = this;
    const name = e.name;
    if ((name === "map" || name === "all" || name === "any") && e.args.length === 2) {
      const elements = this.elements(e.args[0]!);
      if (elements) {
        const parts = elements.map((x) => this.rewrite(e.args[1]!, x));
        if (name === "map") return parts.length ? call("pack_array", parts, e.span) : { kind: "literal", type: "dynamic", value: "[]", span: e.span };
        if (!parts.length) return { kind: "literal", type: "bool", value: name === "all", span: e.span };
        return parts.length === 1 ? parts[0]! : { kind: "logical", op: name === "all" ? "and" : "or", operands: parts, span: e.span };
      }
    }
    if (name === "inner_nodes") analyzer.error(e.span, "inner_nodes() is read by map(), all() or any(): map(inner_nodes(e), property)");
    if (name === "node_degree_in" || name === "node_degree_out" || name === "node_id") {
      const node = this.nodeOf(e, element);
      const value = name === "node_id" ? node.key : name === "node_degree_in" ? node.degIn : node.degOut;
      return this.bind(value!, e.span);
    }
    return { ...e, args: e.args.map((x) => this.rewrite(x, element)) };
  }

  /** The node a node_*() call reads: its argument, or the element map()/all()/any() is at. */
  private nodeOf(e: Extract<Expr, { kind: "call" }>, element?: Element): NodeInstance {
    if (!e.args.length) {
      if (!element?.node) this.analyzer.error(e.span, `${e.name}() without an argument reads the node map(), all() or any() is at`);
      return element!.node!;
    }
    const arg = e.args[0]!;
    const v = arg.kind === "column" ? this.vars.get(arg.name) : undefined;
    if (e.args.length > 1 || v?.kind !== "node") this.analyzer.error(arg.span, `${e.name}() takes a node of the pattern`);
    return (v as { node: NodeInstance }).node;
  }

  /** What map()/all()/any() goes over: a variable-length edge's edges, an edge, or inner_nodes(e). */
  private elements(arg: Expr): Element[] | undefined {
    if (arg.kind === "column") {
      const v = this.vars.get(arg.name);
      if (v?.kind === "path") return v.hops.map((h) => ({ props: h.props }));
      if (v?.kind === "edge") return [{ props: v.edge.props }];
      if (v?.kind === "node") this.analyzer.error(arg.span, `'${arg.name}' is a node: map(), all() and any() go over an edge's edges or inner_nodes(edge)`);
      return undefined;
    }
    if (arg.kind === "call" && arg.name === "inner_nodes") {
      const target = arg.args[0];
      const v = target?.kind === "column" ? this.vars.get(target.name) : undefined;
      if (arg.args.length !== 1 || (v?.kind !== "path" && v?.kind !== "edge")) this.analyzer.error(arg.span, "inner_nodes() takes an edge of the pattern");
      return v!.kind === "path" ? v!.inner.map((n) => ({ props: n.props, node: n })) : [];
    }
    return undefined;
  }
}

/** A name is a node or an edge, and an edge's name is given once. */
function checkNames(analyzer: OperatorPlanner["analyzer"], match: GraphMatch) {
  const nodes = new Set(match.patterns.flatMap((p) => p.nodes.flatMap((n) => (n.name ? [n.name.text] : []))));
  const edges = new Set<string>();
  for (const edge of match.patterns.flatMap((p) => p.edges)) {
    if (!edge.name) continue;
    if (nodes.has(edge.name.text)) analyzer.error(edge.name.span, `'${edge.name.text}' names a node and an edge`);
    if (edges.has(edge.name.text)) analyzer.error(edge.name.span, `The edge '${edge.name.text}' is named twice`);
    edges.add(edge.name.text);
  }
}

/** The column names an expression reads anywhere (`inner`: only the arguments of inner_nodes()). */
function namesIn(exprs: Expr[], inner: boolean): Set<string> {
  const names = new Set<string>();
  const visit = (e: Expr, inInner: boolean): void => {
    switch (e.kind) {
      case "column":
        if (!inner || inInner) names.add(e.name);
        return;
      case "call":
        return e.args.forEach((a) => visit(a, e.name === "inner_nodes"));
      case "member":
        return visit(e.target, inInner);
      case "unary":
        return visit(e.operand, inInner);
      case "binary":
        visit(e.left, inInner);
        return visit(e.right, inInner);
      case "logical":
        return e.operands.forEach((o) => visit(o, inInner));
      case "in":
      case "hasSet":
        visit(e.target, inInner);
        return e.list.forEach((x) => visit(x, inInner));
      case "between":
        [e.target, e.low, e.high].forEach((x) => visit(x, inInner));
        return;
      default:
        return;
    }
  };
  exprs.forEach((e) => visit(e, false));
  return names;
}

function usesDegrees(exprs: Expr[]): boolean {
  return exprs.some(function visit(e: Expr): boolean {
    switch (e.kind) {
      case "call":
        return e.name === "node_degree_in" || e.name === "node_degree_out" || e.args.some(visit);
      case "member":
        return visit(e.target);
      case "unary":
        return visit(e.operand);
      case "binary":
        return visit(e.left) || visit(e.right);
      case "logical":
        return e.operands.some(visit);
      case "in":
      case "hasSet":
        return visit(e.target) || e.list.some(visit);
      case "between":
        return visit(e.target) || visit(e.low) || visit(e.high);
      default:
        return false;
    }
  });
}

function call(name: string, args: Expr[], span: Span): Expr {
  return { kind: "call", name, nameSpan: span, args, star: false, span };
}

function literal(value: string, span: Span): Expr {
  return { kind: "literal", type: "string", value, span };
}

function isWhole(type: KqlType) {
  return type === "long" || type === "int";
}

function columnOf(c: Binding, alias: string): Column {
  return { name: c.name, alias, type: c.expr.type, nullable: c.expr.nullable, dynamic: c.expr.dynamic };
}

function columnsOf(columns: Binding[], aliases: string[]): Column[] {
  return columns.map((c, i) => columnOf(c, aliases[i]!));
}
