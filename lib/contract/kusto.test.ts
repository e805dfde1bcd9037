/**
 * Reading a Kusto client's request properties (docs/api.md §7): the SDKs' `{ Options }` as an
 * object or JSON text, names in any case, ADX's timespan and datetime forms, bad values refused.
 */
import { describe, expect, it } from "vitest";
import { KustoOptionError, parseTimespanMs, readKustoOptions, ZKustoRequest } from "./kusto";

describe("Kusto request properties", () => {
  it("reads the SDKs' Options, as an object or as JSON text, names in any case, unknown ones ignored", () => {
    const asText = ZKustoRequest.parse({ db: "CUST-ACME", csl: "States", properties: '{"options":{"SERVERTIMEOUT":"00:00:30","Unknown":true}}' });
    expect(readKustoOptions(asText.properties)).toEqual({ servertimeoutMs: 30_000 });
    const asObject = ZKustoRequest.parse({ db: "CUST-ACME", csl: "States", properties: { Options: { TruncationMaxRecords: "10", query_now: "2024-05-01T00:00:00Z" }, Parameters: { x: 1 } } });
    expect(readKustoOptions(asObject.properties)).toEqual({ truncationMaxRecords: 10, queryNow: new Date("2024-05-01T00:00:00Z"), parameters: { x: "1" } });
    expect(readKustoOptions({ query_datetimescope_from: "datetime(2024-05-01)", query_datetimescope_column: "Timestamp" })).toEqual({
      scopeFrom: new Date("2024-05-01T00:00:00Z"),
      scopeColumn: "Timestamp",
    });
  });

  it("refuses properties that are neither an object nor its JSON text", () => {
    for (const properties of ["not json", "[1,2]", 42]) {
      expect(ZKustoRequest.safeParse({ db: "CUST-ACME", csl: "States", properties }).success).toBe(false);
    }
  });

  it("reads ADX's timespans and KQL's literals", () => {
    expect(parseTimespanMs("00:01:00.500")).toBe(60_500);
    expect(parseTimespanMs("1.02:00:00")).toBe(26 * 3_600_000);
    expect(parseTimespanMs("00:00:01.0000001")).toBeCloseTo(1000.0001, 6);
    expect(parseTimespanMs("30s")).toBe(30_000);
    expect(parseTimespanMs("5m")).toBe(300_000);
    expect(parseTimespanMs("100ms")).toBe(100);
    expect(parseTimespanMs("soon")).toBeNull();
  });

  it("names the option and the problem of a bad value", () => {
    expect(() => readKustoOptions({ Options: { servertimeout: "later" } })).toThrow(KustoOptionError);
    expect(() => readKustoOptions({ Options: { truncationmaxrecords: -1 } })).toThrow(/truncationmaxrecords/);
    expect(() => readKustoOptions({ Options: { query_now: "yesterday" } })).toThrow(/query_now/);
    expect(() => readKustoOptions({ Options: { query_datetimescope_column: "" } })).toThrow(/query_datetimescope_column/);
  });
});
