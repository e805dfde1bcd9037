/**
 * IPv4 and IPv6 addresses as ADX reads them (the ipv4_* / ipv6_* / has_*ipv4* functions, family
 * ip-addresses.ts): the semantics in plain TypeScript, which DuckDB runs as scalar functions
 * (udfs.ts); ClickHouse spells the same rules with its own functions. Pure: no engine here.
 *
 * - An IPv4 text is a dotted quad (each part 0–255, no leading zero) with an optional `/n` prefix
 *   (0–32); its value is the address with the bits past the prefix cleared.
 * - An IPv6 text is any RFC 4291 form with an optional `/n` (0–128). An IPv4 address, also written
 *   `::a.b.c.d` or `::ffff:a.b.c.d`, is read as the IPv4-mapped address `::ffff:a.b.c.d` and its
 *   prefix counts IPv4 bits (`/24` is 96 + 24): the parse_ipv6_mask page's printed output for
 *   `::192.168.255.255/24` is `…:ffff:c0a8:ff00`.
 * - Comparing two networks uses the shortest of their prefixes and the one asked for.
 * - Anything else is not an address: null (a string result '' in KQL).
 */

interface Ip {
  /** The address as a number (32 bits for IPv4, 128 for IPv6), before masking. */
  value: bigint;
  prefix: number;
}

const OCTET = /^(?:0|[1-9]\d{0,2})$/;

function v4Address(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!OCTET.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function prefixOf(text: string | undefined, max: number): number | null {
  if (text === undefined) return max;
  if (!/^\d{1,3}$/.test(text)) return null;
  const n = Number(text);
  return n <= max ? n : null;
}

/** `a.b.c.d` or `a.b.c.d/n`. */
export function parseV4(text: string): Ip | null {
  const slash = text.indexOf("/");
  const value = v4Address(slash < 0 ? text : text.slice(0, slash));
  const prefix = prefixOf(slash < 0 ? undefined : text.slice(slash + 1), 32);
  return value === null || prefix === null ? null : { value, prefix };
}

const mask = (prefix: number, bits: number) => (((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix));

const masked = (value: bigint, prefix: number, bits: number) => value & mask(prefix, bits);

const dotted = (value: bigint) => [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 255n)).join(".");

const validMask = (m: bigint | number, max: number) => (m >= 0 && m <= max ? Number(m) : null);

export function parseIpv4(text: string): bigint | null {
  const ip = parseV4(text);
  return ip && masked(ip.value, ip.prefix, 32);
}

export function parseIpv4Mask(text: string, prefix: bigint): bigint | null {
  const ip = parseV4(text);
  const m = validMask(prefix, 32);
  return ip && m !== null ? masked(ip.value, Math.min(ip.prefix, m), 32) : null;
}

/** An address given as text or as its number (0 … 2³²−1). */
function v4Of(ip: string | bigint): Ip | null {
  if (typeof ip === "string") return parseV4(ip);
  return ip >= 0n && ip < 1n << 32n ? { value: ip, prefix: 32 } : null;
}

export function formatIpv4(ip: string | bigint, prefix: bigint, withMask: boolean): string | null {
  const parsed = v4Of(ip);
  const m = validMask(prefix, 32);
  if (!parsed || m === null) return null;
  const p = Math.min(parsed.prefix, m);
  return dotted(masked(parsed.value, p, 32)) + (withMask ? `/${p}` : "");
}

function compare(a: Ip | null, b: Ip | null, prefix: number | null, bits: number): bigint | null {
  if (!a || !b || prefix === null) return null;
  const p = Math.min(a.prefix, b.prefix, prefix);
  const [x, y] = [masked(a.value, p, bits), masked(b.value, p, bits)];
  return x < y ? -1n : x > y ? 1n : 0n;
}

export function ipv4Compare(a: string, b: string, prefix: bigint): bigint | null {
  return compare(parseV4(a), parseV4(b), validMask(prefix, 32), 32);
}

/** The strings of a JSON array (or of one JSON string): the ranges or addresses of the *_any_* functions. */
export function jsonStrings(json: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  const items = Array.isArray(value) ? value.flat() : [value];
  return items.filter((v): v is string => typeof v === "string");
}

export function ipv4IsInAnyRange(ip: string, ranges: string): boolean | null {
  const address = parseV4(ip);
  if (!address) return null;
  return jsonStrings(ranges).some((r) => compare(address, parseV4(r), 32, 32) === 0n);
}

const PRIVATE_V4 = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"].map((r) => parseV4(r)!);

export function ipv4IsPrivate(ip: string): boolean | null {
  const address = parseV4(ip);
  if (!address) return null;
  const value = masked(address.value, address.prefix, 32);
  return PRIVATE_V4.some((r) => masked(value, r.prefix, 32) === r.value);
}

export function ipv4NetmaskSuffix(ip: string): bigint | null {
  const address = parseV4(ip);
  return address && BigInt(address.prefix);
}

/** The fewest CIDR blocks that cover start … end (at most 62 for IPv4). */
export function ipv4RangeToCidrList(start: string, end: string): string | null {
  const [a, b] = [parseV4(start), parseV4(end)];
  if (!a || !b) return null;
  let from = masked(a.value, a.prefix, 32);
  const to = b.value | (mask(32 - b.prefix, 32 - b.prefix) & ((1n << 32n) - 1n));
  const blocks: string[] = [];
  while (from <= to) {
    let size = 32;
    while (size > 0 && masked(from, size - 1, 32) === from && from + (1n << BigInt(32 - size + 1)) - 1n <= to) size--;
    blocks.push(`${dotted(from)}/${size}`);
    from += 1n << BigInt(32 - size);
  }
  return JSON.stringify(blocks);
}

/**
 * The IPv4 addresses written in a text: the runs of letters, digits and dots (a dot at either end
 * is punctuation) that are valid addresses. `05:04:54127.0.0.1` holds none: its run starts with 54.
 */
export function ipv4sIn(text: string): string[] {
  return text
    .split(/[^0-9A-Za-z.]+/)
    .map((token) => token.replace(/^\.+|\.+$/g, ""))
    .filter((token) => v4Address(token) !== null);
}

/** A prefix has_ipv4_prefix accepts: a whole address, or 1 to 3 parts followed by a dot. */
const isV4Prefix = (p: string) => v4Address(p) !== null || (/^(?:(?:0|[1-9]\d{0,2})\.){1,3}$/.test(p) && p.split(".").slice(0, -1).every((x) => Number(x) <= 255));

export function hasAnyIpv4(source: string, ips: string): boolean {
  const wanted = new Set(jsonStrings(ips).filter((ip) => v4Address(ip) !== null));
  return wanted.size > 0 && ipv4sIn(source).some((ip) => wanted.has(ip));
}

export function hasAnyIpv4Prefix(source: string, prefixes: string): boolean {
  const wanted = jsonStrings(prefixes).filter(isV4Prefix);
  return wanted.length > 0 && ipv4sIn(source).some((ip) => wanted.some((p) => (p.endsWith(".") ? ip.startsWith(p) : ip === p)));
}

/** The IPv4 part of an address ADX reads as IPv4 (`a.b.c.d`, `::a.b.c.d`, `::ffff:a.b.c.d`). */
const V4_IN_V6 = /^(?:::(?:ffff:)?)?(\d+\.\d+\.\d+\.\d+)$/i;

function v6Address(text: string): bigint | null {
  if (!/^[0-9a-f:.]+$/i.test(text)) return null;
  let groups = text.split(":");
  // A trailing dotted IPv4 part is two groups.
  const last = groups[groups.length - 1]!;
  if (last.includes(".")) {
    const v4 = v4Address(last);
    if (v4 === null) return null;
    groups = [...groups.slice(0, -1), (v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16)];
  }
  const gap = text.indexOf("::");
  if (gap !== text.lastIndexOf("::")) return null;
  let parts: string[];
  if (gap >= 0) {
    const joined = groups.join(":");
    const [head, tail] = joined.split("::") as [string, string];
    const left = head ? head.split(":") : [];
    const right = tail ? tail.split(":") : [];
    if (left.length + right.length > 7) return null;
    parts = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  } else {
    parts = groups;
  }
  if (parts.length !== 8 || !parts.every((p) => /^[0-9a-f]{1,4}$/i.test(p))) return null;
  return parts.reduce((v, p) => (v << 16n) | BigInt(parseInt(p, 16)), 0n);
}

export function parseV6(text: string): Ip | null {
  const slash = text.indexOf("/");
  const address = slash < 0 ? text : text.slice(0, slash);
  const suffix = slash < 0 ? undefined : text.slice(slash + 1);
  const v4 = V4_IN_V6.exec(address);
  if (v4) {
    const value = v4Address(v4[1]!);
    const prefix = prefixOf(suffix, 32);
    return value === null || prefix === null ? null : { value: (0xffffn << 32n) | value, prefix: 96 + prefix };
  }
  const value = v6Address(address);
  const prefix = prefixOf(suffix, 128);
  return value === null || prefix === null ? null : { value, prefix };
}

const canonical = (value: bigint) => value.toString(16).padStart(32, "0").match(/.{4}/g)!.join(":");

export function parseIpv6Mask(text: string, prefix: bigint): string | null {
  const ip = parseV6(text);
  const m = validMask(prefix, 128);
  return ip && m !== null ? canonical(masked(ip.value, Math.min(ip.prefix, m), 128)) : null;
}

export function ipv6Compare(a: string, b: string, prefix: bigint): bigint | null {
  return compare(parseV6(a), parseV6(b), validMask(prefix, 128), 128);
}

export function ipv6IsInAnyRange(ip: string, ranges: string): boolean | null {
  const address = parseV6(ip);
  if (!address) return null;
  return jsonStrings(ranges).some((r) => compare(address, parseV6(r), 128, 128) === 0n);
}
