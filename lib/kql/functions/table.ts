/**
 * The function table: every KQL function the engine knows, one entry each (entry.ts), gathered
 * from the family files. The analyzer, the dialects and the editor's completion, hover and
 * diagnostics all read it. Several engineers add entries at once: each family is its own file.
 */
import type { FunctionEntry } from "./entry";
import { AGGREGATES } from "./aggregates";
import { BAGS } from "./bags";
import { COLLECTIONS } from "./collections";
import { CONVERSIONS } from "./conversions";
import { DATETIME } from "./datetime";
import { DYNAMIC } from "./dynamic";
import { ENCODINGS } from "./encodings";
import { GEO } from "./geo";
import { GEOHASH } from "./geohash";
import { HASHES } from "./hashes";
import { IP_ADDRESSES } from "./ip-addresses";
import { LOGIC } from "./logic";
import { MATH } from "./math";
import { NUMBERS } from "./numbers";
import { ROWS } from "./rows";
import { SERIES } from "./series";
import { SERIES_ELEMENTWISE } from "./series-elementwise";
import { STRINGS } from "./strings";
import { TEXT_FUNCTIONS } from "./text-functions";
import { TIME_ZONE_FUNCTIONS } from "./time-zones";
import { UNITS } from "./units";

const FAMILIES: readonly (readonly FunctionEntry[])[] = [AGGREGATES, BAGS, COLLECTIONS, CONVERSIONS, DATETIME, DYNAMIC, ENCODINGS, GEO, GEOHASH, HASHES, IP_ADDRESSES, LOGIC, MATH, NUMBERS, ROWS, SERIES, SERIES_ELEMENTWISE, STRINGS, TEXT_FUNCTIONS, TIME_ZONE_FUNCTIONS, UNITS];

function gather(): ReadonlyMap<string, FunctionEntry> {
  const table = new Map<string, FunctionEntry>();
  for (const family of FAMILIES) {
    for (const entry of family) {
      if (table.has(entry.name)) throw new Error(`The function table lists ${entry.name} twice`);
      if (entry.signatures && !entry.sql) throw new Error(`${entry.name}: a declared function needs each engine's spelling`);
      table.set(entry.name, entry);
    }
  }
  return table;
}

export const FUNCTION_TABLE: ReadonlyMap<string, FunctionEntry> = gather();

export function functionEntry(name: string): FunctionEntry | undefined {
  return FUNCTION_TABLE.get(name);
}

export const SCALAR_FUNCTIONS: readonly string[] = [...FUNCTION_TABLE.values()].filter((e) => e.kind === "scalar").map((e) => e.name);
export const AGGREGATE_FUNCTIONS: readonly string[] = [...FUNCTION_TABLE.values()].filter((e) => e.kind === "aggregate").map((e) => e.name);
