/**
 * The ratchet of Microsoft's documentation examples (testing/docs-examples.json, extracted from
 * MicrosoftDocs/dataexplorer-docs by scripts/kql-docs-extract.ts): every example listed in
 * testing/docs-passing.json gives the printed answer on its engine, and keeps giving it. The
 * whole set and its pass rates: `npm run conformance:docs` (docs/kql-conformance.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDocsExamples } from "../testing/docs-examples";
import { readPassing } from "../testing/docs-passing";
import { ENGINES, openDocsEngines, type DocsEngines } from "../../service/telemetry/testing/docs-runner.test-support";

const { examples } = loadDocsExamples();
const passing = readPassing();
const byId = new Map(examples.map((e) => [e.id, e]));

let engines: DocsEngines;
beforeAll(async () => {
  engines = await openDocsEngines({ timeoutMs: 20_000, database: `kql_docs_ratchet_${process.pid}` });
}, 60_000);
afterAll(() => engines?.close());

describe("Microsoft's documentation examples that pass keep passing", () => {
  it("names only examples of the extracted set", () => {
    const unknown = ENGINES.flatMap((engine) => passing[engine].filter((id) => !byId.has(id)));
    expect(unknown).toEqual([]);
    // The floor only rises (issue 32: sketches, buildschema, compression, ADX's context, …; issue 33: the geo lookups, scan).
    expect(passing.duckdb.length).toBeGreaterThanOrEqual(527);
    expect(passing.clickhouse.length).toBeGreaterThanOrEqual(521);
  });

  for (const engine of ENGINES) {
    it(`on ${engine}`, async () => {
      const regressions: string[] = [];
      for (const id of passing[engine]) {
        const outcome = await engines.run(engine, byId.get(id)!);
        if (outcome.status !== "pass") regressions.push(`${id} (${outcome.status}: ${outcome.message})\n  ${byId.get(id)!.query.replace(/\n/g, "\n  ")}`);
      }
      expect(regressions, `examples that gave the printed answer no longer do:\n${regressions.join("\n")}`).toEqual([]);
    }, 300_000); // ~40 s on a quiet machine; the 2-core machine at load 25-30 took over 110 s for 340 examples
  }
});
