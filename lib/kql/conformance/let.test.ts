/** Conformance: let statements, functions, toscalar and sub-queries (expected rows checked against ADX's documented semantics). */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("let statements, functions, toscalar and sub-queries", () => {
  conformance([
    { q: "let x = 20; States | where Value > x | count", rows: [[5]], columns: ["Count"], types: ["long"] },
    { q: "let ['some number'] = 20;\nrange y from 0 to ['some number'] step 5", rows: [[0],[5],[10],[15],[20]], columns: ["y"], types: ["long"] },
    { q: "let x = 20;\nlet y = x + 5;\nStates | where Value > y | project DeviceId, Value", rows: [["D1",25.5],["D2",30],["D4",100]], columns: ["DeviceId","Value"], types: ["string","dynamic"] },
    { q: "let d = 1h; States | where Timestamp < datetime(2026-01-01) + d | count", rows: [[5]], columns: ["Count"], types: ["long"] },
    { q: "let since = datetime(2026-01-02); States | where Timestamp >= since | project DeviceId, Name", rows: [["D3","temperature"],["D3","running"],["D4","throughput"],["D4","Temperature"]], columns: ["DeviceId","Name"], types: ["string","string"] },
    { q: "let n = \"running\"; States | where Name == n | project DeviceId", rows: [["D3"]], columns: ["DeviceId"], types: ["string"] },
    { q: "let names = dynamic([\"running\", \"throughput\"]); States | where Name in (names) | project DeviceId, Name", rows: [["D3","running"],["D4","throughput"]], columns: ["DeviceId","Name"], types: ["string","string"] },
    { q: "let T = States | where DeviceId == \"D3\"; T | count", rows: [[2]], columns: ["Count"], types: ["long"] },
    { q: "let T = States | where DeviceId == \"D3\"; T | project Name | order by Name asc", rows: [["running"],["temperature"]], columns: ["Name"], types: ["string"] },
    { q: "let T = States | summarize c = count() by DeviceId; T | where c > 2 | order by DeviceId asc", rows: [["D1",5],["D2",3]], columns: ["DeviceId","c"], types: ["string","long"] },
    { q: "let T = States | where DeviceId == \"D4\"; let U = T | project Name; U | order by Name asc", rows: [["Temperature"],["throughput"]], columns: ["Name"], types: ["string"] },
    { q: "let f = (x: long) { x * 2 }; print y = f(21)", rows: [[42]], columns: ["y"], types: ["long"] },
    { q: "let f = (x: real, y: real) { x + y }; States | where DeviceId == \"D4\" | project s = f(todouble(Value), 1) | order by s asc", rows: [[20.25],[101]], columns: ["s"], types: ["real"] },
    { q: "let g = (n: string) { States | where Name == n }; g(\"running\") | project DeviceId", rows: [["D3"]], columns: ["DeviceId"], types: ["string"] },
    { q: "let g = (d: string, k: long = 1) { States | where DeviceId == d | take k }; g(\"D1\") | count", rows: [[1]], columns: ["Count"], types: ["long"] },
    { q: "let g = (d: string, k: long = 1) { States | where DeviceId == d | take k }; g(\"D1\", 3) | count", rows: [[3]], columns: ["Count"], types: ["long"] },
    { q: "let threshold = 20; let hot = (v: real) { v > threshold }; States | where hot(todouble(Value)) | count", rows: [[5]], columns: ["Count"], types: ["long"] },
    { q: "let x = 5; print x", rows: [[5]], columns: ["print_0"], types: ["long"] },
    { q: "let x = 5; print y = x * x, z = strcat(\"n=\", x)", rows: [[25,"n=5"]], columns: ["y","z"], types: ["long","string"] },
    { q: "let start = datetime(2026-01-01); let stop = start + 1d; States | where Timestamp between (start .. stop) | count", rows: [[9]], columns: ["Count"], types: ["long"] },
    { q: "let T = materialize(States | where DeviceId == \"D2\"); T | count", rows: [[3]], columns: ["Count"], types: ["long"] },
    { q: "let a = 1; let f = (a: long) { a * 10 }; print f(2), a", rows: [[20, 1]], columns: ["print_0","print_1"], types: ["long","long"] },
    { q: "let T = Events | project EventId, Severity; T | where Severity == \"Critical\" | order by EventId asc", rows: [["E1","Critical"],["E5","Critical"]], columns: ["EventId","Severity"], types: ["string","string"] },
    { q: "let threshold = toscalar(States | summarize max(todouble(Value))); States | where todouble(Value) == threshold | project DeviceId", rows: [["D4"]], columns: ["DeviceId"], types: ["string"] },
    { q: "let devices = States | where Name == \"temperature\" | distinct DeviceId; Events | where DeviceId in (devices) | project EventId | order by EventId asc", rows: [["E1"],["E2"],["E3"],["E5"]], columns: ["EventId"], types: ["string"] },
    { q: "States | where DeviceId in ((Events | where Severity == \"Critical\" | project DeviceId)) | summarize count() by DeviceId | order by DeviceId asc", rows: [["D1",5],["D3",2]], columns: ["DeviceId","count_"], types: ["string","long"] },
    // Tabular parameters and invoke (ADX: the input is the function's first table; the schema names columns it must have).
    { q: "let f = (T:(x:long), n:long) { T | where x > n | count };\nrange x from 1 to 10 step 1 | invoke f(7)", rows: [[3]], columns: ["Count"], types: ["long"] },
    { q: "let f = (T:(y:long)) { T | summarize n = count(), s = sum(y) };\nf((range y from 1 to 4 step 1))", rows: [[4, 10]], columns: ["n","s"], types: ["long","long"] },
    { q: "let f = (T:(*)) { T | count };\nf((range y from 1 to 4 step 1))", rows: [[4]], columns: ["Count"], types: ["long"] },
    { q: "let g = (A:(x:long), B:(x:long, z:long)) { A | join kind=inner B on x | project x, z };\ng((range x from 1 to 5 step 1), (range x from 3 to 9 step 1 | extend z = x * 10)) | order by x asc", rows: [[3,30],[4,40],[5,50]], columns: ["x","z"], types: ["long","long"] },
    { q: "let f = (T:(DeviceId:string, Value:dynamic), lo:double) { let m = toscalar(T | summarize percentiles(todouble(Value), lo)); T | where todouble(Value) <= m | count };\nStates | invoke f(50)", rows: [[6]], columns: ["Count"], types: ["long"] },
  ]);
});
