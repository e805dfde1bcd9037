/**
 * The scoped relations a query reads from (docs/api.md §6), for either engine: `States` rows in
 * [start, end), `Events` overlapping it, and only the scope's plants. The plant filter is left out
 * when the scope takes every plant: a customer's storage holds only its own plants, and the filter
 * would cost a join probe. Each engine says how it spells a parameter, a table and "no row".
 */
import type { KqlSource, SqlParamType, SqlParams, TableName } from "@/lib/kql";
import type { TelemetryScope } from "./store";

interface ScopeSpelling {
  /** The placeholder of a bound parameter. */
  param(name: string, type: SqlParamType): string;
  /** A table's qualified name. */
  table(name: TableName): string;
  /** A condition no row meets (an empty plant list). */
  never: string;
}

export function scopedSourcesOf(scope: TelemetryScope, spell: ScopeSpelling): Record<TableName, KqlSource> {
  const params: SqlParams = {
    scope_start: { type: "TIMESTAMP", value: scope.start.getTime() },
    scope_end: { type: "TIMESTAMP", value: scope.end.getTime() },
  };
  let plants = "";
  if (scope.plantIds) {
    const names = scope.plantIds.map((plantId, i) => {
      params[`scope_plant${i}`] = { type: "VARCHAR", value: plantId };
      return spell.param(`scope_plant${i}`, "VARCHAR");
    });
    plants = names.length > 0 ? ` AND "PlantId" IN (${names.join(", ")})` : ` AND ${spell.never}`;
  }
  const start = spell.param("scope_start", "TIMESTAMP");
  const end = spell.param("scope_end", "TIMESTAMP");
  return {
    States: { sql: `SELECT * FROM ${spell.table("States")} WHERE "Timestamp" >= ${start} AND "Timestamp" < ${end}${plants}`, params },
    Events: { sql: `SELECT * FROM ${spell.table("Events")} WHERE "StartTime" < ${end} AND ("EndTime" IS NULL OR "EndTime" >= ${start})${plants}`, params },
  };
}
