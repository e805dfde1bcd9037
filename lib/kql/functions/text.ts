/**
 * Text functions as ADX computes them, in plain TypeScript for DuckDB (udfs.ts registers them;
 * the entries are in text-functions.ts, whose ClickHouse spellings follow the same rules).
 * Pure: no engine here. Sizes are bounded by the caller's spelling (VALUE_LIMITS, budget.ts).
 */
import { runtimeTooLarge, VALUE_LIMITS } from "../budget";

function jsonArray(json: string): unknown[] | null {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * replace_strings: the lookups claim their occurrences in list order (an occurrence overlapping an
 * earlier claim is skipped: ['is', 'This'] on "This is" gives "Thwas was", the page's output); then
 * each claim is replaced at once by its rewrite. A rewrite that is not a string keeps the text (the
 * page's [12345, 'was'] example), an empty or non-string lookup is skipped.
 */
export function replaceStrings(text: string, lookups: string, rewrites: string): string | null {
  const from = jsonArray(lookups);
  const to = jsonArray(rewrites);
  if (!from || !to) return null;
  const claims: { at: number; end: number; rewrite: string }[] = [];
  from.forEach((lookup, i) => {
    if (typeof lookup !== "string" || lookup === "") return;
    const rewrite = to[i];
    for (let at = text.indexOf(lookup); at >= 0; ) {
      const end = at + lookup.length;
      if (claims.some((c) => at < c.end && c.at < end)) at = text.indexOf(lookup, at + 1);
      else {
        claims.push({ at, end, rewrite: typeof rewrite === "string" ? rewrite : lookup });
        at = text.indexOf(lookup, end);
      }
    }
  });
  claims.sort((a, b) => a.at - b.at);
  let out = "";
  let last = 0;
  for (const c of claims) {
    out += text.slice(last, c.at) + c.rewrite;
    last = c.end;
    if (out.length > VALUE_LIMITS.stringBytes) throw new Error(runtimeTooLarge("replace_strings", "string"));
  }
  return out + text.slice(last);
}

/** unicode_codepoints_to_string: the arguments' numbers (each a number or an array of numbers) as characters; null when one is not a code point. */
export function codepointsToString(values: string): string | null {
  const list = jsonArray(values);
  if (!list) return null;
  const points = list.flat();
  let out = "";
  for (const p of points) {
    if (typeof p !== "number" || !Number.isInteger(p) || p < 0 || p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff)) return null;
    out += String.fromCodePoint(p);
    if (out.length > VALUE_LIMITS.stringBytes) throw new Error(runtimeTooLarge("unicode_codepoints_to_string", "string"));
  }
  return out;
}

/** has: the lookup between term edges (not a letter or digit), case-insensitive, as the `has` operator (dialect/base.ts). */
const hasTerm = (source: string, lookup: string) => {
  const s = source.toLowerCase();
  const l = lookup.toLowerCase();
  for (let at = s.indexOf(l); at >= 0; at = s.indexOf(l, at + 1)) {
    const before = at === 0 || /[^0-9A-Za-z]/.test(s[at - 1]!);
    const after = at + l.length === s.length || /[^0-9A-Za-z]/.test(s[at + l.length]!);
    if (before && after) return true;
  }
  return false;
};

/** has_any_index: the index of the first lookup (a string, or a number as its text) the text `has`; -1 when none. */
export function hasAnyIndex(source: string, lookups: string): bigint | null {
  const list = jsonArray(lookups);
  if (!list) return null;
  return BigInt(
    list.findIndex((l) => {
      const text = typeof l === "string" ? l : typeof l === "number" ? String(l) : "";
      return text !== "" && hasTerm(source, text);
    }),
  );
}

/** What url_encode leaves as it is (.NET's HttpUtility.UrlEncode, whose escapes are lower-case hex). */
const URL_SAFE = /[A-Za-z0-9\-_.!*()]/;

/** url_encode (a space is '+') and url_encode_component (a space is %20): every other byte of UTF-8 as %xx. */
export function urlEncode(text: string, component: boolean): string {
  let out = "";
  for (const ch of text) {
    if (out.length > VALUE_LIMITS.stringBytes) throw new Error(runtimeTooLarge(component ? "url_encode_component" : "url_encode", "string"));
    if (URL_SAFE.test(ch)) out += ch;
    else if (ch === " ") out += component ? "%20" : "+";
    else for (const byte of new TextEncoder().encode(ch)) out += `%${byte.toString(16).padStart(2, "0")}`;
  }
  return out;
}

/** parse_urlquery: the text's `key=value` pairs (split at '&', decoded) as {"Query Parameters": {…}}. */
export function parseUrlQuery(query: string): string {
  const decode = (t: string) => {
    try {
      return decodeURIComponent(t);
    } catch {
      return t;
    }
  };
  // No prototype: a key such as "__proto__" is a key like any other.
  const params = Object.create(null) as Record<string, string>;
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    params[decode(eq < 0 ? pair : pair.slice(0, eq))] = eq < 0 ? "" : decode(pair.slice(eq + 1));
  }
  return JSON.stringify({ "Query Parameters": params });
}

/**
 * parse_csv: the first record's fields. A field that starts with '"' is quoted: commas and line
 * breaks inside it are kept, '""' is one quote; a quote inside an unquoted field is kept as it is;
 * the record ends at the first line break outside quotes. (The ClickHouse spelling in
 * text-functions.ts runs the same states over the characters.)
 */
export function parseCsv(text: string): string {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  let closed = false;
  for (const c of text) {
    if (quoted) {
      if (c === '"') [quoted, closed] = [false, true];
      else field += c;
    } else if (c === '"') {
      if (closed) [field, quoted, closed] = [field + '"', true, false];
      else if (field === "") quoted = true;
      else field += c;
    } else if (c === ",") [fields[fields.length], field, closed] = [field, "", false];
    else if (c === "\n" || c === "\r") break;
    else [field, closed] = [field + c, false];
  }
  fields.push(field);
  return JSON.stringify(fields);
}
/* Punycode (RFC 3492), as ADX's punycode_* functions and ClickHouse's punycodeEncode/Decode compute it. */
const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  for (; d > ((BASE - T_MIN) * T_MAX) >> 1; k += BASE) d = Math.floor(d / (BASE - T_MIN));
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

const digit = (d: number) => String.fromCharCode(d < 26 ? 97 + d : 22 + d);

/** The punycode of a string ("" when it cannot be encoded). */
export function punycodeEncode(text: string): string {
  const points = Array.from(text, (c) => c.codePointAt(0)!);
  const basic = points.filter((p) => p < 0x80);
  let output = String.fromCharCode(...basic);
  let handled = basic.length;
  if (basic.length > 0) output += "-";
  let n = INITIAL_N;
  let delta = 0;
  let bias = INITIAL_BIAS;
  while (handled < points.length) {
    const m = Math.min(...points.filter((p) => p >= n));
    delta += (m - n) * (handled + 1);
    n = m;
    for (const p of points) {
      if (p < n) delta++;
      if (p !== n) continue;
      let q = delta;
      for (let k = BASE; ; k += BASE) {
        const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
        if (q < t) break;
        output += digit(t + ((q - t) % (BASE - t)));
        q = Math.floor((q - t) / (BASE - t));
      }
      output += digit(q);
      bias = adapt(delta, handled + 1, handled === basic.length);
      delta = 0;
      handled++;
    }
    delta++;
    n++;
  }
  return output;
}

/** The text a punycode string encodes ("" when it is not valid punycode). */
export function punycodeDecode(code: string): string {
  const dash = code.lastIndexOf("-");
  const output = Array.from(dash > 0 ? code.slice(0, dash) : "", (c) => c.codePointAt(0)!);
  if (output.some((p) => p >= 0x80)) return "";
  let n = INITIAL_N;
  let i = 0;
  let bias = INITIAL_BIAS;
  for (let at = dash > 0 ? dash + 1 : 0; at < code.length; ) {
    const old = i;
    let w = 1;
    for (let k = BASE; ; k += BASE) {
      if (at >= code.length) return "";
      const c = code.charCodeAt(at++);
      const d = c >= 48 && c <= 57 ? c - 22 : c >= 65 && c <= 90 ? c - 65 : c >= 97 && c <= 122 ? c - 97 : BASE;
      if (d >= BASE) return "";
      i += d * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (d < t) break;
      w *= BASE - t;
      if (i > 0x10ffff * 64) return "";
    }
    bias = adapt(i - old, output.length + 1, old === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff) return "";
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

/** A domain's labels (split at '.' and the ideographic and full-width dots). */
const labels = (domain: string) => domain.split(/[.\u3002\uff0e\uff61]/);

/** Each label with characters beyond ASCII as xn--punycode, joined by '.'. */
export function punycodeDomainEncode(domain: string): string {
  return labels(domain)
    .map((label) => (/^[\x00-\x7f]*$/.test(label) ? label : `xn--${punycodeEncode(label)}`))
    .join(".");
}

/** Each xn-- label decoded, joined by '.'; "" when a label does not decode. */
export function punycodeDomainDecode(domain: string): string {
  const decoded = labels(domain).map((label) => (/^xn--/i.test(label) ? punycodeDecode(label.slice(4)) : label));
  return decoded.some((label, i) => label === "" && /^xn--/i.test(labels(domain)[i]!)) ? "" : decoded.join(".");
}
