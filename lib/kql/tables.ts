/**
 * The telemetry tables of docs/api.md §6: their KQL columns (in the order a query without
 * `project` returns them) and the physical DuckDB storage the telemetry store creates.
 *
 * Storage contract with the store (the compiler relies on it for plain, pushdown-friendly SQL):
 * - strings are VARCHAR and never NULL (KQL strings are never null; an absent text is "");
 * - datetimes are TIMESTAMP holding millisecond values;
 * - `Value` is KQL `dynamic` but always holds a number, so it is stored as DOUBLE;
 * - the metadata objects are DuckDB JSON;
 * - `nullable: false` columns are declared NOT NULL.
 */
import type { KqlType } from "./types";

export type StorageType = "VARCHAR" | "TIMESTAMP" | "DOUBLE" | "JSON";

export interface TableColumn {
  name: string;
  kqlType: KqlType;
  storage: StorageType;
  nullable: boolean;
}

export interface TableSchema {
  name: TableName;
  columns: readonly TableColumn[];
}

export type TableName = "States" | "Events";

const column = (name: string, kqlType: KqlType, storage: StorageType, nullable = false): TableColumn => ({
  name,
  kqlType,
  storage,
  nullable,
});

export const TABLES: Record<TableName, TableSchema> = {
  States: {
    name: "States",
    columns: [
      column("DeviceId", "string", "VARCHAR"),
      column("Name", "string", "VARCHAR"),
      column("Timestamp", "datetime", "TIMESTAMP"),
      column("Value", "dynamic", "DOUBLE", true),
      column("PlantId", "string", "VARCHAR"),
      column("DataMetadata", "dynamic", "JSON", true),
      column("MessageMetadata", "dynamic", "JSON", true),
      column("MessageType", "string", "VARCHAR"),
      column("AgentTimestamp", "datetime", "TIMESTAMP", true),
      column("IngestionTimestamp", "datetime", "TIMESTAMP", true),
    ],
  },
  Events: {
    name: "Events",
    columns: [
      column("EventId", "string", "VARCHAR"),
      column("PlantId", "string", "VARCHAR"),
      column("DeviceId", "string", "VARCHAR"),
      column("Name", "string", "VARCHAR"),
      column("Severity", "string", "VARCHAR"),
      column("Message", "string", "VARCHAR"),
      column("StartTime", "datetime", "TIMESTAMP"),
      column("EndTime", "datetime", "TIMESTAMP", true),
      column("Value", "dynamic", "DOUBLE", true),
      column("DataMetadata", "dynamic", "JSON", true),
      column("MessageMetadata", "dynamic", "JSON", true),
    ],
  },
};

export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

export function isTableName(name: string): name is TableName {
  return Object.prototype.hasOwnProperty.call(TABLES, name);
}

/** `CREATE TABLE` statement of a table, for the store and the tests' fixtures. */
export function createTableSql(table: TableName): string {
  const columns = TABLES[table].columns.map(
    (c) => `"${c.name}" ${c.storage}${c.nullable ? "" : " NOT NULL"}`,
  );
  return `CREATE TABLE IF NOT EXISTS "${table}" (${columns.join(", ")})`;
}
