/**
 * KQL scalar types and how each one is reported in a query response (docs/api.md §6).
 * Pure data: shared by the compiler, the telemetry store and the browser's editor.
 */
export const KQL_TYPES = ["string", "datetime", "dynamic", "real", "long", "int", "bool", "timespan"] as const;
export type KqlType = (typeof KQL_TYPES)[number];

/** `columnType`/`dataType` of a response column, per KQL type. */
export const RESPONSE_TYPES: Record<KqlType, { columnType: KqlType; dataType: string }> = {
  string: { columnType: "string", dataType: "String" },
  datetime: { columnType: "datetime", dataType: "DateTime" },
  dynamic: { columnType: "dynamic", dataType: "Object" },
  real: { columnType: "real", dataType: "Double" },
  long: { columnType: "long", dataType: "Int64" },
  int: { columnType: "int", dataType: "Int32" },
  bool: { columnType: "bool", dataType: "Boolean" },
  timespan: { columnType: "timespan", dataType: "TimeSpan" },
};

/** One column of a query's result, in output order. */
export interface ResultColumn {
  name: string;
  kqlType: KqlType;
}

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
