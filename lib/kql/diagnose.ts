/**
 * Everything wrong with a query, for the editor's error marks: syntax diagnostics from the parser,
 * or, when the syntax is fine, the first semantic error (unknown table/column/function, types).
 */
import { compileKql } from "./compile";
import { KqlError } from "./errors";
import { parse, type Diagnostic } from "./parser";

/** Stand-in relations: diagnosing needs the schemas only, never data. */
export const SCHEMA_ONLY_SOURCES = {
  States: { sql: 'SELECT * FROM "States"', params: {} },
  Events: { sql: 'SELECT * FROM "Events"', params: {} },
};

export function diagnose(text: string): Diagnostic[] {
  const { diagnostics } = parse(text);
  if (diagnostics.length) return diagnostics;
  try {
    compileKql(text, { sources: SCHEMA_ONLY_SOURCES });
    return [];
  } catch (error) {
    if (!(error instanceof KqlError)) throw error;
    return [{ line: error.line, column: error.column, from: error.from, to: Math.max(error.to, error.from + 1), message: error.detail }];
  }
}
