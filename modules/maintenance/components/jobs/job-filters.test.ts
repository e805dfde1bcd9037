import { describe, expect, it } from "vitest";
import type { TJobDone } from "@/modules/maintenance/contract/maintenance";
import { needsLocalProcessing, parseJobFilters, periodProblem, processLocally, serviceQuery } from "./job-filters";

const job = (id: string, doneDate: string, activityKind: string, department: string, hours: string) =>
  ({ id, doneDate, activityKind, department, totalTimeUsedInHours: hours, jobTitle: id, asset: { tagNumber: "T" } }) as TJobDone;

describe("job history filters", () => {
  it("defaults to the last 180 days, page 1 of 50, service order", () => {
    const filters = parseJobFilters(new URLSearchParams(""), "2026-06-30");
    expect(filters).toMatchObject({ from: "2026-01-02", to: "2026-06-30", page: 1, pageSize: 50, sorting: [] });
    expect(needsLocalProcessing(filters)).toBe(false);
    expect(serviceQuery(filters)).toEqual({ startDate: "2026-01-02", endDate: "2026-06-30", assetTagNumber: undefined, includeComponents: undefined });
  });

  it("ignores malformed values instead of failing", () => {
    const filters = parseJobFilters(new URLSearchParams("from=2026-02-30&page=-3&size=7"), "2026-06-30");
    expect(filters.from).toBe("2026-01-02");
    expect(filters.page).toBe(1);
    expect(filters.pageSize).toBe(50);
  });

  it("filters by kind and department and sorts stably, keeping the service order on ties", () => {
    const rows = [job("a", "2026-03-03", "PM", "Mech", "2"), job("b", "2026-03-02", "CM", "Mech", "1"), job("c", "2026-03-01", "PM", "Elec", "2")];
    const byHours = parseJobFilters(new URLSearchParams("sort=hours.asc"), "2026-06-30");
    expect(needsLocalProcessing(byHours)).toBe(true);
    expect(processLocally(rows, byHours).map((row) => row.id)).toEqual(["b", "a", "c"]);
    const pm = parseJobFilters(new URLSearchParams("kind=PM&dept=Mech"), "2026-06-30");
    expect(processLocally(rows, pm).map((row) => row.id)).toEqual(["a"]);
    const serviceOrder = parseJobFilters(new URLSearchParams("sort=doneDate.desc"), "2026-06-30");
    expect(needsLocalProcessing(serviceOrder)).toBe(false);
  });

  it("filters by failure, cause and remedy code: one code, or any job that has one", () => {
    const coded = (id: string, failureCode: string | null, causeCode: string | null, remedyCode: string | null) => ({ ...job(id, "2026-03-01", "CM", "Mech", "1"), failureCode, causeCode, remedyCode }) as TJobDone;
    const rows = [coded("a", "LEAK", "WEAR", "REPLACE"), coded("b", "LEAK", "MISUSE", "ADJUST"), coded("c", "NOISE", "WEAR", "ADJUST"), coded("d", null, null, null)];
    const ids = (query: string) => {
      const filters = parseJobFilters(new URLSearchParams(query), "2026-06-30");
      expect(needsLocalProcessing(filters)).toBe(true);
      return processLocally(rows, filters).map((row) => row.id);
    };
    expect(ids("failure=LEAK")).toEqual(["a", "b"]);
    expect(ids("cause=WEAR")).toEqual(["a", "c"]);
    expect(ids("remedy=ADJUST")).toEqual(["b", "c"]);
    expect(ids("failure=LEAK&remedy=ADJUST")).toEqual(["b"]);
    expect(ids("cause=any")).toEqual(["a", "b", "c"]);
  });

  it("names what is wrong with the period: a date that is not one, or a period that runs backwards", () => {
    const check = (query: string) => {
      const params = new URLSearchParams(query);
      return periodProblem(params, parseJobFilters(params, "2026-06-30"), (iso) => iso);
    };
    expect(check("")).toBeNull();
    expect(check("from=2026-01-01&to=2026-02-01")).toBeNull();
    expect(check("from=2026-02-30")).toBe("“2026-02-30” is not a date: choose the start date again.");
    expect(check("from=2026-01-01&to=soon")).toBe("“soon” is not a date: choose the end date again.");
    expect(check("from=2026-03-02&to=2026-03-01")).toMatch(/^The start date \(2026-03-02\) is after the end date \(2026-03-01\)/);
  });
});
