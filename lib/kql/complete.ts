/** Completion candidates for the query editor. */
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

export function completionsAt(text: string, offset: number, context: { dataPointNames?: string[] } = {}): CompletionResult {
  void text;
  void context;
  return { from: offset, options: [] };
}
