/**
 * KQL's names for result columns: what an expression is called when the query gives it no name.
 * Analysis, the planner and the functions all name columns this way, so it sits below them all.
 */
import type { Expr } from "./ast";

/** Functions whose result is named after their first argument (`bin(Timestamp, 1h)` → `Timestamp`). */
export const NAME_PASSING = new Set(["bin", "bin_at", "floor", "todouble", "toreal", "tolong", "toint", "tostring", "todatetime"]);

/** Functions named after themselves and their first argument, as Kusto.Language names them (`dcount_hll(h)` → `dcount_hll_h`). */
const PREFIXED: Readonly<Record<string, string>> = { dcount_hll: "dcount_hll", percentile_tdigest: "percentile_tdigest", percentiles_array_tdigest: "percentile_tdigest" };

/** Merges of several sketches (the scalar forms), with Kusto.Language's fixed names. */
const MERGED: Readonly<Record<string, string>> = { merge_tdigest: "tdigests_merge_result", tdigest_merge: "tdigests_merge_result", hll_merge: "hll_merged_result" };

/** KQL's name for an expression in a result: a column, `a_b` for `a.b`, or a name passed through bin/to*(). */
export function nameOf(ast: Expr): string | undefined {
  switch (ast.kind) {
    case "column":
      return ast.name;
    case "member": {
      const target = nameOf(ast.target);
      return target ? `${target}_${ast.key}` : undefined;
    }
    case "call": {
      if (PREFIXED[ast.name] && ast.args[0]) {
        const first = nameOf(ast.args[0]);
        return first ? `${PREFIXED[ast.name]}_${first}` : undefined;
      }
      if (MERGED[ast.name] && ast.args.length > 1) return MERGED[ast.name];
      return NAME_PASSING.has(ast.name) && ast.args[0] ? nameOf(ast.args[0]) : undefined;
    }
    default:
      return undefined;
  }
}
