/**
 * Literal forms whose spelling is more than one token: typed literals (`long(1)`, `real(null)`,
 * `dynamic([…])`, `timespan(1h)`) and the datetime text inside `datetime(…)`.
 */
import type { Expr } from "../ast";
import { timespanMicros, type Token } from "../lexer";
import { Cursor, describe, fail, isName, isPunct, isWord } from "./cursor";

const TYPED_NULL_LITERALS = new Set(["real", "double", "long", "int", "bool", "boolean", "dynamic", "string", "timespan", "time", "decimal", "guid"]);

/** `real(null)`, `long(1)`, `dynamic([1, 2])`, `timespan(1h)`, … after the `(` — undefined when it is a call. */
export function parseTypedLiteral(c: Cursor, name: Token): Expr | undefined {
  if (!TYPED_NULL_LITERALS.has(name.text)) return undefined;
  const inner = c.peek();
  const type = ({ double: "real", boolean: "bool", time: "timespan" } as Record<string, string>)[name.text] ?? name.text;
  if (type === "dynamic" && (isPunct(inner, "[") || isPunct(inner, "{") || inner.kind === "string" || inner.kind === "number" || inner.kind === "timespan" || inner.kind === "datetime" || isWord(inner, "true") || isWord(inner, "false") || isPunct(inner, "-"))) {
    const value = parseJsonValue(c);
    const close = c.expectPunct(")");
    return { kind: "literal", type: "dynamic", value: JSON.stringify(value), span: { from: name.from, to: close.to } };
  }
  if (!isPunct(c.peek(1), ")")) {
    // `long(-1)`, `real(-0.5)`
    if (isPunct(inner, "-") && c.peek(1).kind === "number" && isPunct(c.peek(2), ")") && (type === "real" || type === "long" || type === "int")) {
      c.next();
      const number = c.next();
      const close = c.next();
      const value = -Number(number.text);
      if (type !== "real" && !Number.isInteger(value)) fail(number, `Invalid ${type} literal '-${number.text}'`);
      return { kind: "literal", type: type as "real", value, span: { from: name.from, to: close.to } };
    }
    return undefined;
  }
  let literal: Expr | undefined;
  const span = { from: name.from, to: c.peek(1).to };
  if (isWord(inner, "null")) {
    if (type === "decimal" || type === "guid") fail(name, `The ${type} type is not supported`);
    literal = { kind: "literal", type: type as "real", value: null, span };
  } else if (inner.kind === "number" && (type === "real" || type === "long" || type === "int")) {
    const value = Number(inner.text);
    if (type !== "real" && !Number.isInteger(value)) fail(inner, `Invalid ${type} literal '${inner.text}'`);
    literal = { kind: "literal", type: type as "real", value, span };
  } else if (inner.kind === "keyword" && type === "bool" && (inner.text === "true" || inner.text === "false")) {
    literal = { kind: "literal", type: "bool", value: inner.text === "true", span };
  } else if (inner.kind === "timespan" && type === "timespan") {
    literal = { kind: "literal", type: "timespan", value: timespanMicros(inner.text)!, span };
  } else if (inner.kind === "string" && type === "string") {
    literal = { kind: "literal", type: "string", value: inner.value ?? "", span };
  } else if (type === "real" && inner.kind === "identifier" && ["nan", "inf", "-inf"].includes(inner.text)) {
    fail(inner, `real(${inner.text}) is not supported`);
  }
  if (!literal) return undefined;
  c.next();
  c.next();
  return literal;
}

/** The JSON-like content of `dynamic(…)`: arrays, property bags, strings, numbers, bools, null. */
function parseJsonValue(c: Cursor): unknown {
  const token = c.peek();
  c.enter(token);
  try {
    if (isPunct(token, "[")) {
      c.next();
      const items: unknown[] = [];
      while (!isPunct(c.peek(), "]")) {
        if (items.length) c.expectPunct(",");
        items.push(parseJsonValue(c));
      }
      c.expectPunct("]");
      return items;
    }
    if (isPunct(token, "{")) {
      c.next();
      const bag: Record<string, unknown> = {};
      let first = true;
      while (!isPunct(c.peek(), "}")) {
        if (!first) c.expectPunct(",");
        first = false;
        const key = c.next();
        if (key.kind !== "string" && !isName(key)) fail(key, `Expected a property name but found ${describe(key)}`);
        c.expectPunct(":");
        bag[key.kind === "string" ? (key.value ?? "") : key.text] = parseJsonValue(c);
      }
      c.expectPunct("}");
      return bag;
    }
    if (token.kind === "string") return c.next().value ?? "";
    if (isPunct(token, "-") && c.peek(1).kind === "number") {
      c.next();
      return -Number(c.next().text);
    }
    if (token.kind === "number") return Number(c.next().text);
    if (isWord(token, "true") || isWord(token, "false")) return c.next().text === "true";
    if (isWord(token, "null")) {
      c.next();
      return null;
    }
    // A timespan inside dynamic is held as ADX's text for it, `[-][d.]hh:mm:ss[.fffffff]`.
    if (token.kind === "timespan") return timespanText(timespanMicros(c.next().text)!);
    if ((isWord(token, "time") || isWord(token, "timespan")) && isPunct(c.peek(1), "(") && c.peek(2).kind === "timespan" && isPunct(c.peek(3), ")")) {
      c.next();
      c.next();
      const micros = timespanMicros(c.next().text)!;
      c.next();
      return timespanText(micros);
    }
    if (token.kind === "datetime") {
      c.next();
      const millis = parseDatetime((token.value ?? "").replace(/^["'](.*)["']$/, "$1"));
      if (millis === undefined) fail(token, `Invalid datetime literal '${token.value}'`);
      return new Date(millis!).toISOString();
    }
    return fail(token, `Expected a value in dynamic(…) but found ${describe(token)}`);
  } finally {
    c.leave();
  }
}

/** ADX's text of a timespan: `1.02:03:04.5000000`, `00:00:01`, `-00:30:00`. */
function timespanText(micros: number): string {
  const sign = micros < 0 ? "-" : "";
  let rest = Math.abs(Math.round(micros));
  const fraction = (rest % 1_000_000) * 10;
  rest = Math.floor(rest / 1_000_000);
  const [days, hours, minutes, seconds] = [Math.floor(rest / 86_400), Math.floor(rest / 3600) % 24, Math.floor(rest / 60) % 60, rest % 60];
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${sign}${days ? `${days}.` : ""}${pad(hours)}:${pad(minutes)}:${pad(seconds)}${fraction ? `.${String(fraction).padStart(7, "0")}` : ""}`;
}

/**
 * Epoch milliseconds of a datetime literal: `2024-01-01`, `2024-1-1`, `2024-01-01 10:00`, `2024-01-01T10:00:00.123Z`;
 * without a zone the time is UTC (as in ADX).
 */
export function parseDatetime(text: string): number | undefined {
  // ADX also reads the short forms: `1970-5-12`, `2024-01-01 9:05`.
  // `datetime(2017 - 08 - 01)` (spaces around the dashes) reads as 2017-08-01 in Kusto.Language too.
  const match = /^(\d{4})\s*-\s*(\d{1,2})\s*-\s*(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = match;
  const millis = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Math.floor(Number((frac + "000").slice(0, 3))));
  const check = new Date(millis);
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let offset = 0;
  if (zone && zone !== "Z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  const result = millis - offset;
  // Date.UTC maps years 0..99 to 1900..1999; ADX's range starts at year 1.
  return Number(y) < 100 ? undefined : result;
}
