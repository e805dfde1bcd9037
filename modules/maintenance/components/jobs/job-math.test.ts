import { describe, expect, it } from "vitest";
import type { TJobDone } from "@/modules/maintenance/contract/maintenance";
import { hoursByMonth, jobHours } from "./job-math";

const job = (doneDate: string, activityKind: string, hours: string) => ({ doneDate, activityKind, totalTimeUsedInHours: hours }) as TJobDone;

describe("job figures", () => {
  it("reads decimal-string hours and treats garbage as zero", () => {
    expect(jobHours({ totalTimeUsedInHours: "2.5" })).toBe(2.5);
    expect(jobHours({ totalTimeUsedInHours: "x" })).toBe(0);
  });

  it("sums hours per month and kind, filling months without jobs", () => {
    const { months, kinds } = hoursByMonth([
      job("2026-01-03", "PM", "1.5"),
      job("2026-01-20", "CM", "2"),
      job("2026-01-21", "PM", "0.25"),
      job("2026-03-01", "CM", "4"),
    ]);
    expect(kinds).toEqual(["CM", "PM"]);
    expect(months).toEqual([
      { month: "2026-01", total: 3.8, CM: 2, PM: 1.8 },
      { month: "2026-02", total: 0, CM: 0, PM: 0 },
      { month: "2026-03", total: 4, CM: 4, PM: 0 },
    ]);
  });

  it("crosses a year boundary", () => {
    const { months } = hoursByMonth([job("2025-12-31", "PM", "1"), job("2026-01-01", "PM", "1")]);
    expect(months.map((row) => row.month)).toEqual(["2025-12", "2026-01"]);
  });
});
