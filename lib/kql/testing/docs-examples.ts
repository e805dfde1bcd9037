/**
 * TEST-ONLY: the examples of Microsoft's KQL documentation with their printed outputs
 * (docs-examples.json, extracted by scripts/kql-docs-extract.ts), and how an answer is compared
 * with a printed table. The docs print values as text (reals to 15 digits, datetimes as
 * `2017-01-01 00:00:00.0000000`, dynamic values as JSON over several lines), so both sides are
 * brought to one form per column type before they are compared.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { JsonValue } from "../types";

export const DOCS_EXAMPLES_PATH = "lib/kql/testing/docs-examples.json";

const jsonValue: z.ZodType<JsonValue> = z.lazy(() => z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(jsonValue), z.record(z.string(), jsonValue)]));

export const CATEGORIES = ["functions", "operators", "evaluate", "graph"] as const;

const docsExample = z.object({
  /** `<page without .md>#<n>`: the n-th ```kusto block of the page. */
  id: z.string(),
  page: z.string(),
  heading: z.string(),
  /** evaluate: uses a plugin; graph: a graph operator; functions: on a function's page; operators: the rest. */
  category: z.enum(CATEGORIES),
  query: z.string(),
  /** The printed header, with the type Kusto.Language derives for each column. */
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(jsonValue)),
});
export type DocsExample = z.infer<typeof docsExample>;

const docsExamples = z.object({
  source: z.object({
    repository: z.string(),
    commit: z.string(),
    folder: z.string(),
    license: z.string(),
    extractedBy: z.string(),
    kustoLanguage: z.string(),
    skipped: z.record(z.string(), z.number()),
  }),
  examples: z.array(docsExample),
});
export type DocsExamples = z.infer<typeof docsExamples>;

export function loadDocsExamples(root = process.cwd()): DocsExamples {
  return docsExamples.parse(JSON.parse(fs.readFileSync(path.join(root, DOCS_EXAMPLES_PATH), "utf8")));
}

const NUMERIC = new Set(["long", "int", "real", "decimal"]);

/** `2017-01-01 00:00:00.0000000`, `2017-01-01T00:00:00Z`, `2017-1-1` → `2017-01-01T00:00:00.0000000Z`. */
function canonicalDatetime(text: string): string {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?)?\s*Z?$/.exec(text.trim());
  if (!m) return text;
  const two = (s: string | undefined) => (s ?? "0").padStart(2, "0");
  return `${m[1]}-${two(m[2])}-${two(m[3])}T${two(m[4])}:${two(m[5])}:${two(m[6])}.${(m[7] ?? "").padEnd(7, "0")}Z`;
}

/** `1.02:03:04.5`, `02:03:04`, `-00:00:01` → ADX's form `[-][d.]hh:mm:ss[.fffffff]`. */
function canonicalTimespan(text: string): string {
  const m = /^(-)?(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?$/.exec(text.trim());
  if (!m) return text;
  const days = Number(m[2] ?? 0);
  const fraction = (m[6] ?? "").padEnd(7, "0");
  const negative = m[1] && (days || Number(m[3]) || Number(m[4]) || Number(m[5]) || Number(fraction)) ? "-" : "";
  return `${negative}${days ? `${days}.` : ""}${m[3]!.padStart(2, "0")}:${m[4]}:${m[5]}${/^0+$/.test(fraction) ? "" : `.${fraction}`}`;
}

/** A printed cell as the value of its column type (empty: null, or "" for strings). */
export function parseCell(cell: string, type: string): JsonValue {
  if (type === "string") return cell;
  if (cell === "") return null;
  if (NUMERIC.has(type)) return /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(cell) ? Number(cell) : cell;
  if (type === "bool") return /^true$/i.test(cell) ? true : /^false$/i.test(cell) ? false : cell;
  if (type === "datetime") return canonicalDatetime(cell);
  if (type === "timespan") return canonicalTimespan(cell);
  if (type === "dynamic") {
    try {
      return JSON.parse(cell) as JsonValue;
    } catch {
      return cell;
    }
  }
  return cell;
}

/** Agreement to the digits the docs print (15 significant digits for reals), or 1e-9 relative. */
function numbersAgree(actual: number, expected: number, printed?: string): boolean {
  if (actual === expected) return true;
  const decimals = printed && /\.(\d+)/.exec(printed)?.[1]?.length;
  const slack = Math.max(1e-9 * Math.abs(expected), decimals ? 0.5 * 10 ** -decimals : 0, 1e-12);
  return Math.abs(actual - expected) <= slack + 1e-15 * Math.abs(expected);
}

const looksLikeDatetime = (s: string) => /^\d{4}-\d{1,2}-\d{1,2}[T ]\d/.test(s);

function dynamicAgrees(actual: JsonValue, expected: JsonValue): boolean {
  if (typeof expected === "number" && typeof actual === "number") return numbersAgree(actual, expected, String(expected));
  if (typeof expected === "string" && typeof actual === "string") {
    return actual === expected || (looksLikeDatetime(actual) && canonicalDatetime(actual) === canonicalDatetime(expected)) || canonicalTimespan(actual) === canonicalTimespan(expected);
  }
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => dynamicAgrees(actual[i]!, e));
  if (expected && typeof expected === "object") {
    if (!actual || typeof actual !== "object" || Array.isArray(actual)) return false;
    const keys = Object.keys(expected);
    return keys.length === Object.keys(actual).length && keys.every((k) => k in actual && dynamicAgrees(actual[k]!, expected[k]!));
  }
  return actual === expected;
}

/** One answer's value against one printed value of a column of Kusto.Language's type. */
function valueAgrees(actual: JsonValue, expected: JsonValue, type: string): boolean {
  if (type === "string") {
    if (actual === null) return expected === "";
    return (typeof actual === "string" ? actual : JSON.stringify(actual)) === expected;
  }
  if (expected === null) return actual === null || (type === "dynamic" && actual === "");
  if (NUMERIC.has(type)) {
    const value = typeof actual === "string" && actual.trim() !== "" ? Number(actual) : actual;
    return typeof value === "number" && typeof expected === "number" ? numbersAgree(value, expected, String(expected)) : String(actual) === String(expected);
  }
  if (type === "datetime") return typeof actual === "string" && canonicalDatetime(actual) === expected;
  if (type === "timespan") return typeof actual === "string" && canonicalTimespan(actual) === expected;
  // Some pages print a bool as 1 or 0 (ipv6_is_match's tables): the same value.
  if (type === "bool") return actual === expected || (typeof actual === "number" && actual === (expected ? 1 : 0)) || (expected === "1" && actual === true) || (expected === "0" && actual === false);
  if (type === "guid") return typeof actual === "string" && typeof expected === "string" && actual.toLowerCase() === expected.toLowerCase();
  if (type === "dynamic") {
    // Some pages print dynamic values with single quotes (bag_zip's: `{'a': 1,'b': '2'}`): the same JSON.
    if (typeof expected === "string" && typeof actual !== "string") return [expected, expected.replaceAll("'", '"')].some((e) => JSON.stringify(actual) === e.replace(/\s+/g, ""));
    return dynamicAgrees(actual, expected);
  }
  return actual === expected;
}

/** Row order is part of the printed answer when the query's last sort is not undone by a later operator (top-nested groups: it is not `top`). */
function ordersRows(query: string): boolean {
  const pipes = query.split("|");
  const last = pipes.findLastIndex((p) => /^\s*(sort|order)\s+by\b|^\s*top(?!-)\b|^\s*serialize\b|^\s*(range|print)\b/.test(p) || /^\s*(let\b[^;]*;\s*)*range\b/.test(p));
  if (last < 0) return false;
  return !pipes.slice(last + 1).some((p) => /^\s*(summarize|distinct|join|union|lookup|mv-expand|make-series|top-nested|evaluate|facet|fork|partition)\b/.test(p));
}

interface Answer {
  columns: string[];
  rows: JsonValue[][];
}

/** Why an answer differs from the printed table, or null when it agrees. */
export function compareWithDocs(example: DocsExample, answer: Answer): string | null {
  const printed = example.columns.map((c) => c.name);
  let mapping: number[];
  const byName = printed.map((name) => answer.columns.indexOf(name));
  if (byName.every((i) => i >= 0) && answer.columns.length === printed.length) mapping = byName;
  else if (answer.columns.length === printed.length) mapping = printed.map((_, i) => i);
  else return `columns (${answer.columns.join(", ")}) instead of (${printed.join(", ")})`;
  const actual = answer.rows.map((row) => mapping.map((i) => row[i] ?? null));
  if (actual.length !== example.rows.length) return `${actual.length} rows instead of ${example.rows.length}`;
  const rowAgrees = (a: JsonValue[], e: JsonValue[]) => e.every((value, i) => valueAgrees(a[i]!, value, example.columns[i]!.type));
  if (ordersRows(example.query)) {
    const row = example.rows.findIndex((e, i) => !rowAgrees(actual[i]!, e));
    return row < 0 ? null : `row ${row + 1}: ${JSON.stringify(actual[row])} instead of ${JSON.stringify(example.rows[row])}`;
  }
  const unused = new Set(actual.keys());
  for (const expected of example.rows) {
    const match = [...unused].find((i) => rowAgrees(actual[i]!, expected));
    if (match === undefined) return `no row ${JSON.stringify(expected)} (got ${JSON.stringify(actual.filter((_, i) => unused.has(i)).slice(0, 2))})`.slice(0, 400);
    unused.delete(match);
  }
  return null;
}
