/**
 * The embedded telemetry store: one DuckDB file per customer (`DATA_DIR/telemetry-<customerId>.duckdb`),
 * so a customer's query physically cannot read another customer's rows. Queries are KQL compiled by
 * lib/kql over scoped source relations (time range, plants) built here; results are streamed chunk
 * by chunk so the row and byte limits stop a query early instead of after it materialised
 * everything, and a timer interrupts DuckDB itself (`connection.interrupt()`) at the time limit.
 */
import fs from "node:fs";
import path from "node:path";
import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  DuckDBInstance,
  DuckDBTimestampValue,
  TIMESTAMP,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from "@duckdb/node-api";
import {
  compileKql,
  toJsonValue,
  toResponseColumns,
  type KqlSource,
  type RenderHint,
  type ResultColumn,
  type SqlParams,
  type SqlParamType,
  type TableName,
} from "@/lib/kql";
import type { JsonValue } from "@/lib/kql/result";
import { ServiceError } from "../errors";
import { evaluationError } from "./duckdb-errors";
import type { DemoPlant } from "../seed/catalog";
import { generateDemoTelemetry, type DemoTelemetryResult } from "./demo-data";
import { CREATE_TELEMETRY_SCHEMA } from "./schema";
import type { TelemetryLimits, TelemetryQuery, TelemetryScope, TelemetryStore, TelemetryTable } from "./store";

export interface DuckDbStoreOptions {
  dataDir: string;
  /** Customers and their plants; a file is opened (and created) for each. */
  customers: readonly { id: string; plants: readonly DemoPlant[] }[];
  /** Demo data written into a new, empty file; omit to leave new files empty. */
  demo?: { seed: string; days: number; now?: Date };
  /** Told when a customer file starts being seeded, and when it is done. */
  onSeeding?: (customerId: string) => void;
  onSeeded?: (customerId: string, result: DemoTelemetryResult) => void;
}

export function telemetryFile(dataDir: string, customerId: string): string {
  return path.join(dataDir, `telemetry-${customerId}.duckdb`);
}

interface CustomerDb {
  instance: DuckDBInstance;
  idle: DuckDBConnection[];
}

const PARAM_TYPES: Record<SqlParamType, DuckDBType> = { VARCHAR, BIGINT, DOUBLE, BOOLEAN, TIMESTAMP };

/** Compiled params → what `connection.stream(sql, values, types)` takes. */
export function bindParams(params: SqlParams): { values: Record<string, DuckDBValue>; types: Record<string, DuckDBType> } {
  const values: Record<string, DuckDBValue> = {};
  const types: Record<string, DuckDBType> = {};
  for (const [name, { type, value }] of Object.entries(params)) {
    types[name] = PARAM_TYPES[type];
    if (value === null) values[name] = null;
    else if (type === "TIMESTAMP") values[name] = new DuckDBTimestampValue(BigInt(value as number) * 1000n);
    else if (type === "BIGINT") values[name] = BigInt(value as number);
    else values[name] = value;
  }
  return { values, types };
}

/**
 * The scoped relations a query reads from. The plant filter is left out when the scope takes
 * every plant: the file holds only this customer's plants, and the filter would cost a join probe.
 */
export function scopedSources(scope: TelemetryScope): Record<TableName, KqlSource> {
  const params: SqlParams = {
    scope_start: { type: "TIMESTAMP", value: scope.start.getTime() },
    scope_end: { type: "TIMESTAMP", value: scope.end.getTime() },
  };
  let plants = "";
  if (scope.plantIds) {
    const names = scope.plantIds.map((plantId, i) => {
      params[`scope_plant${i}`] = { type: "VARCHAR", value: plantId };
      return `$scope_plant${i}`;
    });
    plants = names.length > 0 ? ` AND "PlantId" IN (${names.join(", ")})` : " AND FALSE";
  }
  return {
    States: {
      sql: `SELECT * FROM "States" WHERE "Timestamp" >= $scope_start AND "Timestamp" < $scope_end${plants}`,
      params,
    },
    Events: {
      sql: `SELECT * FROM "Events" WHERE "StartTime" < $scope_end AND ("EndTime" IS NULL OR "EndTime" >= $scope_start)${plants}`,
      params,
    },
  };
}

/** DuckDB values → what lib/kql's result converter takes (timestamps keep their micros). */
function plain(value: DuckDBValue): unknown {
  if (value === null || typeof value !== "object" || value instanceof DuckDBTimestampValue) return value;
  return String(value);
}

function queryLimitExceeded(message: string): ServiceError {
  return new ServiceError("QUERY_LIMIT_EXCEEDED", message, [{ field: "query", problem: message }]);
}

/** A statement with its result columns, as the KQL compiler makes them (or a benchmark by hand). */
export interface SqlStatement {
  sql: string;
  params: SqlParams;
  columns: ResultColumn[];
  render?: RenderHint;
}

export interface ExecuteOptions {
  limits: TelemetryLimits;
  signal?: AbortSignal;
  /** When the work began (performance.now()), if before execution: compile time counts too. */
  started?: number;
}

export interface DuckDbTelemetryStore extends TelemetryStore {
  /** Runs SQL on a customer's file with the query path's limits, interruption and conversion. */
  execute(customerId: string, statement: SqlStatement, options: ExecuteOptions): Promise<TelemetryTable>;
}

export async function openDuckDbTelemetryStore(options: DuckDbStoreOptions): Promise<DuckDbTelemetryStore> {
  fs.mkdirSync(options.dataDir, { recursive: true });
  const customers = new Map<string, CustomerDb>();
  try {
    // Files are seeded side by side: each DuckDB instance keeps its own threads busy.
    await Promise.all(
      options.customers.map(async (customer) => {
        const instance = await DuckDBInstance.create(telemetryFile(options.dataDir, customer.id));
        customers.set(customer.id, { instance, idle: [] });
        const connection = await instance.connect();
        try {
          await prepareDatabase(connection, customer.plants, options, {
            start: () => options.onSeeding?.(customer.id),
            done: (result) => options.onSeeded?.(customer.id, result),
          });
        } finally {
          connection.closeSync();
        }
      }),
    );
  } catch (error) {
    for (const db of customers.values()) db.instance.closeSync();
    throw error;
  }

  async function withConnection<T>(customerId: string, work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const db = customers.get(customerId);
    if (!db) throw new ServiceError("FORBIDDEN", "No telemetry is stored for this client's customer.");
    const connection = db.idle.pop() ?? (await db.instance.connect());
    let reusable = true;
    try {
      return await work(connection);
    } catch (error) {
      reusable = false; // an interrupted or failed connection is not handed out again
      throw error;
    } finally {
      if (reusable && !closed) db.idle.push(connection);
      else connection.closeSync();
    }
  }

  let closed = false;

  async function execute(customerId: string, statement: SqlStatement, options: ExecuteOptions): Promise<TelemetryTable> {
    const started = options.started ?? performance.now();
    const { values, types } = bindParams(statement.params);
    const kqlTypes = statement.columns.map((c) => c.kqlType);
    const { maxRows, maxBytes, timeoutMs } = options.limits;

    return withConnection(customerId, async (connection) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        connection.interrupt();
      }, timeoutMs);
      const onAbort = () => connection.interrupt();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      try {
        const result = await connection.stream(statement.sql, values, types);
        const rows: JsonValue[][] = [];
        // Brackets and commas of the rows array; each row adds its own length.
        let bytes = 2;
        for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
          for (const raw of chunk.getRows()) {
            const row = raw.map((value, i) => toJsonValue(kqlTypes[i]!, plain(value)));
            bytes += JSON.stringify(row).length + 1;
            rows.push(row);
            if (rows.length > maxRows) {
              throw queryLimitExceeded(`The result has more than ${maxRows.toLocaleString("en-US")} rows; narrow the query (where, summarize, take).`);
            }
            if (bytes > maxBytes) {
              throw queryLimitExceeded(`The result is larger than ${Math.round(maxBytes / 1048576)} MB; narrow the query or project fewer columns.`);
            }
          }
        }
        return {
          columns: toResponseColumns(statement.columns),
          rows,
          ...(statement.render ? { render: statement.render } : {}),
          bytes,
          elapsedMs: performance.now() - started,
        };
      } catch (error) {
        if (timedOut) {
          throw new ServiceError("QUERY_TIMEOUT", `The query ran longer than ${timeoutMs / 1000} s and was stopped.`, [
            { field: "query", problem: `exceeded ${timeoutMs} ms` },
          ]);
        }
        // Nobody is waiting for the answer any more; say so instead of reporting a server error.
        if (options.signal?.aborted) throw new ServiceError("QUERY_TIMEOUT", "The query was stopped because the client went away.");
        throw evaluationError(error) ?? error;
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      }
    });
  }

  return {
    async query(request: TelemetryQuery): Promise<TelemetryTable> {
      const started = performance.now();
      const compiled = compileKql(request.kql, { sources: scopedSources(request.scope), now: request.now });
      return execute(request.customerId, compiled, { limits: request.limits, signal: request.signal, started });
    },

    execute,

    async dataPointNames(customerId) {
      return withConnection(customerId, async (connection) => {
        const reader = await connection.runAndReadAll(`SELECT DISTINCT Name FROM StateSeries ORDER BY Name`);
        return reader.getRows().map((row) => String(row[0]));
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const db of customers.values()) {
        for (const connection of db.idle.splice(0)) connection.closeSync();
        db.instance.closeSync();
      }
    },
  };
}

/** Creates the schema and, in a file that has no data yet, the demo data. */
async function prepareDatabase(
  connection: DuckDBConnection,
  plants: readonly DemoPlant[],
  options: DuckDbStoreOptions,
  progress: { start(): void; done(result: DemoTelemetryResult): void },
): Promise<void> {
  for (const statement of CREATE_TELEMETRY_SCHEMA) await connection.run(statement);
  const seeded = await connection.runAndReadAll(`SELECT value FROM telemetry_meta WHERE key = 'demo_seeded_at'`);
  if (!options.demo || seeded.currentRowCount > 0 || plants.length === 0) return;
  progress.start();
  // One transaction: a crash half-way leaves an empty file that is seeded again on the next start.
  await connection.run("BEGIN TRANSACTION");
  try {
    const now = options.demo.now ?? new Date();
    const result = await generateDemoTelemetry(connection, { seed: options.demo.seed, plants, days: options.demo.days, now });
    await connection.run(`INSERT INTO telemetry_meta VALUES ('demo_seeded_at', $1)`, [now.toISOString()]);
    await connection.run("COMMIT");
    await connection.run("CHECKPOINT");
    progress.done(result);
  } catch (error) {
    await connection.run("ROLLBACK");
    throw error;
  }
}

