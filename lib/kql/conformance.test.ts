/**
 * KQL conformance: query → exact expected rows on the fixture (testing/fixture.ts) in an in-memory
 * DuckDB. Rows are compared in order when the query sorts, as multisets otherwise; reals to 1e-9.
 */
import { describe, expect, it } from "vitest";
import { compileKql } from "./compile";
import { KqlError } from "./errors";
import { conformance, runOnFixture } from "../service/telemetry/testing/kql-conformance";

/** One row: D3 "running" at 2026-01-02T00:05, Value 1, DataMetadata {Area: "Bay 1"}. */
const R = 'States | where Name == "running"';
const D1 = 'States | where DeviceId == "D1"';

/** The shared harness (lib/service/telemetry/testing/kql-conformance.ts): exact rows, in order when the query ends sorted. */
const cases = conformance;

const STATE_COLUMNS = ["DeviceId", "Name", "Timestamp", "Value", "PlantId", "DataMetadata", "MessageMetadata", "MessageType", "AgentTimestamp", "IngestionTimestamp"];
const EVENT_COLUMNS = ["EventId", "PlantId", "DeviceId", "Name", "Severity", "Message", "StartTime", "EndTime", "Value", "DataMetadata", "MessageMetadata"];

describe("tables, take, count, project", () => {
  cases([
    { q: "States | count", rows: [[12]], columns: ["Count"], types: ["long"] },
    { q: "Events | count", rows: [[5]] },
    { q: "States | take 3 | count", rows: [[3]] },
    { q: "States | limit 0 | count", rows: [[0]] },
    { q: "States | take 0", rows: [], columns: STATE_COLUMNS, types: ["string", "string", "datetime", "dynamic", "string", "dynamic", "dynamic", "string", "datetime", "datetime"] },
    { q: "Events | take 0", rows: [], columns: EVENT_COLUMNS, types: ["string", "string", "string", "string", "string", "string", "datetime", "datetime", "dynamic", "dynamic", "dynamic"] },
    {
      q: `${R}`,
      rows: [["D3", "running", "2026-01-02T00:05:00.000Z", 1, "HOU1", { Area: "Bay 1" }, { topologyReference: "C-301", topologyReferenceType: "asset" }, "state", "2026-01-02T00:05:00.000Z", "2026-01-02T00:05:01.000Z"]],
    },
    { q: 'States | where DeviceId == "D4" | project Name, Value', rows: [["throughput", 100], ["Temperature", 19.25]], columns: ["Name", "Value"] },
    {
      q: 'States | where DeviceId == "D3" | project-away DataMetadata, MessageMetadata, MessageType, AgentTimestamp, IngestionTimestamp, PlantId',
      rows: [["D3", "temperature", "2026-01-02T00:00:00.000Z", 18], ["D3", "running", "2026-01-02T00:05:00.000Z", 1]],
      columns: ["DeviceId", "Name", "Timestamp", "Value"],
    },
    { q: 'States | where DeviceId == "D3" | project-rename Device = DeviceId | project Device, Name', rows: [["D3", "temperature"], ["D3", "running"]], columns: ["Device", "Name"] },
    { q: `${R} | project-rename N = Name, V = Value | project V, N`, rows: [[1, "running"]] },
    { q: `${R} | project d = DeviceId, v = Value * 2`, rows: [["D3", 2]], columns: ["d", "v"], types: ["string", "real"] },
    { q: 'States | where DeviceId == "D3" | extend strlen(Name) | project Name, Column1', rows: [["temperature", 11], ["running", 7]] },
    { q: `${R} | extend strlen(Name), strlen(DeviceId) | project Column1, Column2`, rows: [[7, 2]] },
    {
      q: `${R} | extend Value = 5 | project-away DataMetadata, MessageMetadata, MessageType, AgentTimestamp, IngestionTimestamp`,
      rows: [["D3", "running", "2026-01-02T00:05:00.000Z", "HOU1", 5]],
      columns: ["DeviceId", "Name", "Timestamp", "PlantId", "Value"],
      types: ["string", "string", "datetime", "string", "long"],
    },
    { q: `${R} | extend a = 2, b = a * 3 | project a, b`, rows: [[2, 6]] },
    {
      q: 'States | where DeviceId == "D4" and Name == "throughput" | project DataMetadata.Unit, MessageMetadata["topologyReference"]',
      rows: [["t/h", "T-401"]],
      columns: ["DataMetadata_Unit", "MessageMetadata_topologyReference"],
      types: ["dynamic", "dynamic"],
    },
    { q: `${R} | project tostring(DataMetadata.Area)`, rows: [["Bay 1"]], columns: ["DataMetadata_Area"], types: ["string"] },
    { q: `${R} | extend value = 5 | project Value, value`, rows: [[1, 5]], columns: ["Value", "value"] },
    { q: 'States | where DeviceId == "D4" and Name == "throughput" | project DataMetadata', rows: [[{ Unit: "t/h", Area: "Bay 2", Line: "L9" }]] },
  ]);
});

describe("where: comparisons and null semantics", () => {
  cases([
    { q: "States | where Value > 20 | project DeviceId, Value", rows: [["D1", 20.5], ["D1", 22], ["D1", 25.5], ["D2", 30], ["D4", 100]] },
    { q: "States | where Value >= 22 and Value < 100 | count", rows: [[3]] },
    { q: "States | where Value <= 1.2 | count", rows: [[3]] },
    { q: "States | where Value != 7 | count", rows: [[11]] },
    { q: "States | where Value <> 7 | count", rows: [[11]] },
    { q: "States | where Value == 7 | project DeviceId", rows: [["D2"]] },
    { q: "States | where not(Value == 7) | count", rows: [[11]] },
    // An ordering with a null is null, and not(null) is null, which a filter drops (null-values.md).
    { q: "States | where not(Value > 0) | count", rows: [[1]] },
    { q: 'States | where not Name has "temperature" | count', rows: [[6]] },
    { q: 'States | where not Name == "temperature" and DeviceId == "D1" | count', rows: [[2]] },
    { q: "States | where Value < 0 or Value > 50 | count", rows: [[2]] },
    { q: "States | where Value == real(null) | count", rows: [[0]] },
    // != of a value and a null is true, of two nulls null (null-values.md).
    { q: "States | where Value != real(null) | count", rows: [[11]] },
    { q: "States | where isnull(Value) | project DeviceId, Name", rows: [["D1", "pressure"]] },
    { q: "States | where isnotnull(Value) | count", rows: [[11]] },
    { q: "States | where isnull(AgentTimestamp) | count", rows: [[1]] },
    { q: "States | where AgentTimestamp < datetime(2030-01-01) | count", rows: [[11]] },
    { q: "States | where AgentTimestamp != datetime(2026-01-01) | count", rows: [[10]] },
    { q: `${D1} and Name == "pressure" | extend isHigh = Value > 1 | project isHigh`, rows: [[true], [null]] },
    { q: `${D1} and Name == "pressure" | project a = Value == 1.2, b = Value != 1.2, c = Value < 5`, rows: [[true, false, true], [false, true, null]] },
    { q: `${D1} and Name == "pressure" | project a = Value in (1.2, 3), b = Value !in (1.2), c = Value between (1 .. 2)`, rows: [[true, false, true], [false, true, false]] },
    { q: 'States | where Name == "temperature" | count', rows: [[5]] },
    { q: 'States | where Name == "Temperature" | count', rows: [[1]] },
    { q: 'States | where Name =~ "TEMPERATURE" | count', rows: [[6]] },
    { q: 'States | where Name !~ "temperature" | count', rows: [[6]] },
    { q: 'States | where Name != "temperature" | count', rows: [[7]] },
    { q: 'States | where DeviceId =~ "d1" | count', rows: [[5]] },
    { q: 'States | where Name in ("running", "throughput") | project DeviceId, Name', rows: [["D3", "running"], ["D4", "throughput"]] },
    { q: 'States | where Name !in ("temperature", "pressure") | count', rows: [[5]] },
    { q: 'States | where Name in~ ("TEMPERATURE") | count', rows: [[6]] },
    { q: 'States | where Name !in~ ("TEMPERATURE", "Pressure") | count', rows: [[4]] },
    { q: "States | where Value in (7, 100) | count", rows: [[2]] },
    { q: "States | where Value !in (7, 100) | count", rows: [[10]] },
    { q: "States | where Value between (1 .. 20.5) | sort by Value asc | project Value", rows: [[1], [1.2], [7], [18], [19.25], [20.5]] },
    { q: "States | where Value !between (1 .. 20.5) | count", rows: [[6]] },
    { q: "States | where Timestamp between (datetime(2026-01-01 00:00) .. datetime(2026-01-01 00:30)) | count", rows: [[5]] },
    { q: "States | where Timestamp >= datetime(2026-01-02) | count", rows: [[4]] },
    { q: "States | where Timestamp < datetime(2026-01-01T00:30:00Z) | count", rows: [[4]] },
    { q: "States | where Timestamp > datetime(2026-01-02 12:00:00.998) | project Name", rows: [["Temperature"]] },
    { q: "States | where Timestamp == datetime(2026-01-01T01:15:00.250Z) | project Value", rows: [[25.5]] },
    { q: 'States | where Timestamp == datetime("2026-01-02T12:00:00.999Z") | project Name', rows: [["Temperature"]] },
    { q: "States | where Timestamp > ago(1h) | project Name", rows: [["throughput"], ["Temperature"]] },
    { q: "States | where Timestamp between (ago(12h) .. now()) | count", rows: [[3]] },
    { q: "States | where true | count", rows: [[12]] },
    { q: "States | where false | count", rows: [[0]] },
    { q: 'States | where Name == "x\' OR 1=1 --" | count', rows: [[0]] },
    { q: "States | where Value > 20 | where DeviceId == \"D1\" | where Timestamp > datetime(2026-01-01 00:10) | project Value", rows: [[22], [25.5]] },
  ]);
});

describe("string operators", () => {
  cases([
    { q: 'States | where Name has "current" | project Name', rows: [["motor-current"]] },
    { q: 'States | where Name has "motor" | count', rows: [[1]] },
    { q: 'States | where Name has "curr" | count', rows: [[0]] },
    { q: 'States | where Name has "CURRENT" | count', rows: [[1]] },
    { q: 'States | where Name !has "current" | count', rows: [[11]] },
    { q: 'Events | where Message has "vibration" | project EventId', rows: [["E2"], ["E3"]] },
    { q: 'Events | where Message has "warning" | project EventId', rows: [["E3"]] },
    { q: 'Events | where Message has "25" | project EventId', rows: [["E1"]] },
    { q: 'Events | where Message has "5" | project EventId', rows: [] },
    { q: 'Events | where Message has_cs "vibration" | project EventId', rows: [["E3"]] },
    { q: 'Events | where Message has "high on" | project EventId', rows: [["E2"]] },
    { q: 'States | where Name contains "TEMP" | count', rows: [[6]] },
    { q: 'States | where Name contains_cs "Temp" | count', rows: [[1]] },
    { q: 'States | where Name !contains "e" | project Name', rows: [["vibration"], ["running"], ["throughput"]] },
    { q: 'States | where Name !contains_cs "T" | count', rows: [[11]] },
    { q: 'States | where Name startswith "TEMP" | count', rows: [[6]] },
    { q: 'States | where Name startswith_cs "temp" | count', rows: [[5]] },
    { q: 'States | where Name !startswith "t" | count', rows: [[5]] },
    { q: 'States | where Name endswith "URE" | count', rows: [[8]] },
    { q: 'States | where Name endswith_cs "Ure" | count', rows: [[0]] },
    { q: 'States | where Name !endswith "e" | count', rows: [[4]] },
    { q: 'States | where Name contains "%" | count', rows: [[0]] },
    { q: 'States | where Name contains "_" | count', rows: [[0]] },
    { q: 'States | where Name has ".*" | count', rows: [[0]] },
    { q: 'States | where DataMetadata.Area has "bay" | count', rows: [[4]] },
    { q: 'States | where DataMetadata.Area contains "OUT" | count', rows: [[3]] },
  ]);
});

describe("dynamic values", () => {
  cases([
    { q: 'States | where DataMetadata.Area == "South" | count', rows: [[3]] },
    { q: 'States | where DataMetadata["Area"] == "Bay 1" | project Name', rows: [["temperature"], ["running"]] },
    { q: "States | where DataMetadata['Line'] == 'L1' | count", rows: [[5]] },
    { q: "States | where isnull(DataMetadata.Line) | count", rows: [[5]] },
    { q: "States | where isnotnull(DataMetadata.Unit) | count", rows: [[11]] },
    { q: "States | where isempty(DataMetadata.Unit) | count", rows: [[1]] },
    { q: "States | where isnotempty(DataMetadata.Unit) | count", rows: [[11]] },
    { q: 'States | where MessageMetadata.topologyReference == "M-201" | distinct DeviceId', rows: [["D2"]] },
    { q: 'States | where MessageMetadata.topologyReferenceType == "asset" | count', rows: [[12]] },
    { q: "States | summarize count() by Area = tostring(DataMetadata.Area) | sort by Area asc", rows: [["Bay 1", 2], ["Bay 2", 2], ["North", 5], ["South", 3]] },
    {
      q: "States | summarize dcount(DeviceId) by tostring(DataMetadata.Area)",
      rows: [["North", 1], ["South", 1], ["Bay 1", 1], ["Bay 2", 1]],
      columns: ["DataMetadata_Area", "dcount_DeviceId"],
      types: ["string", "long"],
    },
    { q: `${R} | project a = DataMetadata.Area`, rows: [["Bay 1"]], types: ["dynamic"] },
    {
      // Grouping by the dynamic value itself is refused, as ADX does (refusals.test.ts): the cast is explicit.
      q: "States | summarize count() by Unit = tostring(DataMetadata.Unit) | sort by count_ desc, Unit asc",
      rows: [["C", 6], ["bar", 2], ["", 1], ["A", 1], ["mm/s", 1], ["t/h", 1]],
      columns: ["Unit", "count_"],
      types: ["string", "long"],
    },
    { q: "States | where todouble(DataMetadata.Missing) > 0 | count", rows: [[0]] },
    { q: 'States | where DeviceId == "D3" | project v = todouble(Value) + 1 | sort by v asc', rows: [[2], [19]] },
    { q: `${R} | project Value`, rows: [[1]], types: ["dynamic"] },
    { q: 'States | where DataMetadata.Unit == "C" and Value > 20 | count', rows: [[4]] },
    { q: 'States | extend u = tostring(DataMetadata.Unit) | where u == "" | project DeviceId, Name', rows: [["D3", "running"]] },
    { q: `${R} | project x = Value.foo`, rows: [[null]], types: ["dynamic"] },
    { q: `${R} | project x = DataMetadata.Nope, y = isnull(DataMetadata.Nope), z = tostring(DataMetadata.Nope)`, rows: [[null, true, ""]] },
    { q: `${R} | project x = dynamic(null), y = isnull(dynamic(null))`, rows: [[null, true]] },
    { q: "States | where Value == 100 | project v = Value + 1, t = todouble(Value) / 3", rows: [[101, 100 / 3]], types: ["real", "real"] },
    { q: "States | summarize max(Value), sum(todouble(Value))", rows: [[100, 240.95]], columns: ["max_Value", "sum_Value"], types: ["real", "real"] },
    { q: `${R} | project s = tostring(Value), t = tostring(DataMetadata)`, rows: [["1", '{"Area":"Bay 1"}']] },
    { q: 'States | summarize l = make_list(Value) by DeviceId | where DeviceId == "D3" | project first = todouble(l[0]) + todouble(l[1]), n = l[5]', rows: [[19, null]], types: ["real", "dynamic"] },
    { q: 'States | where DeviceId == "D4" | summarize make_list(DataMetadata.Area)', rows: [[["Bay 2", "Bay 2"]]] },
    { q: `${R} | extend a = DataMetadata | project a.Area, a["Nope"]`, rows: [["Bay 1", null]], columns: ["a_Area", "a_Nope"] },
    { q: `${R} | project x = iff(true, DataMetadata.Area, "none"), y = iff(false, DataMetadata.Area, "none")`, rows: [["Bay 1", "none"]], types: ["dynamic", "dynamic"] },
    { q: 'States | where DataMetadata["a\\"b"] == "x" or DataMetadata["$.Area"] == "x" or DataMetadata["ä ü"] == "x" | count', rows: [[0]] },
  ]);
});

describe("summarize: aggregates, names and empty input", () => {
  cases([
    { q: "States | summarize count()", rows: [[12]], columns: ["count_"], types: ["long"] },
    { q: "States | summarize count() by DeviceId | sort by DeviceId asc", rows: [["D1", 5], ["D2", 3], ["D3", 2], ["D4", 2]], columns: ["DeviceId", "count_"] },
    { q: "States | summarize countif(Value > 20) by DeviceId | sort by DeviceId asc", rows: [["D1", 3], ["D2", 1], ["D3", 0], ["D4", 1]], columns: ["DeviceId", "countif_"] },
    { q: "States | summarize sum(Value) by DeviceId | sort by DeviceId asc", rows: [["D1", 69.2], ["D2", 33.5], ["D3", 19], ["D4", 119.25]], columns: ["DeviceId", "sum_Value"] },
    {
      q: "States | summarize avg(Value), min(Value), max(Value) by DeviceId | sort by DeviceId asc",
      rows: [["D1", 17.3, 1.2, 25.5], ["D2", 33.5 / 3, -3.5, 30], ["D3", 9.5, 1, 18], ["D4", 59.625, 19.25, 100]],
      columns: ["DeviceId", "avg_Value", "min_Value", "max_Value"],
      types: ["string", "real", "real", "real"],
    },
    { q: "States | summarize dcount(Name)", rows: [[7]], columns: ["dcount_Name"] },
    { q: "States | summarize dcount(DeviceId) by PlantId | sort by PlantId asc", rows: [["HOU1", 2], ["RTM1", 2]] },
    { q: "States | summarize percentile(Value, 50)", rows: [[19.25]], columns: ["percentile_Value_50"], types: ["real"] },
    { q: "States | summarize percentile(Value, 100), percentile(Value, 0)", rows: [[100, -3.5]], columns: ["percentile_Value_100", "percentile_Value_0"] },
    { q: "States | summarize percentile(Value, 99.5)", rows: [[100]], columns: ["percentile_Value_99_5"] },
    { q: "States | summarize any(PlantId) by DeviceId | sort by DeviceId asc", rows: [["D1", "RTM1"], ["D2", "RTM1"], ["D3", "HOU1"], ["D4", "HOU1"]], columns: ["DeviceId", "any_PlantId"] },
    { q: `${R} | summarize make_list(Name)`, rows: [[["running"]]], columns: ["list_Name"], types: ["dynamic"] },
    { q: `${R} | summarize make_list(Value), make_list(Timestamp)`, rows: [[[1], ["2026-01-02T00:05:00.000Z"]]] },
    { q: `${D1} and Name == "pressure" | summarize make_list(Value)`, rows: [[[1.2]]] },
    {
      q: "States | summarize arg_max(Timestamp, Name, Value) by DeviceId | sort by DeviceId asc",
      rows: [["D1", "2026-01-01T02:00:00.000Z", "pressure", null], ["D2", "2026-01-01T03:00:00.000Z", "vibration", -3.5], ["D3", "2026-01-02T00:05:00.000Z", "running", 1], ["D4", "2026-01-02T12:00:00.999Z", "Temperature", 19.25]],
      columns: ["DeviceId", "Timestamp", "Name", "Value"],
    },
    {
      q: "States | summarize arg_min(Value, Name) by DeviceId | sort by DeviceId asc",
      rows: [["D1", 1.2, "pressure"], ["D2", -3.5, "vibration"], ["D3", 1, "running"], ["D4", 19.25, "Temperature"]],
      columns: ["DeviceId", "Value", "Name"],
    },
    {
      q: 'States | where DeviceId == "D3" | summarize arg_max(Timestamp, *)',
      rows: [["2026-01-02T00:05:00.000Z", "D3", "running", 1, "HOU1", { Area: "Bay 1" }, { topologyReference: "C-301", topologyReferenceType: "asset" }, "state", "2026-01-02T00:05:00.000Z", "2026-01-02T00:05:01.000Z"]],
      columns: ["Timestamp", "DeviceId", "Name", "Value", "PlantId", "DataMetadata", "MessageMetadata", "MessageType", "AgentTimestamp", "IngestionTimestamp"],
    },
    {
      q: "States | summarize arg_max(Timestamp, *) by DeviceId | project DeviceId, Name",
      rows: [["D1", "pressure"], ["D2", "vibration"], ["D3", "running"], ["D4", "Temperature"]],
    },
    {
      q: 'States | where DeviceId == "nope" | summarize count(), countif(Value > 1), sum(Value), dcount(Name), make_list(Name), avg(Value), min(Value), max(Value), any(Value), percentile(Value, 50)',
      rows: [[0, 0, 0, 0, [], null, null, null, null, null]],
      columns: ["count_", "countif_", "sum_Value", "dcount_Name", "list_Name", "avg_Value", "min_Value", "max_Value", "any_Value", "percentile_Value_50"],
    },
    { q: 'States | where DeviceId == "nope" | summarize min(Name), max(Timestamp)', rows: [["", null]] },
    { q: 'States | where DeviceId == "nope" | summarize count() by Name', rows: [] },
    { q: 'States | where DeviceId == "nope" | count', rows: [[0]] },
    { q: 'States | where DeviceId == "nope" | summarize by Name', rows: [] },
    { q: "States | summarize by PlantId", rows: [["RTM1"], ["HOU1"]], columns: ["PlantId"] },
    { q: "States | summarize n = count() by PlantId | sort by PlantId asc", rows: [["HOU1", 4], ["RTM1", 8]], columns: ["PlantId", "n"] },
    { q: "States | summarize c = count() by DeviceId | summarize total = sum(c), devices = count()", rows: [[12, 4]], types: ["long", "long"] },
    { q: "States | summarize c = count() by DeviceId | where c > 2 | sort by DeviceId asc", rows: [["D1", 5], ["D2", 3]] },
    { q: 'States | summarize c = count() by DeviceId | extend double = c * 2 | where DeviceId == "D4" | project double', rows: [[4]] },
    { q: "States | summarize count(), count()", rows: [[12, 12]], columns: ["count_", "count_1"] },
    { q: "States | summarize ratio = todouble(countif(Value > 20)) / count()", rows: [[5 / 12]], types: ["real"] },
    { q: "States | summarize count() * 2", rows: [[24]], columns: ["Column1"] },
    { q: "Events | summarize count() by Severity | sort by count_ desc, Severity asc", rows: [["Critical", 2], ["Major", 1], ["Minor", 1], ["Warning", 1]] },
    { q: "States | summarize sum(strlen(Name)) by PlantId | sort by PlantId asc", rows: [["HOU1", 11 + 7 + 10 + 11], ["RTM1", 11 * 4 + 8 * 2 + 13 + 9]], types: ["string", "long"] },
    { q: "States | summarize avg(strlen(DeviceId))", rows: [[2]], types: ["real"] },
    { q: "States | summarize min(Timestamp), max(Timestamp)", rows: [["2026-01-01T00:00:00.000Z", "2026-01-02T12:00:00.999Z"]], types: ["datetime", "datetime"] },
    { q: "States | summarize min(Name), max(Name)", rows: [["Temperature", "vibration"]] },
    { q: "States | summarize sum(1)", rows: [[12]], types: ["long"] },
    { q: 'States | extend c = "x" | summarize count() by c, PlantId | sort by PlantId asc', rows: [["x", "HOU1", 4], ["x", "RTM1", 8]] },
    { q: "States | summarize count() by c = 5", rows: [[5, 12]] },
    { q: 'States | where DeviceId == "nope" | summarize count() by c = 5', rows: [] },
    { q: "Events | summarize sum(EndTime - StartTime)", rows: [["01:10:00"]], types: ["timespan"] },
  ]);
});

describe("bin and floor", () => {
  cases([
    {
      q: 'States | where DeviceId == "D1" and Name == "temperature" | summarize avg(Value) by bin(Timestamp, 1h) | sort by Timestamp asc',
      rows: [["2026-01-01T00:00:00.000Z", 21.25], ["2026-01-01T01:00:00.000Z", 25.5]],
      columns: ["Timestamp", "avg_Value"],
      types: ["datetime", "real"],
    },
    { q: "States | summarize count() by bin(Timestamp, 1d) | sort by Timestamp asc", rows: [["2026-01-01T00:00:00.000Z", 8], ["2026-01-02T00:00:00.000Z", 4]] },
    { q: "States | summarize count() by day = bin(Timestamp, 24h) | sort by day asc", rows: [["2026-01-01T00:00:00.000Z", 8], ["2026-01-02T00:00:00.000Z", 4]], columns: ["day", "count_"] },
    // ADX aligns bins from 0001-01-01 (a Monday): 7h bins start at 22:00 the day before, 5d bins on 2025-12-31.
    { q: 'States | where DeviceId == "D1" and Name == "temperature" | summarize count() by bin(Timestamp, 7h)', rows: [["2025-12-31T22:00:00.000Z", 3]] },
    { q: "States | summarize count() by bin(Timestamp, 5d)", rows: [["2025-12-31T00:00:00.000Z", 12]] },
    { q: "States | summarize count() by bin(Timestamp, 7d)", rows: [["2025-12-29T00:00:00.000Z", 12]] },
    { q: 'States | where Name == "throughput" or Name == "Temperature" | summarize count() by bin(Timestamp, 1s)', rows: [["2026-01-02T12:00:00.000Z", 2]] },
    { q: 'States | where Name == "Temperature" | project t = bin(Timestamp, 100ms)', rows: [["2026-01-02T12:00:00.900Z"]] },
    { q: 'States | where Name == "Temperature" | project t = floor(Timestamp, 1m)', rows: [["2026-01-02T12:00:00.000Z"]] },
    {
      q: "States | where isnotnull(Value) | summarize count() by bin(Value, 10) | sort by Value asc",
      rows: [[-10, 1], [0, 3], [10, 2], [20, 3], [30, 1], [100, 1]],
      columns: ["Value", "count_"],
      types: ["real", "long"],
    },
    { q: `${R} | project f = floor(Value, 0.5), b = bin(7, 2), n = bin(-7, 2), r = bin(2.75, 0.5)`, rows: [[1, 6, -8, 2.5]], types: ["real", "long", "long", "real"] },
    { q: `${R} | project t = bin(90m, 1h)`, rows: [["01:00:00"]], types: ["timespan"] },
  ]);
});

describe("scalar functions and arithmetic", () => {
  cases([
    { q: `${R} | project a = 7 / 2, b = -7 / 2, c = 7 % 3, d = 7.0 / 2, e = 2 * 3 + 1`, rows: [[3, -3, 1, 3.5, 7]], types: ["long", "long", "long", "real", "long"] },
    { q: `${R} | project a = 1 + 2.5, b = 10 - 4, c = -(3), d = 2 * (3 + 1)`, rows: [[3.5, 6, -3, 8]], types: ["real", "long", "long", "long"] },
    { q: `${R} | project a = todouble("1.5"), b = todouble("abc"), c = todouble(Name), d = todouble(Value), e = todouble(3)`, rows: [[1.5, null, null, 1, 3]], types: ["real", "real", "real", "real", "real"] },
    { q: `${R} | project a = toreal("2")`, rows: [[2]] },
    { q: `${R} | project a = tolong("42"), b = tolong(2.7), c = tolong(-2.7), d = toint("7"), e = tolong("x")`, rows: [[42, 2, -2, 7, null]], types: ["long", "long", "long", "int", "long"] },
    { q: `${R} | project a = toint(2.9), b = tolong(Value)`, rows: [[2, 1]], types: ["int", "long"] },
    { q: `${R} | project a = tostring(42), b = tostring(1.5), c = tostring(2.0), d = tostring(true), e = tostring(Timestamp)`, rows: [["42", "1.5", "2", "true", "2026-01-02T00:05:00.000Z"]] },
    { q: `${R} | project a = tostring(real(null)), b = tostring(DataMetadata.Nope), c = isempty(tostring(long(null)))`, rows: [["", "", true]], types: ["string", "string", "bool"] },
    { q: `${R} | project a = isempty(""), b = isnotempty(""), c = isempty(Name), d = isnull(real(null)), e = isnotnull(Value), f = isnull("")`, rows: [[true, false, false, true, true, false]] },
    { q: `${R} | project a = isempty(real(null)), b = isempty(5), c = isnotempty(datetime(null))`, rows: [[true, false, false]] },
    { q: `${R} | project a = todatetime("2024-02-03T04:05:06.789Z"), b = todatetime("nope"), c = todatetime(Timestamp)`, rows: [["2024-02-03T04:05:06.789Z", null, "2026-01-02T00:05:00.000Z"]], types: ["datetime", "datetime", "datetime"] },
    { q: 'States | where DeviceId == "D3" | project Name, x = iff(Value > 5, "high", "low") | sort by Name asc', rows: [["running", "low"], ["temperature", "high"]] },
    { q: `${R} | project a = iif(Value > 0, 1, 2), b = iff(false, real(null), 2.5), c = iff(true, 1, 2.5)`, rows: [[1, 2.5, 1]], types: ["long", "real", "real"] },
    { q: `${D1} and Name == "pressure" | project x = iff(Value > 1, "yes", "no")`, rows: [["yes"], ["no"]] },
    {
      q: 'States | where DeviceId == "D2" | project Name, c = case(Value > 10, "hot", Value > 0, "warm", "cold") | sort by Name asc',
      rows: [["motor-current", "warm"], ["temperature", "hot"], ["vibration", "cold"]],
    },
    { q: `${R} | project a = strlen("héllo"), b = tolower("AbC"), c = toupper(Name), d = strlen("")`, rows: [[5, "abc", "RUNNING", 0]], types: ["long", "string", "string", "long"] },
    { q: `${R} | project a = abs(-2.5), b = abs(-3), c = round(2.567, 2), d = round(2.4), e = sqrt(16.0), f = log(1.0), g = round(-2.567, 1)`, rows: [[2.5, 3, 2.57, 2, 4, 0, -2.6]] },
    { q: `${R} | project a = sqrt(-1.0), b = log(0.0), c = log(-1.0), d = sqrt(4)`, rows: [[null, null, null, 2]] },
    { q: `${R} | project a = log(exp)`.replace("exp", "2.718281828459045"), rows: [[1]] },
    { q: `${R} | project n = now(), a = ago(1d), b = now(-1h)`, rows: [["2026-01-02T12:00:00.000Z", "2026-01-01T12:00:00.000Z", "2026-01-02T11:00:00.000Z"]] },
    {
      q: `${R} | project a = Timestamp + 1h, b = Timestamp - 30m, c = datetime(2026-01-02) - datetime(2026-01-01), d = 1h / 1m, e = 2 * 1h, f = 1h + 30m`,
      rows: [["2026-01-02T01:05:00.000Z", "2026-01-01T23:35:00.000Z", "1.00:00:00", 60, "02:00:00", "01:30:00"]],
      types: ["datetime", "datetime", "timespan", "real", "timespan", "timespan"],
    },
    { q: `${R} | project a = 100ms, b = 30s, c = 5m, d = 2d, e = 1.5h, f = -1h`, rows: [["00:00:00.1000000", "00:00:30", "00:05:00", "2.00:00:00", "01:30:00", "-01:00:00"]] },
    { q: `${R} | project a = tostring(90m), b = tostring(1d + 1s)`, rows: [["01:30:00", "1.00:00:01"]] },
    { q: `${R} | project a = real(null), b = long(null), c = dynamic(null), d = datetime(null), e = int(null), f = bool(null)`, rows: [[null, null, null, null, null, null]], types: ["real", "long", "dynamic", "datetime", "int", "bool"] },
    { q: `${R} | project a = true and false, b = true or false, c = not(true), d = not(false) and true`, rows: [[false, true, false, true]] },
    { q: `${R} | project a = 1 < 2, b = "a" == "a", c = "A" == "a", d = "A" =~ "a", e = 2.5 >= 2`, rows: [[true, true, false, true, true]] },
    { q: `${R} | project a = 1 + real(null), b = 5 / 0, c = Value * long(null)`, rows: [[null, null, null]] },
    { q: `${R} | project a = 'single', b = "it's", c = "a\\"b", d = @"c:\\temp"`, rows: [["single", "it's", 'a"b', "c:\\temp"]] },
    { q: `${R} | project a = 1e3, b = 2.5e-1, c = 0.5`, rows: [[1000, 0.25, 0.5]], types: ["real", "real", "real"] },
    { q: `${R} | project a = datetime(2024-02-29), b = datetime(2024-02-29 13:45:10.5)`, rows: [["2024-02-29T00:00:00.000Z", "2024-02-29T13:45:10.500Z"]] },
    // Where DuckDB would raise an error, the result is null (KQL never fails on data).
    { q: `${R} | project a = 9007199254740991 * 9007199254740991, b = 1h * 1e30, c = bin(Timestamp, 1h - 1h), d = datetime(2026-01-01) + 100000000d`, rows: [[null, null, null, null]] },
    { q: `${R} | project a = 3 * 4 - 2, b = toint(3) * toint(4)`, rows: [[10, 12]], types: ["long", "int"] },
    { q: `${R} | project a = Timestamp > datetime(2026-01-02), b = Timestamp - 5m == datetime(2026-01-02)`, rows: [[true, true]] },
  ]);
});

describe("sort, top, take, distinct", () => {
  cases([
    { q: `${D1} | sort by Value | project Value`, rows: [[25.5], [22], [20.5], [1.2], [null]] },
    { q: `${D1} | order by Value desc | project Value`, rows: [[25.5], [22], [20.5], [1.2], [null]] },
    { q: `${D1} | sort by Value asc | project Value`, rows: [[null], [1.2], [20.5], [22], [25.5]] },
    { q: `${D1} | order by Value asc nulls last | project Value`, rows: [[1.2], [20.5], [22], [25.5], [null]] },
    { q: `${D1} | sort by Value desc nulls first | project Value`, rows: [[null], [25.5], [22], [20.5], [1.2]] },
    { q: "States | distinct Name | sort by Name asc", rows: [["Temperature"], ["motor-current"], ["pressure"], ["running"], ["temperature"], ["throughput"], ["vibration"]] },
    { q: "States | distinct Name | sort by Name | take 2", rows: [["vibration"], ["throughput"]] },
    { q: "States | sort by DeviceId asc, Timestamp desc | project DeviceId, Timestamp | take 3", rows: [["D1", "2026-01-01T02:00:00.000Z"], ["D1", "2026-01-01T01:15:00.250Z"], ["D1", "2026-01-01T00:30:00.000Z"]] },
    { q: "States | sort by strlen(Name) asc, Name asc | project Name | take 2", rows: [["running"], ["pressure"]] },
    { q: "States | top 3 by Value | project Value", rows: [[100], [30], [25.5]] },
    { q: "States | top 2 by Value asc | project Value", rows: [[null], [-3.5]] },
    { q: "States | top 2 by Value asc nulls last | project Value", rows: [[-3.5], [1]] },
    { q: "States | top 1 by Value asc nulls first | project Name", rows: [["pressure"]] },
    { q: "States | top 1 by Timestamp desc | project Name", rows: [["Temperature"]] },
    { q: "States | sort by Value desc | take 3 | where Value < 50 | project Value", rows: [[30], [25.5]] },
    { q: "States | take 100 | count", rows: [[12]] },
    { q: "States | take 5 | take 2 | count", rows: [[2]] },
    { q: "States | sort by Timestamp asc | take 1 | project DeviceId, Timestamp | where DeviceId == \"D2\"", rows: [] },
    { q: "States | distinct DeviceId | sort by DeviceId asc", rows: [["D1"], ["D2"], ["D3"], ["D4"]] },
    { q: "States | distinct PlantId, DeviceId | count", rows: [[4]] },
    { q: "States | distinct * | count", rows: [[12]] },
    { q: "Events | distinct Severity | sort by Severity asc", rows: [["Critical"], ["Major"], ["Minor"], ["Warning"]] },
    { q: "States | summarize count() by DeviceId | sort by count_ desc | take 1", rows: [["D1", 5]] },
    { q: "States | where Value > 0 | sort by Value asc | project Value | take 2", rows: [[1], [1.2]] },
    { q: "States | extend v2 = Value * 2 | top 1 by v2 | project v2", rows: [[200]] },
    { q: "States | sort by Name asc | distinct PlantId | sort by PlantId", rows: [["RTM1"], ["HOU1"]] },
    { q: 'States | extend c = 1 | sort by c, Value asc | project Value | take 2', rows: [[null], [-3.5]] },
    { q: "States | top 2 by 1 + 1 | count", rows: [[2]] },
  ]);
});

describe("Events table", () => {
  cases([
    { q: "Events | where isnull(EndTime) | project EventId | sort by EventId asc", rows: [["E2"], ["E4"]] },
    { q: "Events | extend duration = EndTime - StartTime | where isnotnull(duration) | project EventId, duration | sort by EventId asc", rows: [["E1", "00:30:00"], ["E3", "00:10:00"], ["E5", "00:30:00"]], types: ["string", "timespan"] },
    { q: 'Events | where Severity == "Critical" | count', rows: [[2]] },
    { q: 'Events | where Severity in ("Critical", "Major") | summarize dcount(DeviceId)', rows: [[3]] },
    { q: "Events | where StartTime >= datetime(2026-01-02) | project EventId | sort by EventId asc", rows: [["E4"], ["E5"]] },
    { q: "Events | where EndTime > datetime(2026-01-01 02:00) | project EventId", rows: [["E3"], ["E5"]] },
    { q: "Events | summarize arg_max(StartTime, EventId) by Name | sort by Name asc", rows: [["HighTemperature", "2026-01-02T00:00:00.000Z", "E5"], ["HighVibration", "2026-01-01T04:00:00.000Z", "E3"], ["LowThroughput", "2026-01-02T12:00:00.000Z", "E4"]] },
    { q: "Events | summarize active = countif(isnull(EndTime)) by PlantId | sort by PlantId asc", rows: [["HOU1", 1], ["RTM1", 1]] },
    { q: 'Events | where DataMetadata.Area == "South" | project Value | sort by Value asc', rows: [[-3.5], [2]] },
    { q: "Events | top 1 by EndTime asc | project EventId", rows: [["E2"]] },
  ]);
});

describe("syntax details", () => {
  cases([
    { q: "States\n// a comment line\n| where DeviceId == 'D4' // trailing comment\n| count", rows: [[2]] },
    { q: "States|where DeviceId=='D4'|count", rows: [[2]] },
    { q: "  States  \n\t| filter DeviceId == 'D4'\n| count  ", rows: [[2]] },
    { q: "States | where (Value > 20 and DeviceId == 'D1') or Name == 'running' | count", rows: [[4]] },
    { q: "States | where Value > 20 and (DeviceId == 'D1' or Name == 'running') | count", rows: [[3]] },
    { q: "States | where Value > 1 + 2 * 3 | count", rows: [[7]] },
    { q: "States | project count = 1 | take 1", rows: [[1]], columns: ["count"] },
    { q: `${R} | project x = DataMetadata . Area`.replace(" . ", "."), rows: [["Bay 1"]] },
  ]);
});

describe("render", () => {
  it("reports render as a hint and keeps the rows", async () => {
    const compiled = compileKql("States | summarize avg(Value) by bin(Timestamp, 1h) | render timechart", { sources: { States: { sql: "SELECT 1", params: {} } } });
    expect(compiled.render).toEqual({ kind: "timechart", properties: {} });
    expect(compiled.columns.map((c) => c.name)).toEqual(["Timestamp", "avg_Value"]);
    const result = await runOnFixture('States | where DeviceId == "D4" | count | render card');
    expect(result.rows).toEqual([[2]]);
  });
  it("reads render properties", () => {
    const compiled = compileKql('Events | summarize count() by Name | render barchart with (title="Alarms", xcolumn=Name, ycolumns=(count_), legend=false)', { sources: { Events: { sql: "SELECT 1", params: {} } } });
    expect(compiled.render).toEqual({ kind: "barchart", properties: { title: "Alarms", xcolumn: "Name", ycolumns: "count_", legend: false } });
  });
});

describe("scoped sources", () => {
  it("reads only the scoped relation, whose params travel with the query", async () => {
    const sources = {
      States: {
        sql: 'SELECT * FROM "States" WHERE "Timestamp" >= $scope_start AND "Timestamp" < $scope_end AND "PlantId" IN ($scope_p0)',
        params: {
          scope_start: { type: "TIMESTAMP" as const, value: Date.parse("2026-01-01T00:00:00Z") },
          scope_end: { type: "TIMESTAMP" as const, value: Date.parse("2026-01-01T01:00:00Z") },
          scope_p0: { type: "VARCHAR" as const, value: "RTM1" },
        },
      },
    };
    expect((await runOnFixture("States | count", { sources })).rows).toEqual([[5]]);
    expect((await runOnFixture('States | where PlantId == "HOU1" or true | summarize max(Timestamp)', { sources })).rows).toEqual([["2026-01-01T00:30:00.000Z"]]);
  });
  it("passes every literal as a parameter", () => {
    const compiled = compileKql('States | where Name == "x\' OR 1=1" and Value > 41.5 | take 7', { sources: { States: { sql: 'SELECT * FROM "States"', params: {} } } });
    expect(compiled.sql).not.toContain("OR 1=1");
    expect(compiled.sql).not.toContain("41.5");
    expect(compiled.sql).not.toMatch(/LIMIT 7/);
    expect(Object.values(compiled.params).map((p) => p.value)).toEqual(["x' OR 1=1", 41.5, 7]);
  });
});

describe("errors carry line and column", () => {
  const sources = { States: { sql: 'SELECT * FROM "States"', params: {} }, Events: { sql: 'SELECT * FROM "Events"', params: {} } };
  const cases: [string, number, number, RegExp][] = [
    ["Stats | take 1", 1, 1, /Unknown table 'Stats'/],
    ["States | where Foo == 1", 1, 16, /Unknown column 'Foo'/],
    ["States | project Name, Nope", 1, 24, /Unknown column 'Nope'/],
    ["States\n| where foo(Name)", 2, 9, /Unknown function 'foo'/],
    ['States | wher Name == "x"', 1, 10, /Unknown operator 'wher'/],
    ["States | where Name ==", 1, 23, /end of query/],
    ["States | take -1", 1, 15, /non-negative whole number/],
    ["States | take 1.5", 1, 15, /non-negative whole number/],
    ["States | summarize avg(Value) by", 1, 33, /expression/],
    ['States | where Name == "abc', 1, 24, /Unterminated string/],
    ["States | where Timestamp > 5", 1, 16, /Cannot compare datetime with long/],
    ["States | project avg(Value)", 1, 18, /only be used in summarize/],
    ["States | summarize Value", 1, 20, /inside an aggregation/],
    ["", 1, 1, /empty/],
    ["States | count | render", 1, 24, /chart kind/],
    ["States | sort Name", 1, 15, /Expected 'by'/],
    ["States | extend x = Name + 1", 1, 26, /cannot combine string and long/],
    ["States | project-away Nope", 1, 23, /Unknown column 'Nope'/],
    ["States | extend x = bin(Timestamp, 0s)", 1, 36, /positive bin size/],
    ["States | take 5 | foo", 1, 19, /Unknown operator 'foo'/],
    ['States\n| where DeviceId == "D1"\n| project Missing', 3, 11, /Unknown column 'Missing'/],
    ["States | where todouble(Name, 2) > 1", 1, 16, /expects 1 argument/],
    ["States | summarize percentile(Value, 150)", 1, 38, /between 0 and 100/],
    ['States | where Name == "x" and 5', 1, 32, /needs boolean operands/],
    ["States | where Name in ()", 1, 25, /at least one value/],
    ["Events | where 1", 1, 16, /boolean/],
    ["States | where Name == 'x' | render timechart | take 1", 1, 47, /render must be the last operator/],
    ["States | summarize count() by Name, Name", 1, 37, /already in the by clause/],
    ["States | project Name, Name", 1, 24, /projected twice/],
    ["States | summarize avg(count())", 1, 24, /cannot be nested/],
    ["States | where Name == 1d2", 1, 24, /timespan unit/],
    ["States | where Timestamp > datetime(2026-02-30)", 1, 28, /Invalid datetime/],
    ["States | extend a = Name.x", 1, 21, /dynamic/],
    ["States | where Name has", 1, 24, /end of query/],
    ["States # 1", 1, 8, /Unexpected character/],
    ["States | project-rename Name = DeviceId", 1, 25, /already exists/],
    ["States | where iff(true, 1, 'a') == 1", 1, 16, /different types/],
    ["States | summarize arg_max(Timestamp)", 1, 20, /arg_max/],
    ["| take 1", 1, 1, /table name/],
    ["States | where abs('x') > 1", 1, 16, /needs a number/],
  ];
  for (const [query, line, column, message] of cases) {
    it(JSON.stringify(query), () => {
      let error: unknown;
      try {
        compileKql(query, { sources });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(KqlError);
      const kql = error as KqlError;
      expect({ line: kql.line, column: kql.column }).toEqual({ line, column });
      expect(kql.detail).toMatch(message);
      expect(kql.message).toContain(`line ${line}, column ${column}`);
    });
  }
});
