import { DuckDBTimestampValue } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { toResponseColumns } from "@/lib/kql";
import { formatTimespan, toJsonValue } from "./reference-json";

describe("toJsonValue", () => {
  it("writes datetimes as ISO 8601 UTC with milliseconds and Z, from any reader's form", () => {
    const iso = "2026-01-02T03:04:05.678Z";
    expect(toJsonValue("datetime", new DuckDBTimestampValue(BigInt(Date.parse(iso)) * 1000n))).toBe(iso);
    expect(toJsonValue("datetime", new Date(iso))).toBe(iso);
    expect(toJsonValue("datetime", "2026-01-02 03:04:05.678")).toBe(iso);
    expect(toJsonValue("datetime", new DuckDBTimestampValue(-1n))).toBe("1969-12-31T23:59:59.999Z");
    expect(toJsonValue("datetime", null)).toBeNull();
  });
  it("gives longs and reals as JSON numbers, non-finite reals as null", () => {
    expect(toJsonValue("long", 42n)).toBe(42);
    expect(toJsonValue("int", 7)).toBe(7);
    expect(toJsonValue("real", 2.5)).toBe(2.5);
    expect(toJsonValue("real", Number.NaN)).toBeNull();
    expect(toJsonValue("real", Number.POSITIVE_INFINITY)).toBeNull();
  });
  it("never gives a null string", () => {
    expect(toJsonValue("string", null)).toBe("");
    expect(toJsonValue("string", "x")).toBe("x");
  });
  it("parses dynamic JSON text and keeps numbers", () => {
    expect(toJsonValue("dynamic", '{"Area":"North"}')).toEqual({ Area: "North" });
    expect(toJsonValue("dynamic", "[1,2]")).toEqual([1, 2]);
    expect(toJsonValue("dynamic", 12.5)).toBe(12.5);
    expect(toJsonValue("dynamic", null)).toBeNull();
  });
  it("formats timespans as ADX does", () => {
    expect(formatTimespan(0n)).toBe("00:00:00");
    expect(formatTimespan(90n * 60_000_000n)).toBe("01:30:00");
    expect(formatTimespan(86_400_000_000n + 1_000_000n)).toBe("1.00:00:01");
    expect(formatTimespan(-100_000n)).toBe("-00:00:00.1000000");
    expect(toJsonValue("timespan", 3_600_000_000n)).toBe("01:00:00");
  });
  it("maps KQL types to response column types", () => {
    expect(toResponseColumns([{ name: "Timestamp", kqlType: "datetime" }, { name: "Value", kqlType: "dynamic" }, { name: "n", kqlType: "long" }])).toEqual([
      { name: "Timestamp", columnType: "datetime", dataType: "DateTime" },
      { name: "Value", columnType: "dynamic", dataType: "Object" },
      { name: "n", columnType: "long", dataType: "Int64" },
    ]);
  });
});
