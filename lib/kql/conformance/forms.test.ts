/** Conformance: the forms analysts type — several columns named by one assignment, `(a, b) = f(…)`; bracket-quoted names; time(…) literals; `where * has` and search. */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("forms", () => {
  conformance([
    // Named outputs of arg_max/arg_min: the key's column, then the picked ones (issue 20: was "Unknown column 'Tmax'").
    { q: "States | summarize (Tmax, TmaxAt) = arg_max(todouble(Value), Timestamp) by DeviceId | top 3 by Tmax desc", rows: [["D4", 100, "2026-01-02T12:00:00.000Z"], ["D2", 30, "2026-01-01T00:10:00.000Z"], ["D1", 25.5, "2026-01-01T01:15:00.250Z"]], columns: ["DeviceId", "Tmax", "TmaxAt"], types: ["string", "real", "datetime"] },
    { q: "States | summarize (m, t, n) = arg_min(todouble(Value), Timestamp, Name) by DeviceId | order by DeviceId asc", rows: [["D1", 1.2, "2026-01-01T00:00:00.000Z", "pressure"], ["D2", -3.5, "2026-01-01T03:00:00.000Z", "vibration"], ["D3", 1, "2026-01-02T00:05:00.000Z", "running"], ["D4", 19.25, "2026-01-02T12:00:00.999Z", "Temperature"]], columns: ["DeviceId", "m", "t", "n"] },
    // Bracket-quoted names (issue 20: "Expected an expression but found '['"), keywords and spaces included.
    { q: "States | where ['DeviceId'] == \"D1\" | project [\"Name\"], ['my value'] = todouble([\"Value\"]) | order by ['my value'] asc | take 2", rows: [["pressure", null], ["pressure", 1.2]], columns: ["Name", "my value"], types: ["string", "real"] },
    { q: "print ['where'] = 1 | extend b = ['where'] + 1", rows: [[1, 2]], columns: ["where", "b"] },
    // time(…)/timespan(…) literals in ADX's forms (issue 20: refused with "Expected ',' but found ':'"): clock
    // text with days and ticks, a number of days, a number and a unit word, a sign; Microsoft's example.
    {
      q: "print a = time(00:10:00), b = time(2), c = time(0.12:34:56.7), d = time(15 seconds), e = timespan(-1h), f = time(1.5h), g = time(1.00:00:00.0000001)",
      rows: [["00:10:00", "2.00:00:00", "12:34:56.7000000", "00:00:15", "-01:00:00", "01:30:00", "1.00:00:00"]],
      types: ["timespan", "timespan", "timespan", "timespan", "timespan", "timespan", "timespan"],
    },
    { q: "print result1 = 1d / 1s, result2 = time(1d) / time(1s), result3 = 24 * 60 * time(00:01:00) / time(1s)", rows: [[86400, 86400, 86400]], types: ["real", "real", "real"] },
    { q: "States | where Timestamp between (datetime(2026-01-01) .. datetime(2026-01-01) + time(00:30:00)) | count", rows: [[5]] },
    // `where * has`, and search over States/Events in ADX's forms (issue 20: both were refused). Terms as ADX
    // splits them (runs of letters and digits, case-insensitive); every row carries `$table`.
    { q: "States | where * has \"pressure\" | count", rows: [[2]] },
    { q: "States | where * has \"bay\" | summarize n = count() by DeviceId | order by DeviceId asc", rows: [["D3", 2], ["D4", 2]] },
    { q: "search \"vibration\" | project ['$table'], DeviceId, Name, EventId | order by ['$table'] asc, EventId asc", rows: [["Events", "D2", "HighVibration", "E2"], ["Events", "D2", "HighVibration", "E3"], ["States", "D2", "vibration", ""]], columns: ["$table", "DeviceId", "Name", "EventId"] },
    { q: "search in (States) \"running\" | project ['$table'], DeviceId, Name", rows: [["States", "D3", "running"]] },
    { q: "States | search \"D3\" | project ['$table'], Name | order by Name asc", rows: [["States", "running"], ["States", "temperature"]] },
    { q: "search kind=case_sensitive \"Temp*\" | project ['$table'], DeviceId, EventId | order by ['$table'] asc, EventId asc", rows: [["Events", "D1", "E1"], ["Events", "D3", "E5"], ["States", "D4", ""]] },
    { q: "search Name:\"temp*\" and Value > 20 | project ['$table'], DeviceId, v = todouble(Value) | order by v asc", rows: [["States", "D1", 20.5], ["States", "D1", 22], ["States", "D1", 25.5], ["States", "D2", 30]] },
    { q: "search * | count", rows: [[17]] },
    { q: "search \"bay*\" | count", rows: [[6]] },
    { q: "search \"*ressur*\" | count", rows: [[2]] },
    { q: "search \"High*ation\" | project EventId | order by EventId asc", rows: [["E2"], ["E3"]] },
  ]);
});
