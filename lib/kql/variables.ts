/**
 * A dashboard's variables in a query (docs/api.md, "Dashboards"). A query names a variable as
 * `$name`; the lexer reads that as one identifier token, and each such token — never text inside a
 * string or a comment — is replaced by a KQL string literal of the value, built here with every
 * quote, backslash and control character escaped. A value can therefore never end the literal and
 * become query text, whatever it holds. `$__bin` is the board's own: a timespan literal chosen from
 * the range, so a panel can write `bin(Timestamp, $__bin)` and get about 150 points at any range.
 * Pure: the browser substitutes before it runs a panel, the server checks names when a board is saved.
 */
import { tokenize } from "./lexer";

/** The board's own names, always available (`$__bin`). */
export const BUILTIN_VARIABLES = ["__bin"] as const;

/** A KQL string literal holding exactly `value`. */
export function kqlStringLiteral(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Bin widths `$__bin` chooses from: the smallest that keeps a range at or under TARGET_POINTS. */
const BIN_STEPS: readonly [string, number][] = [
  ["1m", 60_000],
  ["5m", 300_000],
  ["10m", 600_000],
  ["15m", 900_000],
  ["30m", 1_800_000],
  ["1h", 3_600_000],
  ["3h", 10_800_000],
  ["6h", 21_600_000],
  ["12h", 43_200_000],
  ["1d", 86_400_000],
];
const TARGET_POINTS = 150;

/** The `$__bin` of a range of `rangeMs` milliseconds, as a KQL timespan literal. */
export function binFor(rangeMs: number): string {
  return (BIN_STEPS.find(([, ms]) => rangeMs / ms <= TARGET_POINTS) ?? BIN_STEPS[BIN_STEPS.length - 1]!)[0];
}

export interface VariableUse {
  name: string;
  line: number;
  column: number;
}

/** Every `$name` the query uses, in order (strings and comments do not count). */
export function variablesUsed(query: string): VariableUse[] {
  return tokenize(query).flatMap((token) => (token.kind === "identifier" && token.text.startsWith("$") ? [{ name: token.text.slice(1), line: token.line, column: token.column }] : []));
}

export type Substitution = { ok: true; query: string } | { ok: false; problem: VariableUse & { message: string } };

/**
 * The query with each `$name` replaced: a variable by the string literal of its value, `$__bin` by
 * `bin` (a timespan literal of binFor). An unknown name is a problem with its line and column.
 */
export function substituteVariables(query: string, values: Readonly<Record<string, string>>, bin: string): Substitution {
  if (!/^\d{1,4}[mhd]$/.test(bin)) throw new Error(`not a bin width: ${bin}`);
  let out = "";
  let at = 0;
  for (const token of tokenize(query)) {
    if (token.kind !== "identifier" || !token.text.startsWith("$")) continue;
    const name = token.text.slice(1);
    let replacement: string;
    if (name === "__bin") replacement = bin;
    else if (Object.hasOwn(values, name)) replacement = kqlStringLiteral(values[name]!);
    else return { ok: false, problem: { name, line: token.line, column: token.column, message: `$${name} is not a variable of this dashboard` } };
    out += query.slice(at, token.from) + replacement;
    at = token.to;
  }
  return { ok: true, query: out + query.slice(at) };
}
