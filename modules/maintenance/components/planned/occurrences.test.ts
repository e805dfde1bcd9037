import { describe, expect, it } from "vitest";
import type { TPlannedJob } from "@/modules/maintenance/contract/maintenance";
import { matchesFilters, monthGrid, occurrences, repeatDate, shiftMonth } from "./occurrences";

const job = (id: string, dueDate: string, recurrence: TPlannedJob["recurrence"] = null, extra: Partial<TPlannedJob> = {}) =>
  ({ id, jobTitle: `Job ${id}`, dueDate, recurrence, activityKind: "PREVENTIVE", department: "Mech", asset: { tagNumber: "T-1" }, workOrder: null, ...extra }) as TPlannedJob;

describe("planned occurrences", () => {
  it("repeats by days, weeks and months, keeping the day of the month where it exists", () => {
    expect(repeatDate("2026-11-30", { every: 1, unit: "DAY" }, 2)).toBe("2026-12-02");
    expect(repeatDate("2026-11-30", { every: 2, unit: "WEEK" }, 1)).toBe("2026-12-14");
    expect(repeatDate("2026-01-31", { every: 1, unit: "MONTH" }, 1)).toBe("2026-02-28");
    expect(repeatDate("2026-01-31", { every: 1, unit: "MONTH" }, 2)).toBe("2026-03-31");
    expect(repeatDate("2026-11-15", { every: 3, unit: "MONTH" }, 1)).toBe("2027-02-15");
  });

  it("lists overdue jobs once and first, then every visit in the period, repeats from today on", () => {
    const jobs = [job("A", "2026-11-25"), job("W", "2026-11-10", { every: 1, unit: "WEEK" }), job("L", "2026-11-01"), job("F", "2027-01-10")];
    const list = occurrences(jobs, { from: "2026-11-20", to: "2026-12-05", today: "2026-11-20", includeOverdue: true });
    expect(list.map((o) => `${o.job.id}@${o.date}#${o.repeat}+${o.overdueDays}`)).toEqual([
      "L@2026-11-01#0+19",
      "W@2026-11-10#0+10",
      "W@2026-11-24#2+0",
      "A@2026-11-25#0+0",
      "W@2026-12-01#3+0",
    ]);
    // W's repeat of 17 Nov (before today) is folded into its overdue visit.
    expect(occurrences(jobs, { from: "2026-11-20", to: "2026-12-05", today: "2026-11-20", includeOverdue: false }).map((o) => o.job.id)).toEqual(["W", "A", "W"]);
  });

  it("filters by kind, department, asset and words", () => {
    const pump = job("P", "2026-12-01", null, { jobTitle: "Replace pump seal", activityKind: "CORRECTIVE", asset: { tagNumber: "RTM1-P-1", serialNumber: null, externalReference: null } });
    const none = { kind: "", dept: "", asset: "", q: "" };
    expect(matchesFilters(pump, none)).toBe(true);
    expect(matchesFilters(pump, { ...none, kind: "PREVENTIVE" })).toBe(false);
    expect(matchesFilters(pump, { ...none, asset: "RTM1-P-1", q: "seal pump" })).toBe(true);
    expect(matchesFilters(pump, { ...none, q: "valve" })).toBe(false);
  });

  it("lays out a month in weeks starting on Monday", () => {
    const weeks = monthGrid("2026-11");
    expect(weeks[0]![0]).toBe("2026-10-26"); // 1 Nov 2026 is a Sunday
    expect(weeks[0]![6]).toBe("2026-11-01");
    expect(weeks.at(-1)!.at(-1)).toBe("2026-12-06");
    expect(weeks.every((week) => week.length === 7)).toBe(true);
    expect(monthGrid("2026-11", 7)[0]![0]).toBe("2026-11-01");
    expect(shiftMonth("2026-12", 1)).toBe("2027-01");
    expect(shiftMonth("2026-01", -1)).toBe("2025-12");
  });
});
