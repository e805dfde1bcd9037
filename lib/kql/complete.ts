/**
 * Completion candidates for the query editor: tables first, operators after `|`, then the columns
 * in scope at that point of the pipeline (computed by compiling the part before the current
 * operator), functions, metadata keys after `DataMetadata.`, and data point names inside a string
 * compared with `Name`.
 */
import { AGGREGATE_FUNCTIONS, SCALAR_FUNCTIONS } from "./functions/table";
import { functionDoc, OPERATOR_DOCS, STATEMENT_DOCS } from "./catalog";
import { compileKql } from "./compile";
import { SCHEMA_ONLY_SOURCES } from "./diagnose";
import { tokenize, type Token } from "./lexer";
import { TABLE_NAMES, TABLES, isTableName } from "./tables";

export interface Completion {
  label: string;
  kind: "table" | "column" | "operator" | "function" | "keyword" | "value";
  detail?: string;
  /** A function's one-line description (its signature is the detail). */
  info?: string;
}

export interface CompletionResult {
  /** Offset where the word being completed starts (replace from here to the cursor). */
  from: number;
  options: Completion[];
}

/** Every tabular operator, with its one-line documentation as the detail. */
const TABULAR_OPERATORS: Completion[] = Object.entries(OPERATOR_DOCS).map(([label, detail]) => ({ label, kind: "operator", detail }));

const CHART_KINDS = ["timechart", "linechart", "barchart", "columnchart", "piechart", "areachart", "scatterchart", "table", "card"];
const EXPRESSION_KEYWORDS = [
  "and", "or", "by", "asc", "desc", "nulls first", "nulls last", "has", "!has", "has_any", "has_all", "hasprefix", "hassuffix",
  "contains", "!contains", "startswith", "endswith", "matches regex", "in", "!in", "in~", "!in~", "between", "!between", "true", "false",
  "on", "kind", "with", "from", "to", "step", "default", "of", "$left", "$right",
];

/** Metadata keys of docs/api.md §6 that the demo data uses. */
const METADATA_KEYS: Record<string, string[]> = {
  DataMetadata: ["Unit", "Area", "Line", "DeviceType"],
  MessageMetadata: ["topologyReference", "topologyReferenceType", "messageIntervalMilliseconds", "jobId", "jobName"],
};

export function completionsAt(text: string, offset: number, context: { dataPointNames?: string[] } = {}): CompletionResult {
  const tokens = tokenize(text.slice(0, offset)).filter((t) => t.kind !== "comment" && t.kind !== "eof");
  const last = tokens[tokens.length - 1];

  // Inside a string: data point names when the string is compared with Name.
  if (last && last.kind === "string" && last.problem && last.to === offset) {
    const before = tokens.slice(0, -1).map((t) => t.text);
    const comparedWithName = before.includes("Name") && /^(==|=~|!=|in|!in|\(|,|has|contains|startswith)$/.test(before[before.length - 1] ?? "");
    const names = comparedWithName ? (context.dataPointNames ?? []) : [];
    return { from: last.from + (last.text.startsWith("@") ? 2 : 1), options: names.map((label) => ({ label, kind: "value" as const, detail: "data point" })) };
  }

  const typing = last && (last.kind === "identifier" || last.kind === "keyword") && last.to === offset ? last : undefined;
  const from = typing ? typing.from : offset;
  const previous = tokens[tokens.length - 1 - (typing ? 1 : 0)];

  // Start of the query or of a statement: tables, `let`, and the sources that need no table.
  if (!previous || previous.text === ";") {
    return {
      from,
      options: [
        ...TABLE_NAMES.map((label) => ({ label, kind: "table" as const })),
        ...Object.entries(STATEMENT_DOCS).map(([label, detail]) => ({ label, kind: "keyword" as const, detail })),
      ],
    };
  }

  // Right after a pipe: tabular operators.
  if (previous.text === "|") return { from, options: TABULAR_OPERATORS };
  if (previous.text === "render") return { from, options: CHART_KINDS.map((label) => ({ label, kind: "keyword" as const })) };

  // After `DataMetadata.`: its keys.
  if (previous.text === "." && tokens.length >= 2) {
    const target = tokens[tokens.length - 2 - (typing ? 1 : 0)];
    const keys = target ? METADATA_KEYS[target.text] : undefined;
    return { from, options: (keys ?? []).map((label) => ({ label, kind: "value" as const, detail: "metadata key" })) };
  }

  const lastPipe = findLast(tokens, (t) => t.text === "|");
  const operator = lastPipe ? tokens[tokens.indexOf(lastPipe) + 1] : undefined;
  const columns = columnsBefore(text, lastPipe);
  const inSummarize = ["summarize", "make-series", "top-nested"].includes(operator?.text ?? "") && !tokens.slice(tokens.indexOf(lastPipe!) + 1).some((t) => t.text === "by");
  const options: Completion[] = [
    ...columns.map((c) => ({ label: c.name, kind: "column" as const, detail: c.kqlType })),
    ...(inSummarize ? AGGREGATE_FUNCTIONS.map((label) => functionCompletion(label)) : []),
    ...SCALAR_FUNCTIONS.map((label) => functionCompletion(label)),
    ...EXPRESSION_KEYWORDS.map((label) => ({ label, kind: "keyword" as const })),
  ];
  return { from, options };
}

/** A function as a completion: its signature as the detail, its one-line description as the info. */
function functionCompletion(label: string): Completion {
  const doc = functionDoc(label);
  return doc ? { label, kind: "function", detail: doc.signature, ...(doc.description ? { info: doc.description } : {}) } : { label, kind: "function" };
}

/** Columns the pipeline yields before the operator being typed (the table's own if it does not compile). */
function columnsBefore(text: string, lastPipe: Token | undefined): { name: string; kqlType: string }[] {
  const prefix = lastPipe ? text.slice(0, lastPipe.from) : text;
  try {
    return compileKql(prefix, { sources: SCHEMA_ONLY_SOURCES }).columns;
  } catch {
    const table = tokenize(prefix)[0]?.text ?? "";
    return isTableName(table) ? TABLES[table].columns.map((c) => ({ name: c.name, kqlType: c.kqlType })) : [];
  }
}

function findLast<T>(items: T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return items[i];
  return undefined;
}
