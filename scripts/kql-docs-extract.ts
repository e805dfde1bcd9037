/**
 * Extracts the conformance examples of Microsoft's KQL documentation into
 * lib/kql/testing/docs-examples.json (committed: CI has no network). Run it by hand when the
 * documentation moves on:
 *
 *   npx tsx scripts/kql-docs-extract.ts <git dir of MicrosoftDocs/dataexplorer-docs> [commit]
 *
 * From every data-explorer/kusto/query/*.md page it takes each ```kusto block that is followed by a
 * printed table (the "Output"), keeps the queries that Microsoft's own binder (Kusto.Language,
 * GlobalState.Default: no tables at all) binds without errors, so they need none of Microsoft's
 * sample tables, and whose answer does not depend on the clock or chance (now(), rand(), …). The
 * table's cells are parsed by the column types Kusto.Language derives for the query. How the runner
 * reads the file: docs/kql-conformance.md.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { microsoftCatalogue, microsoftStandalone } from "@/lib/kql/testing/microsoft";
import { DOCS_EXAMPLES_PATH, parseCell, type DocsExample, type DocsExamples } from "@/lib/kql/testing/docs-examples";

const FOLDER = "data-explorer/kusto/query";

/** Answers that depend on the clock, chance, the cluster or ADX's storage are never reproducible. */
function deterministic(query: string): boolean {
  if (/\b(now|ago|rand|new_guid|ingestion_time|estimate_data_size|current_\w+|cursor_\w+|extent_\w+)\s*\(/.test(query)) return false;
  return !/\|\s*(sample|sample-distinct)\b/.test(query);
}

function git(gitDir: string, ...args: string[]): string {
  return execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
}

interface Block {
  heading: string;
  query: string;
  table: string[][] | null;
}

const decode = (s: string) =>
  s
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#124;|&#x7c;/gi, "|")
    .replace(/&amp;/g, "&");

function splitRow(line: string): string[] {
  let body = line.trim();
  if (body.startsWith("|")) body = body.slice(1);
  if (body.endsWith("|") && !body.endsWith("\\|")) body = body.slice(0, -1);
  const cells: string[] = [];
  let current = "";
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "\\" && body[i + 1] === "|") {
      current += "|";
      i++;
    } else if (body[i] === "|") {
      cells.push(current);
      current = "";
    } else current += body[i];
  }
  cells.push(current);
  return cells.map((c) => {
    const cell = decode(c.trim());
    return /^`[^`]*`$/.test(cell) ? cell.slice(1, -1) : cell;
  });
}

/** The ```kusto blocks of a page, each with the first table printed after it (before the next block or heading). */
function blocksOf(markdown: string): Block[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: Block[] = [];
  let heading = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) heading = h[1]!;
    if (!/^\s*```\s*kusto\s*$/i.test(line)) continue;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]!); j++) body.push(lines[j]!);
    let table: string[][] | null = null;
    let prose = 0;
    for (let k = j + 1; k < lines.length; k++) {
      const next = lines[k]!.trim();
      if (next.startsWith("```") || /^#{1,6}\s/.test(next)) break;
      if (next.startsWith("|")) {
        const rows: string[][] = [];
        for (; k < lines.length && lines[k]!.trim().startsWith("|"); k++) rows.push(splitRow(lines[k]!));
        // header, separator, rows
        if (rows.length >= 2 && rows[1]!.every((c) => /^:?-+:?$/.test(c))) table = [rows[0]!, ...rows.slice(2)];
        break;
      }
      if (next && !/^\*\*\s*(output|ouput|results?)\s*\*\*:?$/i.test(next) && !/^:::/.test(next) && !/^>/.test(next)) prose++;
      if (prose > 3) break;
    }
    blocks.push({ heading, query: body.join("\n").trim(), table });
    i = j;
  }
  return blocks;
}

function categoryOf(page: string, query: string): DocsExample["category"] {
  if (/\bevaluate\b/.test(query) || page.endsWith("-plugin.md")) return "evaluate";
  if (/\b(make-graph|graph-match|graph-shortest-paths|graph-to-table|graph-mark-components)\b/.test(query)) return "graph";
  if (/-(function|aggregation-function)\.md$/.test(page)) return "functions";
  return "operators";
}

function main(): void {
  const [gitDir, commitArg] = process.argv.slice(2);
  if (!gitDir) throw new Error("usage: npx tsx scripts/kql-docs-extract.ts <git dir of MicrosoftDocs/dataexplorer-docs> [commit]");
  const commit = git(gitDir, "rev-parse", commitArg ?? "HEAD").trim();
  const pages = git(gitDir, "ls-tree", "--name-only", `${commit}:${FOLDER}`)
    .split("\n")
    .filter((f) => f.endsWith(".md"))
    .sort();
  const examples: DocsExample[] = [];
  const skipped = { binderFailed: 0, withoutTable: 0, needsTables: 0, nondeterministic: 0, unparsedOutput: 0 };
  for (const page of pages) {
    const markdown = git(gitDir, "show", `${commit}:${FOLDER}/${page}`);
    let index = 0;
    for (const block of blocksOf(markdown)) {
      index++;
      if (!block.table || !block.query) {
        skipped.withoutTable++;
        continue;
      }
      let reference: ReturnType<typeof microsoftStandalone>;
      try {
        reference = microsoftStandalone(block.query);
      } catch {
        // Kusto.Language's binder throws on some graph-match patterns: without its schema, no typed output.
        skipped.binderFailed++;
        continue;
      }
      if (reference.errors.length > 0 || reference.columns.length === 0) {
        skipped.needsTables++;
        continue;
      }
      if (!deterministic(block.query)) {
        skipped.nondeterministic++;
        continue;
      }
      const [header, ...cells] = block.table;
      if (header!.length !== reference.columns.length || cells.some((r) => r.length !== header!.length)) {
        skipped.unparsedOutput++;
        continue;
      }
      examples.push({
        id: `${page.replace(/\.md$/, "")}#${index}`,
        page,
        heading: block.heading,
        category: categoryOf(page, block.query),
        query: block.query,
        columns: header!.map((name, i) => ({ name, type: reference.columns[i]!.type })),
        rows: cells.map((row) => row.map((cell, i) => parseCell(cell, reference.columns[i]!.type))),
      });
    }
  }
  const catalogue = microsoftCatalogue();
  const file: DocsExamples = {
    source: {
      repository: "https://github.com/MicrosoftDocs/dataexplorer-docs",
      commit,
      folder: FOLDER,
      license: "Documentation text CC-BY-4.0, code samples MIT (the repository's LICENSE and LICENSE-CODE)",
      extractedBy: "scripts/kql-docs-extract.ts",
      kustoLanguage: `@kusto/language-service-next (${catalogue.functions.length} public scalar functions, ${catalogue.aggregates.length} aggregates)`,
      skipped,
    },
    examples,
  };
  fs.writeFileSync(path.resolve(DOCS_EXAMPLES_PATH), JSON.stringify(file, null, 1) + "\n");
  console.log(`${examples.length} examples from ${pages.length} pages at ${commit}; skipped ${JSON.stringify(skipped)}`);
}

main();
