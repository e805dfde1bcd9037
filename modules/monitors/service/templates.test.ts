/** Every template the monitor editor offers passes the save-time checks: it compiles, and its key and `{Column}` names are result columns. */
import { describe, expect, it } from "vitest";
import { MONITOR_TEMPLATES } from "@/modules/monitors/components/templates";
import { checkMonitorDefinition } from "./evaluate";

describe("monitor templates", () => {
  it.each(MONITOR_TEMPLATES.map((template) => [template.id, template] as const))("%s is a valid monitor", (_id, template) => {
    expect(() =>
      checkMonitorDefinition({
        query: template.query,
        keyColumns: template.keyColumns,
        task: { taskTitle: template.taskTitle, taskDescription: template.taskDescription, activityKind: "x", priority: "x", assignedToRole: "x", dueInDays: 1 },
      }),
    ).not.toThrow();
  });
});
