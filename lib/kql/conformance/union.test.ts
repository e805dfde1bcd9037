/** Conformance: union (leading, piped, withsource, kind) (expected rows checked against ADX's documented semantics). */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("union (leading, piped, withsource, kind)", () => {
  conformance([
    { q: "union States, Events | count", rows: [[17]], columns: ["Count"], types: ["long"] },
    { q: "union withsource=Source States, Events | summarize n = count() by Source | order by Source asc", rows: [["Events",5],["States",12]], columns: ["Source","n"], types: ["string","long"] },
    { q: "States | union Events | count", rows: [[17]], columns: ["Count"], types: ["long"] },
    { q: "States | where DeviceId == \"D4\" | union (Events | where DeviceId == \"D4\") | project DeviceId, Name | order by Name asc", rows: [["D4","LowThroughput"],["D4","Temperature"],["D4","throughput"]], columns: ["DeviceId","Name"], types: ["string","string"] },
    { q: "union kind=inner States, Events | getschema | project ColumnName", rows: [["DeviceId"],["Name"],["Value"],["PlantId"],["DataMetadata"],["MessageMetadata"]], columns: ["ColumnName"], types: ["string"] },
    { q: "union withsource=T (States | take 1), (Events | take 1) | project T", rows: [["States"],["Events"]], columns: ["T"], types: ["string"] },
    { q: "let S = States | where DeviceId == \"D3\"; union withsource=T S, Events | summarize count() by T | order by T asc", rows: [["Events",5],["S",2]], columns: ["T","count_"], types: ["string","long"] },
    { q: "union (print a = 1), (print a = 2) | order by a asc", rows: [[1],[2]], columns: ["a"], types: ["long"] },
    { q: "union (print a = 1), (print b = \"x\") | project a, b | order by a asc", rows: [[null,"x"],[1,""]], columns: ["a","b"], types: ["long","string"] },
    { q: "union (print a = 1), (print a = \"x\") | getschema | project ColumnName, ColumnType", rows: [["a_long","long"],["a_string","string"]], columns: ["ColumnName","ColumnType"], types: ["string","string"] },
    { q: "union States, Events | summarize dcount(DeviceId)", rows: [[4]], columns: ["dcount_DeviceId"], types: ["long"] },
    { q: "union States, Events | where isnotempty(EventId) | count", rows: [[5]], columns: ["Count"], types: ["long"] },
    { q: "union States, Events | where isempty(EventId) | count", rows: [[12]], columns: ["Count"], types: ["long"] },
    { q: "union withsource=S States, Events | where S == \"Events\" and Severity == \"Major\" | project EventId", rows: [["E2"]], columns: ["EventId"], types: ["string"] },
    { q: "Events | union Events | summarize count() by EventId | where count_ != 2 | count", rows: [[0]], columns: ["Count"], types: ["long"] },
    { q: "union (States | summarize v = max(todouble(Value))), (Events | summarize v = max(todouble(Value))) | order by v asc", rows: [[100],[100]], columns: ["v"], types: ["real"] },
    { q: "union States, Events | project DeviceId, Name | where DeviceId == \"D3\" | order by Name asc", rows: [["D3","HighTemperature"],["D3","running"],["D3","temperature"]], columns: ["DeviceId","Name"], types: ["string","string"] },
    { q: "union kind=outer (print x = 1), (print y = 2) | getschema | project ColumnName", rows: [["x"],["y"]], columns: ["ColumnName"], types: ["string"] },
    // isfuzzy=true: a table or view that does not exist is left out (ADX's docs: union isfuzzy=true with a missing view).
    { q: "let V1 = view () { print x = 1 };\nunion isfuzzy=true (V1 | where x > 0), (V3 | where x > 0), Alarms, (States | where DeviceId == \"D3\" | project x = 2) | summarize n = count(), s = sum(x)", rows: [[3, 5]], columns: ["n","s"], types: ["long","long"] },
  ]);
});
