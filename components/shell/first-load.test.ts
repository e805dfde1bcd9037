/**
 * The browser's modules must not pull zod and the contract's schemas into a page's first load:
 * they load with a form or an error (docs/architecture.md, "What the browser loads"). A shared
 * helper importing a schema module once put ~100 kB (gzip) on every page; this walks the static
 * imports (not `import type`, not `import()`) of every "use client" module and fails on the way
 * to zod, naming the chain. The exceptions are the forms that check as you type with a schema.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith("@/") && !specifier.startsWith(".")) return null;
  const base = specifier.startsWith("@/") ? path.join(root, specifier.slice(2)) : path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) if (existsSync(candidate) && candidate.match(/\.tsx?$/)) return candidate;
  throw new Error(`${path.relative(root, from)}: cannot resolve ${specifier}`);
}

/** The chain of files from `entry` to a file that imports zod, or null. */
function pathToZod(entry: string): string[] | null {
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]): string[] | null => {
    if (seen.has(file)) return null;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^;"']*?\bfrom\s+)?["']([^"']+)["']/gm)) {
      const specifier = match[1]!;
      if (specifier === "zod" || specifier.startsWith("zod/")) return [...chain, path.relative(root, file)];
      const next = resolve(file, specifier);
      const found = next && walk(next, [...chain, path.relative(root, file)]);
      if (found) return found;
    }
    return null;
  };
  return walk(entry, []);
}

/** Forms that validate each field with the contract's schema as it is typed: zod is their point. */
const SCHEMA_FORMS = ["modules/monitors/components/contact-points-page.tsx", "modules/monitors/components/routing-policy-editor.tsx"];

describe("the browser's first load", () => {
  it("no client module but the schema forms reaches zod through its static imports", () => {
    const clientModules = execFileSync("git", ["grep", "-l", "^\"use client\"", "--", "*.ts", "*.tsx"], { cwd: root, encoding: "utf8" }).trim().split("\n");
    expect(clientModules.length).toBeGreaterThan(50);
    const reaching = clientModules.filter((file) => !SCHEMA_FORMS.includes(file)).flatMap((file) => {
      const chain = pathToZod(path.join(root, file));
      return chain ? [chain.join(" → ")] : [];
    });
    expect(reaching).toEqual([]);
  });

  it.each(["components/shell/app-shell.tsx", "components/shell/providers.tsx"])("%s reaches no zod through its static imports", (entry) => {
    expect(pathToZod(path.join(root, entry))).toBeNull();
  });

  it("the walk finds zod where it is (the maintenance contract)", () => {
    expect(pathToZod(path.join(root, "modules/maintenance/contract/maintenance.ts"))).toEqual(["modules/maintenance/contract/maintenance.ts", "lib/contract/zod.ts"]);
  });
});
