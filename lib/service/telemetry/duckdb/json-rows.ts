/**
 * A query's result rows as the response's JSON text, built inside DuckDB (docs/architecture.md,
 * "Telemetry under load"): DuckDB renders each row as JSON per KQL column type (docs/api.md §6;
 * the DuckDB dialect's rowJson spells it), joins rows into groups of ROWS_PER_GROUP and hands back
 * the groups' UTF-8 bytes. The event loop only copies a few hundred byte arrays per result —
 * converting 500,000 rows value by value in JavaScript took about a second of main-thread time and
 * stalled every other request.
 *
 * The limits are applied inside the statement, so memory stays bounded however large the query's
 * own result would be: a streaming LIMIT stops the source after maxRows + 1 rows, and a running
 * byte sum drops every row that starts beyond maxBytes. The caller sees one row or byte too many
 * and answers QUERY_LIMIT_EXCEEDED; it never sees (or returns) a shortened result.
 */
import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBResult, DuckDBType, DuckDBValue } from "@duckdb/node-api";
import type { ResultColumn } from "@/lib/kql";
import { duckdbDialect } from "@/lib/kql/dialect/duckdb";

/** Rows per group of joined JSON text: a DuckDB chunk then carries up to 2,048 × 2,048 rows. */
const ROWS_PER_GROUP = 2048;

/** One row's JSON array text, from the columns `c0`, `c1`, … (the DuckDB dialect renders the values). */
function rowJsonSql(columns: readonly ResultColumn[]): string {
  return duckdbDialect.rowJson(
    columns.map((c) => c.kqlType),
    (i) => `"c${i}"`,
  );
}

interface JsonRowLimits {
  maxRows: number;
  maxBytes: number;
}

/**
 * The statement that turns a query's SQL into groups of JSON rows: `(json BLOB, rows INTEGER)` per
 * group, in result order. Row order is kept by numbering rows as they stream
 * out of the query (a streaming window) and joining each group in that order.
 */
function jsonRowsSql(sql: string, columns: readonly ResultColumn[], limits: JsonRowLimits): string {
  const names = columns.map((_, i) => `"c${i}"`).join(", ");
  const source = columns.length > 0 ? `(${sql}) AS q(${names})` : `(${sql}) AS q`;
  const rows = `SELECT ${rowJsonSql(columns)} AS r FROM (SELECT * FROM ${source} LIMIT ${limits.maxRows + 1})`;
  const numbered = `SELECT r, row_number() OVER () AS n, strlen(r) AS len FROM (${rows})`;
  const summed = `SELECT r, n, len, sum(len) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS upto FROM (${numbered})`;
  return (
    `SELECT encode(string_agg(r, ',' ORDER BY n)) AS json, CAST(count(*) AS INTEGER) AS rows ` +
    `FROM (${summed}) WHERE upto - len <= ${limits.maxBytes} ` +
    `GROUP BY (n - 1) // ${ROWS_PER_GROUP} ORDER BY (n - 1) // ${ROWS_PER_GROUP}`
  );
}

interface JsonRows {
  /**
   * The rows as one JSON array in UTF-8, in parts (brackets and commas included) that are written
   * to the socket one after the other: joining them would copy up to 64 MB on the event loop.
   */
  parts: Uint8Array[];
  rowCount: number;
  /** Total length of the parts in bytes. */
  bytes: number;
  /** When the engine handed over its first rows (performance.now()): execution before, reading after. */
  firstRowsAt: number;
}

/** Raised when the result has more rows or bytes than the limits allow. */
export class JsonRowsLimitError extends Error {
  constructor(readonly limit: "rows" | "bytes") {
    super(`result over the ${limit} limit`);
  }
}

const COMMA = Buffer.from(",");

/**
 * Reads the groups of a streamed jsonRowsSql result into one JSON array. Throws JsonRowsLimitError
 * over a limit. The caller must check afterwards whether the stream was interrupted: an interrupted
 * DuckDB stream ends like a finished one.
 */
async function readJsonRows(result: DuckDBResult, limits: JsonRowLimits): Promise<JsonRows> {
  const parts: Uint8Array[] = [Buffer.from("[")];
  let rowCount = 0;
  let bytes = 2;
  let firstRowsAt = 0;
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    firstRowsAt ||= performance.now();
    const json = chunk.getColumnVector(0) as unknown as { getItemBytes(index: number): Uint8Array | null };
    const rows = chunk.getColumnValues(1);
    for (let i = 0; i < chunk.rowCount; i++) {
      const bytesOf = json.getItemBytes(i)!;
      // A payload of up to 12 bytes is a view into the chunk's memory: copy it before the chunk goes.
      const group = bytesOf.length <= 12 ? Buffer.from(bytesOf) : bytesOf;
      rowCount += Number(rows[i]);
      bytes += group.length + (parts.length > 1 ? 1 : 0);
      if (rowCount > limits.maxRows) throw new JsonRowsLimitError("rows");
      if (bytes > limits.maxBytes) throw new JsonRowsLimitError("bytes");
      if (parts.length > 1) parts.push(COMMA);
      parts.push(group);
    }
  }
  parts.push(Buffer.from("]"));
  return { parts, rowCount, bytes, firstRowsAt: firstRowsAt || performance.now() };
}

/** Runs jsonRowsSql on a connection (the store adds time limits and interruption around this). */
export async function streamJsonRows(
  connection: DuckDBConnection,
  statement: { sql: string; columns: readonly ResultColumn[] },
  bound: { values: Record<string, DuckDBValue>; types: Record<string, DuckDBType> },
  limits: JsonRowLimits,
): Promise<JsonRows> {
  const prepared = await preparedOn(connection, jsonRowsSql(statement.sql, statement.columns, limits));
  prepared.clearBindings();
  prepared.bind(bound.values, bound.types);
  return readJsonRows(await prepared.stream(), limits);
}

/** Statements kept prepared per connection (least recently used out). */
const PREPARED_PER_CONNECTION = 32;
const preparedByConnection = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();

/**
 * The statement prepared on this connection. Every literal of a KQL query is a parameter and so is
 * its scope, so a panel refreshed or a query re-run has the same text: parsing and planning it
 * again took about 0.6 ms of the event loop's time per answer (issue 38, the fixed cost). A
 * statement is used by one query at a time (a connection serves one); DuckDB binds it again when
 * the catalog changed, and destroys what is left when the connection closes.
 */
async function preparedOn(connection: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  let cache = preparedByConnection.get(connection);
  if (!cache) preparedByConnection.set(connection, (cache = new Map()));
  const kept = cache.get(sql);
  if (kept) {
    cache.delete(sql);
    cache.set(sql, kept);
    return kept;
  }
  const prepared = await connection.prepare(sql);
  cache.set(sql, prepared);
  if (cache.size > PREPARED_PER_CONNECTION) {
    const [oldestSql, oldest] = cache.entries().next().value!;
    cache.delete(oldestSql);
    oldest.destroySync();
  }
  return prepared;
}
