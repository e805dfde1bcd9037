/** Conformance: functions whose ADX meaning rests on ADX's storage and context (functions/adx-context.ts, docs/api.md). */
import { describe, expect, it } from "vitest";
import { conformance, ENGINES, runOn } from "../../service/telemetry/testing/kql-conformance";

describe("ADX's storage and context", () => {
  conformance([
    // No ingestion time: ingestion_time() is null, a cursor comparison too (no row passes a where on it).
    { q: 'States | where DeviceId == "D3" | project t = ingestion_time(), a = cursor_after(""), b = cursor_before_or_at(cursor_current()) | take 1', rows: [[null, null, null]], types: ["datetime", "bool", "bool"] },
    { q: "States | where cursor_after('638000000000000000') | count", rows: [[0]] },
    // The query's now() (the harness's 2026-01-02T12:00:00Z) in 100-ns ticks since 0001-01-01.
    { q: "print c = cursor_current(), d = current_database()", rows: [["639029520000000000", ""]] },
    { q: 'States | where DeviceId == "D3" | project e = extent_id(), t = extent_tags() | take 1', rows: [["", []]] },
    // column_ifexists: the column when the row has it (its type), else the default.
    { q: 'States | where DeviceId == "D3" and Name == "running" | project a = column_ifexists("PlantId", "none"), b = column_ifexists("Nope", 5), c = column_ifexists("Nope", DeviceId)', rows: [["HOU1", 5, "D3"]], types: ["string", "long", "string"] },
    // extract_json/extractjson: a JSONPath of names and indexes over JSON text (the page's example first).
    { q: `print extract_json("$.name", '{"name": "John", "age": 30, "city": "New York"}', typeof(string))`, rows: [["John"]], types: ["string"] },
    {
      q: `print a = extractjson("$.hosts[1].port", '{"hosts": [{"port": 80}, {"port": 443}]}', typeof(long)), b = extract_json("$['k']", '{"k": [1, 2]}'), c = extract_json("$.missing", '{"k": 1}'), d = extract_json("$.k", '{"k": {"x": true}}', typeof(dynamic))`,
      rows: [[443, "[1,2]", "", { x: true }]],
      types: ["long", "string", "string", "dynamic"],
    },
    // bag_pack_columns: the page's example.
    {
      q: 'datatable(Id: string, Value: string, Other: long) ["A", "val_a", 1, "B", "val_b", 2] | extend Packed = bag_pack_columns(Id, Value)',
      rows: [["A", "val_a", 1, { Id: "A", Value: "val_a" }], ["B", "val_b", 2, { Id: "B", Value: "val_b" }]],
    },
    // A string's UTF-8 bytes, a number's or an instant's width, 0 for a null.
    {
      q: 'datatable(s:string, l:long, r:real, t:datetime, span:timespan, b:bool, i:int, d:dynamic) ["héllo", 1, 2.5, datetime(2026-01-01), 1h, true, 3, dynamic({"a": 1}), "", long(null), real(null), datetime(null), timespan(null), bool(null), int(null), dynamic(null)] | project e = estimate_data_size(s), n = estimate_data_size(l, r, t, span, b, i), d = estimate_data_size(d)',
      rows: [[6, 37, 7], [0, 0, 0]],
    },
  ]);

  for (const engine of ENGINES) {
    it(`${engine}: current_database() is the caller's database`, async () => {
      const out = await runOn(engine, "print d = current_database()", { database: "customer-7" });
      expect(out.rows).toEqual([["customer-7"]]);
    });
  }
});
