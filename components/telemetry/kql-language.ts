/**
 * KQL support for CodeMirror 6, built on the same `lib/kql` the server compiles with, so the editor
 * and the service never disagree about what a query means:
 * - highlighting: decorations from `tokenize` (queries are short; re-tokenising the whole text on
 *   every change costs well under a millisecond and needs no incremental grammar);
 * - error marks: diagnostics from `lib/kql`'s parser/analyser, plus the server's own problems of the
 *   last run (a stale mark disappears as soon as the text changes);
 * - completion: `completionsAt` of `lib/kql` (tables, columns, operators, functions), and the plant's
 *   data point names inside string literals;
 * - variables: a dashboard panel's `$name`s (its board's and `$__bin`, `$__range`, `$__from`,
 *   `$__to`) are completed after `$` and read as values by the error marks;
 * - hover: the one-line documentation of the operator or function under the pointer (`hoverAt`).
 */
import { autocompletion, closeCompletion, completionStatus, type CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { linter, type Diagnostic } from "@codemirror/lint";
import { StateEffect, StateField, type Extension, type Text } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin, hoverTooltip, type DecorationSet, type ViewUpdate } from "@codemirror/view";
import { hoverAt } from "@/lib/kql/catalog";
import { tokenize, type TokenKind } from "@/lib/kql/lexer";
import { completions, diagnostics, variableCompletions } from "./kql-services";

const TOKEN_CLASSES: Partial<Record<TokenKind, string>> = {
  keyword: "cm-kql-keyword",
  string: "cm-kql-string",
  number: "cm-kql-number",
  timespan: "cm-kql-number",
  datetime: "cm-kql-number",
  operator: "cm-kql-operator",
  comment: "cm-kql-comment",
  error: "cm-kql-error",
};

const marks = new Map(Object.entries(TOKEN_CLASSES).map(([kind, cls]) => [kind, Decoration.mark({ class: cls })]));
const functionMark = Decoration.mark({ class: "cm-kql-function" });
const tableMark = Decoration.mark({ class: "cm-kql-table" });

function highlight(doc: Text): DecorationSet {
  const tokens = tokenize(doc.toString());
  const ranges = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.from === token.to) continue;
    let mark = marks.get(token.kind);
    if (token.kind === "identifier") {
      if (tokens[i + 1]?.text === "(") mark = functionMark;
      else if (token.text === "States" || token.text === "Events") mark = tableMark;
    }
    if (mark) ranges.push(mark.range(token.from, token.to));
  }
  return Decoration.set(ranges, true);
}

const highlighter = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = highlight(view.state.doc);
    }
    update(update: ViewUpdate) {
      if (update.docChanged) this.decorations = highlight(update.state.doc);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/** Problems the server reported for the text as it was run; cleared on the next edit. */
export const setServerProblems = StateEffect.define<Diagnostic[]>();
const serverProblems = StateField.define<Diagnostic[]>({
  create: () => [],
  update(value, tr) {
    for (const effect of tr.effects) if (effect.is(setServerProblems)) return effect.value;
    return tr.docChanged ? [] : value;
  },
});

/** Converts the server's 1-based line/column to a document range (to the end of the word there). */
export function problemRange(doc: Text, line: number, column: number): { from: number; to: number } {
  const l = doc.line(Math.min(Math.max(1, line), doc.lines));
  const from = Math.min(l.from + Math.max(0, column - 1), l.to);
  const rest = doc.sliceString(from, l.to);
  const word = /^[A-Za-z0-9_."'-]+/.exec(rest)?.[0].length ?? 1;
  return { from, to: Math.min(l.to, from + Math.max(1, word)) || from };
}

const kqlLinter = (getVariables: () => readonly string[] | undefined) =>
  linter(
    (view) => {
      const local = diagnostics(view.state.doc.toString(), getVariables());
      const remote = view.state.field(serverProblems);
      // The server's mark only adds something when the local analysis missed the problem.
      return local.length > 0 ? local : remote;
    },
    { delay: 250, needsRefresh: (update) => update.transactions.some((tr) => tr.effects.some((e) => e.is(setServerProblems))) },
  );

function kqlCompletions(getNames: () => readonly string[], getVariables: () => readonly string[] | undefined) {
  return (context: CompletionContext): CompletionResult | null => {
    const variables = getVariables();
    const dollar = variables ? context.matchBefore(/\$[A-Za-z0-9_]*/) : null;
    if (dollar) return { from: dollar.from, options: variableCompletions(variables!), validFor: /^\$[A-Za-z0-9_]*$/ };
    // Complete while typing a word or a string, or anywhere on Ctrl+Space.
    if (!context.explicit && !context.matchBefore(/[A-Za-z_][A-Za-z0-9_-]*|["'][^"'\n]*/)) return null;
    const result = completions(context.state.doc.toString(), context.pos, getNames());
    return result && { ...result, validFor: /^[^\s|(),"']*$/ };
  };
}

const kqlHover = hoverTooltip((view, pos) => {
  const doc = hoverAt(view.state.doc.toString(), pos);
  if (!doc) return null;
  return {
    pos: doc.from,
    end: doc.to,
    above: true,
    create: () => {
      const dom = document.createElement("div");
      dom.className = "cm-kql-hover";
      if (doc.signature) {
        // A function: its signature, and below it what it does.
        const signature = dom.appendChild(document.createElement("div"));
        signature.textContent = doc.signature;
        if (doc.description) {
          const description = dom.appendChild(document.createElement("div"));
          description.className = "cm-kql-hover-description";
          description.textContent = doc.description;
        }
      } else dom.textContent = doc.text;
      return { dom };
    },
  };
});

const theme = EditorView.theme({
  ".cm-kql-hover": { padding: "4px 8px", fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", fontSize: "12px", maxWidth: "36rem" },
  ".cm-kql-hover-description": { fontFamily: "system-ui, sans-serif", marginTop: "2px" },
  "&": { fontSize: "14px", backgroundColor: "var(--pd-surface)", color: "var(--pd-fg)" },
  ".cm-content": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", caretColor: "var(--pd-fg)" },
  ".cm-gutters": { backgroundColor: "var(--pd-surface-2)", color: "var(--pd-fg-muted)", border: "none" },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--pd-accent-soft) 35%, transparent)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--pd-accent-soft)" },
  "&.cm-focused": { outline: "2px solid var(--pd-focus)", outlineOffset: "0" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": { backgroundColor: "var(--pd-accent-soft) !important" },
  ".cm-kql-keyword": { color: "var(--pd-kql-keyword)", fontWeight: "600" },
  ".cm-kql-string": { color: "var(--pd-kql-string)" },
  ".cm-kql-number": { color: "var(--pd-kql-number)" },
  ".cm-kql-operator": { color: "var(--pd-kql-operator)" },
  ".cm-kql-comment": { color: "var(--pd-fg-muted)", fontStyle: "italic" },
  ".cm-kql-function": { color: "var(--pd-kql-function)" },
  ".cm-kql-table": { color: "var(--pd-kql-table)", fontWeight: "600" },
  ".cm-kql-error": { color: "var(--pd-danger)" },
  ".cm-tooltip": { backgroundColor: "var(--pd-surface)", color: "var(--pd-fg)", border: "1px solid var(--pd-line)" },
  ".cm-tooltip-autocomplete ul li[aria-selected]": { backgroundColor: "var(--pd-accent)", color: "var(--pd-accent-fg)" },
});

/**
 * No completion list outside the editor's focus. Completion opens a moment after typing stops
 * (activateOnTyping's delay); when the focus has left in that moment (type, then Tab away), the
 * list would open anyway and stay, a scrollable list nobody can reach (axe:
 * scrollable-region-focusable). closeOnBlur only closes what was open at the blur.
 */
const completionOnlyWithFocus = EditorView.updateListener.of((update) => {
  if (update.view.hasFocus || completionStatus(update.state) === null) return;
  // Not inside this update: a view takes no new transaction while it applies one.
  queueMicrotask(() => {
    if (!update.view.hasFocus) closeCompletion(update.view);
  });
});

/**
 * Everything KQL-specific the editor needs; `getNames` returns the plant's data point names,
 * `getVariables` a panel's `$name`s (undefined in the explorer, whose queries have none).
 */
export function kqlSupport(getNames: () => readonly string[], getVariables: () => readonly string[] | undefined = () => undefined): Extension {
  return [
    highlighter,
    serverProblems,
    kqlLinter(getVariables),
    autocompletion({ override: [kqlCompletions(getNames, getVariables)], activateOnTyping: true }),
    completionOnlyWithFocus,
    kqlHover,
    theme,
  ];
}
