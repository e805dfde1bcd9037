/**
 * KQL's hash functions with ADX's values (entry.ts says what an entry holds; docs/kql-functions.md
 * how to add one): hash() is XXH64 of the UTF-8 text, read as a signed long; the digests are
 * lower-case hex. DuckDB computes XXH64 in JavaScript (udfs.ts), ClickHouse with its own xxHash64.
 * Not here: hash_crc32, which the issue names but Kusto.Language does not know.
 */
import { scalar, type FunctionEntry, type SpellInput } from "./entry";

/** `h` (a signed long holding 64 bits) modulo `mod` as an unsigned number, as ADX's hash(x, mod) is never negative. */
const unsignedMod = ({ args }: SpellInput, h: string) =>
  args[1] ? `CASE WHEN ${args[1]} > 0 THEN CAST(((CAST(${h} AS HUGEINT) + 18446744073709551616) % 18446744073709551616) % ${args[1]} AS BIGINT) END` : h;

const xxhash = (name: string, doc: string) =>
  scalar(name, {
    args: ["source: string", "source: string, mod: long"],
    result: "long",
    sql: {
      duckdb: (input) => unsignedMod(input, `kql_xxhash64(${input.args[0]})`),
      clickhouse: ({ args }) => (args[1] ? `if(${args[1]} > 0, toInt64(xxHash64(${args[0]}) % ${args[1]}), NULL)` : `toInt64(xxHash64(${args[0]}))`),
    },
    nulls: "may",
    doc,
  });

const digest = (name: string, duckdb: string, clickhouse: string, doc: string) => scalar(name, { args: "source: string", result: "string", sql: { duckdb: `${duckdb}($0)`, clickhouse: `lower(hex(${clickhouse}($0)))` }, doc });

export const HASHES: readonly FunctionEntry[] = [
  xxhash("hash", "XXH64 of the text (as ADX computes it), optionally modulo mod"),
  xxhash("hash_xxhash64", "XXH64 of the text, optionally modulo mod"),
  digest("hash_md5", "md5", "MD5", "the MD5 digest of the text, in hex"),
  digest("hash_sha1", "sha1", "SHA1", "the SHA-1 digest of the text, in hex"),
  digest("hash_sha256", "sha256", "SHA256", "the SHA-256 digest of the text, in hex"),
];
