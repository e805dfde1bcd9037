/**
 * TEST-ONLY reference: DuckDB result values → response JSON per KQL column type (docs/api.md §6),
 * written in JavaScript from the spec, independently of the SQL that renders rows in the engines
 * (the dialects' rowJson). json-rows.test.ts checks the two agree value for value; nothing else
 * renders results this way. Accepts what @duckdb/node-api's readers produce (JS values, bigint,
 * Date, DuckDB value objects with `micros`, or JSON-reader strings).
 */
import { DuckDBTimestampValue, type DuckDBConnection, type DuckDBValue } from "@duckdb/node-api";
import type { JsonValue, KqlType, ResultColumn, SqlParams } from "@/lib/kql";
import { bindParams } from "../store";

/** 0001-01-01T00:00:00.000Z (Date.UTC cannot name years below 100). */
const MIN_DATETIME_MS = -62_135_596_800_000;
const MAX_DATETIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function toJsonValue(kqlType: KqlType, value: unknown): JsonValue {
  if (value === null || value === undefined) return kqlType === "string" ? "" : null;
  switch (kqlType) {
    case "string":
      return String(value);
    case "bool":
      return typeof value === "string" ? value === "true" : Boolean(value);
    case "long":
    case "int":
    case "real":
      return finiteNumber(value);
    case "datetime": {
      const millis = epochMillis(value);
      // KQL's datetime spans 0001-01-01 to 9999-12-31 (as in ADX); beyond it the value is null.
      return millis === null || millis < MIN_DATETIME_MS || millis > MAX_DATETIME_MS ? null : new Date(millis).toISOString();
    }
    case "timespan": {
      const micros = toBigInt(value);
      return micros === null ? null : formatTimespan(micros);
    }
    case "dynamic":
      return dynamicValue(value);
  }
}

function finiteNumber(value: unknown): number | null {
  const number = typeof value === "number" ? value : Number(typeof value === "object" ? String(value) : value);
  return Number.isFinite(number) ? number : null;
}

function toBigInt(value: unknown): bigint | null {
  if (typeof value === "bigint") return value;
  if (typeof value === "number") return Number.isFinite(value) ? BigInt(Math.trunc(value)) : null;
  if (typeof value === "string" && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === "object" && value !== null && "micros" in value) return toBigInt((value as { micros: unknown }).micros);
  return null;
}

function epochMillis(value: unknown): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value === "object" && value !== null && "micros" in value) {
    const micros = toBigInt((value as { micros: unknown }).micros);
    return micros === null ? null : Number(micros / 1000n) - (micros % 1000n < 0n ? 1 : 0);
  }
  if (typeof value === "string") {
    // DuckDB's text form "2024-01-01 10:00:00.123" is UTC without a zone.
    const iso = /[zZ]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value.replace(" ", "T")}Z`;
    const millis = Date.parse(iso);
    return Number.isNaN(millis) ? null : millis;
  }
  if (typeof value === "number" || typeof value === "bigint") return Number(value);
  return null;
}

/** ADX's timespan text: `[-][d.]hh:mm:ss[.fffffff]`. */
export function formatTimespan(micros: bigint): string {
  const negative = micros < 0n;
  let rest = negative ? -micros : micros;
  const fraction = rest % 1_000_000n;
  rest /= 1_000_000n;
  const seconds = rest % 60n;
  rest /= 60n;
  const minutes = rest % 60n;
  rest /= 60n;
  const hours = rest % 24n;
  const days = rest / 24n;
  const two = (n: bigint) => n.toString().padStart(2, "0");
  let text = `${days > 0n ? `${days}.` : ""}${two(hours)}:${two(minutes)}:${two(seconds)}`;
  if (fraction > 0n) text += `.${(fraction * 10n).toString().padStart(7, "0")}`;
  return negative ? `-${text}` : text;
}

function dynamicValue(value: unknown): JsonValue {
  if (typeof value === "string") {
    try {
      return JSON.parse(value) as JsonValue;
    } catch {
      return value;
    }
  }
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "boolean") return value;
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? Number(v) : v))) as JsonValue;
}

/** A compiled query's rows read from DuckDB as JS values and converted here, not in SQL. */
export async function referenceRows(
  connection: DuckDBConnection,
  compiled: { sql: string; params: SqlParams; columns: ResultColumn[] },
): Promise<JsonValue[][]> {
  const { values, types } = bindParams(compiled.params);
  const reader = await connection.runAndReadAll(compiled.sql, values, types);
  return reader.getRows().map((row) => row.map((value, i) => toJsonValue(compiled.columns[i]!.kqlType, toPlain(value))));
}

/** DuckDB value objects → plain JS the converter understands (lists/JSON as text or arrays). */
function toPlain(value: DuckDBValue): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof DuckDBTimestampValue) return value;
  return String(value);
}
