/** KQL's rows functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, type FunctionEntry } from "./entry";

export const ROWS: readonly FunctionEntry[] = [
  documented("scalar", "prev", "prev(Column [, Offset=1, Default]): the value Offset rows earlier in a serialized row set (after sort, top or serialize) — a value from an earlier row"),
  documented("scalar", "next", "next(Column [, Offset=1, Default]): the value Offset rows later in a serialized row set — a value from a later row"),
  documented("scalar", "row_number", "row_number([Start=1]): the row's position in a serialized row set — the row's number"),
  documented("scalar", "row_cumsum", "row_cumsum(Term): running sum over a serialized row set — the running sum"),
  documented("scalar", "row_window_session", "row_window_session(Expr, MaxDistanceFromFirst, MaxDistanceBetweenNeighbors [, Restart]): datetime — the value of Expr where the row's session starts, in a serialized row set"),
];
