/**
 * KQL's names for result columns: what an expression is called when the query gives it no name.
 * Analysis, the planner and the functions all name columns this way, so it sits below them all.
 */
import type { Expr } from "./ast";

/** Functions whose result is named after their first argument (`bin(Timestamp, 1h)` → `Timestamp`). */
export const NAME_PASSING = new Set(["bin", "bin_at", "floor", "todouble", "toreal", "tolong", "toint", "tostring", "todatetime"]);

/** KQL's name for an expression in a result: a column, `a_b` for `a.b`, or a name passed through bin/to*(). */
export function nameOf(ast: Expr): string | undefined {
  switch (ast.kind) {
    case "column":
      return ast.name;
    case "member": {
      const target = nameOf(ast.target);
      return target ? `${target}_${ast.key}` : undefined;
    }
    case "call":
      return NAME_PASSING.has(ast.name) && ast.args[0] ? nameOf(ast.args[0]) : undefined;
    default:
      return undefined;
  }
}
