/**
 * The two language services the editor asks of `lib/kql` — diagnostics (parser + analyser) and
 * completions at the cursor — converted to the shapes CodeMirror wants.
 */
import type { Completion as CmCompletion } from "@codemirror/autocomplete";
import type { EditorView } from "@codemirror/view";
import type { Diagnostic as CmDiagnostic } from "@codemirror/lint";
import { completionsAt, diagnose, type Completion } from "@/lib/kql";
import { maskVariables } from "@/lib/kql/variables";

/**
 * The query's problems. With `variables` (a dashboard panel's query: its board's `$name`s), each
 * `$name` is read as a value of its kind first (maskVariables keeps every offset), so only names
 * the board does not have are marked.
 */
export function diagnostics(text: string, variables?: readonly string[]): CmDiagnostic[] {
  const read = variables ? maskVariables(text, new Set(variables)) : text;
  return diagnose(read).map((d) => ({
    from: Math.min(d.from, text.length),
    to: Math.min(Math.max(d.to, d.from + 1), text.length),
    severity: "error",
    message: d.message,
    source: "kql",
  }));
}

const CM_TYPES: Record<Completion["kind"], string> = {
  table: "class",
  column: "property",
  operator: "keyword",
  function: "function",
  keyword: "keyword",
  value: "constant",
};

/** The `$name`s a panel's query may use, offered after a typed `$`: the board's variables, then its own. */
export function variableCompletions(variables: readonly string[]): CmCompletion[] {
  return variables.map((name) => ({ label: `$${name}`, type: "variable", detail: name.startsWith("__") ? "the board's" : "variable", boost: 3 }));
}

/** Completions at `pos`, or null when `lib/kql` has none. */
export function completions(text: string, pos: number, dataPointNames: readonly string[]): { from: number; options: CmCompletion[] } | null {
  const result = completionsAt(text, pos, { dataPointNames: [...dataPointNames] });
  if (result.options.length === 0) return null;
  return {
    from: result.from,
    options: result.options.map((o) => ({
      label: o.label,
      type: CM_TYPES[o.kind],
      detail: o.detail,
      ...(o.info ? { info: o.info } : {}),
      // Columns first: they are what a query names most often.
      boost: o.kind === "column" ? 2 : o.kind === "value" ? 1 : 0,
      apply: o.kind === "function" ? `${o.label}(` : o.kind === "value" ? applyInString(o.label) : undefined,
    })),
  };
}

/**
 * Where a value accepted inside a string goes: the string is closed after it and the cursor put
 * after the closing quote — the quote already there (typed, or added by closeBrackets) is reused,
 * not doubled. `from`–`to` is what the completion replaces; `quote` opens the string.
 */
export function quotedInsertion(text: string, from: number, to: number, label: string): { from: number; to: number; insert: string; cursor: number } {
  const quote = text[from - 1] === "'" ? "'" : '"';
  const end = text[to] === quote ? to + 1 : to;
  return { from, to: end, insert: `${label}${quote}`, cursor: from + label.length + 1 };
}

function applyInString(label: string) {
  return (view: EditorView, _completion: CmCompletion, from: number, to: number) => {
    const change = quotedInsertion(view.state.doc.toString(), from, to, label);
    view.dispatch({ changes: { from: change.from, to: change.to, insert: change.insert }, selection: { anchor: change.cursor }, userEvent: "input.complete" });
  };
}
