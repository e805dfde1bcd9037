/**
 * Conformance: the statements before the query — `declare query_parameters(…)` bound from the
 * request (query-parameters.ts) and `set` options (compile.ts) — on the examples of ADX's "Query
 * parameters declaration statement" and "Set statement" pages, on the fixture's rows.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("declare query_parameters", () => {
  conformance([
    // The page's example: a default when the request sends none, the request's value otherwise.
    { q: "declare query_parameters(maxValue:long = 20);\nStates | where Value > maxValue | count", rows: [[5]], columns: ["Count"], types: ["long"] },
    { q: "declare query_parameters(maxValue:long = 20);\nStates | where Value > maxValue | count", parameters: { maxValue: "30" }, rows: [[1]] },
    { q: "declare query_parameters(n:string);\nStates | where Name == n | project DeviceId", parameters: { n: "running" }, rows: [["D3"]], columns: ["DeviceId"], types: ["string"] },
    // A string parameter is the text as sent: quotes and pipes are characters, not query.
    { q: "declare query_parameters(n:string);\nprint n", parameters: { n: "\"x\" | take 0" }, rows: [["\"x\" | take 0"]], types: ["string"] },
    { q: "declare query_parameters(since:datetime);\nStates | where Timestamp >= since | count", parameters: { since: "datetime(2026-01-02)" }, rows: [[4]] },
    { q: "declare query_parameters(since:datetime);\nStates | where Timestamp >= since | count", parameters: { since: "2026-1-2" }, rows: [[4]] },
    { q: "declare query_parameters(birthday:datetime, courses:dynamic);\nprint age = datetime(1970-05-12) - birthday, n = array_length(courses)", parameters: { birthday: "datetime(1970-05-11)", courses: "dynamic(['Java', 'C++'])" }, rows: [["1.00:00:00", 2]], types: ["timespan", "long"] },
    { q: "declare query_parameters(w:timespan = 1h, r:real, b:bool);\nprint w * 2, r / 2, not(b)", parameters: { r: "5", b: "true" }, rows: [["02:00:00", 2.5, false]], types: ["timespan", "real", "bool"] },
    { q: "declare query_parameters(n:long, s:string);\nprint isnull(n), isempty(s)", rows: [[true, true]] },
    { q: "declare query_parameters(k:long = 2);\nlet f = (x:long) { x * k };\nprint f(21)", parameters: { k: "-1" }, rows: [[-21]] },
  ]);
});

describe("set statements", () => {
  conformance([
    { q: "set query_now = datetime(2020-01-01);\nprint now(), ago(1d)", rows: [["2020-01-01T00:00:00.000Z", "2019-12-31T00:00:00.000Z"]], types: ["datetime", "datetime"] },
    { q: "set notruncation;\nset maxmemoryconsumptionperiterator = 68719476736;\nset query_results_cache_max_age = time(5m);\nStates | where DeviceId == \"D3\" | count", rows: [[2]] },
  ]);
});

describe("literals: hex, short datetimes, timespans and datetimes inside dynamic", () => {
  conformance([
    { q: "print a = 0xFF, b = 0xfe + 1, c = -0x10, d = 0xFFFFFFFF", rows: [[255, 255, -16, 4294967295]], types: ["long", "long", "long", "long"] },
    { q: "print d = dynamic({\"a\": 1d, \"b\": [time(1.5h), timespan(-30m), 100ms]})", rows: [[{ a: "1.00:00:00", b: ["01:30:00", "-00:30:00", "00:00:00.1000000"] }]], types: ["dynamic"] },
    { q: "print d = dynamic([datetime(2020-01-01), datetime(1970-5-12)])", rows: [[["2020-01-01T00:00:00.000Z", "1970-05-12T00:00:00.000Z"]]], types: ["dynamic"] },
    { q: "print datetime(1970-5-12), datetime(2024-1-2 3:04)", rows: [["1970-05-12T00:00:00.000Z", "2024-01-02T03:04:00.000Z"]], types: ["datetime", "datetime"] },
  ]);
});

describe("views, let inside function bodies, database()", () => {
  conformance([
    { q: "let V = view () { States | where DeviceId == \"D3\" };\nV | count", rows: [[2]], columns: ["Count"] },
    { q: "let V = view () { let k = \"D2\"; States | where DeviceId == k };\nV | count", rows: [[3]] },
    { q: "let f = (x:long) { let y = x * 2; y + 1 };\nprint f(20)", rows: [[41]] },
    { q: "let g = (d:string) { let T = States | where DeviceId == d; T | count };\ng(\"D1\")", rows: [[5]] },
    { q: "let g = (n:long) { range i from 1 to n step 1 };\ng(4) | count", rows: [[4]] },
    { q: "database(\"anything\").States | where DeviceId == \"D3\" | count", rows: [[2]] },
    { q: "cluster(\"https://help.kusto.windows.net\").database(\"db\").Events | count", rows: [[5]] },
  ]);
});

describe("hints that only tune ADX, and evaluate preview", () => {
  conformance([
    { q: "States | join hint.strategy=broadcast (Events | project DeviceId, EventId) on DeviceId | count", rows: [[5]] },
    { q: "States | join kind=inner hint.remote=left hint.shufflekey=DeviceId (Events | project DeviceId, EventId) on DeviceId | count", rows: [[15]] },
    { q: "States | summarize hint.shufflekey=DeviceId c = count() by DeviceId | order by DeviceId asc", rows: [["D1", 5], ["D2", 3], ["D3", 2], ["D4", 2]] },
    { q: "States | distinct hint.strategy=shuffle DeviceId | count", rows: [[4]] },
    { q: "States | as hint.materialized=true T | where DeviceId == \"D3\" | count", rows: [[2]] },
    { q: "States | sort by Timestamp asc | evaluate preview(3) | count", rows: [[3]] },
  ]);
});

describe("pattern statements and column_names_of", () => {
  conformance([
    // ADX's "Pattern statement" page: an invocation stands for the query of the entry its constants (and path) match.
    { q: "declare pattern country = (name:string)[state:string]\n{\n  (\"USA\").[\"New York\"] = { print Capital = \"Albany\" };\n  (\"Canada\").[\"Alberta\"] = { print Capital = \"Edmonton\" };\n};\ncountry(\"Canada\").Alberta", rows: [["Edmonton"]], columns: ["Capital"], types: ["string"] },
    { q: "declare pattern country = (name:string)[state:string]\n{\n  (\"USA\").[\"New York\"] = { print Capital = \"Albany\" };\n  (\"USA\").[\"Washington\"] = { print Capital = \"Olympia\" };\n};\ncountry(\"USA\").[\"New York\"]", rows: [["Albany"]] },
    { q: "declare pattern p = (n:string)\n{\n  (\"a\") = { States | where DeviceId == \"D3\" };\n  (\"b\") = { States | where DeviceId == \"D2\" };\n};\np(\"b\") | count", rows: [[3]] },
    { q: "let T = datatable(A:string, B:int) [];\nprint Columns = column_names_of(T)", rows: [[["A", "B"]]], columns: ["Columns"], types: ["dynamic"] },
    { q: "let f = (S:(DeviceId:string)) { S | project-by-names column_names_of(S) };\nStates | take 1 | project DeviceId, Name | invoke f() | getschema | project ColumnName", rows: [["DeviceId"], ["Name"]] },
  ]);
});
