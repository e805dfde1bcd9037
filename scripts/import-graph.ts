/**
 * The project's import graph and the rules its floors keep (docs/architecture.md, "Floors").
 * Read with TypeScript's own parser and module resolution (the tsconfig's `@/` alias included),
 * so an import the compiler follows is an arrow here, `import type` and `await import()` too.
 * scripts/check-imports.ts prints the figures and fails `npm test` on a forbidden arrow.
 */
import { execFileSync } from "node:child_process";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";

/** One import: from a repository file to another (`to`) or to a package (`pkg`, the specifier as written, `node:` added to built-ins). */
export interface ImportEdge {
  from: string;
  to?: string;
  pkg?: string;
  /** Only types are imported (`import type`, `export type … from`): nothing of the module is loaded or bundled. */
  typeOnly?: boolean;
}

/** The specifiers a file imports for types only (every import of them is `import type` / `export type`). */
function typeOnlySpecifiers(text: string): Set<string> {
  const typeOnly = new Set<string>();
  const valued = new Set<string>();
  for (const [, kind, spec] of text.matchAll(/^\s*(import type|export type|import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gms)) {
    (kind === "import type" || kind === "export type" ? typeOnly : valued).add(spec!);
  }
  for (const spec of valued) typeOnly.delete(spec);
  return typeOnly;
}

export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
}

const SOURCE = /\.(ts|tsx|mts)$/;

/** The repository's TypeScript files (tracked or new, not ignored) and every import they make. */
export function readImportGraph(root: string): ImportGraph {
  const listed = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: root, encoding: "utf8" });
  const files = listed.split("\n").filter((f) => SOURCE.test(f) && !f.endsWith(".d.ts") && ts.sys.fileExists(path.join(root, f)));
  const options: ts.CompilerOptions = { moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext, baseUrl: root, paths: { "@/*": ["./*"] }, allowImportingTsExtensions: true, resolveJsonModule: true };
  const host = ts.createCompilerHost(options);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = ts.sys.readFile(path.join(root, file)) ?? "";
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const typeOnly = typeOnlySpecifiers(text);
    for (const { fileName: specifier } of importedFiles) {
      const resolved = ts.resolveModuleName(specifier, path.join(root, file), options, host).resolvedModule;
      const target = resolved ? path.relative(root, resolved.resolvedFileName).split(path.sep).join("/") : undefined;
      if (target && !target.startsWith("node_modules/") && !target.startsWith("..")) edges.push({ from: file, to: target, ...(typeOnly.has(specifier) ? { typeOnly: true } : {}) });
      else edges.push({ from: file, pkg: builtinModules.includes(packageName(specifier).replace(/^node:/, "")) && !specifier.startsWith("node:") ? `node:${specifier}` : specifier });
    }
  }
  return { files, edges };
}

/** `node:fs` → `node:fs`, `fs` → `node:fs`, `@scope/a/b` → `@scope/a`, `a/b` → `a`. */
function packageName(specifier: string): string {
  if (specifier.startsWith("node:")) return specifier;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  return builtinModules.includes(name) ? `node:${name}` : name;
}

export const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.startsWith("e2e/");
/**
 * Test support: helpers only tests, benchmarks and scripts load — a `testing/` folder, a `testing.ts`
 * file or a `*.test-support.ts` file. It keeps its room's floor and joins the loop count like any
 * module; only tests themselves (nothing imports them) are left out.
 */
const isTestSupport = (file: string) => !isTest(file) && (/(^|\/)testing(\/|\.ts$)/.test(file) || /\.test-support\.ts$/.test(file));

/**
 * A demo or seed module (docs/architecture.md, "Demo apart"): anything under `lib/service/demo/`,
 * and any other module whose name has `demo` or `seed` as a word (`seed.ts`, `seed-plans.ts`,
 * `demo-users.ts`, `clickhouse-demo.ts`, `scripts/seed.ts`). Tests, test support and migrations are
 * none (a migration is schema, applied to every database, demo or not).
 */
const isDemoModule = (file: string) =>
  !isTest(file) && !isTestSupport(file) && !file.includes("/migrations/") &&
  (file.startsWith("lib/service/demo/") || /(^|\/|-)(demo|seed)(-[^/]*)?\.tsx?$/.test(file));

/**
 * The modules that wire the demo in (docs/architecture.md, "Demo apart"): the service's assembly
 * (its seed, the demo telemetry, the running demo plant) and the server process, where the
 * dashboard's demo users are made (lib/service may not touch the dashboard's store). Every other
 * production module receives what it needs from them: a seed hook, a device list, a live demo.
 */
export const DEMO_ASSEMBLIES: readonly string[] = ["lib/service/runtime.ts", "scripts/serve.ts"];

/** Who may import a demo module: the assemblies, other demo modules, tests, test support, benchmarks. */
const mayImportDemo = (file: string) => DEMO_ASSEMBLIES.includes(file) || isDemoModule(file) || isTest(file) || isTestSupport(file) || file.startsWith("bench/");

/** The production modules that import a demo module although they may not (check:imports prints them; 0 allowed). */
export const demoImporters = (graph: ImportGraph): string[] =>
  [...new Set(graph.edges.filter((e) => e.to !== undefined && isDemoModule(e.to) && !mayImportDemo(e.from)).map((e) => e.from))].sort();

/**
 * A room: a folder with one job. `lib/<name>`, the service's domains and folders apart
 * (`lib/service/<name>`), the service's own root files (its assembly), or a top-level folder.
 */
export function roomOf(file: string): string {
  const parts = file.split("/");
  // A feature's room is one of its layers: `modules/monitors/store/…` → `modules/monitors/store`.
  if (parts[0] === "modules") return parts.length > 3 ? parts.slice(0, 3).join("/") : parts.slice(0, 2).join("/");
  // Next's proxy (middleware) is part of the app; the tools' configuration files stand on top.
  if (parts.length === 1) return /\.config\.[cm]?ts$/.test(file) ? "(config)" : "app";
  if (parts[0] !== "lib") return parts[0]!;
  if (parts.length === 2) return "lib";
  if (parts[1] === "service" && parts.length > 3) return `lib/service/${parts[2]}`;
  return `lib/${parts[1]}`;
}

/**
 * The floors, lowest first: a room may import its own floor and the ones below, never one above.
 * Entry points stand on top and tests (`*.test.ts`, e2e/) may import anything; test support keeps
 * the floor of the room it lives in (`lib/kql/testing/` is lib/kql's floor).
 */
const FLOORS: readonly (readonly string[])[] = [
  ["lib/contract"],
  // lib/testing: test support that stands on packages alone (free ports, services, Mosquitto, PostgreSQL schemas).
  ["lib", "lib/shared-state", "lib/kql", "lib/series", "packages", "lib/testing"],
  ["lib/platform"],
  ["lib/service/demo", "lib/service/telemetry", "lib/dashboard-store"],
  // lib/service/testing: test support that starts the assembled service.
  ["lib/service", "lib/service/testing", "lib/upstream", "lib/auth", "lib/client"],
  ["lib/api-handler"],
  ["lib/bff"],
  ["components", "app"],
  ["scripts", "bench", "e2e", "(config)"],
];

/**
 * A feature folder's layers (docs/architecture.md, "Features"), each on the floor of the room it
 * replaces: a feature's contract is the contract's floor, its store the stores' floor, its service the
 * assembly's (it may use the upstream, the stores and the kernel), its /api/ routes the dashboard API's,
 * its client (the browser's fetch helpers and hooks) the clients' floor and its components the pages'.
 */
const FEATURE_LAYERS: Readonly<Record<string, number>> = { contract: 0, store: 3, service: 4, client: 4, api: 5, components: 7 };

/** The features, each one folder: `modules/<feature>/`. */
export const featureOf = (file: string): string | undefined => (file.startsWith("modules/") ? file.split("/")[1] : undefined);

function floorOf(room: string): number {
  const layer = /^modules\/[^/]+\/([^/]+)$/.exec(room)?.[1];
  if (room.startsWith("modules/")) {
    if (layer === undefined || !(layer in FEATURE_LAYERS)) throw new Error(`${room}: a feature's files live in one of its layers, modules/<feature>/{${Object.keys(FEATURE_LAYERS).join(",")}}/ (docs/architecture.md, "Features").`);
    return FEATURE_LAYERS[layer]!;
  }
  const floor = FLOORS.findIndex((rooms) => rooms.includes(room));
  if (floor < 0) throw new Error(`${room} is on no floor: add it to FLOORS in scripts/import-graph.ts.`);
  return floor;
}

/** Strongly connected components with more than one member (or a member importing itself): the import loops. */
function cycles(nodes: Iterable<string>, arrows: Map<string, Set<string>>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  function visit(node: string): void {
    order.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of arrows.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!));
    }
    if (low.get(node) === order.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || arrows.get(node)?.has(node)) found.push(component.sort());
    }
  }
  for (const node of nodes) if (!order.has(node)) visit(node);
  return found;
}

function arrowsOf(pairs: Iterable<[string, string]>): Map<string, Set<string>> {
  const arrows = new Map<string, Set<string>>();
  for (const [from, to] of pairs) {
    if (!arrows.has(from)) arrows.set(from, new Set());
    arrows.get(from)!.add(to);
  }
  return arrows;
}

/** A folder's own files, its subfolders apart: `lib/kql` and `lib/kql/dialect` are two folders. */
const folderOf = (file: string) => path.posix.dirname(file);

/**
 * Folder arrows the loop count still lets pass (docs/architecture.md, "Loops still allowed"): each is
 * a parent that assembles its subfolders while they stand on the parent's other files (its AST and
 * types, its context and operation frame). The loop goes when those base files move into a subfolder
 * of their own, or the assembly out of the folder. `check:imports` prints them with a count, and
 * fails once one no longer closes a loop (then it comes off this list).
 */
export const ALLOWED_FOLDER_ARROWS: readonly string[] = [
  // The compiler (lib/kql/*.ts: compile, analyze, parser, catalog) uses its dialects, function table
  // and parser, which stand on its ast, lexer, types, ir and budget.
  "lib/kql → lib/kql/dialect",
  "lib/kql → lib/kql/functions",
  "lib/kql → lib/kql/parser",
];

interface GraphFigures {
  files: number;
  edges: number;
  rooms: number;
  roomArrows: number;
  /** Room → room arrows that go to a higher floor, test support included, tests left out. */
  upwardArrows: string[];
  fileCycles: string[][];
  /** Loops between folders (a parent and its subfolders, siblings), the allowed arrows taken out. */
  folderCycles: string[][];
  /** The loops between folders with the allowed arrows in: what ALLOWED_FOLDER_ARROWS lets pass. */
  allowedFolderCycles: string[][];
  /** Allowed arrows that no longer close a loop (or no longer exist): to come off the list. */
  staleAllowances: string[];
}

/** The figures of the closing note. Loops and upward arrows are counted without tests (nothing imports a test). */
export function figures(graph: ImportGraph, allowed: readonly string[] = ALLOWED_FOLDER_ARROWS): GraphFigures {
  const internal = graph.edges.filter((e): e is ImportEdge & { to: string } => e.to !== undefined);
  const product = internal.filter((e) => !isTest(e.from) && !isTest(e.to));
  const roomPairs = new Set(internal.map((e) => `${roomOf(e.from)} → ${roomOf(e.to)}`).filter((pair) => !pair.split(" → ").every((r, _, [a]) => r === a)));
  const folders = graph.files.filter((f) => !isTest(f)).map(folderOf);
  const folderPairs = product.map((e): [string, string] => [folderOf(e.from), folderOf(e.to)]).filter(([a, b]) => a !== b);
  const allowedFolderCycles = cycles(folders, arrowsOf(folderPairs));
  const upward = new Set<string>();
  for (const e of product) {
    const from = roomOf(e.from);
    const to = roomOf(e.to);
    if (floorOf(to) > floorOf(from)) upward.add(`${from} → ${to}`);
  }
  return {
    files: graph.files.length,
    edges: internal.length,
    rooms: new Set(graph.files.map(roomOf)).size,
    roomArrows: roomPairs.size,
    upwardArrows: [...upward].sort(),
    fileCycles: cycles(graph.files, arrowsOf(product.map((e) => [e.from, e.to]))),
    folderCycles: cycles(folders, arrowsOf(folderPairs.filter(([from, to]) => !allowed.includes(`${from} → ${to}`)))),
    allowedFolderCycles,
    staleAllowances: allowed.filter((arrow) => {
      const [from, to] = arrow.split(" → ");
      return !allowedFolderCycles.some((loop) => loop.includes(from!) && loop.includes(to!)) || !folderPairs.some(([a, b]) => a === from && b === to);
    }),
  };
}

const KERNEL = "lib/platform/";
/** What the kernel stands on: the contract, the configuration, shared state. */
const KERNEL_MAY_IMPORT = (to: string) =>
  to.startsWith(KERNEL) || to.startsWith("lib/contract/") || to === "lib/config.ts" || to.startsWith("lib/shared-state/");
/** Modules that only run on the server: a component (browser code) must not load them. */
const SERVER_ONLY_ROOMS = ["lib/platform", "lib/service", "lib/dashboard-store", "lib/auth", "lib/api-handler", "lib/bff", "lib/upstream", "lib/shared-state", "lib"];
/** Packages (by name) that run only on a server; `next-auth/react`, next-auth's browser half, is not one of them. */
const SERVER_ONLY_PACKAGES = new Set(["server-only", "pg", "better-sqlite3", "@duckdb/node-api", "ioredis", "mqtt", "nodemailer", "@clickhouse/client", "jose", "bcryptjs", "chdb"]);
/** A feature's layers that run only on the server. */
const SERVER_ONLY_LAYERS = ["store", "service", "api"];
const isServerOnlyFile = (file: string) =>
  SERVER_ONLY_ROOMS.includes(roomOf(file)) || roomOf(file).startsWith("lib/service/") || (file.startsWith("modules/") && SERVER_ONLY_LAYERS.includes(file.split("/")[2]!));
const isServerOnlyPackage = (specifier: string) =>
  specifier.startsWith("node:") || SERVER_ONLY_PACKAGES.has(packageName(specifier)) || specifier === "next-auth" || specifier.startsWith("next-auth/") && specifier !== "next-auth/react";

/** Browser code: components/, and a feature's components/, client/ and contract/. */
const isBrowserFile = (file: string) => file.startsWith("components/") || /^modules\/[^/]+\/(components|client|contract)\//.test(file);

interface Rule {
  name: string;
  /** Why the arrow is forbidden, in a sentence. */
  because: string;
  forbids(edge: ImportEdge): boolean;
}

const RULES: readonly Rule[] = [
  {
    name: "kernel-stands-alone",
    because: "lib/platform is the floor everything stands on: it imports only lib/contract, lib/config.ts and lib/shared-state; domains and assembly contribute to it from above.",
    forbids: (e) => e.from.startsWith(KERNEL) && e.to !== undefined && !KERNEL_MAY_IMPORT(e.to),
  },
  {
    name: "contract-is-zod-only",
    because: "lib/contract is loaded by the browser and the server alike: plain data and zod schemas (its own and the features' contracts), nothing else.",
    forbids: (e) =>
      e.from.startsWith("lib/contract/") && !isTest(e.from) &&
      (e.to !== undefined ? !(e.to.startsWith("lib/contract/") || /^modules\/[^/]+\/contract\//.test(e.to)) : packageName(e.pkg!) !== "zod"),
  },
  {
    name: "service-apart-from-dashboard-store",
    because: "the service never touches the dashboard's store; the two meet only in the assembly above them (scripts/).",
    forbids: (e) => e.from.startsWith("lib/service/") && e.to !== undefined && e.to.startsWith("lib/dashboard-store/"),
  },
  {
    name: "kql-is-pure",
    because: "lib/kql is the compiler the browser's editor loads too: it imports only itself and lib/contract.",
    forbids: (e) =>
      e.from.startsWith("lib/kql/") && !isTest(e.from) && !isTestSupport(e.from) &&
      (e.to !== undefined ? !(e.to.startsWith("lib/kql/") || e.to.startsWith("lib/contract/")) : isServerOnlyPackage(e.pkg!)),
  },
  {
    name: "components-are-browser-code",
    because: "components/ (and a feature's components/, client/ and contract/) run in the browser: no server-only module, no Node built-in, no database driver.",
    forbids: (e) =>
      isBrowserFile(e.from) && !isTest(e.from) && (e.to !== undefined ? isServerOnlyFile(e.to) : isServerOnlyPackage(e.pkg!)),
  },
  {
    name: "pages-reach-the-server-through-its-interface",
    because: "app/ gets the server from plantdesk-host (app/page-server.ts) and imports server modules for their types only, so Next bundles no second copy of them (docs/architecture.md, \"One server in the process\").",
    forbids: (e) => e.from.startsWith("app/") && !isTest(e.from) && e.to !== undefined && !e.typeOnly && isServerOnlyFile(e.to),
  },
  {
    name: "demo-apart",
    because: "demo and seed modules are wired in by the assemblies alone (lib/service/runtime.ts, scripts/serve.ts); a production module receives a seed hook, a device list or a live demo from them (docs/architecture.md, \"Demo apart\").",
    forbids: (e) => e.to !== undefined && isDemoModule(e.to) && !mayImportDemo(e.from),
  },
  {
    name: "feature-contract-is-zod-only",
    because: "a feature's contract/ is loaded by the browser and the server alike: zod and other contracts only.",
    forbids: (e) =>
      /^modules\/[^/]+\/contract\//.test(e.from) && !isTest(e.from) &&
      (e.to !== undefined ? !(e.to.startsWith("lib/contract/") || /^modules\/[^/]+\/contract\//.test(e.to)) : packageName(e.pkg!) !== "zod"),
  },
];

interface Violation {
  rule: string;
  because: string;
  arrow: string;
}

/** Every forbidden arrow, every import loop between folders and between files. */
export function violations(graph: ImportGraph): Violation[] {
  const found: Violation[] = [];
  for (const edge of graph.edges) {
    for (const rule of RULES) {
      if (rule.forbids(edge)) found.push({ rule: rule.name, because: rule.because, arrow: `${edge.from} → ${edge.to ?? edge.pkg}` });
    }
  }
  const counted = figures(graph);
  for (const arrow of counted.upwardArrows) {
    found.push({ rule: "floors", because: "a room imports its own floor and the floors below, never one above (docs/architecture.md, \"Floors and rooms\").", arrow });
  }
  for (const loop of counted.folderCycles) {
    found.push({ rule: "no-folder-loops", because: "folders import each other in one direction only, a parent and its subfolders and siblings too (a loop means neither can be read or moved alone).", arrow: loop.join(" ⇄ ") });
  }
  for (const arrow of counted.staleAllowances) {
    found.push({ rule: "stale-loop-allowance", because: "this allowed arrow closes no loop any more: take it off ALLOWED_FOLDER_ARROWS (scripts/import-graph.ts) and docs/architecture.md.", arrow });
  }
  for (const loop of counted.fileCycles) {
    found.push({ rule: "no-file-loops", because: "modules import each other in one direction only.", arrow: loop.join(" ⇄ ") });
  }
  return found;
}
