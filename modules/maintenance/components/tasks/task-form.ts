/**
 * The create-task form's checks: the shared `ZTaskCreation` schema (what the service validates)
 * plus the date rules the service checks against "today" (`taskDateProblems`, the service's own).
 * Lookup values are offered as choices, so only the server's final word on them remains. The
 * contract module (and zod) is loaded when the form is checked, not with the page
 * (docs/architecture.md, "What the browser loads").
 */
import type { TTaskCreation } from "@/modules/maintenance/contract/maintenance";
import { loadMaintenanceContract } from "@/lib/client/lazy-contract";

export interface TaskFormValues {
  taskTitle: string;
  taskDescription: string;
  activityKind: string;
  priority: string;
  assignedToRole: string;
  assetTagNumber: string;
  createdDate: string;
  dueDate: string;
  incidentDate: string;
}

export type TaskFormErrors = Partial<Record<keyof TaskFormValues, string>>;

export function emptyTaskForm(today: string): TaskFormValues {
  return { taskTitle: "", taskDescription: "", activityKind: "", priority: "", assignedToRole: "", assetTagNumber: "", createdDate: today, dueDate: "", incidentDate: "" };
}

/** Form values → the request body (blank optional fields left out). */
export function toTaskCreation(values: TaskFormValues): TTaskCreation {
  const optional = (value: string) => (value.trim() === "" ? undefined : value.trim());
  return {
    taskTitle: values.taskTitle.trim(),
    taskDescription: optional(values.taskDescription),
    activityKind: values.activityKind,
    priority: values.priority,
    assignedToRole: optional(values.assignedToRole),
    createdDate: optional(values.createdDate),
    dueDate: optional(values.dueDate),
    incidentDate: optional(values.incidentDate),
    asset: { tagNumber: values.assetTagNumber.trim() },
  };
}

/** Where a schema path lands in the form. */
function fieldOf(path: readonly PropertyKey[]): keyof TaskFormValues | null {
  const [head] = path;
  if (head === "asset") return "assetTagNumber";
  return typeof head === "string" && head in emptyTaskForm("") ? (head as keyof TaskFormValues) : null;
}

const DATE_MESSAGES = {
  dueDate: "The due date cannot be before the created date.",
  incidentDate: "The incident cannot be after the created date.",
};

const REQUIRED_MESSAGES: Partial<Record<keyof TaskFormValues, string>> = {
  taskTitle: "Give the task a title.",
  activityKind: "Choose an activity kind.",
  priority: "Choose a priority.",
  assetTagNumber: "Choose the asset.",
};

export async function validateTaskForm(values: TaskFormValues, today: string): Promise<TaskFormErrors> {
  const { ZTaskCreation, taskDateProblems } = await loadMaintenanceContract();
  const errors: TaskFormErrors = {};
  for (const [field, message] of Object.entries(REQUIRED_MESSAGES) as Array<[keyof TaskFormValues, string]>) {
    if (values[field].trim() === "") errors[field] = message;
  }
  const parsed = ZTaskCreation.safeParse(toTaskCreation(values));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path);
      if (field && !errors[field]) errors[field] = capitalise(issue.message);
    }
  }
  for (const { field } of taskDateProblems(values, values.createdDate || today)) errors[field] ??= DATE_MESSAGES[field];
  return errors;
}

/** The service's 400 `data` items (`{ field, problem }`) mapped onto the form's fields. */
export function serverFieldErrors(data: readonly unknown[]): TaskFormErrors {
  const errors: TaskFormErrors = {};
  for (const item of data) {
    if (typeof item !== "object" || item === null) continue;
    const { field, problem } = item as { field?: unknown; problem?: unknown };
    if (typeof field !== "string" || typeof problem !== "string") continue;
    const key = fieldOf(field.split("."));
    if (key && !errors[key]) errors[key] = capitalise(problem);
  }
  return errors;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
