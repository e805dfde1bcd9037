/**
 * The telemetry store as the query endpoint sees it: run one KQL query for one customer within a
 * scope, get a response-ready table. Everything engine-specific (files, SQL dialect, scoping SQL,
 * interruption) stays behind this interface, so a ClickHouse store can replace the DuckDB one.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { RenderHint } from "@/lib/kql";

/** What a query may see, applied beneath its pipeline (docs/api.md §6). */
/** A plant whose telemetry a store keeps: its customer picks the file or database; its time zone shapes a seed's daily cycles. */
export interface TelemetryPlant {
  id: string;
  name: string;
  customerId: string;
  timeZone: string;
}

/** What a seed wrote into a customer's telemetry. */
export interface TelemetrySeedResult {
  series: number;
  states: number;
  events: number;
  ms: number;
}

/**
 * Data written into a customer's new, empty telemetry when a store opens it (the demo's, wired in by
 * the assembly, lib/service/runtime.ts; docs/architecture.md "Demo apart"). The store owns the
 * transaction and the `demo_seeded_at` marker; the seed fills the tables of schema.ts on the DuckDB
 * connection it is handed (the ClickHouse store hands a scratch one and loads what it holds).
 */
export interface TelemetrySeed {
  /** The seed's moment: its data ends here (exclusive); now when unset. */
  now?: Date;
  generate(connection: DuckDBConnection, plants: readonly TelemetryPlant[], now: Date): Promise<TelemetrySeedResult>;
}

export interface TelemetryScope {
  /** Inclusive start of `States.Timestamp`; `Events` overlapping [start, end) are in scope. */
  start: Date;
  /** Exclusive end. */
  end: Date;
  /** Plants to keep; null means every plant of the customer. */
  plantIds: readonly string[] | null;
}

export interface TelemetryLimits {
  maxRows: number;
  maxBytes: number;
  timeoutMs: number;
}

export interface TelemetryQuery {
  customerId: string;
  kql: string;
  /** Values of the query's `declare query_parameters(…)` (lib/kql/query-parameters.ts). */
  parameters?: Readonly<Record<string, string>>;
  scope: TelemetryScope;
  limits: TelemetryLimits;
  /** The query's `now()`/`ago()` instant. */
  now?: Date;
  /** Aborted when the caller goes away: the query is interrupted. */
  signal?: AbortSignal;
  /** Also count the rows of the tables the query reads within its scope (the explorer's inspector). */
  countScanned?: boolean;
}

/** Milliseconds per stage of one query in the engine (the explorer's inspector). */
interface QueryTimings {
  compileMs: number;
  /** Until the engine handed over its first rows. */
  executeMs: number;
  /** Reading the rows (rendered as JSON by the engine) after the first ones. */
  serializeMs: number;
}

export interface TelemetryColumn {
  name: string;
  columnType: string;
  dataType: string;
}

export interface TelemetryTable {
  columns: TelemetryColumn[];
  /**
   * The rows as the response's JSON array (UTF-8, in consecutive parts): one array per row, values
   * in column order. Rendered by the engine, so no row becomes JavaScript values on the event loop.
   */
  rows: Uint8Array[];
  rowCount: number;
  render?: RenderHint;
  /** Size of `rows` in bytes (the byte limit's measure). */
  bytes: number;
  /** Time spent in the engine (compile + execute + convert). */
  elapsedMs: number;
  /** Work units the KQL compile took (lib/kql budget.ts), charged to the cost budget; absent for plain SQL. */
  compileWork?: number;
  timings?: QueryTimings;
  /** Rows of the tables read within the scope, when asked for (`countScanned`). */
  rowsScanned?: number;
}

/** A table's rows as JavaScript values (tests, benchmarks and the demo plant's own reads). */
export function tableRows(table: Pick<TelemetryTable, "rows">): unknown[][] {
  return JSON.parse(Buffer.concat(table.rows).toString("utf8")) as unknown[][];
}

export interface TelemetryStore {
  /**
   * Runs the query. Throws KqlError for a query the engine rejects, ApiError
   * QUERY_LIMIT_EXCEEDED / QUERY_TIMEOUT for a query that is too big or too slow.
   */
  query(request: TelemetryQuery): Promise<TelemetryTable>;
  /** Distinct `States.Name` values of a customer (the explorer's completions). */
  dataPointNames(customerId: string): Promise<string[]>;
  close(): Promise<void>;
}

const ENGINE_STOPPED = new WeakMap<object, Promise<void>>();

/**
 * Marks a refusal answered before the engine has let go of the query (the time limit fired; the
 * engine stops at its next check): `stopped` settles when it has. Returns the error.
 */
export function engineStopsLater<E extends object>(error: E, stopped: Promise<void>): E {
  ENGINE_STOPPED.set(error, stopped);
  return error;
}

/** When the engine lets go of the query that failed with this error; null when it already has. */
export function engineStopped(error: unknown): Promise<void> | null {
  return typeof error === "object" && error !== null ? (ENGINE_STOPPED.get(error) ?? null) : null;
}
