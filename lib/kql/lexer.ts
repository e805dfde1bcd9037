/**
 * KQL lexer: the whole text into tokens with offsets and 1-based line/column. It never throws: text
 * it cannot read becomes an `error` token, so the editor can highlight a query while it is typed.
 */
export type TokenKind =
  | "identifier"
  | "keyword"
  | "string"
  | "number"
  | "timespan"
  | "datetime"
  | "punctuation"
  | "operator"
  | "comment"
  | "error"
  | "eof";

export interface Token {
  kind: TokenKind;
  /** The source text of the token. */
  text: string;
  /** 0-based offsets, `to` exclusive. */
  from: number;
  to: number;
  line: number;
  column: number;
  /** Decoded value: the string's content, the number's text, a datetime literal's inner text. */
  value?: string;
  /** Set on `string`/`error` tokens that are not closed or not understood. */
  problem?: string;
}

/** Words the highlighter shows as keywords: tabular operators and their clause words. */
const KEYWORDS = new Set([
  "where", "filter", "project", "project-away", "project-rename", "project-reorder", "project-keep", "extend",
  "summarize", "by", "order", "sort", "asc", "desc", "nulls", "first", "last", "top", "take", "limit",
  "distinct", "count", "render", "with", "and", "or", "between", "in", "has", "contains", "startswith",
  "endswith", "contains_cs", "startswith_cs", "endswith_cs", "has_any", "has_all", "hasprefix", "hassuffix",
  "matches", "regex", "true", "false", "null", "let", "union", "join", "lookup", "on", "kind", "make-series",
  "mv-expand", "top-nested", "of", "parse", "sample", "as", "getschema", "print", "datatable", "range",
  "from", "to", "step", "default", "withsource",
]);

/**
 * Hyphenated operator names the lexer reads as one word, so `make-series` is one token (and a
 * refusal can name it) rather than `make` minus `series`. Longest first: `top-nested` before `top`.
 */
const HYPHENATED = [
  "project-away", "project-rename", "project-reorder", "project-keep", "project-smart", "project-by-names",
  "make-series", "make-graph", "mv-expand", "mv-apply", "top-nested", "top-hitters", "parse-where", "parse-kv",
  "sample-distinct", "graph-match", "graph-mark-components", "graph-to-table", "graph-merge", "graph-shortest-paths", "granny-asc", "granny-desc",
];

const TIMESPAN_UNITS: Record<string, number> = {
  d: 86_400_000_000, day: 86_400_000_000, days: 86_400_000_000,
  h: 3_600_000_000, hr: 3_600_000_000, hrs: 3_600_000_000, hour: 3_600_000_000, hours: 3_600_000_000,
  m: 60_000_000, min: 60_000_000, minute: 60_000_000, minutes: 60_000_000,
  s: 1_000_000, sec: 1_000_000, second: 1_000_000, seconds: 1_000_000,
  ms: 1_000, milli: 1_000, millis: 1_000, millisecond: 1_000, milliseconds: 1_000,
  microsecond: 1, microseconds: 1,
  tick: 0.1, ticks: 0.1,
};

/**
 * Microseconds of a timespan literal such as `5m` or `1.5h`, or undefined if it is not one. Inside
 * `time(…)`/`timespan(…)` ADX also writes `[-][d.]hh:mm[:ss[.fffffff]]`, a number of days (`2`),
 * a number and a unit word (`15 seconds`) and a sign (`-1h`): the lexer reads that inner text as
 * one timespan token, decoded here too.
 */
export function timespanMicros(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)([a-z]+)$/.exec(text);
  if (match) {
    const unit = TIMESPAN_UNITS[match[2]!];
    return unit === undefined ? undefined : Math.round(Number(match[1]) * unit);
  }
  const signed = /^-\s*(.+)$/.exec(text);
  if (signed) {
    const magnitude = timespanMicros(signed[1]!);
    return magnitude === undefined ? undefined : -magnitude;
  }
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * TIMESPAN_UNITS.d!);
  const spaced = /^(\d+(?:\.\d+)?)\s+([a-z]+)$/.exec(text);
  if (spaced) return timespanMicros(`${spaced[1]}${spaced[2]}`);
  const clock = /^(?:(\d+)\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?$/.exec(text);
  if (!clock) return undefined;
  const [, days = "0", hours, minutes, seconds = "0", fraction = ""] = clock;
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) return undefined;
  const whole = ((Number(days) * 24 + Number(hours)) * 60 + Number(minutes)) * 60 + Number(seconds);
  return whole * 1_000_000 + Math.round(Number(`0.${fraction || "0"}`) * 1_000_000);
}

const TWO_CHAR = ["==", "!=", "=~", "!~", "<=", ">=", "..", "<>"];
const ONE_CHAR = "|,()[]{}.=<>+-*/%:;~";
// Character tests by code: the lexer runs on every keystroke in the editor and on every query.
const isLetter = (c: string) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");
const isDigit = (c: string) => c >= "0" && c <= "9";
const isIdentStart = (c: string) => isLetter(c) || c === "_";
const isIdentPart = (c: string) => isLetter(c) || isDigit(c) || c === "_";
const isSpace = (c: string) => c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v" || c === "\u00a0";

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  let line = 1;
  let lineStart = 0;

  const push = (kind: TokenKind, from: number, extra: Partial<Token> = {}) => {
    tokens.push({ kind, text: text.slice(from, pos), from, to: pos, line, column: from - lineStart + 1, ...extra });
  };

  while (pos < text.length) {
    const c = text[pos]!;
    const from = pos;
    if (c === "\n") {
      pos++;
      line++;
      lineStart = pos;
      continue;
    }
    if (isSpace(c) || (c > "\u007f" && /\s/.test(c))) {
      pos++;
      continue;
    }
    if (c === "/" && text[pos + 1] === "/") {
      while (pos < text.length && text[pos] !== "\n") pos++;
      push("comment", from);
      continue;
    }
    if (c === '"' || c === "'" || ((c === "@" || c === "h" || c === "H") && (text[pos + 1] === '"' || text[pos + 1] === "'"))) {
      readString(from);
      continue;
    }
    if (isDigit(c) || (c === "." && isDigit(text[pos + 1] ?? ""))) {
      readNumber(from);
      continue;
    }
    if (isIdentStart(c)) {
      while (pos < text.length && isIdentPart(text[pos]!)) pos++;
      const word = text.slice(from, pos);
      const hyphenated = HYPHENATED.find((h) => text.startsWith(h, from) && !isIdentPart(text[from + h.length] ?? ""));
      if (hyphenated) {
        pos = from + hyphenated.length;
        push("keyword", from);
        continue;
      }
      if (word === "datetime" && readDatetimeLiteral(from)) continue;
      if ((word === "time" || word === "timespan") && readTimespanLiteral(from)) continue;
      push(KEYWORDS.has(word) ? "keyword" : "identifier", from);
      continue;
    }
    if (c === "$" && isIdentStart(text[pos + 1] ?? "")) {
      pos++;
      while (pos < text.length && isIdentPart(text[pos]!)) pos++;
      push("identifier", from);
      continue;
    }
    if (c === "!" && isLetter(text[pos + 1] ?? "")) {
      // Negated string/set operators: !has, !contains, !in, !startswith, !between, …
      pos++;
      while (pos < text.length && isIdentPart(text[pos]!)) pos++;
      push("operator", from);
      continue;
    }
    const two = text.slice(pos, pos + 2);
    if (TWO_CHAR.includes(two)) {
      pos += 2;
      push("operator", from);
      continue;
    }
    if (ONE_CHAR.includes(c)) {
      pos++;
      push("|,()[]{};:".includes(c) ? "punctuation" : "operator", from);
      continue;
    }
    pos++;
    push("error", from, { problem: `Unexpected character '${c}'` });
  }
  tokens.push({ kind: "eof", text: "", from: text.length, to: text.length, line, column: text.length - lineStart + 1 });
  return tokens;

  function readString(from: number) {
    let verbatim = false;
    if (text[pos] === "@") {
      verbatim = true;
      pos++;
    } else if (text[pos] === "h" || text[pos] === "H") {
      pos++;
    }
    const quote = text[pos]!;
    pos++;
    let value = "";
    while (pos < text.length) {
      const ch = text[pos]!;
      if (ch === "\n") break;
      if (ch === quote) {
        pos++;
        push("string", from, { value });
        return;
      }
      if (ch === "\\" && !verbatim) {
        const next = text[pos + 1];
        const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0" };
        if (next !== undefined && escapes[next] !== undefined) {
          value += escapes[next];
          pos += 2;
          continue;
        }
        if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) {
          value += String.fromCharCode(parseInt(text.slice(pos + 2, pos + 6), 16));
          pos += 6;
          continue;
        }
        value += ch;
        pos++;
        continue;
      }
      value += ch;
      pos++;
    }
    push("string", from, { value, problem: "Unterminated string literal" });
  }

  function readNumber(from: number) {
    // `0xFF`: a hexadecimal long (its text is the token's; Number() reads it).
    if (text[pos] === "0" && (text[pos + 1] === "x" || text[pos + 1] === "X") && /[0-9a-fA-F]/.test(text[pos + 2] ?? "")) {
      pos += 2;
      while (/[0-9a-fA-F]/.test(text[pos] ?? "")) pos++;
      push("number", from, { value: text.slice(from, pos) });
      return;
    }
    while (isDigit(text[pos] ?? "")) pos++;
    if (text[pos] === "." && isDigit(text[pos + 1] ?? "")) {
      pos++;
      while (isDigit(text[pos] ?? "")) pos++;
    }
    if ((text[pos] === "e" || text[pos] === "E") && /^[eE][+-]?\d/.test(text.slice(pos, pos + 3))) {
      pos += text[pos + 1] === "+" || text[pos + 1] === "-" ? 2 : 1;
      while (isDigit(text[pos] ?? "")) pos++;
      push("number", from, { value: text.slice(from, pos) });
      return;
    }
    if (isIdentStart(text[pos] ?? "")) {
      const unitStart = pos;
      while (isIdentPart(text[pos] ?? "")) pos++;
      const literal = text.slice(from, pos);
      if (timespanMicros(literal) !== undefined) {
        push("timespan", from, { value: literal });
      } else {
        push("error", from, { problem: `Unknown timespan unit '${text.slice(unitStart, pos)}'` });
      }
      return;
    }
    push("number", from, { value: text.slice(from, pos) });
  }

  /**
   * After a literal's word: the `(` (spaces and tabs before it allowed) and the first `)` after it,
   * on the same line, or null. A typed literal's inner text is read between them as it stands.
   */
  function parenthesesOnThisLine(): { open: number; close: number } | null {
    let open = pos;
    while (text[open] === " " || text[open] === "\t") open++;
    if (text[open] !== "(") return null;
    const close = text.indexOf(")", open);
    const newline = text.indexOf("\n", open);
    if (close < 0 || (newline >= 0 && newline < close)) return null;
    return { open, close };
  }

  /**
   * `time(00:10:00)`, `timespan(2)`, `time(15 seconds)`, `time(-1h)`: ADX's timespan literal forms
   * whose inner text is not made of ordinary tokens. The word, the parentheses and the inner text
   * (one `timespan` token) are pushed as a typed literal is written; other inner text is left to
   * the ordinary tokens (`time(1d)`, `time(null)`, a call).
   */
  function readTimespanLiteral(from: number): boolean {
    const parens = parenthesesOnThisLine();
    if (!parens) return false;
    const { open: p, close } = parens;
    const raw = text.slice(p + 1, close);
    const inner = raw.trim();
    if (timespanMicros(inner) === undefined) {
      // Text written as a clock or with a unit word that is not one: say what ADX accepts.
      if (!/^-?\s*\d[\d.]*(:[\d.:]*|\s+[a-z]+)$/.test(inner)) return false;
      pos = close + 1;
      push("error", from, { problem: `Invalid timespan literal '${inner}': write time(1d), time(1.5h), time(00:10:00), time(1.12:30:00), time(2) for days, or time(15 seconds)` });
      return true;
    }
    const at = (start: number, end: number, kind: TokenKind) => tokens.push({ kind, text: text.slice(start, end), from: start, to: end, line, column: start - lineStart + 1 });
    const innerFrom = p + 1 + (raw.length - raw.trimStart().length);
    at(from, pos, "identifier");
    at(p, p + 1, "punctuation");
    at(innerFrom, innerFrom + inner.length, "timespan");
    at(close, close + 1, "punctuation");
    pos = close + 1;
    return true;
  }

  /** `datetime(2024-01-01T00:00:00Z)`: the inner text is not made of ordinary tokens. */
  function readDatetimeLiteral(from: number): boolean {
    const parens = parenthesesOnThisLine();
    if (!parens) return false;
    const inner = text.slice(parens.open + 1, parens.close).trim();
    pos = parens.close + 1;
    push("datetime", from, { value: inner });
    return true;
  }
}
