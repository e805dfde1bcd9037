/**
 * KQL's hash functions with ADX's values (entry.ts says what an entry holds; docs/kql-functions.md
 * how to add one): hash() is XXH64 of the UTF-8 text, read as a signed long; the digests are
 * lower-case hex of the source's text (tostring()); a datetime's hash() is XXH64 of its ticks' 8
 * little-endian bytes (the page's printed value). DuckDB computes XXH64 in JavaScript (udfs.ts), ClickHouse with its own xxHash64.
 * Not here: hash_crc32, which the issue names but Kusto.Language does not know.
 */
import { scalar, type FunctionEntry, type SpellInput } from "./entry";

/** `h` (a signed long holding 64 bits) modulo `mod` as an unsigned number, as ADX's hash(x, mod) is never negative. */
const unsignedMod = ({ args }: SpellInput, h: string) =>
  args[1] ? `CASE WHEN ${args[1]} > 0 THEN CAST(((CAST(${h} AS HUGEINT) + 18446744073709551616) % 18446744073709551616) % ${args[1]} AS BIGINT) END` : h;

/** A datetime's .NET ticks (100 ns since 0001-01-01), as ADX hashes a datetime. */
const ticks = { duckdb: (x: string) => `(epoch_us(${x}) * 10 + 621355968000000000)`, clickhouse: (x: string) => `(toInt64(toUnixTimestamp64Micro(${x})) * 10 + 621355968000000000)` };

/** XXH64 of the source: a string's UTF-8 bytes, a datetime's ticks as 8 little-endian bytes (ADX). */
const xxhashOf = {
  duckdb: ({ args, types }: SpellInput) => (types[0] === "datetime" ? `kql_xxhash64_long(${ticks.duckdb(args[0]!)})` : `kql_xxhash64(${args[0]})`),
  clickhouse: ({ args, types }: SpellInput) => (types[0] === "datetime" ? `xxHash64(reinterpretAsFixedString(toInt64(${ticks.clickhouse(args[0]!)})))` : `xxHash64(${args[0]})`),
};

const xxhash = (name: string, doc: string) =>
  scalar(name, {
    args: ["source: string", "source: string, mod: long", "source: datetime", "source: datetime, mod: long"],
    result: "long",
    sql: {
      duckdb: (input) => unsignedMod(input, xxhashOf.duckdb(input)),
      clickhouse: (input) => (input.args[1] ? `if(${input.args[1]} > 0, toInt64(${xxhashOf.clickhouse(input)} % ${input.args[1]}), NULL)` : `toInt64(${xxhashOf.clickhouse(input)})`),
    },
    nulls: "may",
    doc,
  });

/** A datetime as ADX writes it, with its 7 fraction digits (`2020-01-01T00:00:00.0000000Z`). */
const isoText = {
  duckdb: (x: string) => `strftime(${x}, '%Y-%m-%dT%H:%M:%S.%f0Z')`,
  clickhouse: (x: string) => `concat(formatDateTime(toDateTime64(${x}, 6, 'UTC'), '%Y-%m-%dT%H:%i:%S.%f', 'UTC'), '0Z')`,
};

/** A digest of the source's text (tostring(); a datetime as ADX writes it). */
const digest = (name: string, duckdb: string, clickhouse: string, doc: string) =>
  scalar(name, {
    args: ["source: string", "source: datetime", "source: text"],
    result: "string",
    sql: {
      duckdb: ({ args: [x], types }) => `${duckdb}(${types[0] === "datetime" ? isoText.duckdb(x!) : x})`,
      clickhouse: ({ args: [x], types }) => `lower(hex(${clickhouse}(${types[0] === "datetime" ? isoText.clickhouse(x!) : x})))`,
    },
    doc,
  });

export const HASHES: readonly FunctionEntry[] = [
  xxhash("hash", "XXH64 of the text (as ADX computes it), optionally modulo mod"),
  xxhash("hash_xxhash64", "XXH64 of the text, optionally modulo mod"),
  digest("hash_md5", "md5", "MD5", "the MD5 digest of the text, in hex"),
  digest("hash_sha1", "sha1", "SHA1", "the SHA-1 digest of the text, in hex"),
  digest("hash_sha256", "sha256", "SHA256", "the SHA-256 digest of the text, in hex"),
];
