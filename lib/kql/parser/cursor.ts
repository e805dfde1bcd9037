/**
 * The parser's state over one query's tokens: the position, the nesting depth, the diagnostics so
 * far and the names `let` and `as` have made known, with the token tests every grammar module uses.
 *
 * Expressions hold sub-queries and tabular expressions hold expressions, so the grammar modules
 * would import each other in a circle; instead a nested tabular expression is read through
 * `Cursor.tabular`, which parser.ts supplies.
 */
import type { Name, Span, TabularExpr } from "../ast";
import type { Token } from "../lexer";

export interface Diagnostic {
  line: number;
  column: number;
  from: number;
  to: number;
  message: string;
}

/** Deepest nesting of expressions and sub-queries a query may have. */
export const MAX_NESTING = 100;

/**
 * A `declare pattern` (ADX's pattern statement): its bodies by the constant arguments (and path)
 * they stand for; `*` matches any value. Without bodies the pattern is the application's to define.
 */
export interface PatternDefinition {
  name: Name;
  arity: number;
  hasPath: boolean;
  entries: { args: (string | number | boolean | "*")[]; path?: string | "*"; body: TabularExpr }[];
}

export class ParseFailure extends Error {
  constructor(
    readonly token: Token,
    message: string,
    /** Not recoverable by skipping to the next `|` (nesting too deep). */
    readonly fatal = false,
  ) {
    super(message);
  }
}

export const isWord = (token: Token, word: string) =>
  (token.kind === "identifier" || token.kind === "keyword" || token.kind === "operator") && token.text === word;
export const isName = (token: Token) => token.kind === "identifier" || token.kind === "keyword";
export const isPunct = (token: Token, text: string) => (token.kind === "punctuation" || token.kind === "operator") && token.text === text;
export const describe = (token: Token) => (token.kind === "eof" ? "end of query" : `'${token.text}'`);
export const fail = (token: Token, message: string): never => {
  throw new ParseFailure(token, message);
};

export class Cursor {
  index = 0;
  depth = 0;
  readonly diagnostics: Diagnostic[] = [];
  /** Names that denote tables: the tables themselves are resolved later; `let`/`as` names are known here. */
  readonly tabularNames = new Set<string>();
  readonly tabularFunctions = new Set<string>();
  readonly scalarNames = new Set<string>();
  /** `declare pattern` statements so far: each invocation is replaced by the body it matches (parser/tabular.ts). */
  readonly patterns = new Map<string, PatternDefinition>();

  constructor(
    readonly tokens: Token[],
    /** Reads a nested tabular expression (a sub-query, a join's right side, a union's table). */
    private readonly readTabular: (cursor: Cursor) => TabularExpr,
  ) {}

  tabular(): TabularExpr {
    return this.readTabular(this);
  }

  /** A cursor over other tokens (a plugin's spelled-out operators) that knows this one's names and nesting. */
  derive(tokens: Token[]): Cursor {
    const derived = new Cursor(tokens, this.readTabular);
    derived.depth = this.depth;
    for (const [from, to] of [[this.tabularNames, derived.tabularNames], [this.tabularFunctions, derived.tabularFunctions], [this.scalarNames, derived.scalarNames]] as const) for (const n of from) to.add(n);
    for (const [name, pattern] of this.patterns) derived.patterns.set(name, pattern);
    return derived;
  }

  report(token: Token, message: string, to = token.to) {
    this.diagnostics.push({ line: token.line, column: token.column, from: token.from, to: Math.max(to, token.from), message });
  }

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)]!;
  }

  next(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return token;
  }

  /** One or more items separated by commas. */
  commaList<T>(item: () => T): T[] {
    const items = [item()];
    while (isPunct(this.peek(), ",")) {
      this.next();
      items.push(item());
    }
    return items;
  }

  /** An optional clause: what `parse` reads after the word, when the next token is that word. */
  after<T>(word: string, parse: () => T): T | undefined {
    if (!isWord(this.peek(), word)) return undefined;
    this.next();
    return parse();
  }

  expectPunct(text: string): Token {
    const token = this.peek();
    if (!isPunct(token, text)) fail(token, `Expected '${text}' but found ${describe(token)}`);
    return this.next();
  }

  expectWord(word: string): Token {
    const token = this.peek();
    if (!isWord(token, word)) fail(token, `Expected '${word}' but found ${describe(token)}`);
    return this.next();
  }

  expectName(what: string): Name {
    const token = this.peek();
    if (!isName(token)) fail(token, `Expected ${what} but found ${describe(token)}`);
    this.next();
    return { text: token.text, span: { from: token.from, to: token.to } };
  }

  spanFrom(from: number): Span {
    return { from, to: this.tokens[Math.max(this.index - 1, 0)]!.to };
  }

  enter(token: Token) {
    if (++this.depth > MAX_NESTING) throw new ParseFailure(token, `The query is nested deeper than ${MAX_NESTING} levels; simplify it`, true);
  }

  leave() {
    this.depth--;
  }

  skipTo(stops: string[]) {
    while (this.peek().kind !== "eof" && !stops.some((s) => isPunct(this.peek(), s))) this.next();
  }

  tokenAt(span: Span): Token {
    return this.tokens.find((t) => t.from === span.from) ?? this.peek();
  }

  /** `kind=inner`, `withsource=Name`, `hint.strategy=shuffle`: `name=value` options before an operator's arguments. */
  readOptions(allowed: Set<string>): Map<string, { value: Name; span: Span }> {
    const options = new Map<string, { value: Name; span: Span }>();
    for (;;) {
      const token = this.peek();
      if (!isName(token) || !(isPunct(this.peek(1), "=") || (token.text === "hint" && isPunct(this.peek(1), ".")))) return options;
      let key = token.text;
      let end = 2;
      // hint.strategy, hint.shufflekey, …: dotted option names.
      while (isPunct(this.peek(end - 1), ".") && isName(this.peek(end))) {
        key += `.${this.peek(end).text}`;
        end += 2;
      }
      if (!isPunct(this.peek(end - 1), "=")) return options;
      if (!allowed.has(key) && !key.startsWith("hint.")) return options;
      for (let i = 0; i < end; i++) this.next();
      const valueToken = this.next();
      if (valueToken.kind === "eof" || isPunct(valueToken, "(") || isPunct(valueToken, "|")) fail(valueToken, `Expected a value for '${key}'`);
      options.set(key, { value: { text: valueToken.value ?? valueToken.text, span: { from: valueToken.from, to: valueToken.to } }, span: this.spanFrom(token.from) });
    }
  }

  /** Whether a tabular expression starts here (as opposed to a scalar one). */
  startsTabular(): boolean {
    const token = this.peek();
    if (isPunct(token, "(")) {
      // `(States | …)` or `(T)` where T is tabular.
      const inner = this.peek(1);
      return isName(inner) && (this.tabularNames.has(inner.text) || isTableLike(inner.text) || this.tabularFunctions.has(inner.text) || ["union", "datatable", "print", "range"].includes(inner.text)) && !this.scalarNames.has(inner.text);
    }
    if (!isName(token)) return false;
    if (this.scalarNames.has(token.text)) return false;
    // externaldata / external_data / inline_external_table are tabular (and refused as a source: parser/tabular.ts).
    if (["union", "datatable", "print", "externaldata", "external_data", "inline_external_table"].includes(token.text)) return true;
    if (token.text === "range" && isName(this.peek(1)) && isWord(this.peek(2), "from")) return true;
    if (this.tabularFunctions.has(token.text) || token.text === "materialize" || token.text === "view") return true;
    if (this.tabularNames.has(token.text) || isTableLike(token.text)) return !isPunct(this.peek(1), "(");
    return isPunct(this.peek(1), "|");
  }
}

function isTableLike(name: string): boolean {
  return name === "States" || name === "Events";
}
