/**
 * Syntax tree of a KQL query. Every node carries its source span (0-based offsets) so errors found
 * later (unknown column, wrong type) point at the right text.
 */
export interface Span {
  from: number;
  to: number;
}

export interface Name {
  text: string;
  span: Span;
}

export type Expr =
  /** `dynamic` literals carry their JSON text (`dynamic([1, 2])` → `"[1,2]"`). */
  | { kind: "literal"; type: "string" | "long" | "real" | "bool" | "datetime" | "timespan" | "dynamic" | "int" | "null"; value: string | number | boolean | null; span: Span }
  | { kind: "column"; name: string; span: Span }
  /** `a.b`, `a["b"]` (key: string) or `a[0]` (key: array index). */
  | { kind: "member"; target: Expr; key: string | number; keySpan: Span; bracket: boolean; span: Span }
  | { kind: "call"; name: string; nameSpan: Span; args: Expr[]; star: boolean; span: Span }
  | { kind: "unary"; op: "-" | "+"; operand: Expr; span: Span }
  | { kind: "binary"; op: string; opSpan: Span; left: Expr; right: Expr; span: Span }
  /** `a and b and c …`: one node per chain, so a chain of thousands of terms needs no recursion per term. */
  | { kind: "logical"; op: "and" | "or"; operands: Expr[]; span: Span }
  | { kind: "in"; negated: boolean; caseInsensitive: boolean; target: Expr; list: Expr[]; span: Span }
  /** `has_any (…)`, `has_all (…)`. */
  | { kind: "hasSet"; op: "has_any" | "has_all"; target: Expr; list: Expr[]; span: Span }
  | { kind: "between"; negated: boolean; target: Expr; low: Expr; high: Expr; span: Span }
  /** A tabular expression used as a value: `toscalar(T | …)`, `x in (T | project y)`. */
  | { kind: "subquery"; query: TabularExpr; span: Span };

/**
 * `e` with each direct sub-expression replaced by `f` of it (a subquery's tabular expression is
 * left alone): the one traversal that expression rewriters (sessions.ts, graph.ts) build on,
 * handling only the kinds they change.
 */
export function mapSubexpressions(e: Expr, f: (x: Expr) => Expr): Expr {
  switch (e.kind) {
    case "call":
      return { ...e, args: e.args.map(f) };
    case "member":
      return { ...e, target: f(e.target) };
    case "unary":
      return { ...e, operand: f(e.operand) };
    case "binary":
      return { ...e, left: f(e.left), right: f(e.right) };
    case "logical":
      return { ...e, operands: e.operands.map(f) };
    case "in":
    case "hasSet":
      return { ...e, target: f(e.target), list: e.list.map(f) };
    case "between":
      return { ...e, target: f(e.target), low: f(e.low), high: f(e.high) };
    case "literal":
    case "column":
    case "subquery":
      return e;
  }
}

/** `name = expr` or a bare `expr` in project/extend/summarize lists; `(a, b) = f(x)` names several. */
export interface Assignment {
  name?: Name;
  names?: Name[];
  expr: Expr;
  span: Span;
}

export interface SortKey {
  expr: Expr;
  direction?: "asc" | "desc";
  nulls?: "first" | "last";
  span: Span;
}

/** One condition of `join … on`: a column both sides share, or `$left.a == $right.b`. */
export type JoinKey = { left: Name; right: Name; span: Span };

export interface UnionOptions {
  kind: "outer" | "inner";
  withsource?: Name;
  /** isfuzzy=true: a table or view that does not exist is left out (ADX), as long as one remains. */
  isfuzzy?: boolean;
}

export interface MakeSeriesAggregate {
  name?: Name;
  expr: Expr;
  default?: Expr;
  span: Span;
}

export interface TopNestedLevel {
  count?: Expr;
  of: Assignment;
  /** `with others = Value`: the rows outside the top N form one more group under this key. */
  others?: Expr;
  by: Assignment;
  span: Span;
}

/** One array of `mv-expand`/`mv-apply`: `[Name =] expr [to typeof(type)]`. */
export interface MvExpandItem {
  name?: Name;
  expr: Expr;
  toType?: Name;
  span: Span;
}

/** A piece of a `parse` pattern: literal text, a column to extract (with its type), or `*`. */
export type ParsePart = { kind: "text"; value: string; span: Span } | { kind: "column"; name: Name; type?: Name; span: Span } | { kind: "star"; span: Span };

export type Operator =
  | { kind: "where"; predicate: Expr; span: Span }
  /** `search`: the predicate with its terms already spelled as `* has …` (parser/search.ts); adds `$table`. */
  | { kind: "search"; caseSensitive: boolean; predicate: Expr; span: Span }
  | { kind: "project"; items: Assignment[]; span: Span }
  | { kind: "project-away"; columns: Name[]; span: Span }
  | { kind: "project-keep"; columns: Name[]; span: Span }
  | { kind: "project-rename"; renames: { to: Name; from: Name }[]; span: Span }
  /** `project-by-names "a", "b*", dynamic(["c"])`: columns named by constant strings or arrays of them (wildcards; unknown names ignored). */
  | { kind: "project-by-names"; names: Expr[]; span: Span }
  | { kind: "project-reorder"; columns: { name: Name; order?: "asc" | "desc" | "granny-asc" | "granny-desc" }[]; span: Span }
  | { kind: "extend"; items: Assignment[]; span: Span }
  /** Marks the row set serialized (row-order functions allowed); optional extend-like assignments. */
  | { kind: "serialize"; items: Assignment[]; span: Span }
  | { kind: "summarize"; aggregates: Assignment[]; by: Assignment[]; span: Span }
  | { kind: "sort"; keys: SortKey[]; span: Span }
  | { kind: "top"; count: Expr; keys: SortKey[]; span: Span }
  | { kind: "take"; count: Expr; span: Span }
  | { kind: "sample"; count: Expr; span: Span }
  | { kind: "distinct"; columns: Assignment[] | "*"; span: Span }
  | { kind: "count"; span: Span }
  | { kind: "as"; name: Name; span: Span }
  | { kind: "getschema"; span: Span }
  | { kind: "union"; options: UnionOptions; tables: TabularExpr[]; span: Span }
  | { kind: "join"; joinKind: string; kindSpan?: Span; right: TabularExpr; on: JoinKey[]; span: Span }
  | { kind: "lookup"; joinKind: string; kindSpan?: Span; right: TabularExpr; on: JoinKey[]; span: Span }
  | { kind: "make-series"; nonEmpty: boolean; aggregates: MakeSeriesAggregate[]; axis: Expr; from?: Expr; to?: Expr; step: Expr; by: Assignment[]; span: Span }
  | { kind: "mv-expand"; items: MvExpandItem[]; bagExpansion: "bag" | "array"; itemIndex?: Name; limit?: Expr; span: Span }
  /** `mv-apply items on (operators)`: the operators run on each input row's expanded arrays apart (partitioned.ts). */
  | { kind: "mv-apply"; items: MvExpandItem[]; bagExpansion: "bag" | "array"; itemIndex?: Name; limit?: Expr; subquery: Operator[]; span: Span }
  /** `partition by Column (operators)`: the operators run on each value's rows apart (partitioned.ts). */
  | { kind: "partition"; by: Name; subquery: Operator[]; span: Span }
  | { kind: "top-nested"; levels: TopNestedLevel[]; span: Span }
  /** `parse` (`parse-where` when `filter`: rows that do not match are dropped); `flags`: regex mode's RE2 flags (`Ui`). */
  | { kind: "parse"; mode: "simple" | "regex" | "relaxed"; flags?: string; filter?: boolean; source: Expr; parts: ParsePart[]; span: Span }
  /** `parse-kv expr as (key: type, …) [with (name = value, …)]` (parse-kv.ts). */
  | { kind: "parse-kv"; source: Expr; keys: { name: Name; type: Name }[]; options: { name: Name; value: Expr }[]; span: Span }
  | { kind: "render"; chart: Name; properties: { name: string; value: Expr }[]; span: Span }
  /** An `evaluate` plugin spelled as the operators it stands for (parser/plugins.ts): planned one after another. */
  | { kind: "pipeline"; operators: Operator[]; span: Span }
  /** `T | invoke f(args)`: f(T, args), the input as the function's first tabular parameter (compile.ts). */
  | { kind: "invoke"; call: Extract<TabularSource, { kind: "call" }>; span: Span }
  /** `evaluate ipv4_lookup(T, ip, network, extra keys…, return_unmatched)` / `ipv6_lookup`: a join on "address in range" (plugins.ts). */
  /** `scan …` (ADX): a state machine over the serialized rows, run as a recursive query (scan.ts). */
  | {
      kind: "scan";
      matchId?: Name;
      declare: { name: Name; type: Name; value?: Expr }[];
      steps: { name: Name; output: "all" | "none"; condition: Expr; assignments: { name: Name; value: Expr }[] }[];
      span: Span;
    }
  /** `evaluate narrow()`: every cell as a row (Row, Column, Value as text) (plugins.ts). */
  | { kind: "narrow"; span: Span }
  | { kind: "ip-lookup"; family: "ipv4" | "ipv6"; table: TabularExpr; source: Name; key: Name; extraKeys: Name[]; unmatched: boolean; span: Span }
  /** `evaluate geo_polygon_lookup(T, polygon, lon, lat, …)` / `geo_line_lookup(T, line, lon, lat, radius, …)`: a join on "point in (or within radius of) the shape" (plugins.ts). */
  | { kind: "geo-lookup"; shape: "polygon" | "line"; table: TabularExpr; key: Name; longitude: Name; latitude: Name; radius?: Expr; unmatched: boolean; lookupKey: boolean; span: Span }
  /** `make-graph … | [graph-mark-components |] graph-match / graph-shortest-paths / graph-to-table`: a graph is never a table, so the chain is one operator (graph.ts). */
  | GraphOperator;

/** `make-graph Source --> Target [with Nodes on Key] [with_node_id=Name]` and the graph operators after it. */
export interface GraphOperator {
  kind: "graph";
  source: Name;
  target: Name;
  /** `with T on Key`: the nodes' table and its id column. */
  nodes?: { table: TabularExpr; key: Name };
  /** `with_node_id=Name`: without a nodes table, the one property of a node (its id) is called this. */
  nodeId?: Name;
  /** `graph-mark-components [with_component_id=Name]`: each node's connected component (0, 1, …) as this property. */
  components?: Name;
  final: GraphMatch | { kind: "to-table"; what: "nodes" | "edges"; span: Span };
  span: Span;
}

/** A node of a pattern: `(name)` or `()`. */
export interface GraphNodePattern {
  name?: Name;
  span: Span;
}

/** An edge of a pattern: `-[name]->`, `<-[name*1..3]-`, `-[name]-` (either way), `-->`; `variable`: written with `*`. */
export interface GraphEdgePattern {
  name?: Name;
  direction: "out" | "in" | "any";
  variable: boolean;
  min: number;
  max: number;
  span: Span;
}

/** `graph-match [cycles=…] pattern[, pattern…] [where …] project …` (or graph-shortest-paths [output=any|all]). */
export interface GraphMatch {
  kind: "match";
  shortest?: { all: boolean };
  cycles: "unique_edges" | "none" | "all";
  /** Each pattern: nodes[0] edges[0] nodes[1] … (one node more than edges). */
  patterns: { nodes: GraphNodePattern[]; edges: GraphEdgePattern[]; span: Span }[];
  where?: Expr;
  project: Assignment[];
  span: Span;
}

/** Where a tabular expression's rows come from. */
export type TabularSource =
  /** A table, or a name bound by `let` / `as`. */
  | { kind: "name"; name: Name; span: Span; /** `database("d").T` / `cluster("c").database("d").T`: the database named. */ database?: Name }
  /** A tabular function defined by `let f = (…) { … }`, or `materialize(T)`. */
  | { kind: "call"; name: Name; args: Expr[]; tabularArgs: TabularExpr[]; span: Span }
  | { kind: "union"; options: UnionOptions; tables: TabularExpr[]; span: Span }
  | { kind: "datatable"; columns: { name: Name; type: Name }[]; values: Expr[]; span: Span }
  | { kind: "print"; items: Assignment[]; span: Span }
  | { kind: "range"; column: Name; from: Expr; to: Expr; step: Expr; span: Span }
  | { kind: "paren"; query: TabularExpr; span: Span };

export interface TabularExpr {
  source: TabularSource;
  operators: Operator[];
  span: Span;
}

export interface FunctionParam {
  name: Name;
  type: Name;
  default?: Expr;
  /** A tabular parameter `T:(x:long, *)`: the columns its table must have (`open`: `*`, any others too). */
  tabular?: { columns: { name: Name; type: Name }[]; open: boolean };
}

export type LetValue =
  | { kind: "scalar"; expr: Expr }
  | { kind: "tabular"; query: TabularExpr }
  | { kind: "function"; params: FunctionParam[]; body: FunctionBody };

/** A function's body: `let` statements of its own, then its value (a scalar expression or a query). */
export type FunctionBody = ({ kind: "scalar"; expr: Expr } | { kind: "tabular"; query: TabularExpr }) & { lets?: LetStatement[] };

export interface LetStatement {
  name: Name;
  value: LetValue;
  span: Span;
}

/** `set name [= value];`: a request option written in the query (compile.ts says which are honoured). */
export interface SetStatement {
  name: Name;
  value?: Expr;
  span: Span;
}

export interface QueryAst {
  lets: LetStatement[];
  /** `declare query_parameters(…)`: names bound from the request's parameters (or their defaults). */
  parameters: FunctionParam[];
  sets: SetStatement[];
  /** The query statement (null while only `let` statements have been typed). */
  query: TabularExpr | null;
  span: Span;
}
