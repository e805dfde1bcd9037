/**
 * How the ClickHouse telemetry store reaches ClickHouse. The store builds every statement itself
 * (sql.ts) and hands it to an executor, so the SQL is the same whatever carries it: the HTTP client
 * (`@clickhouse/client`, servers and clusters; http-executor.ts) or chdb, ClickHouse in process
 * (tests and benchmarks; chdb-executor.ts).
 */
export interface ClickHouseExecutor {
  /**
   * Runs a statement that names its output FORMAT and returns the output's bytes. With `maxBytes`
   * the output is read only up to that many bytes: past it the query is cancelled and
   * OutputTooLarge raised, so an answer never takes more memory here than the limit.
   */
  query(sql: string, params: Record<string, string>, signal?: AbortSignal, maxBytes?: number): Promise<Uint8Array>;
  /** Runs a statement without output (DDL, INSERT … SELECT). */
  command(sql: string, params?: Record<string, string>): Promise<void>;
  /**
   * Loads a Parquet file (the demo seed's bulk load): `statement(source)` is an INSERT … SELECT
   * reading `source`, a table function over the file's rows of the given structure.
   */
  insertParquet(file: string, structure: string, statement: (source: string) => string): Promise<void>;
  /**
   * Inserts rows given as JSONEachRow text into a table (`"db"."table"`), with settings of the
   * insert (e.g. `insert_deduplication_token`): the live demo's alarms.
   */
  insertJsonRows(table: string, rows: string, settings?: Record<string, string>): Promise<void>;
  /**
   * Inserts rows given in ClickHouse's RowBinary format into the named columns of a table, with
   * settings of the insert: ingestion's batches (rowbinary.ts), which cost far less to build and
   * to parse than the same rows as JSON text (docs/telemetry-ingest.md, "Where the readings go").
   */
  insertRowBinary(table: string, columns: readonly string[], rows: Uint8Array, settings?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

/** A ClickHouse error's code (`Code: 159. DB::Exception: …` in the text, or the client's `code`). */
export function clickhouseErrorCode(error: unknown): number | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && /^\d+$/.test(code)) return Number(code);
  if (typeof code === "number") return code;
  const match = /Code: (\d+)\./.exec(error.message);
  return match ? Number(match[1]) : null;
}

/** The output of a query was longer than the caller reads (`maxBytes`): it was cancelled. */
export class OutputTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`output over ${maxBytes} bytes`);
  }
}
