/** `compileKql`: KQL text → DuckDB SQL over the scoped sources. See index.ts for the contract. */
import { KqlError } from "./errors";
import type { TableName } from "./tables";
import type { ResultColumn, SqlParams } from "./types";

/** An already scoped relation of one table: SQL text and the params it uses (`$scope_*`). */
export interface KqlSource {
  sql: string;
  params: SqlParams;
}

export interface CompileOptions {
  sources: Partial<Record<TableName, KqlSource>>;
  /** The query's `now()`; defaults to the current time. One instant for the whole query, as in ADX. */
  now?: Date;
}

/** The `render` operator's hint: chart kind plus its `with (…)` properties. */
export interface RenderHint {
  kind: string;
  properties: Record<string, string | number | boolean | null>;
}

export interface CompiledQuery {
  table: TableName;
  sql: string;
  params: SqlParams;
  columns: ResultColumn[];
  render?: RenderHint;
}

export function compileKql(text: string, options: CompileOptions): CompiledQuery {
  void text;
  void options;
  throw new KqlError("The KQL compiler is not implemented yet", 1, 1);
}
