import { describe, expect, it } from "vitest";
import { emptyTaskForm, serverFieldErrors, toTaskCreation, validateTaskForm } from "./task-form";

const TODAY = "2026-06-15";
const valid = { ...emptyTaskForm(TODAY), taskTitle: "Replace seal", activityKind: "CORRECTIVE", priority: "P2", assetTagNumber: "RTM1-P-101" };

describe("create-task form checks", () => {
  it("accepts a complete form and leaves blank optional fields out of the body", async () => {
    expect(await validateTaskForm(valid, TODAY)).toEqual({});
    expect(toTaskCreation(valid)).toEqual({
      taskTitle: "Replace seal",
      taskDescription: undefined,
      activityKind: "CORRECTIVE",
      priority: "P2",
      assignedToRole: undefined,
      createdDate: TODAY,
      dueDate: undefined,
      incidentDate: undefined,
      asset: { tagNumber: "RTM1-P-101" },
    });
  });

  it("names every missing required field", async () => {
    expect(Object.keys(await validateTaskForm(emptyTaskForm(TODAY), TODAY)).sort()).toEqual(["activityKind", "assetTagNumber", "priority", "taskTitle"]);
  });

  it("mirrors the server's length, id and calendar checks", async () => {
    const errors = await validateTaskForm({ ...valid, taskTitle: "x".repeat(201), assetTagNumber: "bad tag!", dueDate: "2026-02-30" }, TODAY);
    expect(errors.taskTitle).toMatch(/200/);
    expect(errors.assetTagNumber).toBeDefined();
    expect(errors.dueDate).toBeDefined();
  });

  it("orders the dates around the created date, which defaults to today", async () => {
    expect((await validateTaskForm({ ...valid, createdDate: "", dueDate: "2026-06-14" }, TODAY)).dueDate).toMatch(/before/);
    expect((await validateTaskForm({ ...valid, createdDate: "2026-06-10", incidentDate: "2026-06-11" }, TODAY)).incidentDate).toMatch(/after/);
    expect(await validateTaskForm({ ...valid, createdDate: "2026-06-10", incidentDate: "2026-06-10", dueDate: "2026-06-10" }, TODAY)).toEqual({});
  });

  it("maps the server's field problems onto the form", () => {
    expect(serverFieldErrors([{ field: "priority", problem: "must be one of P1, P2" }, { field: "asset.tagNumber", problem: "unknown" }, "junk"])).toEqual({
      priority: "Must be one of P1, P2",
      assetTagNumber: "Unknown",
    });
  });
});
