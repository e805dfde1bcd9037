/**
 * Coverage of Microsoft's catalogue: every public, non-obsolete scalar function of Kusto.Language
 * (Functions.All, 385) and every aggregate (Aggregates.All, 52) is known to the engine, except the
 * names of testing/catalogue-unknown.json. That list only shrinks: a name the engine learns must
 * leave it (the test fails until it does), and a name neither known nor listed fails the test.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGGREGATE_FUNCTIONS, SCALAR_FUNCTIONS } from "./functions/table";
import { microsoftCatalogue } from "./testing/microsoft";

const here = path.dirname(new URL(import.meta.url).pathname);
const unknownList = JSON.parse(fs.readFileSync(path.join(here, "testing/catalogue-unknown.json"), "utf8")) as { scalars: string[]; aggregates: string[] };
const catalogue = microsoftCatalogue();

/** The data-source references belong to the operators (docs/kql-conformance.md): never functions of the table. */
const DATA_SOURCES = ["cluster", "database", "table", "external_table", "materialized_view", "entity_group", "stored_query_result", "graph"];

describe("Microsoft's catalogue (Kusto.Language)", () => {
  it("has the size this test was written for", () => {
    expect([catalogue.functions.length, catalogue.aggregates.length]).toEqual([385, 52]);
  });

  for (const [kind, names, known, allowed] of [
    ["scalar functions", catalogue.functions.filter((n) => !DATA_SOURCES.includes(n)), new Set(SCALAR_FUNCTIONS), unknownList.scalars],
    ["aggregates", catalogue.aggregates, new Set(AGGREGATE_FUNCTIONS), unknownList.aggregates],
  ] as const) {
    it(`knows every one of its ${kind} but the listed ones, and the list only shrinks`, () => {
      const unknown = names.filter((n) => !known.has(n));
      expect(unknown.filter((n) => !allowed.includes(n)), `${kind} unknown to the engine and not in testing/catalogue-unknown.json`).toEqual([]);
      expect(allowed.filter((n) => known.has(n) || !names.includes(n)), `${kind} the engine knows now (or Microsoft no longer lists): remove them from testing/catalogue-unknown.json`).toEqual([]);
      console.log(`${kind}: the engine knows ${names.length - unknown.length} of ${names.length}`);
    });
  }
});
