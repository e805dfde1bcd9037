/**
 * A dashboard's variables in a query (docs/api.md, "Dashboards"). A query names a variable as
 * `$name`; the lexer reads that as one identifier token, and each such token — never text inside a
 * string or a comment — is replaced by a KQL string literal of the value, built here with every
 * quote, backslash and control character escaped. A value can therefore never end the literal and
 * become query text, whatever it holds. The `$__` names are the board's own: `$__bin` a timespan
 * literal chosen from the range, so a panel can write `bin(Timestamp, $__bin)` and get about 150
 * points at any range; `$__range` the range as a timespan literal; `$__from` and `$__to` its ends
 * (`ago(<range>)` and `now()`: the board's range always ends now).
 * Pure: the browser substitutes before it runs a panel, the server checks names when a board is saved.
 */
import { tokenize } from "./lexer";

/** The board's own names, always available. */
export const BUILTIN_VARIABLES = ["__bin", "__range", "__from", "__to"] as const;

export function isBuiltinVariable(name: string): boolean {
  return (BUILTIN_VARIABLES as readonly string[]).includes(name);
}

/** A span of milliseconds as a KQL timespan literal in its largest whole unit (`30d`, `6h`, `90m`). */
export function timespanLiteral(ms: number): string {
  for (const [unit, size] of [["d", 86_400_000], ["h", 3_600_000], ["m", 60_000], ["s", 1000]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${Math.max(0, Math.round(ms))}ms`;
}

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

interface VariableUse {
  name: string;
  line: number;
  column: number;
}

/** Every `$name` the query uses, in order (strings and comments do not count). */
export function variablesUsed(query: string): VariableUse[] {
  return tokenize(query).flatMap((token) => (token.kind === "identifier" && token.text.startsWith("$") ? [{ name: token.text.slice(1), line: token.line, column: token.column }] : []));
}

type Substitution = { ok: true; query: string } | { ok: false; problem: VariableUse & { message: string } };

/**
 * The query with each `$name` replaced: a variable by the string literal of its value, `$__bin` by
 * `bin` (a timespan literal of binFor), `$__range`/`$__from`/`$__to` from `rangeMs` (the board's
 * range; without it they are unknown). An unknown name is a problem with its line and column.
 */
export function substituteVariables(query: string, values: Readonly<Record<string, string>>, bin: string, rangeMs?: number): Substitution {
  if (!/^\d{1,4}[mhd]$/.test(bin)) throw new Error(`not a bin width: ${bin}`);
  const range = rangeMs === undefined ? null : timespanLiteral(rangeMs);
  const builtins: Record<string, string | null> = { __bin: bin, __range: range, __from: range && `ago(${range})`, __to: range && "now()" };
  let out = "";
  let at = 0;
  for (const token of tokenize(query)) {
    if (token.kind !== "identifier" || !token.text.startsWith("$")) continue;
    const name = token.text.slice(1);
    let replacement: string;
    const builtin = Object.hasOwn(builtins, name) ? builtins[name] : null;
    if (builtin) replacement = builtin;
    else if (Object.hasOwn(values, name)) replacement = kqlStringLiteral(values[name]!);
    else return { ok: false, problem: { name, line: token.line, column: token.column, message: `$${name} is not a variable of this dashboard` } };
    out += query.slice(at, token.from) + replacement;
    at = token.to;
  }
  return { ok: true, query: out + query.slice(at) };
}

/**
 * The query with each `$name` token replaced by valid KQL of exactly its length, so the editor's
 * diagnostics (lib/kql diagnose) read a panel's query at the same offsets: a variable of `known`
 * becomes a string literal (`$point` → `"    "`), `$__bin`/`$__range` a timespan, `$__from`/`$__to`
 * `now()` padded with spaces. Names not in `known` stay, and are reported as the unknown names they are.
 */
export function maskVariables(query: string, known: ReadonlySet<string>): string {
  let out = "";
  let at = 0;
  for (const token of tokenize(query)) {
    if (token.kind !== "identifier" || !token.text.startsWith("$")) continue;
    const name = token.text.slice(1);
    const length = token.to - token.from;
    let mask: string | null = null;
    if (name === "__bin" || name === "__range") mask = "1h".padEnd(length);
    else if (name === "__from" || name === "__to") mask = "now()".padEnd(length);
    else if (known.has(name) && length >= 2) mask = `"${" ".repeat(length - 2)}"`;
    if (mask === null) continue;
    out += query.slice(at, token.from) + mask;
    at = token.to;
  }
  return out + query.slice(at);
}
