/** Conformance: further aggregations (expected rows checked against ADX's documented semantics). */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("further aggregations", () => {
  conformance([
    { q: "States | summarize percentiles(todouble(Value), 50, 90)", rows: [[19.25,30]], columns: ["percentile_Value_50","percentile_Value_90"], types: ["real","real"] },
    { q: "States | summarize percentiles(todouble(Value), 0, 100) by PlantId | order by PlantId asc", rows: [["HOU1",1,100],["RTM1",-3.5,30]], columns: ["PlantId","percentile_Value_0","percentile_Value_100"], types: ["string","real","real"] },
    { q: "States | summarize percentiles_array(todouble(Value), 25, 75)", rows: [[[1.2,25.5]]], columns: ["percentiles_Value"], types: ["dynamic"] },
    { q: "States | summarize m = max(case(DeviceId == \"D1\", todouble(Value), DeviceId == \"D2\", real(null), 1))", rows: [[25.5]], columns: ["m"], types: ["real"] },
    { q: "States | where DeviceId == \"nobody\" | summarize percentiles_array(todouble(Value), 25, 75)", rows: [[null]], columns: ["percentiles_Value"], types: ["dynamic"] },
    { q: "States | where DeviceId == \"D1\" and Name == \"temperature\" | summarize stdev(todouble(Value)), variance(todouble(Value))", rows: [[2.5658007197234416,6.58333333333333]], columns: ["stdev_Value","variance_Value"], types: ["real","real"] },
    { q: "States | where DeviceId == \"D1\" and Name == \"temperature\" | summarize stdevp(todouble(Value)), variancep(todouble(Value))", rows: [[2.0949675149960885,4.388888888888887]], columns: ["stdevp_Value","variancep_Value"], types: ["real","real"] },
    { q: "States | summarize sumif(todouble(Value), DeviceId == \"D1\"), avgif(todouble(Value), DeviceId == \"D1\")", rows: [[69.2,17.3]], columns: ["sumif_Value","avgif_Value"], types: ["real","real"] },
    { q: "States | summarize dcountif(DeviceId, Value > 20), countif(Value > 20)", rows: [[3,5]], columns: ["dcountif_DeviceId","countif_"], types: ["long","long"] },
    { q: "States | summarize minif(todouble(Value), PlantId == \"HOU1\"), maxif(todouble(Value), PlantId == \"HOU1\")", rows: [[1,100]], columns: ["minif_Value","maxif_Value"], types: ["real","real"] },
    { q: "States | summarize s = make_set(DeviceId) | project n = array_length(s)", rows: [[4]], columns: ["n"], types: ["long"] },
    { q: "States | summarize make_set(PlantId) by DeviceId | order by DeviceId asc", rows: [["D1",["RTM1"]],["D2",["RTM1"]],["D3",["HOU1"]],["D4",["HOU1"]]], columns: ["DeviceId","set_PlantId"], types: ["string","dynamic"] },
    { q: "States | where DeviceId == \"D1\" | summarize make_set(Name, 1)", rows: [[["pressure"]]], columns: ["set_Name"], types: ["dynamic"] },
    { q: "States | where DeviceId == \"D3\" | summarize make_list(Name, 1)", rows: [[["temperature"]]], columns: ["list_Name"], types: ["dynamic"] },
    { q: "States | where DeviceId == \"D1\" | order by Timestamp asc, Name desc | summarize make_list(Name, 10)", rows: [[["temperature","pressure","temperature","temperature","pressure"]]], columns: ["list_Name"], types: ["dynamic"] },
    // A sorted input's order reaches make_list (ADX: the list tracks the order of a sorted input).
    { q: "States | where DeviceId == \"D1\" | order by todouble(Value) desc | summarize make_list(todouble(Value))", rows: [[[25.5,22,20.5,1.2]]], columns: ["list_Value"], types: ["dynamic"] },
    { q: "States | order by Timestamp desc, Name desc | summarize make_list(Name) by DeviceId | order by DeviceId asc", rows: [["D1",["pressure","temperature","temperature","temperature","pressure"]],["D2",["vibration","motor-current","temperature"]],["D3",["running","temperature"]],["D4",["Temperature","throughput"]]], columns: ["DeviceId","list_Name"], types: ["string","dynamic"] },
    { q: "States | order by Timestamp desc | summarize make_list_if(DeviceId, Value > 20)", rows: [[["D4","D1","D1","D2","D1"]]], columns: ["list_DeviceId"], types: ["dynamic"] },
    { q: "States | where PlantId == \"RTM1\" | order by Name desc, Timestamp asc | summarize make_list(DeviceId)", rows: [[["D2","D1","D2","D1","D1","D1","D1","D2"]]], columns: ["list_DeviceId"], types: ["dynamic"] },
    { q: "datatable(s: string)[\"ab\", \"abc\", \"\", \"a\", \"b\"] | order by s desc | summarize make_list(s)", rows: [[["b","abc","ab","a",""]]], columns: ["list_s"], types: ["dynamic"] },
    { q: "States | where DeviceId == \"D1\" | order by todouble(Value) asc nulls first | summarize make_list(Timestamp)", rows: [[["2026-01-01T02:00:00.000Z","2026-01-01T00:00:00.000Z","2026-01-01T00:00:00.000Z","2026-01-01T00:30:00.000Z","2026-01-01T01:15:00.250Z"]]], columns: ["list_Timestamp"], types: ["dynamic"] },
    { q: "States | top 3 by todouble(Value) desc | summarize make_list(DeviceId)", rows: [[["D4","D2","D1"]]], columns: ["list_DeviceId"], types: ["dynamic"] },
    { q: "States | order by Timestamp desc | where PlantId == \"HOU1\" | summarize make_list(Name, 3)", rows: [[["Temperature","throughput","running"]]], columns: ["list_Name"], types: ["dynamic"] },
    { q: "States | summarize make_list_if(DeviceId, Name == \"running\")", rows: [[["D3"]]], columns: ["list_DeviceId"], types: ["dynamic"] },
    { q: "States | summarize s = make_set_if(DeviceId, Value > 25) | mv-expand s to typeof(string) | order by s asc", rows: [["D1"],["D2"],["D4"]], columns: ["s"], types: ["string"] },
    { q: "States | summarize take_any(PlantId) by DeviceId | order by DeviceId asc", rows: [["D1","RTM1"],["D2","RTM1"],["D3","HOU1"],["D4","HOU1"]], columns: ["DeviceId","PlantId"], types: ["string","string"] },
    { q: "States | summarize count_distinct(Name)", rows: [[7]], columns: ["count_distinct_Name"], types: ["long"] },
    { q: "States | summarize count_distinctif(Name, DeviceId == \"D1\")", rows: [[2]], columns: ["count_distinctif_Name"], types: ["long"] },
    { q: "States | where DeviceId == \"D3\" | summarize make_bag(DataMetadata)", rows: [[{"Unit":"C","Area":"Bay 1"}]], columns: ["bag_DataMetadata"], types: ["dynamic"] },
    { q: "States | where DeviceId == \"D3\" | summarize make_bag(bag_pack(Name, todouble(Value)))", rows: [[{"temperature":18,"running":1}]], columns: ["bag_"], types: ["dynamic"] },
    { q: "States | where DeviceId == \"nobody\" | summarize make_set(Name), make_bag(DataMetadata), sumif(todouble(Value), true), count_distinct(Name)", rows: [[[],{},0,0]], columns: ["set_Name","bag_DataMetadata","sumif_Value","count_distinct_Name"], types: ["dynamic","dynamic","real","long"] },
    { q: "States | summarize (p50, p90) = percentiles(todouble(Value), 50, 90)", rows: [[19.25,30]], columns: ["p50","p90"], types: ["real","real"] },
    { q: "States | summarize anyif(Name, DeviceId == \"D3\" and Name == \"running\")", rows: [["running"]], columns: ["anyif_Name"], types: ["string"] },
    { q: "States | summarize stdevif(todouble(Value), DeviceId == \"D1\"), varianceif(todouble(Value), DeviceId == \"D1\")", rows: [[10.935873688614612,119.59333333333336]], columns: ["stdevif_Value","varianceif_Value"], types: ["real","real"] },
    { q: "States | summarize make_list(todouble(Value), 3) by PlantId | project PlantId, n = array_length(list_Value) | order by PlantId asc", rows: [["HOU1",3],["RTM1",3]], columns: ["PlantId","n"], types: ["string","long"] },
    // make_list_with_nulls and make_bag_if: the pages' printed outputs, then a sorted input, a string column, no rows.
    {
      q: 'datatable(name:string, sideCount:int) ["triangle", int(null), "square", 4, "rectangle", 4, "pentagon", 5, "hexagon", 6, "heptagon", 7, "octagon", 8, "nonagon", 9, "decagon", 10] | summarize mylist = make_list_with_nulls(sideCount)',
      rows: [[[null, 4, 4, 5, 6, 7, 8, 9, 10]]],
    },
    { q: 'datatable(x:long, s:string) [3, "c", 1, "", 2, "b"] | extend y = iff(x == 2, long(null), x) | order by x asc | summarize l = make_list_with_nulls(y), t = make_list_with_nulls(s)', rows: [[[1, null, 3], ["", "b", "c"]]] },
    { q: 'datatable(prop:string, value:string, predicate:bool) ["prop01", "val_a", true, "prop02", "val_b", false, "prop03", "val_c", true] | extend p = bag_pack(prop, value) | summarize dict = make_bag_if(p, predicate)', rows: [[{ prop01: "val_a", prop03: "val_c" }]] },
    { q: "States | where DeviceId == \"nobody\" | summarize make_list_with_nulls(Value), make_bag_if(DataMetadata, true)", rows: [[[], {}]], columns: ["list_Value", "bag_DataMetadata"], types: ["dynamic", "dynamic"] },
  ]);
});
