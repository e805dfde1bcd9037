"use client";
/**
 * The KQL editor: CodeMirror 6 with `lib/kql` highlighting, error marks and completion. Shift+Enter
 * and Ctrl/Cmd+Enter run the query. Loaded with next/dynamic, so CodeMirror is not in the page's
 * first-load JavaScript.
 */
import { useEffect, useRef } from "react";
import { closeBrackets, closeBracketsKeymap, closeCompletion, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching } from "@codemirror/language";
import { lintKeymap, type Diagnostic } from "@codemirror/lint";
import { EditorState, Prec } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, placeholder, highlightActiveLine, highlightActiveLineGutter } from "@codemirror/view";
import { kqlSupport, problemRange, setServerProblems } from "./kql-language";
import type { QueryProblem } from "./telemetry-api";

/**
 * Something the page asks of the editor: put the cursor on a problem's line and column, or type a
 * name from the schema panel at the cursor, or close the completion list (a Run from the button).
 * `id` changes with every request, so the same request
 * twice is carried out twice.
 */
export type EditorCommand = { id: number } & ({ kind: "jump"; line: number; column: number } | { kind: "insert"; text: string } | { kind: "close" });

interface KqlEditorProps {
  value: string;
  onChange: (value: string) => void;
  onRun: () => void;
  /** Data point names offered inside string literals. */
  names: readonly string[];
  /** Problems the server reported for the last run (INVALID_QUERY). */
  problems: readonly QueryProblem[];
  label: string;
  command?: EditorCommand | null;
  /** A dashboard panel's `$name`s (without `$`): completed after `$`, read as values by the error marks. */
  variables?: readonly string[];
}

export default function KqlEditor({ value, onChange, onRun, names, problems, label, command, variables }: KqlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // Callbacks and names change between renders; the editor is built once and reads them here.
  const latest = useRef({ onChange, onRun, names, variables });
  useEffect(() => {
    latest.current = { onChange, onRun, names, variables };
  });

  useEffect(() => {
    const run = (target: EditorView) => {
      closeCompletion(target);
      latest.current.onRun();
      return true;
    };
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          // Run before the default keymap claims Enter (Shift+Enter would insert a line break).
          Prec.highest(keymap.of([
            { key: "Shift-Enter", run },
            { key: "Mod-Enter", run },
          ])),
          lineNumbers(),
          highlightActiveLine(),
          highlightActiveLineGutter(),
          history(),
          bracketMatching(),
          closeBrackets(),
          placeholder("States | where Name == \"…\" | take 100"),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap, indentWithTab]),
          kqlSupport(
            () => latest.current.names,
            () => latest.current.variables,
          ),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ "aria-label": label, "aria-multiline": "true" }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is created once; later `value` changes are applied by the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A value from outside (an example, the history, a shared link) replaces the text.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const doc = editor.state.doc;
    const diagnostics: Diagnostic[] = problems.map((p) => ({ ...problemRange(doc, p.line, p.column), severity: "error", message: p.message, source: "server" }));
    editor.dispatch({ effects: setServerProblems.of(diagnostics) });
  }, [problems]);

  useEffect(() => {
    const editor = view.current;
    if (!editor || !command) return;
    if (command.kind === "close") {
      closeCompletion(editor);
      return;
    }
    if (command.kind === "jump") {
      const { from } = problemRange(editor.state.doc, command.line, command.column);
      editor.dispatch({ selection: { anchor: from }, scrollIntoView: true });
    } else {
      const { from, to } = editor.state.selection.main;
      editor.dispatch({ changes: { from, to, insert: command.text }, selection: { anchor: from + command.text.length }, scrollIntoView: true });
    }
    editor.focus();
  }, [command]);

  return (
    <div
      ref={host}
      data-testid="kql-editor"
      className="min-h-28 overflow-hidden rounded-md border border-line [--pd-kql-function:#6d28d9] [--pd-kql-keyword:#1d4ed8] [--pd-kql-number:#b45309] [--pd-kql-operator:#9d174d] [--pd-kql-string:#047857] [--pd-kql-table:#0e7490] dark:[--pd-kql-function:#c4b5fd] dark:[--pd-kql-keyword:#93c5fd] dark:[--pd-kql-number:#fcd34d] dark:[--pd-kql-operator:#f9a8d4] dark:[--pd-kql-string:#6ee7b7] dark:[--pd-kql-table:#67e8f9]"
    />
  );
}
