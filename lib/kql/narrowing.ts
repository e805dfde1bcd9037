/**
 * Filters a storage can answer on its series table (docs/architecture.md, "Plans that read only what
 * they need"): a `where` conjunct over a source read that reads only the source's series columns
 * (`Name`, `DeviceId`, metadata …) holds for a whole series or for none of it, so it becomes
 * `key IN (SELECT key FROM <series> WHERE <conjunct>)`: the few hundred series rows are filtered
 * before the readings are scanned, and the read itself no longer needs those columns (compile.ts
 * `narrow` then picks a form without the series join). Engine-neutral: the source says whether it
 * has a series relation and its key; the dialect only spells the IN.
 */
import { isRowOrder, readsColumns, type TExpr } from "./ir";

/** The series side of a source (compile.ts KqlSource.series). */
export interface SeriesRelation {
  /** The source's columns held once per series. */
  columns: readonly string[];
  /** The column both the source's rows and `sql` carry, one value per series. */
  key: string;
  /** Every series of the source, with `key` and `columns`. */
  sql: string;
}

/**
 * Whether `e` reads columns of `relation` and only its series columns: no other relation, no
 * window, subquery, row-order or volatile call (a value drawn per row is not one per series).
 */
export function readsOnlySeries(e: TExpr, relation: string, series: SeriesRelation): boolean {
  let refs = 0;
  const ok = (x: TExpr): boolean => {
    const node = x.node;
    if (node.op === "ref") {
      refs++;
      const ref = node as { relation: string; name: string };
      return ref.relation === relation && series.columns.includes(ref.name);
    }
    if (node.op === "param" || node.op === "null") return true;
    if (node.op === "access") return ok((node as { base: TExpr }).base) && ok((node as { path: TExpr }).path);
    if (node.op === "window" || node.op === "subquery" || isRowOrder(x)) return false;
    if (node.op === "call" && (node as { volatile?: true }).volatile) return false;
    return ((node as { args?: TExpr[] }).args ?? []).every(ok);
  };
  return ok(e) && refs > 0;
}

/** `e` with every reference to `from` read from `to` instead (readsOnlySeries shapes only). */
export function renameRelation(e: TExpr, from: string, to: string): TExpr {
  const node = e.node;
  if (node.op === "ref") {
    const ref = node as { relation: string; name: string };
    return ref.relation === from ? { ...e, node: { op: "ref", relation: to, name: ref.name } } : e;
  }
  if (node.op === "access") {
    const access = node as { base: TExpr; path: TExpr };
    return { ...e, node: { op: "access", base: renameRelation(access.base, from, to), path: renameRelation(access.path, from, to) } };
  }
  const args = (node as { args?: TExpr[] }).args;
  return args ? { ...e, node: { ...node, args: args.map((a) => renameRelation(a, from, to)) } as TExpr["node"] } : e;
}

/** Whether `e` reads any series column of `relation`. */
function readsSeriesColumn(e: TExpr, relation: string, series: SeriesRelation): boolean {
  const node = e.node;
  if (node.op === "ref") {
    const ref = node as { relation: string; name: string };
    return ref.relation === relation && series.columns.includes(ref.name);
  }
  if (node.op === "access") return readsSeriesColumn((node as { base: TExpr }).base, relation, series) || readsSeriesColumn((node as { path: TExpr }).path, relation, series);
  if (node.op === "window") {
    const w = node as { partition: TExpr[]; order: { expr: TExpr }[] };
    return [...w.partition, ...w.order.map((o) => o.expr)].some((x) => readsSeriesColumn(x, relation, series));
  }
  // A subquery's SQL is its own statement: it cannot read this relation's columns.
  return ((node as { args?: TExpr[] }).args ?? []).some((a) => readsSeriesColumn(a, relation, series));
}

/** One aggregated SELECT split in two: `inner` over the read, `outer` over inner ⋈ series (seriesGroupsFirst). */
interface SeriesGrouping {
  inner: { columns: { expr: TExpr; alias: string }[]; groupBy: TExpr[] };
  outer: { columns: TExpr[]; groupBy: TExpr[]; orderBy: { expr: TExpr; desc: boolean; nullsFirst: boolean }[]; join: TExpr };
}

const ref = (relation: string, name: string, like: Pick<TExpr, "type" | "nullable" | "dynamic">): TExpr => ({
  type: like.type,
  nullable: like.nullable,
  dynamic: like.dynamic,
  node: { op: "ref", relation, name },
});

const aggregateOf = (op: string, args: TExpr[], type: TExpr["type"], nullable: boolean): TExpr => ({ type, nullable, node: { op, args }, aggregate: true });

/**
 * `summarize <aggregates> by <series columns>, <other keys>` over a read of a source with a series
 * relation, planned in two steps (docs/architecture.md, "Plans that read only what they need"): the
 * readings are grouped by series key (and the other keys) with partial aggregates, so the read needs
 * no series column and takes the form without the series join; the few groups are then joined to
 * the series relation and grouped again by the series columns, combining the partials (issue 38:
 * 1.35× faster than grouping every reading by the `Name` string). Only where that is exact: count,
 * countif, sum of reals, min and max of numbers and instants, avg (as a sum over a count), over
 * expressions that read no series column; group keys that read only series columns or none; filters
 * that read only series columns (resolved to keys) or none. Otherwise undefined: one-step plan.
 */
export function seriesGroupsFirst(
  block: { columns: TExpr[]; groupBy: TExpr[]; where: TExpr[]; orderBy: { expr: TExpr; desc: boolean; nullsFirst: boolean }[] },
  read: { relation: string; series: SeriesRelation; keepsSeriesFilters: boolean },
  names: { inner: string; series: string; zero: () => TExpr },
): SeriesGrouping | undefined {
  const { relation, series } = read;
  const onSeries = (e: TExpr) => readsSeriesColumn(e, relation, series);
  if (block.where.some((c) => onSeries(c) && (read.keepsSeriesFilters || !readsOnlySeries(c, relation, series)))) return undefined;
  const key: TExpr = { type: "long", nullable: false, node: { op: "ref", relation, name: series.key } };
  const inner: SeriesGrouping["inner"] = { columns: [{ expr: key, alias: series.key }], groupBy: [key] };
  const outerGroupBy: TExpr[] = [];
  // Each group key's node (as JSON) → the one expression the outer block groups by and selects.
  const keys = new Map<string, TExpr>();
  let seriesKeys = 0;
  for (const g of block.groupBy) {
    const id = JSON.stringify(g.node);
    if (keys.has(id)) continue;
    let outer: TExpr;
    if (readsOnlySeries(g, relation, series)) {
      outer = renameRelation(g, relation, names.series);
      seriesKeys++;
    } else if (!onSeries(g)) {
      const alias = `k${inner.columns.length}`;
      inner.columns.push({ expr: g, alias });
      inner.groupBy.push(g);
      outer = ref(names.inner, alias, g);
    } else return undefined;
    keys.set(id, outer);
    outerGroupBy.push(outer);
  }
  if (!seriesKeys) return undefined;
  const partial = (expr: TExpr): TExpr => {
    const alias = `p${inner.columns.length}`;
    inner.columns.push({ expr, alias });
    return ref(names.inner, alias, expr);
  };
  const combined = (e: TExpr): TExpr | undefined => {
    const op = e.node.op;
    const a = (e.node as { args?: TExpr[] }).args ?? [];
    if (a.some(onSeries)) return undefined;
    switch (op) {
      case "count":
      case "countif":
        return aggregateOf("sum", [partial(e)], "long", false);
      case "sum":
        return e.type === "real" ? aggregateOf("sum", [partial(e)], "real", false) : undefined;
      case "min":
      case "max":
        return e.type === "real" || e.type === "long" || e.type === "int" || e.type === "datetime" ? aggregateOf(op, [partial(e)], e.type, e.nullable) : undefined;
      case "avg": {
        const x = a[0]!;
        const total = aggregateOf("sum", [partial(aggregateOf("sum", [x], "real", false))], "real", false);
        const n = aggregateOf("sum", [partial(aggregateOf("countif", [{ type: "bool", nullable: false, node: { op: "isnotnull", args: [x] } }], "long", false))], "long", false);
        // No value in the group: null, as avg() gives (not 0 / 0).
        const none: TExpr = { type: "bool", nullable: false, node: { op: "eq", args: [n, names.zero()] } };
        return { type: "real", nullable: true, aggregate: true, node: { op: "case", args: [none, { type: "real", nullable: true, node: { op: "null" } }, { type: "real", nullable: true, node: { op: "div", args: [total, n] } }] } };
      }
    }
    return undefined;
  };
  const outerOf = (e: TExpr): TExpr | undefined => {
    const known = keys.get(JSON.stringify(e.node));
    if (known) return known;
    // A constant stays; a value per row outside an aggregate is no group's (never after summarize).
    if (!e.aggregate) return readsAny(e) ? undefined : e;
    const node = e.node as { op: string; args?: TExpr[] };
    // The aggregate call itself (no aggregate inside it): combined, or no two-step plan.
    if (!node.args?.some((x) => x.aggregate)) return combined(e);
    // An expression over aggregates (`count() * 2`): each combined.
    if (["ref", "access", "subquery", "window", "param", "null"].includes(node.op)) return undefined;
    const args = node.args.map(outerOf);
    if (args.some((x) => x === undefined)) return undefined;
    return { ...e, node: { ...node, args: args as TExpr[] } as TExpr["node"] };
  };
  const columns = block.columns.map(outerOf);
  const orderBy = block.orderBy.map((o) => ({ ...o, expr: outerOf(o.expr) }));
  if (columns.some((c) => c === undefined) || orderBy.some((o) => o.expr === undefined)) return undefined;
  const join: TExpr = { type: "bool", nullable: false, node: { op: "eq", args: [ref(names.inner, series.key, key), ref(names.series, series.key, key)] } };
  return { inner, outer: { columns: columns as TExpr[], groupBy: outerGroupBy, orderBy: orderBy as SeriesGrouping["outer"]["orderBy"], join } };
}

/** Whether `e` reads a column (or anything that differs row by row). */
function readsAny(e: TExpr): boolean {
  return readsColumns(e) || e.node.op === "subquery";
}
