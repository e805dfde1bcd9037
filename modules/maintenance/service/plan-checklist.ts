/**
 * A checklist at close-out (docs/api.md, "Maintenance plans"): the answers checked against the
 * task's items — every required item done, every required READING with a number, no unknown or
 * repeated item — and each result as the job record keeps it. A reading outside [min, max] is kept
 * as read, flagged, and opens a corrective follow-up task on the same asset, written in the
 * close-out's transaction (store/close-out.ts).
 */
import type { FieldProblem } from "@/lib/contract/errors";
import type { TTask } from "@/modules/maintenance/contract/maintenance";
import type { TChecklistAnswer, TChecklistResult } from "@/modules/maintenance/contract/maintenance-plans";
import type { NewTask } from "@/modules/maintenance/store";

interface ChecklistEntry {
  result: Omit<TChecklistResult, "followUpTaskId">;
  followUp: NewTask | null;
}

const FOLLOW_UP_KIND = "CORRECTIVE";

const figure = (value: number | null, unit: string | null) => (value === null ? "" : `${value}${unit ? ` ${unit}` : ""}`);

/**
 * The results of a close-out's checklist, or the problems that refuse it (400 naming each item).
 * `activityKinds`: the plant's values, so a follow-up is CORRECTIVE where the plant has that kind.
 */
export function checklistAtCloseOut(
  task: Pick<TTask, "checklist" | "priority" | "activityKind" | "assignedToRole" | "id">,
  answers: TChecklistAnswer[] | null | undefined,
  context: { assetId: string; today: string; activityKinds: readonly string[] },
): { entries: ChecklistEntry[] | null; problems: FieldProblem[] } {
  const items = task.checklist ?? [];
  const problems: FieldProblem[] = [];
  if (items.length === 0) {
    if (answers && answers.length > 0) problems.push({ field: "checklist", problem: "the task has no checklist" });
    return { entries: null, problems };
  }
  const byId = new Map<string, TChecklistAnswer>();
  for (const [index, answer] of (answers ?? []).entries()) {
    if (!items.some((item) => item.itemId === answer.itemId)) problems.push({ field: `checklist[${index}].itemId`, problem: `the task's checklist has no item '${answer.itemId}'` });
    else if (byId.has(answer.itemId)) problems.push({ field: `checklist[${index}].itemId`, problem: `item '${answer.itemId}' is answered twice` });
    else byId.set(answer.itemId, answer);
  }
  const entries: ChecklistEntry[] = [];
  for (const item of items) {
    const answer = byId.get(item.itemId);
    const name = `item ${item.itemId} ("${item.text.slice(0, 80)}")`;
    if (item.required && !answer?.done) problems.push({ field: `checklist.${item.itemId}`, problem: `${name} is required and not done`, itemId: item.itemId } as FieldProblem);
    const reading = answer?.reading ?? null;
    if (item.kind === "READING" && item.required && reading === null) {
      problems.push({ field: `checklist.${item.itemId}.reading`, problem: `${name} needs a number`, itemId: item.itemId } as FieldProblem);
    }
    if (item.kind === "CHECK" && reading !== null) problems.push({ field: `checklist.${item.itemId}.reading`, problem: `${name} is a check, not a reading` });
    const outOfRange = reading !== null && ((item.min !== null && reading < item.min) || (item.max !== null && reading > item.max));
    entries.push({
      result: {
        itemId: item.itemId,
        text: item.text,
        kind: item.kind,
        required: item.required,
        done: answer?.done ?? false,
        reading,
        unit: item.unit,
        min: item.min,
        max: item.max,
        note: answer?.note ?? null,
        outOfRange,
      },
      followUp: outOfRange
        ? {
            taskTitle: `Follow-up: ${item.text}`.slice(0, 200),
            taskDescription: `Read ${figure(reading, item.unit)} at the close-out of task ${task.id}, outside ${figure(item.min, item.unit) || "…"} – ${figure(item.max, item.unit) || "…"}.${answer?.note ? ` Note: ${answer.note}` : ""}`.slice(0, 4000),
            activityKind: context.activityKinds.includes(FOLLOW_UP_KIND) ? FOLLOW_UP_KIND : task.activityKind,
            assignedToRole: task.assignedToRole,
            priority: task.priority,
            createdDate: context.today,
            dueDate: null,
            incidentDate: context.today,
            assetId: context.assetId,
          }
        : null,
    });
  }
  return { entries, problems };
}
