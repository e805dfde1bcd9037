/**
 * `npm test`: lint, typecheck, the import check (scripts/check-imports.ts), OpenAPI lint, unit +
 * API tests (Vitest), production build, browser tests (Playwright). Each stage runs even when an earlier one failed, so one run shows every
 * problem. The last line totals all suites as `N passed, N failed` (the form CI reads); skipped
 * tests count as neither.
 *
 * Before any stage, the browser check (scripts/chromium.ts): Chromium is installed when missing
 * and installable, or the run stops at once with one line saying what to run. Suites that need
 * PostgreSQL, Redis or MQTT skip themselves when those do not answer (lib/testing/with-service.ts);
 * `PLANTDESK_REQUIRE_SERVICES=1` turns those skips into failures.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { probeServices, servicesRequired, summarizeServices } from "../lib/testing/services";
import { ensureChromium } from "./chromium";

const browserProblem = ensureChromium();
if (browserProblem) {
  console.error(browserProblem);
  process.exit(1);
}

const root = path.resolve(import.meta.dirname, "..");
const results = path.join(root, "test-results");
mkdirSync(results, { recursive: true });

interface Tally {
  passed: number;
  failed: number;
}
const total: Tally = { passed: 0, failed: 0 };
const summary: string[] = [];

function run(label: string, command: string, args: string[], env: Record<string, string> = {}): boolean {
  console.log(`\n━━ ${label}: ${command} ${args.join(" ")}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  const ok = result.status === 0;
  summary.push(`${ok ? "ok  " : "FAIL"} ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return ok;
}

/** A stage that is one check (lint, typecheck, build) counts as one test. */
function check(label: string, command: string, args: string[], env: Record<string, string> = {}): boolean {
  const ok = run(label, command, args, env);
  if (ok) total.passed += 1;
  else total.failed += 1;
  return ok;
}

function readJson(file: string): unknown {
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null;
}

/** A failure's first three lines, on one line and without ANSI colours: the error, and a property test's counterexample. */
function firstLines(message: string): string {
  return message
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n").map((line) => line.trim()).filter(Boolean).slice(0, 3).join(" · ").slice(0, 400);
}

/**
 * The failed tests by name, with the first line of each failure, in the closing summary: a CI log
 * that keeps only its tail still says which test failed and why.
 */
function vitestFailures(report: VitestReport): string[] {
  const lines: string[] = [];
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      if (test.status !== "failed") continue;
      const reason = firstLines(test.failureMessages[0] ?? "");
      lines.push(`     ✗ ${path.relative(root, file.name)} › ${test.fullName}`, `       ${reason}`);
    }
  }
  return lines;
}

interface PlaywrightSuite {
  title: string;
  file?: string;
  specs?: { title: string; ok: boolean; file: string; line: number; tests: { projectName?: string; results: { duration?: number; error?: { message?: string } }[] }[] }[];
  suites?: PlaywrightSuite[];
}
interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number };
  suites: PlaywrightSuite[];
  /** Errors outside any test, such as a web server that did not start. */
  errors?: { message?: string }[];
}

function playwrightFailures(suites: PlaywrightSuite[]): string[] {
  const lines: string[] = [];
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) {
      if (spec.ok) continue;
      const message = spec.tests.flatMap((t) => t.results).find((r) => r.error?.message)?.error?.message ?? "";
      const reason = firstLines(message);
      lines.push(`     ✗ e2e/${spec.file}:${spec.line} › ${spec.title}`, `       ${reason}`);
    }
    lines.push(...playwrightFailures(suite.suites ?? []));
  }
  return lines;
}

/**
 * Where a suite's time went: the slowest files, with seconds (the sum of their tests' durations),
 * so a CI log that keeps only its tail still says what to make faster.
 */
function slowest(label: string, seconds: Map<string, number>, count = 8): string {
  const top = [...seconds].sort((a, b) => b[1] - a[1]).slice(0, count);
  return `     ${label}: ${top.map(([file, s]) => `${file} ${s.toFixed(0)} s`).join(", ")}`;
}

function playwrightSecondsByFile(suites: PlaywrightSuite[], into = new Map<string, number>()): Map<string, number> {
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) {
      const ms = spec.tests.flatMap((t) => t.results).reduce((sum, r) => sum + (r.duration ?? 0), 0);
      into.set(spec.file, (into.get(spec.file) ?? 0) + ms / 1000);
    }
    playwrightSecondsByFile(suite.suites ?? [], into);
  }
  return into;
}

/**
 * A suite that failed with no failed test to name (it crashed, or its server never started):
 * counted as one failure, and said so in the summary with the first lines of its error when known.
 */
function endedEarly(label: string, error?: string): void {
  total.failed += 1;
  const reason = error ? firstLines(error) : "see its output above";
  summary.push(`     ✗ ${label} ended before reporting a result: ${reason}`);
}

const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

/** `git status --porcelain`, or null outside a git checkout (a tarball, say). */
function gitStatus(): string | null {
  const result = spawnSync("git", ["status", "--porcelain"], { cwd: root, encoding: "utf8" });
  return result.status === 0 ? result.stdout : null;
}
// The README promises that its commands leave `git status` clean: whatever this run changes in
// tracked or unignored files (a build rewriting tsconfig.json, a test writing beside the code)
// fails it. Compared with the state at the start, so a developer's own edits are not counted.
const statusBefore = gitStatus();

check("lint", bin("eslint"), ["."]);
const typechecked = check("typecheck", bin("tsc"), ["--noEmit"]);
check("imports", bin("tsx"), ["scripts/check-imports.ts"]);
check("OpenAPI lint", bin("tsx"), ["scripts/lint-openapi.ts"]);

// One line up front; each skipped suite also says so itself in the Vitest output.
console.log(`\n${summarizeServices(Object.values(await probeServices()), servicesRequired())}`);

const vitestReport = path.join(results, "vitest.json");
rmSync(vitestReport, { force: true });
const vitestOk = run("unit and API tests", bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestReport}`]);
interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: { name: string; startTime?: number; endTime?: number; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}
const vitest = readJson(vitestReport) as VitestReport | null;
if (vitest) {
  total.passed += vitest.numPassedTests;
  total.failed += vitest.numFailedTests;
  if (vitest.numPendingTests > 0) summary.push(`     (${vitest.numPendingTests} unit and API tests skipped: not counted)`);
  summary.push(...vitestFailures(vitest));
  const byFile = new Map(vitest.testResults.map((file) => [path.relative(root, file.name), ((file.endTime ?? 0) - (file.startTime ?? 0)) / 1000]));
  summary.push(slowest("slowest files", byFile));
}
if (!vitestOk && (!vitest || vitest.numFailedTests === 0)) endedEarly("unit and API tests");

// The sources were type-checked above: the build need not check them again (next.config.mjs).
const built = check("production build", bin("next"), ["build"], typechecked ? { PLANTDESK_TYPECHECKED: "1" } : {});
if (built) {
  const playwrightReport = path.join(results, "playwright.json");
  rmSync(playwrightReport, { force: true });
  const e2eOk = run("browser tests", bin("playwright"), ["test"], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport });
  const e2e = readJson(playwrightReport) as PlaywrightReport | null;
  if (e2e) {
    total.passed += e2e.stats.expected + e2e.stats.flaky;
    total.failed += e2e.stats.unexpected;
    summary.push(...playwrightFailures(e2e.suites));
    summary.push(slowest("slowest specs", playwrightSecondsByFile(e2e.suites), 12));
  }
  if (!e2eOk && (!e2e || e2e.stats.unexpected === 0)) endedEarly("browser tests", e2e?.errors?.find((e) => e.message)?.message);
}

const statusAfter = gitStatus();
if (statusBefore !== null && statusAfter !== statusBefore) {
  total.failed += 1;
  const changed = statusAfter!.split("\n").filter((line) => line && !statusBefore.split("\n").includes(line));
  summary.push(`FAIL the run changed the work tree (git status): ${changed.slice(0, 5).join("; ") || "files went back to their committed state"}`);
} else if (statusBefore !== null) {
  total.passed += 1;
  summary.push("ok   the run left git status as it found it");
}

console.log(`\n${summary.join("\n")}`);
console.log(`${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed === 0 ? 0 : 1);
