/**
 * The pieces of ADX's pattern statement both its declaration (parser.ts) and its invocation
 * (tabular.ts) read: the constant values and the path.
 */
import { type Cursor, describe, isPunct, ParseFailure } from "./cursor";
import { parseExpr } from "./expressions";

/** `(value, …)`: constants or `*`. */
export function patternValues(c: Cursor): (string | number | boolean | "*")[] {
  c.expectPunct("(");
  const values: (string | number | boolean | "*")[] = [];
  while (!isPunct(c.peek(), ")")) {
    if (values.length) c.expectPunct(",");
    if (isPunct(c.peek(), "*")) {
      c.next();
      values.push("*");
      continue;
    }
    const token = c.peek();
    const value = parseExpr(c);
    if (value.kind !== "literal" || value.value === null || typeof value.value === "object") throw new ParseFailure(token, "A pattern's arguments are constants");
    values.push(value.value);
  }
  c.expectPunct(")");
  return values;
}

/** A path after `.`: a name, `["text"]` or `*`. */
export function patternPath(c: Cursor): string {
  if (isPunct(c.peek(), "*")) {
    c.next();
    return "*";
  }
  if (isPunct(c.peek(), "[")) {
    c.next();
    const token = c.next();
    if (token.kind !== "string") throw new ParseFailure(token, `Expected a quoted path but found ${describe(token)}`);
    c.expectPunct("]");
    return token.value ?? "";
  }
  return c.expectName("a path").text;
}
