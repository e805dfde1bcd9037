/**
 * TEST-ONLY: Microsoft's own KQL parser and binder (@kusto/language-service-next, Kusto.Language
 * translated to JavaScript), with the States and Events tables of tables.ts, as an outside
 * reference: does a query parse there, and which result columns (names and types) does it derive?
 */
import { createRequire } from "node:module";
import { TABLES, TABLE_NAMES } from "../tables";

/* eslint-disable @typescript-eslint/no-explicit-any -- the Bridge.NET output has no usable typings */
const require = createRequire(import.meta.url);
require("@kusto/language-service-next/bridge.min.js");
require("@kusto/language-service-next/Kusto.Language.Bridge.min.js");
const Kusto = (globalThis as any).Kusto;

const tables = TABLE_NAMES.map(
  (name) => new Kusto.Language.Symbols.TableSymbol.$ctor7(name, `(${TABLES[name].columns.map((c) => `${c.name}:${c.kqlType}`).join(", ")})`, null),
);
const globals = Kusto.Language.GlobalState.Default.WithDatabase(new Kusto.Language.Symbols.DatabaseSymbol.$ctor2("db", null, tables));

interface ReferenceResult {
  errors: string[];
  columns: { name: string; type: string }[];
}

export function microsoftAnalysis(query: string): ReferenceResult {
  return analyse(query, globals);
}

function analyse(query: string, state: unknown): ReferenceResult {
  const code = Kusto.Language.KustoCode.ParseAndAnalyze(query, state);
  const diagnostics = code.GetDiagnostics();
  const errors: string[] = [];
  for (let i = 0; i < diagnostics.Count; i++) {
    const d = diagnostics.getItem(i);
    if (d.Severity === "Error") errors.push(d.Message);
  }
  const columns: { name: string; type: string }[] = [];
  const result = code.ResultType;
  if (result?.Columns) for (let i = 0; i < result.Columns.Count; i++) columns.push({ name: result.Columns.getItem(i).Name, type: result.Columns.getItem(i).Type.Name });
  return { errors, columns };
}

/** The analysis with no database at all (GlobalState.Default): a query that binds here needs no table. */
export function microsoftStandalone(query: string): ReferenceResult {
  return analyse(query, Kusto.Language.GlobalState.Default);
}

/**
 * Microsoft's catalogue: the public, non-obsolete scalar functions (Kusto.Language.Functions.All)
 * and aggregates (Aggregates.All), by name.
 */
export function microsoftCatalogue(): { functions: string[]; aggregates: string[] } {
  const names = (symbols: { Name: string; IsHidden: boolean; IsObsolete: boolean }[]) =>
    [...new Set(symbols.filter((s) => !s.IsHidden && !s.IsObsolete).map((s) => s.Name))].sort();
  return { functions: names(Kusto.Language.Functions.All), aggregates: names(Kusto.Language.Aggregates.All) };
}
