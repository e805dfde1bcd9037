/**
 * The plan pages' pure parts: the workload by week against the crew's hours, the editor's form →
 * the service's body (numbers in the reader's language, refusals mapped to fields), the meter
 * preview's next due reading, and the close-out checklist's refusals in words.
 */
import { describe, expect, it } from "vitest";
import type { TPlannedJob, TTask } from "@/modules/maintenance/contract/maintenance";
import type { TChecklistItem } from "@/modules/maintenance/contract/maintenance-plans";
import { checklistAnswers, outOfRange } from "@/modules/maintenance/components/tasks/close-out-checklist";
import { daysUntil, formFieldOf, initialPlanValues, nextDueReading, toPlanInput } from "./plan-form";
import { mondayOf, workloadWeeks } from "./workload";

const job = (id: string, dueDate: string, hours: string, people: number, department = "MECH", planId: string | null = "P1"): TPlannedJob => ({
  id,
  plantId: "RTM1",
  jobTitle: id,
  dueDate,
  activityKind: "PREVENTIVE",
  department,
  estimatedTimeInHours: hours,
  requiredPersonCount: people,
  recurrence: null,
  asset: { tagNumber: "A1", serialNumber: null, externalReference: null },
  workOrder: null,
  planId,
});

const task = (id: string, dueDate: string | null, status: TTask["status"], planId: string | null): TTask => ({
  id,
  plantId: "RTM1",
  taskTitle: id,
  taskDescription: null,
  activityKind: "PREVENTIVE",
  assignedToRole: "MECH",
  priority: "P2",
  status,
  createdDate: "2026-11-01",
  dueDate,
  incidentDate: null,
  asset: { tagNumber: "A1", serialNumber: null, externalReference: null },
  planId,
});

describe("workload by week", () => {
  it("weeks start on Monday", () => {
    expect(mondayOf("2026-11-28")).toBe("2026-11-23"); // a Saturday
    expect(mondayOf("2026-11-23")).toBe("2026-11-23");
    expect(mondayOf("2026-11-29")).toBe("2026-11-23"); // a Sunday
  });

  it("sums hours × people per week and role, marks weeks over the crew's hours, counts overdue in this week, skips jobs of no plan", () => {
    const weeks = workloadWeeks(
      { jobs: [job("a", "2026-11-20", "2", 2), job("b", "2026-11-25", "1.5", 1, "ELEC"), job("c", "2026-12-01", "3", 1), job("d", "2026-11-26", "50", 1, "MECH", null), job("e", "2027-06-01", "1", 1)], tasks: [], plans: [] },
      { today: "2026-11-24", weeks: 2, crewHours: 5 },
    );
    expect(weeks.map((week) => week.start)).toEqual(["2026-11-23", "2026-11-30"]);
    expect(weeks[0]).toMatchObject({ hours: 5.5, overloaded: true, unestimated: 0, byTrade: [{ trade: "MECH", hours: 4 }, { trade: "ELEC", hours: 1.5 }] });
    expect(weeks[0]!.entries.map((entry) => entry.id)).toEqual(["a", "b"]);
    expect(weeks[1]).toMatchObject({ hours: 3, overloaded: false });
  });

  it("counts open tasks in their due week: a plan's task with the plan's estimate and in place of its occurrence, others without hours; closed ones not", () => {
    const plans = [{ id: "P1", estimatedTimeInHours: 2, requiredPersonCount: 3 }];
    const jobs = [job("P1-2026-12-01", "2026-12-01", "2", 3), job("P1-2026-12-08", "2026-12-08", "2", 3)];
    const tasks = [
      task("T1", "2026-12-01", "PENDING", "P1"), // the occurrence of 1 December, opened: counted once
      task("T2", "2026-12-02", "NEED_APPROVAL", null), // no plan, no estimate
      task("T3", "2026-11-02", "POSTPONED", "P9"), // overdue, its plan not listed: this week, no estimate
      task("T4", "2026-12-09", "CLOSED", "P1"), // done: no work left
      task("T5", null, "NOT_CLOSED", "P1"), // no due date: this week, the plan's estimate
    ];
    const weeks = workloadWeeks({ jobs, tasks, plans }, { today: "2026-11-24", weeks: 3, crewHours: 6 });
    expect(weeks[0]).toMatchObject({ hours: 6, unestimated: 1, overloaded: false });
    expect(weeks[0]!.entries.map((entry) => entry.id).sort()).toEqual(["T3", "T5"]);
    expect(weeks[1]).toMatchObject({ hours: 6, unestimated: 1, overloaded: false });
    expect(weeks[1]!.entries.map((entry) => `${entry.kind}:${entry.id}`)).toEqual(["task:T1", "task:T2"]);
    // The next occurrence has no task yet: the planned job counts, against its role.
    expect(weeks[2]).toMatchObject({ hours: 6, byTrade: [{ trade: "MECH", hours: 6 }] });
    expect(weeks[2]!.entries.map((entry) => entry.id)).toEqual(["P1-2026-12-08"]);
    // The same occurrence without its task would count as well — once.
    const without = workloadWeeks({ jobs, tasks: [], plans }, { today: "2026-11-24", weeks: 3, crewHours: 5 });
    expect(without[1]).toMatchObject({ hours: 6, overloaded: true });
  });
});

describe("the plan editor's form", () => {
  it("reads Dutch numbers and builds a meter plan's body; unreadable numbers become NaN for the server to name", () => {
    const values = { ...initialPlanValues(null, "2026-11-28", "nl"), title: "Grease", assetTagNumber: "A1", activityKind: "PREVENTIVE", assignedToRole: "MECH", priority: "P2" };
    const input = toPlanInput({ ...values, estimatedTimeInHours: "1,5", triggerKind: "METER", meterEvery: "250", startReading: "1.000", checklist: [{ key: 1, text: "Pressure", kind: "READING", unit: "bar", min: "2", max: "5,5", required: true }] }, "nl");
    expect(input.estimatedTimeInHours).toBe(1.5);
    expect(input.trigger).toMatchObject({ kind: "METER", every: 250, startReading: 1000, unit: "h" });
    expect(input.checklist).toEqual([{ text: "Pressure", kind: "READING", unit: "bar", min: 2, max: 5.5, required: true }]);
    expect(Number.isNaN(toPlanInput({ ...values, leadTimeDays: "a week" }, "nl").leadTimeDays)).toBe(true);
  });

  it("maps the server's field names to the form's", () => {
    expect(formFieldOf("trigger.every", "METER")).toBe("meterEvery");
    expect(formFieldOf("trigger.every", "CALENDAR")).toBe("every");
    expect(formFieldOf("checklist.3.text", "CALENDAR")).toBe("checklist.3");
    expect(formFieldOf("title", "CALENDAR")).toBe("title");
  });

  it("forecasts the meter's next due reading and the days to it", () => {
    expect(nextDueReading(1300, 1000, 250)).toBe(1500);
    expect(nextDueReading(900, 1000, 250)).toBe(1250);
    expect(daysUntil(1300, 1500, 50)).toBe(4);
    expect(daysUntil(1300, 1500, 0)).toBeNull();
  });
});

describe("the close-out checklist", () => {
  const items: TChecklistItem[] = [
    { itemId: "1", text: "Guards", kind: "CHECK", unit: null, min: null, max: null, required: true },
    { itemId: "2", text: "Pressure", kind: "READING", unit: "bar", min: 2, max: 5, required: true },
    { itemId: "3", text: "Look and listen", kind: "CHECK", unit: null, min: null, max: null, required: false },
  ];
  const format = { locale: "en", number: (value: number) => String(value) } as never;

  it("refuses a required item not done and a required reading missing, in words", () => {
    const { errors } = checklistAnswers(items, {}, format);
    expect(errors).toEqual({ "checklist-1": "“Guards” is required: tick it when done.", "checklist-2": "“Pressure” is required: enter the reading." });
  });

  it("answers every item, a reading counting as done; an out-of-range reading is still an answer", () => {
    const { answers, errors } = checklistAnswers(items, { "1": { done: true, reading: "", note: "" }, "2": { done: false, reading: "7.5", note: " high " } }, format);
    expect(errors).toEqual({});
    expect(answers).toEqual([
      { itemId: "1", done: true, reading: null, note: null },
      { itemId: "2", done: true, reading: 7.5, note: "high" },
      { itemId: "3", done: false, reading: null, note: null },
    ]);
    expect(outOfRange(items[1]!, 7.5)).toBe(true);
    expect(outOfRange(items[1]!, 5)).toBe(false);
  });

  it("refuses a reading that is not a number", () => {
    expect(checklistAnswers(items, { "1": { done: true, reading: "", note: "" }, "2": { done: false, reading: "high", note: "" } }, format).errors["checklist-2"]).toContain("as a number");
  });
});
