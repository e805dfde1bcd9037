/**
 * Functions both engines have under different names, side by side so that a difference is seen
 * at once: [DuckDB, ClickHouse]. Each dialect module takes its column (duckdb.ts, clickhouse.ts);
 * base.ts renders with them.
 */
const FUNCTION_NAMES = {
  lower: ["lower", "lowerUTF8"],
  upper: ["upper", "upperUTF8"],
  substring: ["substr", "substringUTF8"],
  reverse: ["reverse", "reverseUTF8"],
  trim: ["trim", "trimBoth"],
  leftPad: ["lpad", "leftPad"],
  rightPad: ["rpad", "rightPad"],
  startsWith: ["starts_with", "startsWith"],
  endsWith: ["ends_with", "endsWith"],
  nullIf: ["nullif", "nullIf"],
  quoteMeta: ["regexp_escape", "regexpQuoteMeta"],
  regexMatch: ["regexp_matches", "match"],
  regexReplace: ["regexp_replace", "replaceRegexpAll"],
  random: ["random", "randCanonical"],
} as const satisfies Record<string, readonly [duckdb: string, clickhouse: string]>;

export type FunctionNames = Record<keyof typeof FUNCTION_NAMES, string>;

/** One engine's column of the table. */
export function functionNames(engine: "duckdb" | "clickhouse"): FunctionNames {
  const column = engine === "duckdb" ? 0 : 1;
  return Object.fromEntries(Object.entries(FUNCTION_NAMES).map(([name, spellings]) => [name, spellings[column]])) as FunctionNames;
}
