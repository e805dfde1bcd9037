/** Conformance: the forms analysts type — several columns named by one assignment, `(a, b) = f(…)`; bracket-quoted names. */
import { describe } from "vitest";
import { conformance } from "./harness";

describe("forms", () => {
  conformance([
    // Named outputs of arg_max/arg_min: the key's column, then the picked ones (issue 20: was "Unknown column 'Tmax'").
    { q: "States | summarize (Tmax, TmaxAt) = arg_max(todouble(Value), Timestamp) by DeviceId | top 3 by Tmax desc", rows: [["D4", 100, "2026-01-02T12:00:00.000Z"], ["D2", 30, "2026-01-01T00:10:00.000Z"], ["D1", 25.5, "2026-01-01T01:15:00.250Z"]], columns: ["DeviceId", "Tmax", "TmaxAt"], types: ["string", "real", "datetime"] },
    { q: "States | summarize (m, t, n) = arg_min(todouble(Value), Timestamp, Name) by DeviceId | order by DeviceId asc", rows: [["D1", 1.2, "2026-01-01T00:00:00.000Z", "pressure"], ["D2", -3.5, "2026-01-01T03:00:00.000Z", "vibration"], ["D3", 1, "2026-01-02T00:05:00.000Z", "running"], ["D4", 19.25, "2026-01-02T12:00:00.999Z", "Temperature"]], columns: ["DeviceId", "m", "t", "n"] },
    // Bracket-quoted names (issue 20: "Expected an expression but found '['"), keywords and spaces included.
    { q: "States | where ['DeviceId'] == \"D1\" | project [\"Name\"], ['my value'] = todouble([\"Value\"]) | order by ['my value'] asc | take 2", rows: [["pressure", null], ["pressure", 1.2]], columns: ["Name", "my value"], types: ["string", "real"] },
    { q: "print ['where'] = 1 | extend b = ['where'] + 1", rows: [[1, 2]], columns: ["where", "b"] },
  ]);
});
