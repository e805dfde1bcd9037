/**
 * KQL's IPv4 and IPv6 functions (entry.ts says what an entry holds; docs/kql-functions.md how to
 * add one). The rules are ip.ts's; DuckDB runs them as JavaScript scalar functions (udfs.ts).
 * ClickHouse spells the same rules with its own functions: an address is parsed once into one
 * text, its bits ('0'/'1', 32 or 128 of them: IPv4StringToNumOrNull / IPv6StringToNumOrNull, bin)
 * followed by its prefix, so masking is a prefix of that text and comparing two networks compares
 * the texts' first bits. Arguments are bound once with arrayMap(λ, [value])[1].
 */
import { scalar, type FunctionEntry, type SpellInput } from "./entry";

/** ClickHouse: `body` over the values, each computed once. */
const bind = (values: string[], tag: string, body: (names: string[]) => string) => {
  const names = values.map((_, i) => `kql_${tag}${i}`);
  return `arrayMap((${names.join(", ")}) -> ${body(names)}, ${values.map((v) => `[${v}]`).join(", ")})[1]`;
};

/** ClickHouse: the `/n` of a text (its whole length's `max` when there is none), NULL when not 0 … max. */
const chPrefix = (s: string, max: number) => {
  const tail = `substring(${s}, position(${s}, '/') + 1)`;
  return `if(position(${s}, '/') = 0, ${max}, if(match(${tail}, '^[0-9]{1,3}$') AND toInt64OrNull(${tail}) <= ${max}, toInt64OrNull(${tail}), NULL))`;
};

const address = (s: string) => `splitByChar('/', ${s})[1]`;

/** ClickHouse: an IPv4 text as its 32 bits then its prefix, NULL when it is not one (ip.ts parseV4). */
const chV4 = (text: string) =>
  bind([`ifNull(${text}, '')`], "v4s", ([s]) => `concat(leftPad(bin(IPv4StringToNumOrNull(${address(s!)})), 32, '0'), toString(${chPrefix(s!, 32)}))`);

/** ClickHouse: an IPv4 number (0 … 2³²−1) as its bits then prefix 32. */
const chV4Number = (n: string) => `if(${n} BETWEEN 0 AND 4294967295, concat(leftPad(bin(toUInt32(${n})), 32, '0'), '32'), NULL)`;

const V4_IN_V6 = "'(?i)^(::(ffff:)?)?[0-9]+[.][0-9]+[.][0-9]+[.][0-9]+$'";

/** ClickHouse: an IPv6 text (or an IPv4 one, mapped) as its 128 bits then its prefix (ip.ts parseV6). */
const chV6 = (text: string) =>
  bind([`ifNull(${text}, '')`], "v6s", ([s]) => {
    const a = address(s!);
    const v4 = `concat(repeat('0', 80), repeat('1', 16), leftPad(bin(IPv4StringToNumOrNull(replaceRegexpOne(${a}, '(?i)^::(ffff:)?', ''))), 32, '0'), toString(96 + ${chPrefix(s!, 32)}))`;
    return `if(match(${a}, ${V4_IN_V6}), ${v4}, concat(bin(IPv6StringToNumOrNull(${a})), toString(${chPrefix(s!, 128)})))`;
  });

const bitsOf = (p: string, width: number) => `substring(${p}, 1, ${width})`;
const prefixOfParsed = (p: string, width: number) => `toInt64OrNull(substring(${p}, ${width + 1}))`;
/** A mask argument, NULL outside 0 … max. */
const chMask = (m: string, max: number) => `if(${m} BETWEEN 0 AND ${max}, toInt64(${m}), NULL)`;
/** The first `prefix` bits, the rest cleared. */
const maskedBits = (p: string, prefix: string, width: number) => `rightPad(substring(${bitsOf(p, width)}, 1, ${prefix}), ${width}, '0')`;

/** ClickHouse: -1, 0 or 1 comparing two parsed networks on their shortest prefix and `mask`'s. */
function chCompare(a: string, b: string, mask: string, width: number): string {
  return bind([a, b, mask], "cmp", ([x, y, m]) => {
    const p = `least(${prefixOfParsed(x!, width)}, ${prefixOfParsed(y!, width)}, ${m})`;
    const [l, r] = [`substring(${x}, 1, ${p})`, `substring(${y}, 1, ${p})`];
    return `if(isNull(${x}) OR isNull(${y}) OR isNull(${m}), CAST(NULL AS Nullable(Int64)), toInt64(multiIf(${l} < ${r}, -1, ${l} > ${r}, 1, 0)))`;
  });
}

/** ClickHouse: the value of parsed IPv4 bits with the first `prefix` kept, as a long. */
const chV4Value = (p: string, prefix: string) => `toInt64(reinterpretAsUInt32(reverse(unbin(${maskedBits(p, prefix, 32)}))))`;

/** ClickHouse: the strings given as dynamic arguments (each a string or an array of strings), as one array. */
const chStrings = (args: string[]) =>
  `arrayConcat(${args.map((a) => `if(JSONType(ifNull(${a}, 'null')) = 'Array', arrayMap(kql_x -> JSONExtractString(kql_x), JSONExtractArrayRaw(ifNull(${a}, 'null'))), [JSONExtractString(ifNull(${a}, 'null'))])`).join(", ")})`;
/** DuckDB: the same, as JSON text for the JavaScript functions (ip.ts jsonStrings). */
const duckStrings = (args: string[]) => `CAST(to_json([${args.join(", ")}]) AS VARCHAR)`;

/** ClickHouse: the IPv4 addresses written in a text (ip.ts ipv4sIn). */
const chIpv4sIn = (source: string) =>
  `arrayFilter(kql_t -> isNotNull(IPv4StringToNumOrNull(kql_t)), arrayMap(kql_t -> replaceRegexpAll(kql_t, '^[.]+|[.]+$', ''), splitByRegexp('[^0-9A-Za-z.]+', ifNull(${source}, ''))))`;

const OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";

const v4Arg = ({ args, types }: SpellInput) => (types[0] === "string" ? chV4(args[0]!) : chV4Number(args[0]!));

function chFormatV4(input: SpellInput, withMask: boolean): string {
  return bind([v4Arg(input), chMask(input.args[1] ?? "32", 32)], "fmt", ([p, m]) => {
    const prefix = `least(${prefixOfParsed(p!, 32)}, ${m})`;
    const text = `IPv4NumToString(toUInt32(${chV4Value(p!, prefix)}))`;
    return `if(isNull(${p}) OR isNull(${m}), NULL, ${withMask ? `concat(${text}, '/', toString(${prefix}))` : text})`;
  });
}

/** ClickHouse: the canonical text (8 groups of 4 hex digits) of parsed IPv6 bits with the first `prefix` kept. */
const chV6Text = (p: string, prefix: string) =>
  bind([`lower(hex(unbin(${maskedBits(p, prefix, 128)})))`], "hex", ([h]) => `arrayStringConcat(arrayMap(kql_i -> substring(${h}, kql_i * 4 + 1, 4), range(8)), ':')`);

function chParseV6(text: string, mask: string): string {
  return bind([chV6(text), chMask(mask, 128)], "p6", ([p, m]) => `if(isNull(${p}) OR isNull(${m}), NULL, ${chV6Text(p!, `least(${prefixOfParsed(p!, 128)}, ${m})`)})`);
}

const anyRange = (parse: (s: string) => string, width: number) => ({ args: [ip, ...ranges] }: SpellInput) =>
  bind([parse(ip!)], "rng", ([p]) => `if(isNull(${p}), NULL, arrayExists(kql_r -> ifNull(${chCompare(p!, parse("kql_r"), String(width), width)} = 0, false), ${chStrings(ranges)}))`);

export const IP_ADDRESSES: readonly FunctionEntry[] = [
  scalar("parse_ipv4", {
    args: "ip: string",
    result: "long",
    nulls: "may",
    sql: { duckdb: "kql_parse_ipv4($0)", clickhouse: ({ args: [ip] }) => bind([chV4(ip!)], "pv4", ([p]) => `if(isNull(${p}), NULL, ${chV4Value(p!, prefixOfParsed(p!, 32))})`) },
    doc: "the IPv4 address (with an optional /prefix) as a long, the bits past the prefix cleared; null when it is not an address",
  }),
  scalar("parse_ipv4_mask", {
    args: "ip: string, prefix: long",
    result: "long",
    nulls: "may",
    sql: {
      duckdb: "kql_parse_ipv4_mask($0, $1)",
      clickhouse: ({ args: [ip, mask] }) => bind([chV4(ip!), chMask(mask!, 32)], "pm4", ([p, m]) => `if(isNull(${p}) OR isNull(${m}), NULL, ${chV4Value(p!, `least(${prefixOfParsed(p!, 32)}, ${m})`)})`),
    },
    doc: "the IPv4 address as a long, masked to the shorter of its /prefix and prefix (0–32)",
  }),
  // Kusto.Language requires format_ipv4_mask's prefix (its page shows it optional): Kusto.Language is followed.
  ...(["format_ipv4", "format_ipv4_mask"] as const).map((name) =>
    scalar(name, {
      args: name === "format_ipv4" ? ["ip: string, prefix?: long", "ip: long, prefix?: long"] : ["ip: string, prefix: long", "ip: long, prefix: long"],
      result: "string",
      sql: {
        duckdb: ({ args, types }) => `kql_${name}${types[0] === "string" ? "" : "_long"}(${args[0]}, ${args[1] ?? "32"})`,
        clickhouse: (input) => chFormatV4(input, name === "format_ipv4_mask"),
      },
      doc: `the IPv4 address (text or long) masked to the prefix${name === "format_ipv4_mask" ? " as a.b.c.d/prefix" : " (32 by default) as a.b.c.d"}; '' when it is not an address`,
    }),
  ),
  scalar("ipv4_compare", {
    args: "ip1: string, ip2: string, prefix?: long",
    result: "long",
    nulls: "may",
    sql: { duckdb: ({ args }) => `kql_ipv4_compare(${args[0]}, ${args[1]}, ${args[2] ?? "32"})`, clickhouse: ({ args }) => chCompare(chV4(args[0]!), chV4(args[1]!), chMask(args[2] ?? "32", 32), 32) },
    doc: "-1, 0 or 1 as the first IPv4 network sorts before, equals or after the second, on their shortest prefix (and prefix's)",
  }),
  scalar("ipv4_is_match", {
    args: "ip1: string, ip2: string, prefix?: long",
    result: "bool",
    nulls: "may",
    sql: { duckdb: ({ args }) => `(kql_ipv4_compare(${args[0]}, ${args[1]}, ${args[2] ?? "32"}) = 0)`, clickhouse: ({ args }) => `(${chCompare(chV4(args[0]!), chV4(args[1]!), chMask(args[2] ?? "32", 32), 32)} = 0)` },
    doc: "whether the two IPv4 networks are equal on their shortest prefix (and prefix's)",
  }),
  scalar("ipv4_is_in_range", {
    args: "ip: string, range: string",
    result: "bool",
    nulls: "may",
    sql: { duckdb: "(kql_ipv4_compare($0, $1, 32) = 0)", clickhouse: ({ args }) => `(${chCompare(chV4(args[0]!), chV4(args[1]!), "32", 32)} = 0)` },
    doc: "whether the IPv4 address lies in the network a.b.c.d/prefix",
  }),
  scalar("ipv4_is_in_any_range", {
    args: "ip: string, ranges...: dynamic",
    result: "bool",
    nulls: "may",
    sql: { duckdb: ({ args: [ip, ...ranges] }) => `kql_ipv4_is_in_any_range(${ip}, ${duckStrings(ranges)})`, clickhouse: anyRange(chV4, 32) },
    doc: "whether the IPv4 address lies in any of the networks (texts, or arrays of texts)",
  }),
  scalar("ipv4_is_private", {
    args: "ip: string",
    result: "bool",
    nulls: "may",
    sql: {
      duckdb: "kql_ipv4_is_private($0)",
      clickhouse: ({ args: [ip] }) =>
        bind([chV4(ip!)], "prv", ([p]) => {
          const bits = maskedBits(p!, prefixOfParsed(p!, 32), 32);
          return `if(isNull(${p}), NULL, startsWith(${bits}, '00001010') OR startsWith(${bits}, '101011000001') OR startsWith(${bits}, '1100000010101000'))`;
        }),
    },
    doc: "whether the IPv4 address is private (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)",
  }),
  scalar("ipv4_netmask_suffix", {
    args: "ip: string",
    result: "long",
    nulls: "may",
    sql: { duckdb: "kql_ipv4_netmask_suffix($0)", clickhouse: ({ args: [ip] }) => bind([chV4(ip!)], "sfx", ([p]) => prefixOfParsed(p!, 32)) },
    doc: "the /prefix of the IPv4 address (32 when it has none)",
  }),
  scalar("ipv4_range_to_cidr_list", {
    args: "start: string, end: string",
    result: "dynamic",
    nulls: "may",
    sql: {
      duckdb: "CAST(kql_ipv4_range_to_cidr_list($0, $1) AS JSON)",
      // Each step takes the largest block aligned at the current address that ends within the range (at most 62 steps).
      clickhouse: ({ args: [start, end] }) =>
        bind([chV4(start!), chV4(end!)], "cidr", ([a, b]) => {
          const from = `toUInt64(ifNull(${chV4Value(a!, prefixOfParsed(a!, 32))}, 0))`;
          const to = `toUInt64(ifNull(bitOr(${chV4Value(b!, "32")}, bitShiftLeft(toUInt64(1), 32 - ${prefixOfParsed(b!, 32)}) - 1), 0))`;
          // The block's host bits: the most that keep it aligned at x and within the range.
          const block = (x: string) => `arrayMax(arrayFilter(kql_k -> ${x} % bitShiftLeft(toUInt64(1), kql_k) = 0 AND ${x} + bitShiftLeft(toUInt64(1), kql_k) - 1 <= ${to}, range(33)))`;
          const blocks = `arrayFold((kql_acc, kql_k) -> if(kql_acc.1 > ${to}, kql_acc, (kql_acc.1 + bitShiftLeft(toUInt64(1), ${block("kql_acc.1")}), arrayPushBack(kql_acc.2, concat(IPv4NumToString(toUInt32(kql_acc.1)), '/', toString(32 - ${block("kql_acc.1")}))))), range(64), (${from}, CAST([] AS Array(String))))`;
          return `if(isNull(${a}) OR isNull(${b}), NULL, toJSONString((${blocks}).2))`;
        }),
    },
    doc: "the fewest CIDR networks covering the IPv4 addresses from start to end, as an array of texts",
  }),
  ...(
    [
      ["has_ipv4", "ip: string", false, "whether the text holds the IPv4 address (delimited by characters other than letters, digits and dots)"],
      ["has_ipv4_prefix", "prefix: string", true, "whether the text holds an IPv4 address that starts with the prefix (a whole address, or 1–3 parts ending with a dot)"],
      ["has_any_ipv4", "ips...: dynamic", false, "whether the text holds any of the IPv4 addresses (texts, or arrays of texts)"],
      ["has_any_ipv4_prefix", "prefixes...: dynamic", true, "whether the text holds an IPv4 address that starts with any of the prefixes"],
    ] as const
  ).map(([name, list, prefix, doc]) =>
    scalar(name, {
      args: `source: string, ${list}`,
      result: "bool",
      nulls: "never",
      sql: {
        duckdb: ({ args: [source, ...rest] }) => `coalesce(kql_has_any_ipv4${prefix ? "_prefix" : ""}(${source}, ${duckStrings(rest)}), false)`,
        clickhouse: ({ args: [source, ...rest], types }) => {
          const wanted = types[1] === "string" ? `[ifNull(${rest[0]}, '')]` : chStrings(rest);
          if (!prefix) return `hasAny(${chIpv4sIn(source!)}, arrayFilter(kql_w -> isNotNull(IPv4StringToNumOrNull(kql_w)), ${wanted}))`;
          const valid = `arrayFilter(kql_w -> isNotNull(IPv4StringToNumOrNull(kql_w)) OR match(kql_w, '^(${OCTET}[.]){1,3}$'), ${wanted})`;
          return `arrayExists(kql_ip -> arrayExists(kql_w -> if(endsWith(kql_w, '.'), startsWith(kql_ip, kql_w), kql_ip = kql_w), ${valid}), ${chIpv4sIn(source!)})`;
        },
      },
      doc,
    }),
  ),
  scalar("parse_ipv6", {
    args: "ip: string",
    result: "string",
    sql: { duckdb: "kql_parse_ipv6_mask($0, 128)", clickhouse: ({ args: [ip] }) => chParseV6(ip!, "128") },
    doc: "the IPv6 (or IPv4) address in its canonical form (8 groups of 4 hex digits), the bits past its /prefix cleared; '' when it is not an address",
  }),
  scalar("parse_ipv6_mask", {
    args: "ip: string, prefix: long",
    result: "string",
    sql: { duckdb: "kql_parse_ipv6_mask($0, $1)", clickhouse: ({ args: [ip, mask] }) => chParseV6(ip!, mask!) },
    doc: "the IPv6 (or IPv4) address in its canonical form, masked to the shorter of its /prefix and prefix (0–128)",
  }),
  scalar("ipv6_compare", {
    args: "ip1: string, ip2: string, prefix?: long",
    result: "long",
    nulls: "may",
    sql: { duckdb: ({ args }) => `kql_ipv6_compare(${args[0]}, ${args[1]}, ${args[2] ?? "128"})`, clickhouse: ({ args }) => chCompare(chV6(args[0]!), chV6(args[1]!), chMask(args[2] ?? "128", 128), 128) },
    doc: "-1, 0 or 1 as the first IPv6 (or IPv4) network sorts before, equals or after the second, on their shortest prefix (and prefix's)",
  }),
  scalar("ipv6_is_match", {
    args: "ip1: string, ip2: string, prefix?: long",
    result: "bool",
    nulls: "may",
    sql: { duckdb: ({ args }) => `(kql_ipv6_compare(${args[0]}, ${args[1]}, ${args[2] ?? "128"}) = 0)`, clickhouse: ({ args }) => `(${chCompare(chV6(args[0]!), chV6(args[1]!), chMask(args[2] ?? "128", 128), 128)} = 0)` },
    doc: "whether the two IPv6 (or IPv4) networks are equal on their shortest prefix (and prefix's)",
  }),
  scalar("ipv6_is_in_range", {
    args: "ip: string, range: string",
    result: "bool",
    nulls: "may",
    sql: { duckdb: "(kql_ipv6_compare($0, $1, 128) = 0)", clickhouse: ({ args }) => `(${chCompare(chV6(args[0]!), chV6(args[1]!), "128", 128)} = 0)` },
    doc: "whether the IPv6 (or IPv4) address lies in the network address/prefix",
  }),
  scalar("ipv6_is_in_any_range", {
    args: "ip: string, ranges...: dynamic",
    result: "bool",
    nulls: "may",
    sql: { duckdb: ({ args: [ip, ...ranges] }) => `kql_ipv6_is_in_any_range(${ip}, ${duckStrings(ranges)})`, clickhouse: anyRange(chV6, 128) },
    doc: "whether the IPv6 (or IPv4) address lies in any of the networks (texts, or arrays of texts)",
  }),
];
