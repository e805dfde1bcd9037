/** KQL's logic functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, type FunctionEntry } from "./entry";

export const LOGIC: readonly FunctionEntry[] = [
  documented("scalar", "isnull", "isnull(x): bool — whether the value is null"),
  documented("scalar", "isnotnull", "isnotnull(x): bool — whether the value is not null"),
  documented("scalar", "isempty", "isempty(x): bool — null or empty string"),
  documented("scalar", "isnotempty", "isnotempty(x): bool — neither null nor an empty string"),
  documented("scalar", "iff", "iff(Predicate, Then, Else) — Then when the predicate is true, else Else"),
  documented("scalar", "iif", "iif(Predicate, Then, Else) — Then when the predicate is true, else Else"),
  documented("scalar", "case", "case(P1, V1, P2, V2, …, Else) — the value of the first true predicate, else Else"),
  documented("scalar", "not", "not(Predicate): bool — the negation of a predicate"),
  documented("scalar", "coalesce", "coalesce(a, b, …) — the first non-null (non-empty string)"),
  documented("scalar", "max_of", "max_of(a, b, …) — the largest (nulls ignored)"),
  documented("scalar", "min_of", "min_of(a, b, …) — the smallest (nulls ignored)"),
  documented("scalar", "column_ifexists", "column_ifexists('Column', Default) — the column when the row has it, else the default"),
  documented("scalar", "extract_json", "extract_json('$.a.b[0]', Text [, typeof(T)]) — the JSONPath's value in the JSON text, as a string or as T"),
  documented("scalar", "extractjson", "extractjson('$.a.b[0]', Text [, typeof(T)]) — the JSONPath's value in the JSON text, as a string or as T"),
  documented("scalar", "bag_pack_columns", "bag_pack_columns(Column1, Column2, …): dynamic — a property bag of the columns, each named by its column"),
  documented("scalar", "toscalar", "toscalar(T | …): the first value of a query — a query's single value, used as a scalar"),
];
