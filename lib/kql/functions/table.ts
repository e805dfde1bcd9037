/**
 * The function table: every KQL function the engine knows, one entry each (entry.ts), gathered
 * from the family files. The analyzer, the dialects and the editor's completion, hover and
 * diagnostics all read it. Several engineers add entries at once: each family is its own file.
 */
import type { FunctionEntry } from "./entry";
import { ADX_CONTEXT } from "./adx-context";
import { AGGREGATES } from "./aggregates";
import { BAGS } from "./bags";
import { COLLECTIONS } from "./collections";
import { COMPRESSION } from "./compression";
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
import { SKETCHES } from "./sketches";
import { SERIES_ELEMENTWISE } from "./series-elementwise";
import { STRINGS } from "./strings";
import { TEXT_FUNCTIONS } from "./text-functions";
import { TIME_ZONE_FUNCTIONS } from "./time-zones";
import { UNITS } from "./units";

const FAMILIES: readonly (readonly FunctionEntry[])[] = [ADX_CONTEXT, AGGREGATES, BAGS, COLLECTIONS, COMPRESSION, CONVERSIONS, DATETIME, DYNAMIC, ENCODINGS, GEO, GEOHASH, HASHES, IP_ADDRESSES, LOGIC, MATH, NUMBERS, ROWS, SERIES, SERIES_ELEMENTWISE, SKETCHES, STRINGS, TEXT_FUNCTIONS, TIME_ZONE_FUNCTIONS, UNITS];

/**
 * A name is listed at most once per kind. A few names are both an aggregate and a scalar function
 * (ADX's hll_merge, merge_tdigest, tdigest_merge: merge the sketches of a column's rows, or of the
 * arguments): then the aggregate is the table's entry and the scalar its twin (functionEntry).
 */
function gather(): { table: ReadonlyMap<string, FunctionEntry>; twins: ReadonlyMap<string, FunctionEntry> } {
  const table = new Map<string, FunctionEntry>();
  const twins = new Map<string, FunctionEntry>();
  for (const family of FAMILIES) {
    for (const entry of family) {
      if (entry.signatures && !entry.sql) throw new Error(`${entry.name}: a declared function needs each engine's spelling`);
      const listed = table.get(entry.name);
      if (!listed) table.set(entry.name, entry);
      else if (listed.kind !== entry.kind && !twins.has(entry.name)) {
        twins.set(entry.name, entry.kind === "scalar" ? entry : listed);
        if (entry.kind === "aggregate") table.set(entry.name, entry);
      } else throw new Error(`The function table lists ${entry.name} twice`);
    }
  }
  return { table, twins };
}

const gathered = gather();
export const FUNCTION_TABLE: ReadonlyMap<string, FunctionEntry> = gathered.table;

/** The entry of a name; `scalar` asks for the scalar function of a name that is also an aggregate. */
export function functionEntry(name: string, kind?: FunctionEntry["kind"]): FunctionEntry | undefined {
  return (kind === "scalar" ? gathered.twins.get(name) : undefined) ?? FUNCTION_TABLE.get(name);
}

/** Whether a name that is an aggregate also names a scalar function. */
export function hasScalarTwin(name: string): boolean {
  return gathered.twins.has(name);
}

export const SCALAR_FUNCTIONS: readonly string[] = [...[...FUNCTION_TABLE.values()].filter((e) => e.kind === "scalar").map((e) => e.name), ...gathered.twins.keys()];
export const AGGREGATE_FUNCTIONS: readonly string[] = [...FUNCTION_TABLE.values()].filter((e) => e.kind === "aggregate").map((e) => e.name);
