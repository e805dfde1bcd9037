import path from "node:path";
import { describe, expect, it } from "vitest";
import { figures, readImportGraph, violations, type ImportEdge, type ImportGraph } from "./import-graph";

const root = path.resolve(import.meta.dirname, "..");

/** The repository's own graph with one more arrow. */
function withArrow(graph: ImportGraph, edge: ImportEdge): ImportGraph {
  return { files: [...new Set([...graph.files, edge.from, ...(edge.to ? [edge.to] : [])])], edges: [...graph.edges, edge] };
}

describe("the import check", () => {
  const graph = readImportGraph(root);
  const rulesBroken = (edge: ImportEdge) => violations(withArrow(graph, edge)).map((v) => v.rule);

  it("passes on this tree", () => {
    expect(violations(graph)).toEqual([]);
  });

  it("reads imports as the compiler resolves them (the @/ alias, dynamic imports, type-only imports)", () => {
    const from = (file: string) => graph.edges.filter((e) => e.from === file).map((e) => e.to ?? e.pkg);
    expect(from("lib/service/routes.ts")).toEqual(expect.arrayContaining(["lib/platform/http/respond.ts", "lib/service/openapi.ts"]));
    expect(from("scripts/serve.ts")).toEqual(expect.arrayContaining(["lib/platform/http/node-adapter.ts", "node:module", "next"]));
  });

  it.each([
    ["kernel-stands-alone", { from: "lib/platform/openapi.ts", to: "modules/maintenance/service/endpoints.ts" }],
    ["kernel-stands-alone", { from: "lib/platform/ops/command.ts", to: "lib/service/database.ts" }],
    ["kernel-stands-alone", { from: "lib/platform/http/router.ts", to: "lib/dashboard-store/database.ts" }],
    ["contract-is-zod-only", { from: "lib/contract/dashboard.ts", to: "lib/auth/session.ts" }],
    ["contract-is-zod-only", { from: "lib/contract/errors.ts", pkg: "node:crypto" }],
    ["service-apart-from-dashboard-store", { from: "lib/service/runtime.ts", to: "lib/dashboard-store/database.ts" }],
    ["kql-is-pure", { from: "lib/kql/compile.ts", to: "lib/platform/sql.ts" }],
    ["kql-is-pure", { from: "lib/kql/compile.ts", pkg: "@duckdb/node-api" }],
    ["components-are-browser-code", { from: "modules/maintenance/components/tasks/task-board.tsx", to: "lib/service/runtime.ts" }],
    ["components-are-browser-code", { from: "modules/maintenance/components/tasks/task-board.tsx", pkg: "next-auth" }],
    ["components-are-browser-code", { from: "modules/maintenance/components/tasks/task-board.tsx", pkg: "node:fs" }],
    ["no-folder-loops", { from: "lib/platform/sql.ts", to: "lib/service/runtime.ts" }],
    ["floors", { from: "lib/platform/sql.ts", to: "lib/service/runtime.ts" }],
    // A feature's layers keep the floors (docs/architecture.md, "Features").
    ["floors", { from: "modules/example/store/rows.ts", to: "modules/example/api/routes.ts" }],
    ["components-are-browser-code", { from: "modules/example/components/view.tsx", to: "modules/example/store/rows.ts" }],
    ["components-are-browser-code", { from: "modules/example/client/fetch.ts", pkg: "node:fs" }],
    ["feature-contract-is-zod-only", { from: "modules/example/contract/schema.ts", to: "lib/platform/sql.ts" }],
    ["no-file-loops", { from: "lib/contract/vocabulary.ts", to: "lib/contract/common.ts" }],
    // Demo and seed modules reach production only through the assemblies (docs/architecture.md, "Demo apart").
    ["demo-apart", { from: "lib/service/database.ts", to: "modules/maintenance/service/seed.ts" }],
    ["demo-apart", { from: "lib/service/telemetry/duckdb/store.ts", to: "lib/service/telemetry/demo-data.ts" }],
    ["demo-apart", { from: "lib/service/telemetry/ingest/device-registry.ts", to: "lib/service/demo/catalog.ts" }],
    ["demo-apart", { from: "lib/auth/options.ts", to: "lib/dashboard-store/demo-users.ts" }],
    ["demo-apart", { from: "lib/service/telemetry/live/index.ts", to: "lib/service/telemetry/live/clickhouse-demo.ts" }],
    // The compiler's modules too: the analyzer's interface stands below the analyzer (analyzer-api.ts).
    ["no-file-loops", { from: "lib/kql/analyzer-api.ts", to: "lib/kql/analyze.ts" }],
  ] satisfies [string, ImportEdge][])("fails on %s: %o", (rule, edge) => {
    expect(rulesBroken(edge)).toContain(rule);
  });

  it("allows what the floors allow", () => {
    expect(rulesBroken({ from: "lib/platform/rate-limit.ts", to: "lib/shared-state/fixed-window.ts" })).toEqual([]);
    expect(rulesBroken({ from: "components/auth/sign-out.ts", pkg: "next-auth/react" })).toEqual([]);
    expect(rulesBroken({ from: "lib/service/runtime.ts", to: "lib/platform/http/router.ts" })).toEqual([]);
    expect(rulesBroken({ from: "modules/example/api/routes.ts", to: "modules/example/store/rows.ts" })).toEqual([]);
    expect(rulesBroken({ from: "modules/example/components/view.tsx", to: "modules/example/contract/schema.ts" })).toEqual([]);
    expect(rulesBroken({ from: "lib/contract/api.ts", to: "modules/example/contract/schema.ts" })).toEqual([]);
    // The assemblies, demo modules, tests and benchmarks may load the demo; a migration is no demo module.
    expect(rulesBroken({ from: "lib/service/runtime.ts", to: "modules/maintenance/service/seed.ts" })).toEqual([]);
    expect(rulesBroken({ from: "modules/maintenance/service/seed.ts", to: "lib/service/demo/catalog.ts" })).toEqual([]);
    expect(rulesBroken({ from: "modules/maintenance/store/store.test.ts", to: "modules/maintenance/service/seed.ts" })).toEqual([]);
    expect(rulesBroken({ from: "bench/ingest.ts", to: "lib/service/demo/catalog.ts" })).toEqual([]);
    expect(rulesBroken({ from: "modules/maintenance/store/migrations/index.ts", to: "modules/maintenance/store/migrations/005-demo-state.ts" })).toEqual([]);
  });

  it("counts loops between files and between folders, a parent with its own subfolder too", () => {
    const graph: ImportGraph = {
      files: ["lib/kql/x.ts", "lib/kql/y.ts", "lib/kql/sub/z.ts", "lib/contract/w.ts"],
      edges: [
        { from: "lib/kql/x.ts", to: "lib/kql/y.ts" },
        { from: "lib/kql/y.ts", to: "lib/kql/x.ts" },
        { from: "lib/kql/x.ts", to: "lib/kql/sub/z.ts" },
        { from: "lib/kql/sub/z.ts", to: "lib/kql/y.ts" },
        { from: "lib/kql/y.ts", to: "lib/contract/w.ts" },
      ],
    };
    const counted = figures(graph, []);
    expect(counted.fileCycles).toEqual([["lib/kql/sub/z.ts", "lib/kql/x.ts", "lib/kql/y.ts"]]);
    expect(counted.folderCycles).toEqual([["lib/kql", "lib/kql/sub"]]);
    expect(counted.upwardArrows).toEqual([]);
    // An allowed arrow takes the loop out of the count, and is reported while it still closes one.
    const allowed = figures(graph, ["lib/kql → lib/kql/sub"]);
    expect(allowed.folderCycles).toEqual([]);
    expect(allowed.allowedFolderCycles).toEqual([["lib/kql", "lib/kql/sub"]]);
    expect(allowed.staleAllowances).toEqual([]);
    expect(figures(graph, ["lib/kql → lib/contract"]).staleAllowances).toEqual(["lib/kql → lib/contract"]);
    const looped = figures({ files: ["lib/kql/x.ts", "lib/contract/w.ts"], edges: [{ from: "lib/kql/x.ts", to: "lib/contract/w.ts" }, { from: "lib/contract/w.ts", to: "lib/kql/x.ts" }] });
    expect(looped.folderCycles).toEqual([["lib/contract", "lib/kql"]]);
    expect(looped.upwardArrows).toEqual(["lib/contract → lib/kql"]);
  });

  it("counts a loop between sibling folders", () => {
    const counted = figures({
      files: ["lib/kql/a/x.ts", "lib/kql/a/z.ts", "lib/kql/b/y.ts"],
      edges: [
        { from: "lib/kql/a/x.ts", to: "lib/kql/b/y.ts" },
        { from: "lib/kql/b/y.ts", to: "lib/kql/a/z.ts" },
      ],
    }, []);
    expect(counted.fileCycles).toEqual([]);
    expect(counted.folderCycles).toEqual([["lib/kql/a", "lib/kql/b"]]);
  });

  it("holds test support to its room's floor; tests may import anything", () => {
    expect(rulesBroken({ from: "lib/kql/testing/engine.test-support.ts", to: "lib/service/runtime.ts" })).toContain("floors");
    expect(rulesBroken({ from: "lib/service/telemetry/testing/client.ts", to: "lib/service/runtime.ts" })).toContain("floors");
    expect(rulesBroken({ from: "lib/shared-state/testing.ts", to: "lib/service/runtime.ts" })).toContain("floors");
    expect(rulesBroken({ from: "lib/kql/compile.test.ts", to: "lib/service/runtime.ts" })).toEqual([]);
  });
});
