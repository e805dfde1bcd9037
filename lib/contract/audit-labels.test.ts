/**
 * Every action code the code records has words in the audit log (the page and the CSV never show a
 * raw code): the codes are read from the source, as written in the operation tables' `audit` and
 * the routes' `auditAction`, so an action added without a label fails here.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS, auditActionLabel } from "./audit-labels";

const root = path.resolve(import.meta.dirname, "../..");

function recordedActions(): string[] {
  const found = execFileSync("git", ["grep", "-hoE", "(audit: \\{ action|auditAction): \"[a-z.-]+\"", "--", "lib/*.ts", "modules/*.ts", ":!*.test.ts"], { cwd: root, encoding: "utf8" });
  return [...new Set(found.trim().split("\n").map((line) => line.replace(/.*"([^"]+)"$/, "$1")))].sort();
}

describe("audit action labels", () => {
  it("reads the recorded actions from the source (the walk finds what it must)", () => {
    const actions = recordedActions();
    expect(actions).toContain("task.create");
    expect(actions).toContain("saved-query.create");
    expect(actions.length).toBeGreaterThan(20);
  });

  it("every recorded action has words", () => {
    expect(recordedActions().filter((action) => !(action in AUDIT_ACTIONS))).toEqual([]);
  });

  it("an unknown code is shown as it is, not hidden", () => {
    expect(auditActionLabel("x.unknown")).toBe("x.unknown");
  });
});
