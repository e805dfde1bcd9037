/**
 * Completion candidates for the query editor: tables first, operators after `|`, then the columns
 * in scope at that point of the pipeline (computed by compiling the part before the current
 * operator), functions, metadata keys after `DataMetadata.`, and data point names inside a string
 * compared with `Name`.
 */
import { AGGREGATE_FUNCTIONS, SCALAR_FUNCTIONS } from "./analyze";
import { compileKql } from "./compile";
import { SCHEMA_ONLY_SOURCES } from "./diagnose";
import { tokenize, type Token } from "./lexer";
import { TABLE_NAMES, TABLES, isTableName } from "./tables";

export interface Completion {
  label: string;
  kind: "table" | "column" | "operator" | "function" | "keyword" | "value";
  detail?: string;
}

export interface CompletionResult {
  /** Offset where the word being completed starts (replace from here to the cursor). */
  from: number;
  options: Completion[];
}

export const TABULAR_OPERATORS: Completion[] = [
  { label: "where", kind: "operator", detail: "filter rows" },
  { label: "project", kind: "operator", detail: "choose columns" },
  { label: "project-away", kind: "operator", detail: "drop columns" },
  { label: "project-rename", kind: "operator", detail: "rename columns" },
  { label: "extend", kind: "operator", detail: "add computed columns" },
  { label: "summarize", kind: "operator", detail: "aggregate … by …" },
  { label: "order by", kind: "operator", detail: "sort (default desc)" },
  { label: "sort by", kind: "operator", detail: "sort (default desc)" },
  { label: "top", kind: "operator", detail: "top N by column" },
  { label: "take", kind: "operator", detail: "first N rows" },
  { label: "limit", kind: "operator", detail: "first N rows" },
  { label: "distinct", kind: "operator", detail: "unique rows" },
  { label: "count", kind: "operator", detail: "number of rows" },
  { label: "render", kind: "operator", detail: "chart hint" },
];

const CHART_KINDS = ["timechart", "linechart", "barchart", "columnchart", "piechart", "areachart", "scatterchart", "table", "card"];
const EXPRESSION_KEYWORDS = ["and", "or", "by", "asc", "desc", "nulls first", "nulls last", "has", "!has", "contains", "!contains", "startswith", "endswith", "in", "!in", "between", "true", "false"];

/** Metadata keys of decisions.md §6 that the demo data uses. */
export const METADATA_KEYS: Record<string, string[]> = {
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

  // Start of the query: tables.
  if (!previous) return { from, options: TABLE_NAMES.map((label) => ({ label, kind: "table" as const })) };

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
  const inSummarize = operator?.text === "summarize" && !tokens.slice(tokens.indexOf(lastPipe!) + 1).some((t) => t.text === "by");
  const options: Completion[] = [
    ...columns.map((c) => ({ label: c.name, kind: "column" as const, detail: c.kqlType })),
    ...(inSummarize ? AGGREGATE_FUNCTIONS.map((label) => ({ label, kind: "function" as const, detail: "aggregation" })) : []),
    ...SCALAR_FUNCTIONS.map((label) => ({ label, kind: "function" as const })),
    ...EXPRESSION_KEYWORDS.map((label) => ({ label, kind: "keyword" as const })),
  ];
  return { from, options };
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
