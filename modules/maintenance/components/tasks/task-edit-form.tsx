"use client";
/**
 * Editing a task in its drawer: title, description, activity kind, priority, role and the two dates
 * (the assignee has its own control beside it), through PATCH tasks/{id} with the version the form
 * was opened on (`ifUpdatedAt`). If someone changed the task meanwhile the service refuses (412
 * TASK_CHANGED, nothing saved); the form then says which fields changed, keeps what was typed (the
 * fields not touched take the new values), and the next save is made on the current version. What is typed is kept as a draft across an expired
 * session (lib/client/drafts.ts).
 */
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { DraftNotice } from "@/components/ui/draft-notice";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { apiGet, ApiError, errorMessage } from "@/lib/client/api";
import { readDraft, useFormDraft } from "@/lib/client/drafts";
import { loadMaintenanceContract, preloadMaintenanceContract } from "@/lib/client/lazy-contract";
import { operationApiPath } from "@/lib/contract/api";
import type { LookupLabels } from "@/modules/maintenance/client/maintenance";
import type { TLookupKind, TTask, TTaskUpdate } from "@/modules/maintenance/contract/maintenance";
import { STATUS_LABELS } from "./status";
import { serverFieldErrors } from "./task-form";
import { useUpdateTask } from "./task-mutations";
import { personName } from "./task-work";

const EDITABLE = ["taskTitle", "taskDescription", "activityKind", "priority", "assignedToRole", "dueDate", "incidentDate"] as const;
type Editable = (typeof EDITABLE)[number];
type EditValues = Record<Editable, string>;

/** The fields as people name them, in what-changed sentences. */
const FIELD_NAMES: Record<Editable | "status" | "assignee", string> = {
  taskTitle: "title",
  taskDescription: "description",
  activityKind: "activity kind",
  priority: "priority",
  assignedToRole: "role",
  dueDate: "due date",
  incidentDate: "incident date",
  status: "status",
  assignee: "assignee",
};

interface EditDraft {
  values: EditValues;
  /** The task as the form was opened on (or last refreshed to): what the edit changes. */
  base: EditValues & { status: string; assignee: string };
  baseVersion: string | null;
}

function valuesOf(task: TTask): EditDraft["base"] {
  return {
    taskTitle: task.taskTitle,
    taskDescription: task.taskDescription ?? "",
    activityKind: task.activityKind,
    priority: task.priority,
    assignedToRole: task.assignedToRole ?? "",
    dueDate: task.dueDate ?? "",
    incidentDate: task.incidentDate ?? "",
    status: STATUS_LABELS[task.status],
    assignee: personName(task.assignee),
  };
}

/** The fields whose value differs between two readings. */
function changedFields<K extends string>(before: Record<K, string>, after: Record<K, string>, fields: readonly K[]): K[] {
  return fields.filter((field) => before[field].trim() !== after[field].trim());
}

/** The PATCH body of an edit: only what changed, blanks as null, on the version it was made on. */
function editBody(draft: EditDraft): TTaskUpdate {
  const body: Record<string, unknown> = {};
  for (const field of changedFields(draft.base, draft.values, EDITABLE)) {
    const value = draft.values[field].trim();
    body[field] = value === "" ? null : value;
  }
  if (draft.baseVersion) body.ifUpdatedAt = draft.baseVersion;
  return body as TTaskUpdate;
}

const draftKey = (plantId: string, taskId: string) => `plantdesk:task-edit:${plantId}:${taskId}`;

/** "Edit task", and the form once opened (straight away when a draft of it is waiting). */
export function TaskEditor({ plantId, task, labels, onDone }: { plantId: string; task: TTask; labels: LookupLabels; onDone: (text: string, ok: boolean) => void }) {
  const [open, setOpen] = useState(() => readDraft(draftKey(plantId, task.id)) !== null);
  if (!open) {
    return (
      <Button size="sm" onClick={() => setOpen(true)} data-testid="task-edit-open">
        Edit task
      </Button>
    );
  }
  return <TaskEditForm plantId={plantId} task={task} labels={labels} onClose={() => setOpen(false)} onDone={onDone} />;
}

function TaskEditForm({ plantId, task, labels, onClose, onDone }: { plantId: string; task: TTask; labels: LookupLabels; onClose: () => void; onDone: (text: string, ok: boolean) => void }) {
  const key = draftKey(plantId, task.id);
  const draft = useFormDraft<EditDraft>(
    key,
    () => ({ values: valuesOf(task), base: valuesOf(task), baseVersion: task.updatedAt ?? null }),
    (current) => changedFields(current.base, current.values, EDITABLE).length > 0,
  );
  const { values } = draft.values;
  const update = useUpdateTask(plantId);
  const [errors, setErrors] = useState<Partial<Record<Editable, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(preloadMaintenanceContract, []);

  const set = (field: Editable) => (value: string) => {
    draft.setValues((current) => ({ ...current, values: { ...current.values, [field]: value } }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const options = (kind: TLookupKind) => labels.values(kind).map((entry) => ({ value: entry.value, label: entry.label }));

  function close() {
    draft.sent();
    onClose();
  }

  async function save(event?: FormEvent) {
    event?.preventDefault();
    draft.dismissRestored();
    setFormError(null);
    const body = editBody(draft.values);
    const changed = changedFields(draft.values.base, draft.values.values, EDITABLE);
    if (changed.length === 0) {
      setFormError("Nothing is changed yet: change a field, or close the form.");
      return;
    }
    const found: Partial<Record<Editable, string>> = {};
    for (const field of ["taskTitle", "activityKind", "priority"] as const) if (values[field].trim() === "") found[field] = `The ${FIELD_NAMES[field]} cannot be empty.`;
    const { ZTaskUpdate } = await loadMaintenanceContract();
    const parsed = ZTaskUpdate.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (typeof field === "string" && (EDITABLE as readonly string[]).includes(field)) found[field as Editable] ??= `The ${FIELD_NAMES[field as Editable]} ${issue.message}.`;
      }
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      draft.sending();
      await update.mutateAsync({ taskId: task.id, update: body });
      draft.sent();
      onDone(`${task.id} saved: ${changed.map((field) => FIELD_NAMES[field]).join(", ")} changed.`, true);
      onClose();
    } catch (error) {
      draft.failed(error);
      if (error instanceof ApiError && error.code === "TASK_CHANGED") {
        await refreshAfterConflict();
        return;
      }
      if (error instanceof ApiError && error.status === 400) {
        const mapped = serverFieldErrors(error.data) as Partial<Record<Editable, string>>;
        setErrors(Object.fromEntries(Object.entries(mapped).filter(([field]) => (EDITABLE as readonly string[]).includes(field))));
      }
      setFormError(error instanceof ApiError && error.code === "TASK_CLOSED" ? `${task.id} was closed meanwhile: a closed task cannot be edited.` : `Not saved: ${errorMessage(error)}`);
    }
  }

  /** Someone changed the task first: say what, and make the next save on the current version. */
  async function refreshAfterConflict() {
    try {
      const now = await apiGet<TTask>(operationApiPath("getTask", { plantId, taskId: task.id }));
      const fresh = valuesOf(now);
      const changedByOthers = changedFields(draft.values.base, fresh, [...EDITABLE, "status", "assignee"] as const);
      const what = changedByOthers.length > 0 ? changedByOthers.map((field) => FIELD_NAMES[field]).join(", ") : "nothing you can see here";
      setFormError(
        `Someone changed ${task.id} while you were editing it (${what}), so your edit was not saved. The drawer shows the task as it is now; your changes are still in the form: check them and save again.`,
      );
      // What this person did not touch takes the other person's value; what they changed stays theirs.
      draft.setValues((current) => ({
        values: Object.fromEntries(EDITABLE.map((field) => [field, current.values[field].trim() === current.base[field].trim() ? fresh[field] : current.values[field]])) as EditValues,
        base: fresh,
        baseVersion: now.updatedAt ?? null,
      }));
    } catch (error) {
      setFormError(`Someone changed ${task.id} while you were editing it, so your edit was not saved; reading it again failed too: ${errorMessage(error)}`);
    }
  }

  return (
    <form noValidate onSubmit={(event) => void save(event)} className="space-y-3 rounded-lg border border-line p-3" aria-labelledby="task-edit-title" data-testid="task-edit">
      <h3 id="task-edit-title" className="text-sm font-semibold">
        Edit task
      </h3>
      {draft.restored ? (
        <DraftNotice
          what="edit"
          sending={draft.restored.sending}
          resendNote="if it was saved meanwhile, you are told so and nothing is saved twice"
          onSend={() => void save()}
          onDiscard={draft.discard}
        />
      ) : null}
      {formError ? (
        <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger" data-testid="task-edit-error">
          {formError}
        </p>
      ) : null}
      <Field label="Title" error={errors.taskTitle}>
        {(control) => <Input {...control} required maxLength={200} value={values.taskTitle} onChange={(event) => set("taskTitle")(event.target.value)} />}
      </Field>
      <Field label="Description" error={errors.taskDescription}>
        {(control) => <Textarea {...control} className="min-h-16" maxLength={4000} value={values.taskDescription} onChange={(event) => set("taskDescription")(event.target.value)} />}
      </Field>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field label="Activity kind" error={errors.activityKind}>
          {(control) => <Select {...control} value={values.activityKind} onChange={(event) => set("activityKind")(event.target.value)} options={options("activityKind")} />}
        </Field>
        <Field label="Priority" error={errors.priority}>
          {(control) => <Select {...control} value={values.priority} onChange={(event) => set("priority")(event.target.value)} options={options("priority")} />}
        </Field>
        <Field label="Assigned to role" error={errors.assignedToRole}>
          {(control) => <Select {...control} value={values.assignedToRole} onChange={(event) => set("assignedToRole")(event.target.value)} options={options("assignedToRole")} placeholder="Nobody yet" />}
        </Field>
        <Field label="Due date" error={errors.dueDate} hint="On or after the created date">
          {(control) => <Input {...control} type="date" min={task.createdDate} value={values.dueDate} onChange={(event) => set("dueDate")(event.target.value)} />}
        </Field>
        <Field label="Incident date" error={errors.incidentDate} hint="On or before the created date">
          {(control) => <Input {...control} type="date" max={task.createdDate} value={values.incidentDate} onChange={(event) => set("incidentDate")(event.target.value)} />}
        </Field>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button onClick={close}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={update.isPending}>
          {update.isPending ? "Saving…" : "Save changes"}
        </Button>
      </div>
    </form>
  );
}
