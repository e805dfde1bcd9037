/**
 * `npm run lint:openapi` (a stage of `npm test`): the generated OpenAPI document under Redocly's
 * recommended rules. Warnings fail it too: the document is generated, so a warning is fixed once
 * in the generator (lib/platform/openapi.ts) rather than tolerated in every run.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getServiceOpenApiDocument } from "../lib/service/openapi";

interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

const root = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(tmpdir(), "plantdesk-openapi-"));
const file = path.join(dir, "openapi.json");
writeFileSync(file, JSON.stringify(getServiceOpenApiDocument(), null, 2));

const result = spawnSync(path.join(root, "node_modules", ".bin", "redocly"), ["lint", "--extends=recommended", "--format=json", file], {
  cwd: dir,
  encoding: "utf8",
  // No usage report or update check: the machines reach no host but the package registries.
  env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
});
rmSync(dir, { recursive: true, force: true });

let report: RedoclyReport;
try {
  report = JSON.parse(result.stdout) as RedoclyReport;
} catch {
  console.error(`redocly lint gave no report (exit ${result.status ?? "none"}):\n${result.stderr}`);
  process.exit(1);
}
for (const problem of report.problems) {
  console.log(`${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? "#"}: ${problem.message}`);
}
const { errors, warnings } = report.totals;
console.log(`OpenAPI document (Redocly recommended): ${errors} errors, ${warnings} warnings`);
process.exit(errors + warnings === 0 ? 0 : 1);
