/**
 * KQL's functions of numbers and bits: binary_*, bitset_count_ones, tohex (entry.ts says what an
 * entry holds; docs/kql-functions.md how to add one). ADX's longs wrap around like .NET's (a shift
 * by n shifts by n & 63).
 */
import { scalar, type FunctionEntry } from "./entry";

/** DuckDB raises on a BIGINT overflow: computed wide, then wrapped into 64 bits (two's complement) as .NET wraps. */
const wrap = (huge: string) => `CAST(((${huge}) % 18446744073709551616 + 27670116110564327424) % 18446744073709551616 - 9223372036854775808 AS BIGINT)`;

const bits = (name: string, duckdb: string, clickhouse: string, doc: string) => scalar(name, { args: "a: long, b: long", result: "long", sql: { duckdb, clickhouse }, doc });

export const NUMBERS: readonly FunctionEntry[] = [
  bits("binary_and", "($0 & $1)", "bitAnd($0, $1)", "bitwise and"),
  bits("binary_or", "($0 | $1)", "bitOr($0, $1)", "bitwise or"),
  bits("binary_xor", "xor($0, $1)", "bitXor($0, $1)", "bitwise exclusive or"),
  scalar("binary_not", { args: "a: long", result: "long", sql: { duckdb: "(~$0)", clickhouse: "bitNot($0)" }, doc: "bitwise negation" }),
  scalar("binary_shift_left", {
    args: "a: long, n: long",
    result: "long",
    sql: { duckdb: wrap("CAST($0 AS HUGEINT) * (CAST(1 AS HUGEINT) << ($1 & 63))"), clickhouse: "bitShiftLeft(toInt64($0), bitAnd($1, 63))" },
    doc: "a shifted left by n bits (wrapping around)",
  }),
  scalar("binary_shift_right", { args: "a: long, n: long", result: "long", sql: { duckdb: "($0 >> ($1 & 63))", clickhouse: "bitShiftRight(toInt64($0), bitAnd($1, 63))" }, doc: "a shifted right by n bits (the sign kept)" }),
  scalar("bitset_count_ones", { args: "a: long", result: "long", sql: { duckdb: "CAST(bit_count(CAST($0 AS BIGINT)) AS BIGINT)", clickhouse: "toInt64(bitCount(toInt64($0)))" }, doc: "the number of set bits" }),
  scalar("tohex", {
    // An int is written as 32 bits (tohex(toint(-256)) is ffffff00), a long as 64 (the page's examples).
    args: ["value: int", "value: int, minLength: long", "value: long", "value: long, minLength: long"],
    result: "string",
    sql: {
      duckdb: ({ args, types }) => {
        const hex = types[0] === "int" ? `lower(hex(CAST(${args[0]} AS BIGINT) & 4294967295))` : `lower(hex(CAST(${args[0]} AS BIGINT)))`;
        return args[1] ? `CASE WHEN length(${hex}) < ${args[1]} THEN lpad(${hex}, CAST(${args[1]} AS INTEGER), '0') ELSE ${hex} END` : hex;
      },
      clickhouse: ({ args, types }) => {
        const hex = `replaceRegexpOne(lower(hex(${types[0] === "int" ? "toInt32" : "toInt64"}(${args[0]}))), '^0+(.)', '\\\\1')`;
        return args[1] ? `if(lengthUTF8(${hex}) < ${args[1]}, leftPadUTF8(${hex}, toUInt64(${args[1]}), '0'), ${hex})` : hex;
      },
    },
    doc: "the value in hexadecimal (two's complement for a negative value), padded with zeros to minLength",
  }),
];
