/**
 * Filters a storage can answer on its series table (docs/architecture.md, "Plans that read only what
 * they need"): a `where` conjunct over a source read that reads only the source's series columns
 * (`Name`, `DeviceId`, metadata …) holds for a whole series or for none of it, so it becomes
 * `key IN (SELECT key FROM <series> WHERE <conjunct>)`: the few hundred series rows are filtered
 * before the readings are scanned, and the read itself no longer needs those columns (compile.ts
 * `narrow` then picks a form without the series join). Engine-neutral: the source says whether it
 * has a series relation and its key; the dialect only spells the IN.
 */
import { isRowOrder, type TExpr } from "./ir";

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
