/**
 * The telemetry store on ClickHouse (`TELEMETRY_URL=clickhouse://…`), behind the same interface as
 * the DuckDB store (store.ts): one database per customer (clickhouse/sql.ts has the layout), KQL
 * compiled with the ClickHouse dialect over scoped sources, the rows rendered as the response's JSON
 * by ClickHouse itself, limits as the DuckDB store applies them (docs/architecture.md, "Telemetry on
 * ClickHouse"). The statements go through an executor (executor.ts), so servers (HTTP) and chdb (in
 * process, tests and benchmarks) receive the same SQL.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { toResponseColumns } from "@/lib/kql";
import { createCompileCache } from "../compile-cache";
import { clickhouseDialect, clickhouseParams } from "@/lib/kql/dialect/clickhouse";
import { ApiError } from "../../../contract/errors";
import { CREATE_TELEMETRY_SCHEMA } from "../duckdb/schema";
import type { TelemetryLimits, TelemetryPlant, TelemetryQuery, TelemetrySeed, TelemetrySeedResult, TelemetryStore, TelemetryTable } from "../store";
import { clickhouseErrorCode, OutputTooLarge, type ClickHouseExecutor } from "./executor";
import { clickhouseQueryError, LIMIT_CODES, TIMEOUT_CODES } from "./errors";
import { clickhouseSources, createCustomerSchema, customerDatabase, querySettings, rowsStatement, rowsToJsonArray } from "./sql";

interface ClickHouseStoreOptions {
  executor: ClickHouseExecutor;
  /** Customer databases are `<prefix><customerId>`. */
  databasePrefix: string;
  customers: readonly { id: string; plants: readonly TelemetryPlant[] }[];
  /** Data loaded into a customer database that has none yet (the demo's, from the assembly). */
  seed?: TelemetrySeed;
  /**
   * With several instances on one ClickHouse: the seed is claimed first (the assembly hands the
   * demo's claims, demo-claims.ts), so of the instances starting together on an empty database one
   * seeds and the others wait for its marker. Without it this instance seeds alone.
   */
  seedClaims?: SeedClaims;
  onSeeding?: (customerId: string) => void;
  /** Another instance holds the seed's claim; this one waits for it. */
  onWaitingForSeed?: (customerId: string) => void;
  onSeeded?: (customerId: string, result: TelemetrySeedResult) => void;
  /** ClickHouse's max_memory_usage of each query, in bytes (TELEMETRY_CLICKHOUSE_MAX_MEMORY_MB). */
  maxQueryMemoryBytes: number;
}

/** The seed's claim per customer, held by one instance at a time. */
export interface SeedClaims {
  /** "fresh": nobody held it; "taken-over": a dead instance held it (its partial rows may be there); null: another instance holds it. */
  claim(customerId: string, staleMs: number): Promise<"fresh" | "taken-over" | null>;
  /** Keeps the claim alive while the seed runs. */
  renew(customerId: string): Promise<unknown>;
}

export interface ClickHouseTelemetryStore extends TelemetryStore {
  customerIds(): string[];
  database(customerId: string): string;
  /** What carries the statements: ingestion and the live demo write through it too. */
  executor: ClickHouseExecutor;
}

function limitExceeded(limits: TelemetryLimits, what: "rows" | "bytes" | "memory"): ApiError {
  const message =
    what === "rows"
      ? `The result has more than ${limits.maxRows.toLocaleString("en-US")} rows; narrow the query (where, summarize, take).`
      : what === "bytes"
        ? `The result is larger than ${Math.round(limits.maxBytes / 1048576)} MB; narrow the query or project fewer columns.`
        : "The query needs more memory than a query may use; narrow the query (where, summarize, take).";
  return new ApiError("QUERY_LIMIT_EXCEEDED", message, [{ field: "query", problem: message }]);
}

export async function openClickHouseTelemetryStore(options: ClickHouseStoreOptions): Promise<ClickHouseTelemetryStore> {
  const { executor } = options;
  const databases = new Map(options.customers.map((customer) => [customer.id, customerDatabase(options.databasePrefix, customer.id)]));
  const compiler = createCompileCache();
  for (const customer of options.customers) {
    const database = databases.get(customer.id)!;
    for (const statement of createCustomerSchema(database)) await executor.command(statement);
    if (options.seed && customer.plants.length > 0) await seedOnce(options, customer, database);
  }

  function databaseOf(customerId: string): string {
    const database = databases.get(customerId);
    if (!database) throw new ApiError("FORBIDDEN", "No telemetry is stored for this client's customer.");
    return database;
  }

  return {
    async query(request: TelemetryQuery): Promise<TelemetryTable> {
      const started = performance.now();
      const database = databaseOf(request.customerId);
      const compiled = compiler.compile(request.kql, { sources: clickhouseSources(database, request.scope), now: request.now, dialect: clickhouseDialect, parameters: request.parameters, database: request.customerId });
      const compiledAt = performance.now();
      const { limits } = request;
      // Read-only, bounded in time (max_execution_time, querySettings) and memory; the row limit is
      // the statement's LIMIT maxRows + 1, the byte limit the executor's (it reads no further).
      const settings = querySettings(limits, {
        readonly: 1,
        max_memory_usage: options.maxQueryMemoryBytes,
        max_result_bytes: limits.maxBytes * 4,
        result_overflow_mode: "'throw'",
      });
      const statement = rowsStatement(compiled, limits.maxRows, settings);
      // The compile's time (since `started`) counts against the query's time limit.
      const timeout = AbortSignal.timeout(Math.max(0, Math.ceil(limits.timeoutMs + 1_000 - (performance.now() - started))));
      const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
      let output: Uint8Array;
      try {
        // One byte more than the rows may have: the output's closing newline (rowsToJsonArray).
        output = await executor.query(statement, clickhouseParams(compiled.params), signal, limits.maxBytes + 1);
      } catch (error) {
        if (error instanceof OutputTooLarge) throw limitExceeded(limits, "bytes");
        const code = clickhouseErrorCode(error);
        if (request.signal?.aborted) throw new ApiError("QUERY_TIMEOUT", "The query was stopped because the client went away.");
        if ((code !== null && TIMEOUT_CODES.has(code)) || timeout.aborted) {
          throw new ApiError("QUERY_TIMEOUT", `The query ran longer than ${limits.timeoutMs / 1000} s and was stopped.`, [{ field: "query", problem: `exceeded ${limits.timeoutMs} ms` }]);
        }
        if (code === 241) throw limitExceeded(limits, "memory");
        if (code !== null && LIMIT_CODES.has(code)) throw limitExceeded(limits, "bytes");
        throw clickhouseQueryError(error) ?? error;
      }
      const executed = performance.now();
      const { json, rowCount } = rowsToJsonArray(output);
      const done = performance.now();
      if (rowCount > limits.maxRows) throw limitExceeded(limits, "rows");
      if (json.length > limits.maxBytes) throw limitExceeded(limits, "bytes");
      return {
        columns: toResponseColumns(compiled.columns),
        rows: [json],
        rowCount,
        ...(compiled.render ? { render: compiled.render } : {}),
        bytes: json.length,
        elapsedMs: done - started,
        compileWork: compiled.work,
        // ClickHouse renders the rows while it runs; "serialize" is their conversion here.
        timings: { compileMs: compiledAt - started, executeMs: executed - compiledAt, serializeMs: done - executed },
      };
    },

    async dataPointNames(customerId) {
      const database = databaseOf(customerId);
      const output = await executor.query(`SELECT DISTINCT "Name" FROM "${database}"."States" ORDER BY "Name" FORMAT JSONCompactColumns`, {});
      const [names] = JSON.parse(Buffer.from(output).toString("utf8")) as [string[]];
      return names ?? [];
    },

    customerIds: () => [...databases.keys()],
    executor,
    database: databaseOf,
    close: () => executor.close(),
  };
}

/** A seed claim not renewed for this long was left by an instance that died while seeding. */
const SEED_CLAIM_STALE_MS = 60_000;
const SEED_CLAIM_RENEW_MS = 10_000;
/** How often an instance waiting for another's seed looks again. */
const SEED_WAIT_POLL_MS = 1_000;

/**
 * Seeds the customer's database unless it is seeded: at once without claims; with claims only
 * while holding the seed's claim, else waits until the holder's marker appears (or its claim goes
 * stale and this instance takes it over).
 */
async function seedOnce(options: ClickHouseStoreOptions, customer: ClickHouseStoreOptions["customers"][number], database: string): Promise<void> {
  const { executor, seedClaims } = options;
  const seed = options.seed!;
  let waiting = false;
  for (;;) {
    if (await isSeeded(executor, database)) return;
    const claim = seedClaims ? await seedClaims.claim(customer.id, SEED_CLAIM_STALE_MS) : "fresh";
    if (claim === null) {
      if (!waiting) options.onWaitingForSeed?.(customer.id);
      waiting = true;
      await new Promise((resolve) => setTimeout(resolve, SEED_WAIT_POLL_MS));
      continue;
    }
    // Another instance may have finished between our look and our claim (its claim row stays).
    if (await isSeeded(executor, database)) return;
    if (claim === "taken-over") {
      // The dead seeder's partial rows. Nothing else writes an unseeded database: every instance
      // waits here before its ingestion and demo plant start.
      for (const table of ["States", "Events"]) await executor.command(`TRUNCATE TABLE IF EXISTS "${database}"."${table}"`);
    }
    const renewal = seedClaims ? setInterval(() => void seedClaims.renew(customer.id).catch(() => undefined), SEED_CLAIM_RENEW_MS) : undefined;
    renewal?.unref();
    try {
      options.onSeeding?.(customer.id);
      const result = await loadSeed(executor, database, customer.plants, seed);
      options.onSeeded?.(customer.id, result);
    } finally {
      clearInterval(renewal);
    }
    return;
  }
}

async function isSeeded(executor: ClickHouseExecutor, database: string): Promise<boolean> {
  const output = await executor.query(`SELECT count() FROM "${database}".telemetry_meta WHERE key = 'demo_seeded_at' FORMAT TabSeparatedRaw`, {});
  return Number(Buffer.from(output).toString("utf8").trim()) > 0;
}

/**
 * The seed's data (the demo's: its DuckDB model, demo-data.ts), generated in a scratch in-memory
 * DuckDB database (the same rows the embedded store holds for the same seed), exported as Parquet
 * with times as epoch milliseconds (no time zone can shift them on the way) and loaded into the
 * customer's database.
 */
async function loadSeed(
  executor: ClickHouseExecutor,
  database: string,
  plants: readonly TelemetryPlant[],
  seed: TelemetrySeed,
): Promise<TelemetrySeedResult> {
  const now = seed.now ?? new Date();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plantdesk-demo-"));
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    for (const statement of CREATE_TELEMETRY_SCHEMA) await connection.run(statement);
    const result = await seed.generate(connection, plants, now);
    const ms = (column: string) => `epoch_ms("${column}") AS "${column}"`;
    const states = path.join(dir, "states.parquet");
    const events = path.join(dir, "events.parquet");
    await connection.run(
      `COPY (SELECT DeviceId, Name, ${ms("Timestamp")}, "Value", PlantId, CAST(DataMetadata AS VARCHAR) AS DataMetadata, CAST(MessageMetadata AS VARCHAR) AS MessageMetadata, MessageType, ${ms("AgentTimestamp")}, ${ms("IngestionTimestamp")} FROM States) TO '${states}' (FORMAT PARQUET)`,
    );
    await connection.run(
      `COPY (SELECT EventId, PlantId, DeviceId, Name, Severity, Message, ${ms("StartTime")}, ${ms("EndTime")}, "Value", CAST(DataMetadata AS VARCHAR) AS DataMetadata, CAST(MessageMetadata AS VARCHAR) AS MessageMetadata FROM Events) TO '${events}' (FORMAT PARQUET)`,
    );
    const time = (column: string) => `fromUnixTimestamp64Milli("${column}", 'UTC')`;
    await executor.insertParquet(
      states,
      "DeviceId String, Name String, Timestamp Int64, Value Nullable(Float64), PlantId String, DataMetadata Nullable(String), MessageMetadata Nullable(String), MessageType String, AgentTimestamp Nullable(Int64), IngestionTimestamp Nullable(Int64)",
      (source) =>
        `INSERT INTO "${database}"."States" SELECT DeviceId, Name, ${time("Timestamp")}, Value, PlantId, DataMetadata, MessageMetadata, MessageType, ${time("AgentTimestamp")}, ${time("IngestionTimestamp")} FROM ${source}`,
    );
    await executor.insertParquet(
      events,
      "EventId String, PlantId String, DeviceId String, Name String, Severity String, Message String, StartTime Int64, EndTime Nullable(Int64), Value Nullable(Float64), DataMetadata Nullable(String), MessageMetadata Nullable(String)",
      (source) =>
        `INSERT INTO "${database}"."Events" SELECT EventId, PlantId, DeviceId, Name, Severity, Message, ${time("StartTime")}, ${time("EndTime")}, Value, DataMetadata, MessageMetadata FROM ${source}`,
    );
    await executor.command(`INSERT INTO "${database}".telemetry_meta VALUES ('demo_seeded_at', {at:String})`, { at: now.toISOString() });
    return result;
  } finally {
    connection.closeSync();
    instance.closeSync();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
