/**
 * The telemetry tables of docs/api.md §6: their KQL columns (in the order a query without
 * `project` returns them) and the physical DuckDB storage the telemetry store creates (its tables
 * are created in lib/service/telemetry/duckdb/schema.ts).
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

/**
 * What a column holds, which fixes both its KQL type and its storage: `dynamic` is stored in one of
 * two forms, a number (`Value`) or a JSON object (the metadata).
 */
const FORMS = {
  text: { kqlType: "string", storage: "VARCHAR" },
  instant: { kqlType: "datetime", storage: "TIMESTAMP" },
  number: { kqlType: "dynamic", storage: "DOUBLE" },
  object: { kqlType: "dynamic", storage: "JSON" },
} as const satisfies Record<string, { kqlType: KqlType; storage: StorageType }>;

const column = (name: string, form: keyof typeof FORMS, nullable: "nullable" | "required" = "required"): TableColumn => ({
  name,
  ...FORMS[form],
  nullable: nullable === "nullable",
});

export const TABLES: Record<TableName, TableSchema> = {
  States: {
    name: "States",
    columns: [
      column("DeviceId", "text"),
      column("Name", "text"),
      column("Timestamp", "instant"),
      column("Value", "number", "nullable"),
      column("PlantId", "text"),
      column("DataMetadata", "object", "nullable"),
      column("MessageMetadata", "object", "nullable"),
      column("MessageType", "text"),
      column("AgentTimestamp", "instant", "nullable"),
      column("IngestionTimestamp", "instant", "nullable"),
    ],
  },
  Events: {
    name: "Events",
    columns: [
      column("EventId", "text"),
      column("PlantId", "text"),
      column("DeviceId", "text"),
      column("Name", "text"),
      column("Severity", "text"),
      column("Message", "text"),
      column("StartTime", "instant"),
      column("EndTime", "instant", "nullable"),
      column("Value", "number", "nullable"),
      column("DataMetadata", "object", "nullable"),
      column("MessageMetadata", "object", "nullable"),
    ],
  },
};

export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

export function isTableName(name: string): name is TableName {
  return Object.prototype.hasOwnProperty.call(TABLES, name);
}
