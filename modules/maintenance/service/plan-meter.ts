/**
 * A meter plan's reading: its KQL checked at save by the telemetry's own compiler (bad KQL → 400
 * INVALID_QUERY with line and column, as the query endpoint says it), and read by running it over
 * the plant's telemetry through the engine's path (the plant's scope, a cost budget of its own).
 */
import { compileKql, KqlError } from "@/lib/kql";
import { SCHEMA_ONLY_SOURCES } from "@/lib/kql/diagnose";
import { ApiError } from "@/lib/contract/errors";

/** What the service's runtime gives the plans to read a meter with (null without telemetry). */
export interface MeterReader {
  /** The query's first row's first column over the window ending at `at`, as a number; null when it has no row or no number. */
  read(plant: { id: string; customerId: string }, query: string, at: Date): Promise<number | null>;
}

/** The window a meter query reads, ending at the moment of the reading: a counter's latest value lies in it. */
export const METER_WINDOW_DAYS = 30;
/** The meter's rate is its rise over this many days before the reading. */
const METER_RATE_DAYS = 7;

const NUMERIC = new Set(["real", "long", "int", "decimal"]);

function invalidQuery(message: string, line: number, column: number): ApiError {
  return new ApiError("INVALID_QUERY", `trigger.query: ${message} (line ${line}, column ${column})`, [{ field: "trigger.query", line, column, message }]);
}

/** The save-time check: the query compiles and its first column is a number. */
export function checkMeterQuery(query: string): void {
  let columns;
  try {
    columns = compileKql(query, { sources: SCHEMA_ONLY_SOURCES }).columns;
  } catch (error) {
    if (error instanceof KqlError) throw invalidQuery(error.detail, error.line, error.column);
    throw error;
  }
  const first = columns[0];
  if (!first || !NUMERIC.has(first.kqlType)) {
    throw invalidQuery(`the reading must be the first column and a number; it is ${first ? `'${first.name}' of type ${first.kqlType}` : "absent"}`, 1, 1);
  }
}

/** The meter now, and its rate per day over the last METER_RATE_DAYS (null when the older reading is unknown). */
export async function readMeter(reader: MeterReader, plant: { id: string; customerId: string }, query: string, at: Date): Promise<{ reading: number | null; ratePerDay: number | null }> {
  const reading = await reader.read(plant, query, at);
  if (reading === null) return { reading: null, ratePerDay: null };
  const before = await reader.read(plant, query, new Date(at.getTime() - METER_RATE_DAYS * 86_400_000));
  return { reading, ratePerDay: before === null ? null : Math.max(0, (reading - before) / METER_RATE_DAYS) };
}
