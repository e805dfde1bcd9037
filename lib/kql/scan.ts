/**
 * `scan` (ADX's state machine over serialized rows; docs/kql-conformance.md "scan"). Each row's
 * outcome depends on the state the rows before left, which no window function expresses, so the
 * operator is one recursive query: row i of the recursion is the state after the i-th input row
 * (per step: whether it holds a match, the values of the steps it went through, its match id) and
 * the rows that input row adds to the output (one per step it matched with output=all).
 *
 * ADX's order of checks for a row r, from the last step to the first: step k matches by promotion
 * when step k-1 holds a match and r meets k's condition over that state (k-1's state moves to k,
 * r extended by k's assignments becomes k's entry); otherwise it matches in place when k holds a
 * match (or k is the first step) and r meets the condition over k's own state. Only a promotion
 * out of k changes k's state before k is checked, so every check is an expression over the state
 * the row found, and one SELECT gives the next state.
 */
import { mapSubexpressions, type Expr, type Operator } from "./ast";
import { scopeOf, type Binding, type Block, type OperatorPlanner } from "./block";
import type { TExpr } from "./ir";
import type { KqlType } from "./types";
import { LIMITS, SCAN_ROWS_EXCEEDED } from "./budget";

type Scan = Extract<Operator, { kind: "scan" }>;

interface Field {
  name: string;
  type: KqlType;
  dynamic?: "json" | "double";
  /** A declared variable's default, a column's null: the value of an empty state. */
  empty: TExpr;
  /** The input column that holds it, or undefined for a variable (given by assignments). */
  own?: number;
}

const RN = "__scan_rn";

export function scan(planner: OperatorPlanner, blockIn: Block, operator: Scan): Block {
  const analyzer = planner.analyzer;
  const q = (name: string) => planner.dialect.quoteIdentifier(name);
  const steps = operator.steps;
  const n = steps.length;
  const stepIndex = new Map<string, number>();
  steps.forEach((s, k) => {
    if (stepIndex.has(s.name.text)) analyzer.error(s.name.span, `scan has two steps named '${s.name.text}'`);
    stepIndex.set(s.name.text, k);
  });
  const input = planner.wrap(blockIn);
  // Serialized rows in their order; other rows (range's, a table's) in the order of all their values, as narrow numbers them.
  const order = input.serial?.length ? input.serial.map((k) => ({ expr: k.expr, desc: k.desc })) : input.columns.map((c) => ({ expr: c.expr, desc: false }));
  const rowNumber: TExpr = { type: "long", nullable: false, node: { op: "window", fn: "row_number", partition: [], order } };
  const { sql: inputSql, aliases: inputAliases } = planner.renderAs({ ...input, columns: [...input.columns, { name: RN, expr: rowNumber }], orderBy: [] });
  const inRel = planner.nextAlias();
  const prevRel = planner.nextAlias();
  const cte = planner.nextAlias();
  const inputCte = planner.nextAlias();
  // The recursive step is two SELECTs: the first reads the state and the row and computes the checks, the second reads
  // those (relation `layer`) and gives the next state, so that no check's SQL is repeated in every value it decides.
  const layer = planner.nextAlias();
  let reading: "join" | "layer" = "join";
  const inRef = (i: number): TExpr => {
    const c = input.columns[i]!.expr;
    return { type: c.type, nullable: c.nullable, dynamic: c.dynamic, node: { op: "ref", relation: reading === "join" ? inRel : layer, name: reading === "join" ? inputAliases[i]! : `x${i}` } };
  };

  const fields: Field[] = input.columns.map((c, i) => ({ name: c.name, type: c.expr.type, dynamic: c.expr.dynamic, empty: analyzer.nullOf(c.expr.type), own: i }));
  for (const d of operator.declare) {
    if (fields.some((f) => f.name === d.name.text)) analyzer.error(d.name.span, `scan declares '${d.name.text}', which is already a column`);
    const type = analyzer.typeName(d.type);
    const empty = d.value ? analyzer.convert(analyzer.scalar(d.value, new Map()), type, d.value.span) : analyzer.nullOf(type);
    fields.push({ name: d.name.text, type, dynamic: type === "dynamic" ? "json" : undefined, empty });
  }
  const variables = fields.filter((f) => f.own === undefined);

  // The recursion's columns: a{k} (step k holds a match), m{k} (its match id), v{k}_{j}_{f} (the
  // entry of step j in step k's state, j ≤ k), next (the next match id); e{k}, o{k}_{f}, i{k}: the
  // output row of step k for this input row (emitted or not, its fields, its match id).
  const stateColumns: { alias: string; type: KqlType; dynamic?: Field["dynamic"]; initial: TExpr }[] = [];
  const falseValue = analyzer.param("BOOLEAN", false, "bool");
  const zero = analyzer.param("BIGINT", 0, "long");
  stateColumns.push({ alias: "rn", type: "long", initial: zero });
  for (let k = 0; k < n; k++) {
    stateColumns.push({ alias: `a${k}`, type: "bool", initial: falseValue }, { alias: `m${k}`, type: "long", initial: zero });
    for (let j = 0; j <= k; j++) fields.forEach((f, x) => stateColumns.push({ alias: `v${k}_${j}_${x}`, type: f.type, dynamic: f.dynamic, initial: f.empty }));
  }
  stateColumns.push({ alias: "next", type: "long", initial: zero });
  for (let k = 0; k < n; k++) {
    stateColumns.push({ alias: `e${k}`, type: "bool", initial: falseValue }, { alias: `i${k}`, type: "long", initial: zero });
    fields.forEach((f, x) => stateColumns.push({ alias: `o${k}_${x}`, type: f.type, dynamic: f.dynamic, initial: f.empty }));
  }
  const prev = (alias: string): TExpr => {
    const c = stateColumns.find((s) => s.alias === alias)!;
    return { type: c.type, nullable: true, dynamic: c.dynamic, node: { op: "ref", relation: reading === "join" ? prevRel : layer, name: alias } };
  };

  const iff = (cond: TExpr, then: TExpr, otherwise: TExpr): TExpr => analyzer.op("case", [cond, then, otherwise], then.type, true);
  const and = (...xs: TExpr[]) => analyzer.op("and", xs, "bool", false);
  const not = (x: TExpr) => analyzer.op("not", [x], "bool", false);
  const isTrue = (x: TExpr) => analyzer.op("coalesce", [x, falseValue], "bool", false);

  /** Step references `s.f` read the given entries (per step index, the fields' values); the row's columns read the row. */
  const hidden = (j: number, x: number) => `__scan_${j}_${x}`;
  const rewrite = (e: Expr): Expr => {
    if (e.kind === "member" && e.target.kind === "column" && stepIndex.has(e.target.name) && typeof e.key === "string") {
      const j = stepIndex.get(e.target.name)!;
      const x = fields.findIndex((f) => f.name === e.key);
      if (x < 0) analyzer.error(e.keySpan, `Step '${e.target.name}' has no column or variable '${e.key}'`);
      return { kind: "column", name: hidden(j, x), span: e.span };
    }
    return mapSubexpressions(e, rewrite);
  };
  const analyzeIn = (ast: Expr, entries: (j: number, x: number) => TExpr, predicate: boolean): TExpr => {
    const scope = new Map<string, TExpr>();
    fields.forEach((f) => f.own !== undefined && scope.set(f.name, inRef(f.own)));
    for (let j = 0; j < n; j++) fields.forEach((_, x) => scope.set(hidden(j, x), entries(j, x)));
    const rewritten = rewrite(ast);
    return predicate ? isTrue(analyzer.predicate(rewritten, scope)) : analyzer.scalar(rewritten, scope);
  };
  for (const step of steps)
    for (const a of step.assignments)
      if (!variables.some((v) => v.name === a.name.text)) analyzer.error(a.name.span, `'${a.name.text}' is not a variable of scan's declare (…)`);

  // The entries a check of step k reads: by promotion, step k-1's state (and k's own entry empty); in place, k's state.
  const promoted = (k: number) => (j: number, x: number) => (j < k ? prev(`v${k - 1}_${j}_${x}`) : fields[x]!.empty);
  const inPlace = (k: number) => (j: number, x: number) => (j > k ? fields[x]!.empty : k === 0 ? iff(holds[0]!, prev(`v0_${j}_${x}`), fields[x]!.empty) : prev(`v${k}_${j}_${x}`));
  let c1: (TExpr | undefined)[] = steps.map((s, k) => (k === 0 ? undefined : and(isTrue(prev(`a${k - 1}`)), analyzeIn(s.condition, promoted(k), true))));
  let holds = steps.map((_, k) => (k + 1 < n ? and(isTrue(prev(`a${k}`)), not(c1[k + 1]!)) : isTrue(prev(`a${k}`))));
  let c2 = steps.map((s, k) => {
    const cond = analyzeIn(s.condition, inPlace(k), true);
    return k === 0 ? (c1[0] ? and(not(c1[0]), cond) : cond) : and(not(c1[k]!), holds[k]!, cond);
  });
  const checks: { alias: string; expr: TExpr }[] = [
    ...stateColumns.map((c) => ({ alias: c.alias, expr: prev(c.alias) })),
    ...input.columns.map((_, i) => ({ alias: `x${i}`, expr: inRef(i) })),
    { alias: `x${input.columns.length}`, expr: { type: "long", nullable: false, node: { op: "ref", relation: inRel, name: inputAliases.at(-1)! } } },
    ...steps.flatMap((_, k) => [...(c1[k] ? [{ alias: `c1_${k}`, expr: c1[k]! }] : []), { alias: `h${k}`, expr: holds[k]! }, { alias: `c2_${k}`, expr: c2[k]! }]),
  ];
  const checked = planner.dialect.select({
    ...planner.emptyBlock(`${q(cte)} AS ${q(prevRel)} INNER JOIN ${q(inputCte)} AS ${q(inRel)} ON ${q(inRel)}.${q(inputAliases.at(-1)!)} = ${q(prevRel)}.${q("rn")} + 1 AND ${q(inRel)}.${q("kql_rows")} > 0`),
    columns: checks,
    distinct: false,
  });
  reading = "layer";
  const flag = (alias: string): TExpr => ({ type: "bool", nullable: false, node: { op: "ref", relation: layer, name: alias } });
  c1 = steps.map((_, k) => (k === 0 ? undefined : flag(`c1_${k}`)));
  holds = steps.map((_, k) => flag(`h${k}`));
  c2 = steps.map((_, k) => flag(`c2_${k}`));
  // The row extended by step k's assignments: a variable not assigned keeps the value of the entry it continues.
  const extended = (k: number, entries: (j: number, x: number) => TExpr, base: number): TExpr[] =>
    fields.map((f, x) => {
      if (f.own !== undefined) return inRef(f.own);
      const assignment = steps[k]!.assignments.filter((a) => a.name.text === f.name).at(-1);
      return assignment ? analyzer.convert(analyzeIn(assignment.value, entries, false), f.type, assignment.value.span) : entries(base, x);
    });
  const byPromotion = steps.map((_, k) => (k === 0 ? undefined : extended(k, promoted(k), k - 1)));
  const byPlace = steps.map((_, k) => extended(k, inPlace(k), k));
  const starts = and(c2[0]!, not(holds[0]!));
  const matchId = (k: number) => (k === 0 ? iff(starts, prev("next"), prev("m0")) : iff(c1[k]!, prev(`m${k - 1}`), prev(`m${k}`)));

  const next: { alias: string; expr: TExpr }[] = [{ alias: "rn", expr: { type: "long", nullable: false, node: { op: "ref", relation: layer, name: `x${input.columns.length}` } } }];
  for (let k = 0; k < n; k++) {
    const matched = c1[k] ? analyzer.op("or", [c1[k]!, c2[k]!], "bool", false) : c2[k]!;
    const cleared = k + 1 < n ? c1[k + 1]! : falseValue;
    next.push({ alias: `a${k}`, expr: analyzer.op("or", [matched, holds[k]!], "bool", false) });
    next.push({ alias: `m${k}`, expr: matchId(k) });
    for (let j = 0; j <= k; j++)
      fields.forEach((f, x) => {
        const old = prev(`v${k}_${j}_${x}`);
        const kept = iff(cleared, f.empty, old);
        const own = j === k;
        const viaPromotion = own ? byPromotion[k]?.[x] : prev(`v${k - 1}_${j}_${x}`);
        const viaPlace = own ? byPlace[k]![x]! : old;
        const value = c1[k] ? iff(c1[k]!, viaPromotion!, iff(c2[k]!, viaPlace, kept)) : iff(c2[k]!, viaPlace, kept);
        next.push({ alias: `v${k}_${j}_${x}`, expr: value });
      });
  }
  next.push({ alias: "next", expr: iff(starts, analyzer.op("add", [prev("next"), analyzer.param("BIGINT", 1, "long")], "long", false), prev("next")) });
  for (let k = 0; k < n; k++) {
    const emit = steps[k]!.output === "all" ? (c1[k] ? analyzer.op("or", [c1[k]!, c2[k]!], "bool", false) : c2[k]!) : falseValue;
    next.push({ alias: `e${k}`, expr: emit });
    next.push({ alias: `i${k}`, expr: matchId(k) });
    fields.forEach((f, x) => next.push({ alias: `o${k}_${x}`, expr: c1[k] ? iff(c1[k]!, byPromotion[k]![x]!, byPlace[k]![x]!) : byPlace[k]![x]! }));
  }

  const anchor = planner.dialect.select({ ...planner.emptyBlock(""), columns: stateColumns.map((c) => ({ alias: c.alias, expr: c.initial })), distinct: false });
  const recursive = planner.dialect.select({ ...planner.emptyBlock(planner.dialect.subquery(checked, layer)), columns: next, distinct: false });
  // The row count checked once, before the recursion (its last step would be the first to see too many rows).
  const counted = `SELECT *, ${planner.dialect.checkedCount("count(*) OVER ()", LIMITS.scanRows, SCAN_ROWS_EXCEEDED)} AS ${q("kql_rows")} FROM (${inputSql}) AS ${q("kql_scan_in")}`;
  const state = `WITH RECURSIVE ${q(inputCte)} AS (${counted}), ${q(cte)} AS (${anchor} UNION ALL ${recursive}) SELECT * FROM ${q(cte)}`;

  // One output row per step an input row matched with output=all, in row order and, within a row, from the last step to the first (ADX's order of checks).
  const stateRel = planner.nextAlias();
  const states = planner.fromRelation(
    state,
    stateRel,
    stateColumns.map((c) => ({ name: c.alias, alias: c.alias, type: c.type, nullable: true, dynamic: c.dynamic })),
  );
  const column = scopeOf(states);
  const outputNames = [...fields.map((f) => f.name), ...(operator.matchId ? [operator.matchId.text] : [])];
  if (operator.matchId && fields.some((f) => f.name === operator.matchId!.text)) analyzer.error(operator.matchId.span, `with_match_id names '${operator.matchId.text}', which is already a column`);
  const outputAliases = [...fields.map((_, x) => `f${x}`), "mid", "rn", "step"];
  const selects = steps.map((_, k) => {
    const columns = [...fields.map((_, x) => column.get(`o${k}_${x}`)!), column.get(`i${k}`)!, column.get("rn")!, analyzer.param("BIGINT", n - k, "long")];
    return planner.dialect.select({ ...planner.emptyBlock(states.from), columns: columns.map((expr, i) => ({ expr, alias: outputAliases[i]! })), where: [column.get(`e${k}`)!], distinct: false });
  });
  const rows = planner.fromRelation(planner.dialect.unionAll(selects), planner.nextAlias(), [
    ...fields.map((f, x) => ({ name: f.name, alias: `f${x}`, type: f.type, nullable: true, dynamic: f.dynamic })),
    { name: operator.matchId?.text ?? "__scan_mid", alias: "mid", type: "long" as const, nullable: false },
    { name: RN, alias: "rn", type: "long" as const, nullable: false },
    { name: "__scan_step", alias: "step", type: "long" as const, nullable: false },
  ]);
  const out = scopeOf(rows);
  const serial = [RN, "__scan_step"].map((name) => ({ expr: out.get(name)!, desc: false, nullsFirst: false }));
  const columns: Binding[] = outputNames.map((name) => ({ name, expr: out.get(name)! }));
  return { ...rows, columns, orderBy: serial, serial };
}
