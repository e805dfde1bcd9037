/**
 * Physical layout of one customer's DuckDB file. Queries only ever see `States` and `Events` with
 * exactly the columns of docs/api.md §6 (lib/kql/tables.ts); how `States` is stored is this
 * module's business:
 *
 * - `StateSeries`: one row per device × data point (a few hundred), holding every string and
 *   metadata column of `States`;
 * - `StateValues`: one row per reading (tens of millions) with only numbers: series id, timestamp,
 *   value and the agent/ingestion delays. Rows are ordered by series (plant, name, device) then
 *   time, so each row group covers a few days of a few series and its zonemaps let DuckDB skip
 *   everything outside a query's time range and data point;
 * - `States`: a view joining the two. DuckDB pushes a filter on the series columns into a dynamic
 *   filter on `sid` of the values scan (join filter pushdown), so `where Name == "Temperature"`
 *   still prunes row groups.
 *
 * Why not one wide table: writing the five string/JSON columns per reading costs DuckDB's string
 * compression about five times the time of the numbers (demo generation would miss its 60 s
 * budget) and the file would be about twice as large. `Events` is small and stored as is.
 *
 * Every DuckDB table the telemetry side creates is spelled here, the tests' fixtures included
 * (createTableSql); ClickHouse's are in ../clickhouse/sql.ts.
 */
import { DUCKDB_STORAGE } from "@/lib/kql/dialect/duckdb";
import { TABLES, type TableName } from "@/lib/kql/tables";

/**
 * A table exactly as KQL sees it (tables.ts's storage contract): `Events` in the store, both tables
 * in the tests' fixtures.
 */
export function createTableSql(table: TableName): string {
  const columns = TABLES[table].columns.map(
    (c) => `"${c.name}" ${DUCKDB_STORAGE[c.form]}${c.nullable ? "" : " NOT NULL"}`,
  );
  return `CREATE TABLE IF NOT EXISTS "${table}" (${columns.join(", ")})`;
}

/**
 * `States`' columns computed from `StateValues` alone (alias `v`), after its own Timestamp and Value.
 * The two delays are added as INTEGER: both at their 16-bit 65.5 s overflowed USMALLINT and failed
 * every query reading IngestionTimestamp (ingest/sinks.test.ts).
 */
const VALUE_COLUMNS_SQL = `'state' AS MessageType,
      v."Timestamp" + to_milliseconds(v.AgentDelayMs) AS AgentTimestamp,
      v."Timestamp" + to_milliseconds(v.AgentDelayMs::INTEGER + v.IngestionDelayMs) AS IngestionTimestamp`;

/** The `States` columns a read can have without `StateSeries`. */
export const STATES_VALUE_COLUMNS = ["Timestamp", "Value", "MessageType", "AgentTimestamp", "IngestionTimestamp", "sid"] as const;

/**
 * `States` rows in a time range without the series join, for a query that reads no series column
 * (`count`, a range's average of every value …): every reading probed the join's hash table for
 * nothing (issue 38: 0.54 s of a 1.56 s count). `plantsIn`, when the scope names plants, is the
 * `IN (…)` list of their ids: resolved to series ids once, before the scan, by a semi-join on the
 * few hundred series rows.
 */
export function statesValuesOnlySql(start: string, end: string, plantsIn: string | null): string {
  const plants = plantsIn === null ? "" : ` AND v.sid IN (SELECT sid FROM StateSeries WHERE PlantId IN (${plantsIn}))`;
  return `SELECT v."Timestamp", v."Value", ${VALUE_COLUMNS_SQL}, v.sid FROM StateValues v WHERE v."Timestamp" >= ${start} AND v."Timestamp" < ${end}${plants}`;
}

/** The `States` columns held once per series, on `StateSeries` (keyed by `sid`). */
export const STATES_SERIES_COLUMNS = ["PlantId", "Name", "DeviceId", "DataMetadata", "MessageMetadata"] as const;

/** Every series, for a filter on series columns resolved to series ids before the scan (lib/kql/narrowing.ts). */
export const STATES_SERIES_SQL = `SELECT sid, ${STATES_SERIES_COLUMNS.join(", ")} FROM StateSeries`;

/**
 * `States` rows in a time range as the view has them, plus the series id `sid` (so a filter on the
 * series columns can read `sid IN (…)`): the view's own join, spelled out.
 */
export function statesWithSeriesSql(start: string, end: string, plantsIn: string | null): string {
  const plants = plantsIn === null ? "" : ` AND s.PlantId IN (${plantsIn})`;
  return `SELECT s.DeviceId, s.Name, v."Timestamp", v."Value", s.PlantId, s.DataMetadata, s.MessageMetadata, ${VALUE_COLUMNS_SQL}, v.sid
    FROM StateValues v JOIN StateSeries s ON s.sid = v.sid WHERE v."Timestamp" >= ${start} AND v."Timestamp" < ${end}${plants}`;
}

/** Every statement that creates an empty telemetry database. */
export const CREATE_TELEMETRY_SCHEMA: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS StateSeries (
    sid USMALLINT PRIMARY KEY,
    PlantId VARCHAR NOT NULL,
    Name VARCHAR NOT NULL,
    DeviceId VARCHAR NOT NULL,
    DataMetadata JSON,
    MessageMetadata JSON
  )`,
  `CREATE TABLE IF NOT EXISTS StateValues (
    sid USMALLINT NOT NULL,
    "Timestamp" TIMESTAMP NOT NULL,
    "Value" DOUBLE,
    AgentDelayMs USMALLINT NOT NULL,
    IngestionDelayMs USMALLINT NOT NULL
  )`,
  `CREATE OR REPLACE VIEW States AS
    SELECT s.DeviceId, s.Name, v."Timestamp", v."Value", s.PlantId, s.DataMetadata, s.MessageMetadata,
      ${VALUE_COLUMNS_SQL}
    FROM StateValues v JOIN StateSeries s ON s.sid = v.sid`,
  createTableSql("Events"),
  `CREATE TABLE IF NOT EXISTS telemetry_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`,
];

/**
 * `telemetry_meta` key: the minute (since the epoch) up to which, exclusive, the demo model has been
 * written into the file; the seed sets it and each append of the running demo moves it in the same
 * transaction as its rows, so a window is never written twice.
 */
export const DEMO_UNTIL_MINUTE_KEY = "demo_until_minute";

