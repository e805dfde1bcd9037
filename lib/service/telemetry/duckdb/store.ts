/**
 * The embedded telemetry store: one DuckDB file per customer (`DATA_DIR/telemetry-<customerId>.duckdb`),
 * so a customer's query physically cannot read another customer's rows. Queries are KQL compiled by
 * lib/kql over scoped source relations (time range, plants) built here. DuckDB itself renders the
 * rows as the response's JSON and applies the row and byte limits (json-rows.ts), so the event loop
 * stays free and memory stays bounded; a timer interrupts DuckDB (`connection.interrupt()`) at the
 * time limit. Each file is opened without access to other files and with a memory limit
 * (docs/architecture.md, "Telemetry under load"). With `readOnly` (TELEMETRY_READ_ONLY) the files
 * are opened `access_mode=READ_ONLY`, which DuckDB lets several processes do at once: how several
 * instances serve one DATA_DIR, while only `npm run seed` writes (docs/architecture.md, "Several
 * instances").
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
  toResponseColumns,
  type KqlSource,
  type RenderHint,
  type ResultColumn,
  type SqlParams,
  type SqlParamType,
  type TableName,
} from "@/lib/kql";
import { ApiError } from "../../../contract/errors";
import { StartupError } from "../../../platform/startup-error";
import { inTransaction } from "../../../platform/transaction";
import { evaluationError } from "./errors";
import { JsonRowsLimitError, streamJsonRows } from "./json-rows";
import { scopedSourcesOf } from "../scoped-sources";
import { createCompileCache } from "../compile-cache";
import {
  CREATE_TELEMETRY_SCHEMA,
  DEMO_UNTIL_MINUTE_KEY,
  STATES_SERIES_COLUMNS,
  STATES_SERIES_SQL,
  STATES_VALUE_COLUMNS,
  statesValuesOnlySql,
  statesWithSeriesSql,
} from "./schema";
import { registerKqlFunctions } from "./kql-functions";
import {
  engineStopsLater,
  tableRows,
  type TelemetryLimits,
  type TelemetryPlant,
  type TelemetryQuery,
  type TelemetryScope,
  type TelemetrySeed,
  type TelemetrySeedResult,
  type TelemetryStore,
  type TelemetryTable,
} from "../store";

export interface DuckDbStoreOptions {
  dataDir: string;
  /** Customers and their plants; a file is opened (and created) for each. */
  customers: readonly { id: string; plants: readonly TelemetryPlant[] }[];
  /**
   * Open existing files read-only (several processes may), create nothing, seed nothing; `write`
   * is refused. A missing file, or one a writer holds, fails the open with a StartupError.
   */
  readOnly?: boolean;
  /** Data written into a new, empty file (the demo's, from the assembly); omit to leave new files empty. */
  seed?: TelemetrySeed;
  /** DuckDB's settings for query time; the defaults are DuckDB's own (tests, benchmarks). */
  engine?: DuckDbEngineSettings;
  /** Told when a customer file starts being seeded, and when it is done. */
  onSeeding?: (customerId: string) => void;
  onSeeded?: (customerId: string, result: TelemetrySeedResult) => void;
}

interface DuckDbEngineSettings {
  /** DuckDB's memory_limit per customer file, e.g. `512MB`; past it a query fails (or spills to disk). */
  memoryLimit: string;
  /** Worker threads per customer file while serving queries. */
  threads: number;
  /** Most disk a customer file's spilled intermediates may take (max_temp_directory_size), e.g. `4GB`. */
  maxTempSize: string;
}

export function telemetryFile(dataDir: string, customerId: string): string {
  return path.join(dataDir, `telemetry-${customerId}.duckdb`);
}

/** DuckDB's "Could not set lock on file …: Conflicting lock is held in … (PID n)". */
const LOCKED = /Could not set lock on file[\s\S]*?\(PID (\d+)\)/;

/** What the operator must do when a file cannot be opened, in one line; null for other errors. */
function openFailure(error: unknown, file: string, readOnly: boolean): StartupError | null {
  const message = error instanceof Error ? error.message : String(error);
  const locked = LOCKED.exec(message);
  if (!locked) return null;
  const holder = `another process (PID ${locked[1]})`;
  return new StartupError(
    readOnly
      ? `Cannot open ${file} read-only: ${holder} is writing it (a server without TELEMETRY_READ_ONLY=1, or \`npm run seed\`). Stop that process or let the seed finish, then start again.`
      : `Cannot open ${file} for writing: ${holder} has it open. Stop that process; to run several instances on one DATA_DIR, run \`npm run seed\` once and start every instance with TELEMETRY_READ_ONLY=1.`,
  );
}

interface CustomerDb {
  instance: DuckDBInstance;
  idle: DuckDBConnection[];
  /** The one connection that writes after the seed (live demo, ingestion), opened on first write. */
  writer?: DuckDBConnection;
  /** Tail of the queue of write transactions: they run one after another. */
  writes: Promise<unknown>;
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

/** The scoped relations a query reads from (the customer's own file: tables unqualified). */
export function scopedSources(scope: TelemetryScope): Record<TableName, KqlSource> {
  const sources = scopedSourcesOf(scope, { param: (name) => `$${name}`, table: (name) => `"${name}"`, never: "FALSE" });
  const plantsIn = scope.plantIds ? (scope.plantIds.length ? scope.plantIds.map((_, i) => `$scope_plant${i}`).join(", ") : "NULL") : null;
  const valuesOnly = { columns: STATES_VALUE_COLUMNS, sql: statesValuesOnlySql("$scope_start", "$scope_end", plantsIn) };
  const series = { columns: STATES_SERIES_COLUMNS, key: "sid", sql: STATES_SERIES_SQL };
  const sql = statesWithSeriesSql("$scope_start", "$scope_end", plantsIn);
  return { ...sources, States: { ...sources.States, sql, narrower: [valuesOnly], series } };
}

function queryLimitExceeded(message: string): ApiError {
  return new ApiError("QUERY_LIMIT_EXCEEDED", message, [{ field: "query", problem: message }]);
}

function limitMessage(limit: "rows" | "bytes" | "memory", limits: TelemetryLimits): string {
  if (limit === "rows") return `The result has more than ${limits.maxRows.toLocaleString("en-US")} rows; narrow the query (where, summarize, take).`;
  if (limit === "bytes") return `The result is larger than ${Math.round(limits.maxBytes / 1048576)} MB; narrow the query or project fewer columns.`;
  return "The query needs more memory than a query may use; narrow the query (where, summarize, take).";
}

/** DuckDB ran out of its memory_limit: the query asked for too much, not a server fault. */
const OUT_OF_MEMORY = /^Out of Memory Error/;

/** A statement with its result columns, as the KQL compiler makes them (or a benchmark by hand). */
export interface SqlStatement {
  sql: string;
  params: SqlParams;
  columns: ResultColumn[];
  render?: RenderHint;
}

interface ExecuteOptions {
  limits: TelemetryLimits;
  signal?: AbortSignal;
  /** When the work began (performance.now()), if before execution: compile time counts too. */
  started?: number;
}

export interface DuckDbTelemetryStore extends TelemetryStore {
  /** Runs SQL on a customer's file with the query path's limits, interruption and conversion. */
  execute(customerId: string, statement: SqlStatement, options: ExecuteOptions): Promise<TelemetryTable>;
  /** Customers with a file in this store. */
  customerIds(): string[];
  /**
   * Runs `work` in one transaction on the customer's writer connection (rolled back if it throws).
   * The server is the only writer of its files, and within it every write goes through here, one
   * transaction at a time per file; queries keep reading their snapshot meanwhile (MVCC).
   */
  write<T>(customerId: string, work: (connection: DuckDBConnection) => Promise<T>): Promise<T>;
  /** DuckDB's physical plan of a statement (EXPLAIN; as JSON with `json`), for the benchmark's plan comparison and the plan tests. */
  plan(customerId: string, statement: Pick<SqlStatement, "sql" | "params">, options?: { json?: boolean }): Promise<string>;
}

export async function openDuckDbTelemetryStore(options: DuckDbStoreOptions): Promise<DuckDbTelemetryStore> {
  const readOnly = options.readOnly ?? false;
  fs.mkdirSync(options.dataDir, { recursive: true });
  const customers = new Map<string, CustomerDb>();
  const compiler = createCompileCache();
  try {
    // Files are seeded side by side: each DuckDB instance keeps its own threads busy.
    await Promise.all(
      options.customers.map(async (customer) => {
        const file = telemetryFile(options.dataDir, customer.id);
        if (readOnly && !fs.existsSync(file)) {
          throw new StartupError(`${file} does not exist: with TELEMETRY_READ_ONLY=1 only \`npm run seed\` creates the telemetry files; run it once first (with the same DATA_DIR and DATABASE_URL).`);
        }
        // Queries are compiled from KQL and never name a file; still, no query may read or write
        // one (docs/architecture.md, "Telemetry under load").
        const instance = await DuckDBInstance.create(file, {
          // Readers share the file, not its spill directory: DuckDB names its spill files alike in
          // every process, so each reader spills into a directory of its own (removed on close).
          // Set before external access is turned off, which forbids changing it.
          ...(readOnly ? { access_mode: "READ_ONLY", temp_directory: `${file}.tmp-${process.pid}` } : { temp_directory: `${file}.tmp` }),
          enable_external_access: "false",
          // Memory and spill bounded per file: past either a query fails (QUERY_LIMIT_EXCEEDED), the server stays.
          ...(options.engine ? { memory_limit: options.engine.memoryLimit, max_temp_directory_size: options.engine.maxTempSize } : {}),
        }).catch((error: unknown) => {
          throw openFailure(error, file, readOnly) ?? error;
        });
        customers.set(customer.id, { instance, idle: [], writes: Promise.resolve() });
        // Telemetry is the customer's data: readable by the server's user only (the server's umask
        // covers the write-ahead log and spill files; scripts/serve.ts).
        fs.chmodSync(file, 0o600);
        const connection = await instance.connect();
        registerKqlFunctions(connection);
        try {
          if (!readOnly)
            await prepareDatabase(connection, customer.plants, options, {
            start: () => options.onSeeding?.(customer.id),
            done: (result) => options.onSeeded?.(customer.id, result),
          });
          // Seeding may use every core; serving leaves one to the event loop. Then the settings
          // are locked, so nothing a connection runs can change them.
          if (options.engine) await connection.run(`SET threads = ${Math.max(1, Math.floor(options.engine.threads))}`);
          await connection.run("SET lock_configuration = true");
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
    if (!db) throw new ApiError("FORBIDDEN", "No telemetry is stored for this client's customer.");
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
  let writable = true;
  let closing: Promise<void> | null = null;

  /** Queries whose engine work has not ended yet (some answered already: see execute); close waits for them. */
  const running = new Set<Promise<void>>();

  /**
   * Runs a statement within the time limit, counted from `started` (compilation included). At the
   * limit, or when the caller stops it (budget spent, client gone), DuckDB is interrupted and the
   * caller answered at once, whether or not the engine has noticed yet: a long scalar function over
   * one chunk checks for interruption only when it is done, which once made a query stopped at 3 s
   * answer at 27 s. The connection is given back (or closed) only when the engine has let go of it,
   * and every error carries that moment (store.ts, engineStopped), so whoever holds the query's
   * place keeps it until then.
   */
  async function execute(customerId: string, statement: SqlStatement, options: ExecuteOptions): Promise<TelemetryTable> {
    const started = options.started ?? performance.now();
    const executing = performance.now();
    const bound = bindParams(statement.params);
    const { timeoutMs } = options.limits;
    const db = customers.get(customerId);
    if (!db) throw new ApiError("FORBIDDEN", "No telemetry is stored for this client's customer.");
    const connection = db.idle.pop() ?? (await db.instance.connect());

    let timedOut = false;
    let deadlineReached!: () => void;
    const deadline = new Promise<null>((resolve) => (deadlineReached = () => resolve(null)));
    const timer = setTimeout(() => {
      timedOut = true;
      connection.interrupt();
      deadlineReached();
    }, Math.max(0, timeoutMs - (performance.now() - started)));
    const onAbort = () => {
      connection.interrupt();
      deadlineReached();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });

    const work = options.signal?.aborted ? Promise.reject(new Error("aborted before it started")) : streamJsonRows(connection, statement, bound, options.limits);
    const engineDone = work.then(
      () => true,
      () => false,
    ).then((succeeded) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      // An interrupted or failed connection is not handed out again.
      if (succeeded && !timedOut && !options.signal?.aborted && !closed) db.idle.push(connection);
      else connection.closeSync();
      running.delete(engineDone);
    });
    running.add(engineDone);

    try {
      const rows = await Promise.race([work, deadline]);
      // An interrupted stream ends like a finished one (an empty chunk): the rows read so far are
      // part of the answer only, so they are never returned (docs/api.md §6: complete or an error).
      if (rows === null || timedOut || options.signal?.aborted) throw new Error("interrupted");
      const done = performance.now();
      return {
        timings: { compileMs: 0, executeMs: rows.firstRowsAt - executing, serializeMs: done - rows.firstRowsAt },
        columns: toResponseColumns(statement.columns),
        rows: rows.parts,
        rowCount: rows.rowCount,
        ...(statement.render ? { render: statement.render } : {}),
        bytes: rows.bytes,
        elapsedMs: done - started,
      };
    } catch (error) {
      throw engineStopsLater(failureOf(error, timedOut, options), engineDone);
    }
  }

  /** What a failed or stopped execution answers. */
  function failureOf(error: unknown, timedOut: boolean, options: ExecuteOptions): object {
    const { timeoutMs } = options.limits;
    if (timedOut) {
      return new ApiError("QUERY_TIMEOUT", `The query ran longer than ${timeoutMs / 1000} s and was stopped.`, [{ field: "query", problem: `exceeded ${timeoutMs} ms` }]);
    }
    // Stopped by the caller (budget spent, or nobody waiting any more): the caller says which.
    if (options.signal?.aborted) return new ApiError("QUERY_TIMEOUT", "The query was stopped because the client went away.");
    if (error instanceof JsonRowsLimitError) return queryLimitExceeded(limitMessage(error.limit, options.limits));
    if (error instanceof Error && OUT_OF_MEMORY.test(error.message)) return queryLimitExceeded(limitMessage("memory", options.limits));
    const failure = evaluationError(error) ?? error;
    return typeof failure === "object" && failure !== null ? failure : new Error(String(failure));
  }

  return {
    async query(request: TelemetryQuery): Promise<TelemetryTable> {
      const started = performance.now();
      const sources = scopedSources(request.scope);
      const compiled = compiler.compile(request.kql, { sources, now: request.now, parameters: request.parameters, database: request.customerId });
      const compileMs = performance.now() - started;
      const table = await execute(request.customerId, compiled, { limits: request.limits, signal: request.signal, started });
      const timings = { ...table.timings!, compileMs };
      if (!request.countScanned || compiled.tables.length === 0) return { ...table, timings, compileWork: compiled.work };
      // The rows the query read from, within its scope: one count per table the query names.
      const counts = compiled.tables.map((name) => `(SELECT count(*) FROM (${sources[name].sql}))`).join(" + ");
      const scanned = await execute(
        request.customerId,
        { sql: `SELECT CAST(${counts} AS BIGINT) AS n`, params: sources.States.params, columns: [{ name: "n", kqlType: "long" }] },
        { limits: request.limits, signal: request.signal },
      );
      return { ...table, timings, compileWork: compiled.work, rowsScanned: Number(tableRows(scanned)[0]?.[0] ?? 0) };
    },

    execute,

    customerIds: () => [...customers.keys()],

    write(customerId, work) {
      const db = customers.get(customerId);
      if (!db) return Promise.reject(new Error(`No telemetry file for customer ${customerId}.`));
      if (readOnly) return Promise.reject(new Error("The telemetry store is read-only (TELEMETRY_READ_ONLY=1)."));
      if (!writable) return Promise.reject(new Error("The telemetry store is closing."));
      const run = async () => {
        db.writer ??= await db.instance.connect();
        const connection = db.writer;
        return inTransaction((sql) => connection.run(sql), () => work(connection), "BEGIN TRANSACTION");
      };
      const result = db.writes.then(run, run);
      db.writes = result.catch(() => undefined);
      return result;
    },

    async plan(customerId, statement, options) {
      const { values, types } = bindParams(statement.params);
      return withConnection(customerId, async (connection) => {
        const reader = await connection.runAndReadAll(`EXPLAIN ${options?.json ? "(FORMAT json) " : ""}${statement.sql}`, values, types);
        return reader.getRows().map((row) => String(row[1])).join("\n");
      });
    },

    async dataPointNames(customerId) {
      return withConnection(customerId, async (connection) => {
        const reader = await connection.runAndReadAll(`SELECT DISTINCT Name FROM StateSeries ORDER BY Name`);
        return reader.getRows().map((row) => String(row[0]));
      });
    },

    close() {
      closing ??= (async () => {
        // Writes already queued finish first (a batch is never cut in half); new ones are refused.
        writable = false;
        await Promise.all([...customers.values()].map((db) => db.writes));
        // Interrupted queries whose engine is still winding down: never close a connection under it.
        await Promise.all(running);
        closed = true;
        for (const db of customers.values()) {
          db.writer?.closeSync();
          for (const connection of db.idle.splice(0)) connection.closeSync();
          db.instance.closeSync();
        }
      })();
      return closing;
    },
  };
}

/** Creates the schema and, in a file that has no data yet, the seed's data. */
async function prepareDatabase(
  connection: DuckDBConnection,
  plants: readonly TelemetryPlant[],
  options: DuckDbStoreOptions,
  progress: { start(): void; done(result: TelemetrySeedResult): void },
): Promise<void> {
  for (const statement of CREATE_TELEMETRY_SCHEMA) await connection.run(statement);
  const seeded = await connection.runAndReadAll(`SELECT value FROM telemetry_meta WHERE key = 'demo_seeded_at'`);
  if (!options.seed || seeded.currentRowCount > 0 || plants.length === 0) return;
  progress.start();
  // One transaction: a crash half-way leaves an empty file that is seeded again on the next start.
  await connection.run("BEGIN TRANSACTION");
  try {
    const now = options.seed.now ?? new Date();
    const result = await options.seed.generate(connection, plants, now);
    await connection.run(`INSERT INTO telemetry_meta VALUES ('demo_seeded_at', $1)`, [now.toISOString()]);
    // Where the running demo plant carries on (live/demo-plant.ts).
    await connection.run(`INSERT INTO telemetry_meta VALUES ('${DEMO_UNTIL_MINUTE_KEY}', $1)`, [String(Math.floor(now.getTime() / 60_000))]);
    await connection.run("COMMIT");
    await connection.run("CHECKPOINT");
    progress.done(result);
  } catch (error) {
    await connection.run("ROLLBACK");
    throw error;
  }
}

