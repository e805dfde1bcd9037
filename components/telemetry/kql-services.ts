/**
 * The two language services the editor asks of `lib/kql` — diagnostics (parser + analyser) and
 * completions at the cursor — converted to the shapes CodeMirror wants.
 */
import type { Completion as CmCompletion } from "@codemirror/autocomplete";
import type { Diagnostic as CmDiagnostic } from "@codemirror/lint";
import { completionsAt, diagnose, type Completion } from "@/lib/kql";

export function diagnostics(text: string): CmDiagnostic[] {
  return diagnose(text).map((d) => ({
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
      // Columns first: they are what a query names most often.
      boost: o.kind === "column" ? 2 : o.kind === "value" ? 1 : 0,
      apply: o.kind === "function" ? `${o.label}(` : undefined,
    })),
  };
}
