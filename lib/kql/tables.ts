/**
 * The telemetry tables of docs/api.md §6: their KQL columns (in the order a query without
 * `project` returns them) and the form of what each holds. Engine-neutral: each engine's storage
 * of a form is its own (DuckDB: dialect/duckdb.ts DUCKDB_STORAGE, used by the telemetry store's
 * lib/service/telemetry/duckdb/schema.ts; ClickHouse: lib/service/telemetry/clickhouse/sql.ts).
 *
 * Storage contract with the stores (the compiler relies on it for plain, pushdown-friendly SQL):
 * - text is never NULL (KQL strings are never null; an absent text is "");
 * - instants hold millisecond values;
 * - `Value` is KQL `dynamic` but always holds a number (form `number`), so it is stored as one;
 * - the metadata objects (form `object`) are JSON;
 * - `nullable: false` columns are declared NOT NULL.
 */
import type { KqlType } from "./types";

/** What a column holds: text, an instant, a number, or a JSON object. */
export type ColumnForm = "text" | "instant" | "number" | "object";

export interface TableColumn {
  name: string;
  kqlType: KqlType;
  form: ColumnForm;
  nullable: boolean;
}

export interface TableSchema {
  name: TableName;
  columns: readonly TableColumn[];
}

export type TableName = "States" | "Events";

/** The KQL type of each form: `dynamic` is held in one of two forms, a number (`Value`) or a JSON object (the metadata). */
const KQL_TYPES = {
  text: "string",
  instant: "datetime",
  number: "dynamic",
  object: "dynamic",
} as const satisfies Record<ColumnForm, KqlType>;

const column = (name: string, form: ColumnForm, nullable: "nullable" | "required" = "required"): TableColumn => ({
  name,
  kqlType: KQL_TYPES[form],
  form,
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
