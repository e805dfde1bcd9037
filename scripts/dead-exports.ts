/**
 * `npm run -s dead-exports`: the exports no other file imports, read with the TypeScript checker (an
 * import, `export … from`, `import("…").T` and `typeof import` each count; `import * as`, a dynamic
 * `import()` and `vi.mock()` count for every export of the module). Of those, the ones referenced
 * nowhere — not in their own file either — are dead code; the others could lose their `export`.
 * What a framework or tool reads by name is no dead export: Next's page, layout and route files,
 * the proxy, the tools' configuration files, tests. `--list` prints every export with no importer.
 */
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true, incremental: false });
const checker = program.getTypeChecker();
const rel = (file: string) => path.relative(root, file).split(path.sep).join("/");
const ours = program.getSourceFiles().filter((f) => !f.isDeclarationFile && !rel(f.fileName).startsWith("..") && !rel(f.fileName).startsWith("node_modules/"));

/** Names a framework or tool reads from a file (Next's App Router files, Next's proxy, config files). */
const NEXT_FILE = /^app\/(.*\/)?(page|layout|loading|error|not-found|global-error|template|default|route)\.tsx?$/;
const NEXT_NAMES = new Set(["default", "metadata", "generateMetadata", "viewport", "generateViewport", "dynamic", "revalidate", "runtime", "generateStaticParams", "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);
function readByName(file: string, name: string): boolean {
  if (/\.test\.tsx?$/.test(file) || file.startsWith("e2e/") && file.endsWith(".spec.ts")) return true;
  if (NEXT_FILE.test(file)) return NEXT_NAMES.has(name);
  if (file === "proxy.ts") return name === "proxy" || name === "config";
  if (!file.includes("/") && /\.config\.[cm]?ts$/.test(file)) return name === "default";
  return false;
}

const used = new Set<ts.Symbol>();
const wholeModule = new Set<ts.Symbol>();

/** Marks an alias and every symbol it passes through (`export { x } from` chains). */
function markAlias(symbol: ts.Symbol | undefined): void {
  let current = symbol;
  for (let step = 0; current && step < 20; step += 1) {
    used.add(current);
    if (!(current.flags & ts.SymbolFlags.Alias)) return;
    current = checker.getImmediateAliasedSymbol(current);
  }
}
function moduleOf(specifier: ts.Expression | undefined): ts.Symbol | undefined {
  return specifier ? checker.getSymbolAtLocation(specifier) : undefined;
}

for (const file of ours) {
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && node.importClause) {
      const clause = node.importClause;
      if (clause.name) markAlias(checker.getSymbolAtLocation(clause.name));
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) {
        const target = moduleOf(node.moduleSpecifier);
        if (target) wholeModule.add(target);
      } else if (bindings) for (const element of bindings.elements) markAlias(checker.getSymbolAtLocation(element.name));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      if (node.exportClause && ts.isNamedExports(node.exportClause)) {
        for (const element of node.exportClause.elements) markAlias(checker.getSymbolAtLocation(element.name));
      } else {
        const target = moduleOf(node.moduleSpecifier);
        if (target && node.exportClause) wholeModule.add(target); // export * as ns from
      }
    } else if (ts.isImportTypeNode(node)) {
      const target = ts.isLiteralTypeNode(node.argument) ? moduleOf(node.argument.literal) : undefined;
      if (target) {
        if (node.qualifier) {
          const first = ts.isIdentifier(node.qualifier) ? node.qualifier : node.qualifier.left;
          const name = ts.isIdentifier(first) ? first.text : undefined;
          const exported = name ? checker.getExportsOfModule(target).find((s) => s.name === name) : undefined;
          if (exported) markAlias(exported);
        } else wholeModule.add(target);
      }
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const callee = node.expression;
      const dynamic = callee.kind === ts.SyntaxKind.ImportKeyword;
      const mocked = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "vi" && /^(mock|doMock|importActual)$/.test(callee.name.text);
      if (dynamic || mocked) {
        const target = moduleOf(node.arguments[0]);
        if (target) wholeModule.add(target);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

/** The local symbol an export stands for (`export { x }` is an alias of the local `x`). */
function localOf(symbol: ts.Symbol): ts.Symbol {
  const declaration = symbol.declarations?.[0];
  if (declaration && ts.isExportSpecifier(declaration)) return checker.getExportSpecifierLocalTargetSymbol(declaration) ?? symbol;
  return symbol;
}
/** Whether the file names the symbol anywhere but where it is declared or exported. */
function referencedInOwnFile(file: ts.SourceFile, symbol: ts.Symbol): boolean {
  const local = localOf(symbol);
  const declared = new Set((local.declarations ?? []).concat(symbol.declarations ?? []).map((d) => (d as ts.NamedDeclaration).name).filter(Boolean));
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(node) && node.text === symbol.name && !declared.has(node) && !ts.isExportSpecifier(node.parent)) {
      const at = checker.getSymbolAtLocation(node);
      if (at === local || at === symbol || (at && at.flags & ts.SymbolFlags.Alias && localOf(at) === local)) found = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

interface Unimported {
  file: string;
  name: string;
  line: number;
  /** Named nowhere, its own file included: dead code. */
  nowhere: boolean;
}
const unimported: Unimported[] = [];
for (const file of ours) {
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol || wholeModule.has(moduleSymbol)) continue;
  const name = rel(file.fileName);
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const declaration = exported.declarations?.[0];
    // Declared in another file: an `export *` passes it through, its own file reports it.
    if (!declaration || declaration.getSourceFile() !== file) continue;
    if (used.has(exported) || readByName(name, exported.name)) continue;
    const line = file.getLineAndCharacterOfPosition(declaration.getStart()).line + 1;
    unimported.push({ file: name, name: exported.name, line, nowhere: !referencedInOwnFile(file, exported) });
  }
}
unimported.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
const nowhere = unimported.filter((u) => u.nowhere);
console.log(`exports with no importer: ${unimported.length}; referenced nowhere (dead): ${nowhere.length}`);
for (const u of process.argv.includes("--list") ? unimported : nowhere) console.log(`  ${u.file}:${u.line} ${u.name}${u.nowhere ? " (nowhere)" : ""}`);
