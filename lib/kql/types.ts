/**
 * KQL scalar types and how each one is reported in a query response (docs/api.md §6).
 * Pure data: shared by the compiler, the telemetry store and the browser's editor.
 */
export const KQL_TYPES = ["string", "datetime", "dynamic", "real", "long", "int", "bool", "timespan"] as const;
export type KqlType = (typeof KQL_TYPES)[number];

/**
 * The .NET type ADX names as a response column's `dataType`, per KQL type; its `columnType` is the
 * KQL type itself.
 */
const DATA_TYPES: Record<KqlType, string> = {
  string: "String", datetime: "DateTime", dynamic: "Object", real: "Double",
  long: "Int64", int: "Int32", bool: "Boolean", timespan: "TimeSpan",
};

/** `columnType`/`dataType` of a response column of this KQL type. */
function responseType(type: KqlType): { columnType: KqlType; dataType: string } {
  return { columnType: type, dataType: DATA_TYPES[type] };
}

/** One column of a query's result, in output order. */
export interface ResultColumn {
  name: string;
  kqlType: KqlType;
}

/** The response's `columns` (docs/api.md §6) of a result's columns. */
export function toResponseColumns(columns: readonly ResultColumn[]) {
  return columns.map((c) => ({ name: c.name, ...responseType(c.kqlType) }));
}

/** A value of a result row once parsed from the response's JSON. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** SQL types a compiled query's parameters are bound with. */
export type SqlParamType = "VARCHAR" | "BIGINT" | "DOUBLE" | "BOOLEAN" | "TIMESTAMP";

/**
 * A named query parameter. Values are plain JSON-able data so sources, logs and the browser agree:
 * TIMESTAMP values are epoch milliseconds (UTC); BIGINT values are integral numbers (timespans are
 * carried as BIGINT microseconds).
 */
export interface SqlParam {
  type: SqlParamType;
  value: string | number | boolean | null;
}
export type SqlParams = Record<string, SqlParam>;
