/**
 * `npm run conformance:docs [-- --json out.json] [-- --only <id-substring>[,<another>…]] [-- --http]`: runs every
 * example of Microsoft's KQL documentation kept in lib/kql/testing/docs-examples.json on both
 * engines and prints the pass rates (overall and per category, per engine) and the failures grouped
 * by cause. --http runs the ClickHouse engine over HTTP (@clickhouse/client, the store's HTTP
 * executor) against `npm run clickhouse:dev` started for the run, as users run it, instead of chdb in process.
 * --write-passing rewrites the ratchet (lib/kql/testing/docs-passing.json) with today's passes:
 * run it after making examples pass, never to hide a regression (the ratchet test refuses that); with
 * --only it updates the examples run and keeps the rest of the list.
 */
import fs from "node:fs";
import { CATEGORIES, loadDocsExamples } from "@/lib/kql/testing/docs-examples";
import { causeOf, ENGINES, openDocsEngines, type Outcome } from "@/lib/service/telemetry/testing/docs-runner.test-support";
import { DOCS_PASSING_PATH, readPassing } from "@/lib/kql/testing/docs-passing";
import { httpExecutor } from "@/lib/service/telemetry/clickhouse/http-executor";
import { startClickHouseDev } from "@/lib/service/telemetry/clickhouse/testing/clickhouse-dev";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const file = loadDocsExamples();
  const only = option("--only");
  const parts = only?.split(",").filter(Boolean) ?? [];
  const examples = file.examples.filter((e) => !parts.length || parts.some((part) => e.id.includes(part)));
  const dev = process.argv.includes("--http") ? await startClickHouseDev() : null;
  const executor = dev ? httpExecutor({ url: dev.url, username: "default", password: "" }) : undefined;
  const engines = await openDocsEngines({ clickhouse: executor });
  const outcomes: Outcome[] = [];
  try {
    for (const example of examples) for (const engine of ENGINES) outcomes.push(await engines.run(engine, example));
  } finally {
    await engines.close();
    await executor?.close();
    await dev?.stop();
  }
  const byId = new Map(examples.map((e) => [e.id, e]));
  const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : "-");
  console.log(`Microsoft's KQL documentation, ${file.source.repository} @ ${file.source.commit.slice(0, 12)}: ${examples.length} examples; ClickHouse ${dev ? "over HTTP (clickhouse:dev)" : "in process (chdb)"}`);
  const rows: string[][] = [["category", "examples", ...ENGINES.map((e) => `${e} pass`)]];
  for (const category of ["all", "functions-only (no evaluate, no graph)", ...CATEGORIES]) {
    const inCategory = (o: Outcome) => {
      const c = byId.get(o.id)!.category;
      return category === "all" || (category.startsWith("functions-only") ? c === "functions" || c === "operators" : c === category);
    };
    const total = examples.filter((e) => inCategory({ id: e.id } as Outcome)).length;
    rows.push([
      category,
      String(total),
      ...ENGINES.map((engine) => {
        const passed = outcomes.filter((o) => o.engine === engine && o.status === "pass" && inCategory(o)).length;
        return `${passed} (${pct(passed, total)})`;
      }),
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
  for (const engine of ENGINES) {
    const mine = outcomes.filter((o) => o.engine === engine);
    const statuses = ["pass", "wrong", "refused", "error", "timeout"].map((s) => `${s} ${mine.filter((o) => o.status === s).length}`);
    console.log(`\n${engine}: ${statuses.join(", ")}. Failures by cause:`);
    const causes = new Map<string, string[]>();
    for (const o of mine.filter((o) => o.status !== "pass")) causes.set(causeOf(o), [...(causes.get(causeOf(o)) ?? []), o.id]);
    for (const [cause, ids] of [...causes].sort((a, b) => b[1].length - a[1].length).slice(0, Number(option("--causes") ?? 40))) {
      console.log(`  ×${ids.length}  ${cause}  (${ids.slice(0, 3).join(", ")}${ids.length > 3 ? ", …" : ""})`);
    }
  }
  const ratchet = readPassing();
  const regressions = ENGINES.flatMap((engine) => ratchet[engine].filter((id) => byId.has(id) && !outcomes.some((o) => o.id === id && o.engine === engine && o.status === "pass")).map((id) => `${engine} ${id}`));
  if (regressions.length) console.log(`\nRegressions against ${DOCS_PASSING_PATH}: ${regressions.join(", ")}`);
  const json = option("--json");
  if (json) fs.writeFileSync(json, JSON.stringify(outcomes, null, 1));
  if (process.argv.includes("--write-passing") && !dev) {
    // With --only, the examples run are updated and the others' entries kept as they are.
    const passing = Object.fromEntries(
      ENGINES.map((engine) => [engine, [...ratchet[engine].filter((id) => !byId.has(id)), ...outcomes.filter((o) => o.engine === engine && o.status === "pass").map((o) => o.id)].sort()]),
    );
    fs.writeFileSync(DOCS_PASSING_PATH, JSON.stringify(passing, null, 1) + "\n");
    console.log(`wrote ${DOCS_PASSING_PATH}`);
  }
}

await main();
