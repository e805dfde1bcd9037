/**
 * `npm run check:imports` (a stage of `npm test`): the import graph's figures, then every forbidden
 * arrow (scripts/import-graph.ts, RULES) and every import loop between folders (subfolders and test
 * support counted; the allowed arrows printed with their count). Exits 1 on any.
 * `--figures` prints the figures only (rooms, arrows, loops, largest files) and never fails.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { ALLOWED_FOLDER_ARROWS, DEMO_ASSEMBLIES, demoImporters, featureOf, figures, isTest, readImportGraph, roomOf, violations } from "./import-graph";

const root = path.resolve(import.meta.dirname, "..");
const graph = readImportGraph(root);
const counted = figures(graph);
const largest = graph.files
  .filter((file) => !isTest(file))
  .map((file) => ({ file, lines: readFileSync(path.join(root, file), "utf8").split("\n").length }))
  .sort((a, b) => b.lines - a.lines)
  .slice(0, 5);

console.log(`import graph: ${counted.files} files, ${counted.edges} imports between them; ${counted.rooms} rooms, ${counted.roomArrows} arrows between rooms`);
console.log(`arrows up a floor (tests left out): ${counted.upwardArrows.length}${counted.upwardArrows.map((a) => `\n  ${a}`).join("")}`);
console.log(`import loops between files: ${counted.fileCycles.length}${counted.fileCycles.map((c) => `\n  ${c.join(" ⇄ ")}`).join("")}`);
console.log(`import loops between folders (a parent and its subfolders, siblings, test support): ${counted.folderCycles.length}${counted.folderCycles.map((c) => `\n  ${c.join(" ⇄ ")}`).join("")}`);
console.log(
  `  allowed for now: ${ALLOWED_FOLDER_ARROWS.length} arrows (ALLOWED_FOLDER_ARROWS, docs/architecture.md "Loops still allowed"), closing ${counted.allowedFolderCycles.length} loop(s)` +
    counted.allowedFolderCycles.map((c) => `\n    ${c.join(" ⇄ ")}`).join(""),
);
const demo = demoImporters(graph);
console.log(`production modules importing a demo or seed module (only ${DEMO_ASSEMBLIES.join(" and ")} may): ${demo.length}${demo.map((f) => `\n  ${f}`).join("")}`);
const features = new Map<string, Set<string>>();
for (const file of graph.files) {
  const feature = featureOf(file);
  if (feature) features.set(feature, (features.get(feature) ?? new Set()).add(roomOf(file).split("/")[2] ?? "(root)"));
}
console.log(`features (modules/<feature>/, one folder each): ${features.size}${[...features].sort().map(([f, layers]) => `\n  ${f}: ${[...layers].sort().join(", ")}`).join("")}`);
console.log(`largest files (tests left out): ${largest.map((l) => `${l.file} ${l.lines}`).join(", ")}`);

if (!process.argv.includes("--figures")) {
  const found = violations(graph);
  for (const v of found) console.error(`✗ ${v.rule}: ${v.arrow}\n    ${v.because}`);
  if (found.length > 0) {
    console.error(`${found.length} forbidden import(s).`);
    process.exit(1);
  }
  console.log("imports: every arrow allowed, no loop.");
}
