import { describe, expect, it } from "vitest";
import { compileKql } from "@/lib/kql";
import { SCHEMA_ONLY_SOURCES } from "@/lib/kql/diagnose";
import { columnTitle } from "./column-title";

describe("columnTitle", () => {
  it("reads the names the compiler gives unnamed aggregates as words", () => {
    const compiled = compileKql("States | summarize count(), avg(todouble(Value)), dcount(DeviceId), max(Timestamp), percentile(todouble(Value), 95), countif(Name == 'x')", { sources: SCHEMA_ONLY_SOURCES });
    const names = compiled.columns.map((column) => column.name);
    expect(names.map(columnTitle)).toEqual(["Count", "Average Value", "Distinct DeviceId", "Max Timestamp", "95th percentile of Value", "Count"]);
  });

  it("leaves names people chose as they wrote them", () => {
    for (const name of ["Alarms", "Devices", "Peak", "Temperature", "Value", "DeviceId", "count", "my_count"]) expect(columnTitle(name)).toBe(name);
    expect(columnTitle("sum_Value")).toBe("Sum of Value");
    expect(columnTitle("percentile_Value_99_9")).toBe("99.9th percentile of Value");
  });
});
