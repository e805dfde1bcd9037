"use client";

import { useEffect, useState, type FormEvent } from "react";
import { AssetPicker } from "@/components/ui/asset-picker";
import { Button } from "@/components/ui/button";
import { DraftNotice } from "@/components/ui/draft-notice";
import { Drawer } from "@/components/ui/drawer";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { ApiError, errorMessage } from "@/lib/client/api";
import { useFormDraft } from "@/lib/client/drafts";
import { useToday } from "@/lib/client/format";
import { preloadMaintenanceContract } from "@/lib/client/lazy-contract";
import { useLookupLabels } from "@/modules/maintenance/client/maintenance";
import type { TLookupKind } from "@/modules/maintenance/contract/maintenance";
import { emptyTaskForm, serverFieldErrors, toTaskCreation, validateTaskForm, type TaskFormErrors, type TaskFormValues } from "./task-form";
import { useCreateTask } from "./task-mutations";

/** The form's draft (lib/client/drafts.ts): its attempt id is the Idempotency-Key, so a resent draft creates one task. */
const draftKey = (plantId: string) => `plantdesk:task-draft:${plantId}`;

/**
 * The create-task drawer. `initial` fills fields in advance — from an alarm: its asset, its start as
 * the incident date, its message as the description (components/telemetry/alarm-task.ts).
 */
export function CreateTaskDrawer({
  plantId,
  open,
  onClose,
  onCreated,
  initial,
}: {
  plantId: string;
  open: boolean;
  onClose: () => void;
  onCreated: (taskId: string) => void;
  initial?: Partial<TaskFormValues>;
}) {
  return (
    <Drawer open={open} onClose={onClose} title="New task" description={`Plant ${plantId}. A new task waits for a supervisor's approval.`}>
      {/* Mounted only while open: every opening starts a fresh form and a fresh attempt id. */}
      {open ? <CreateTaskForm plantId={plantId} onCancel={onClose} onCreated={onCreated} initial={initial} /> : null}
    </Drawer>
  );
}

function CreateTaskForm({ plantId, onCancel, onCreated, initial }: { plantId: string; onCancel: () => void; onCreated: (taskId: string) => void; initial?: Partial<TaskFormValues> }) {
  const today = useToday();
  // One attempt id per filled-in form: a double click or a retry after a lost answer creates one task.
  const draft = useFormDraft<TaskFormValues>(
    draftKey(plantId),
    () => ({ ...emptyTaskForm(today), ...initial }),
    (values) => Boolean(values.taskTitle || values.taskDescription || values.assetTagNumber),
  );
  const { values, setValues, attemptId } = draft;
  // Opened from the URL (?new=1) the form is first rendered with UTC's today (the server's); once
  // the reader's day is known, a created date nobody chose follows it.
  const [firstToday] = useState(today);
  useEffect(() => {
    if (today !== firstToday) setValues((current) => (current.createdDate === firstToday ? { ...current, createdDate: today } : current));
    // setValues is a new function each render; only a change of day matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [today, firstToday]);
  const [errors, setErrors] = useState<TaskFormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(preloadMaintenanceContract, []);
  const lookups = useLookupLabels(plantId);
  const create = useCreateTask(plantId);

  const set = (field: keyof TaskFormValues) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  function cancel() {
    draft.sent();
    onCancel();
  }

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    draft.dismissRestored();
    setFormError(null);
    const found = await validateTaskForm(values, today);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      // Put the keyboard where the first problem is.
      requestAnimationFrame(() => document.querySelector<HTMLElement>("[data-create-task] [aria-invalid=true]")?.focus());
      return;
    }
    try {
      draft.sending();
      const result = await create.mutateAsync({ task: toTaskCreation(values), attemptId });
      draft.sent();
      const id = result.data[0]?.id;
      onCreated(typeof id === "string" ? id : "");
    } catch (error) {
      draft.failed(error);
      if (error instanceof ApiError && error.code === "ASSET_NOT_FOUND") setErrors({ assetTagNumber: error.message });
      else if (error instanceof ApiError && error.status === 400) setErrors(serverFieldErrors(error.data));
      setFormError(errorMessage(error));
    }
  }

  const options = (kind: TLookupKind) => lookups.values(kind).map((entry) => ({ value: entry.value, label: entry.label }));

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" data-create-task>
      {draft.restored ? (
        <DraftNotice testId="task-draft" what="task" sending={draft.restored.sending} resendNote="it is never created twice" onSend={() => void submit()} onDiscard={draft.discard} />
      ) : null}
      {formError ? (
        <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
          {formError}
        </p>
      ) : null}
      <Field label="Title" error={errors.taskTitle} hint="Up to 200 characters">
        {(control) => <Input {...control} required maxLength={200} value={values.taskTitle} onChange={(event) => set("taskTitle")(event.target.value)} />}
      </Field>
      <Field label="Description" error={errors.taskDescription}>
        {(control) => <Textarea {...control} maxLength={4000} value={values.taskDescription} onChange={(event) => set("taskDescription")(event.target.value)} />}
      </Field>
      <AssetPicker plantId={plantId} label="Asset" value={values.assetTagNumber} onChange={set("assetTagNumber")} error={errors.assetTagNumber} />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field label="Activity kind" error={errors.activityKind}>
          {(control) => (
            <Select {...control} required value={values.activityKind} onChange={(event) => set("activityKind")(event.target.value)} options={options("activityKind")} placeholder="Choose…" />
          )}
        </Field>
        <Field label="Priority" error={errors.priority}>
          {(control) => (
            <Select {...control} required value={values.priority} onChange={(event) => set("priority")(event.target.value)} options={options("priority")} placeholder="Choose…" />
          )}
        </Field>
        <Field label="Assigned to role" error={errors.assignedToRole}>
          {(control) => (
            <Select {...control} value={values.assignedToRole} onChange={(event) => set("assignedToRole")(event.target.value)} options={options("assignedToRole")} placeholder="Nobody yet" />
          )}
        </Field>
        <Field label="Created" error={errors.createdDate} hint="Defaults to today">
          {(control) => <Input {...control} type="date" value={values.createdDate} onChange={(event) => set("createdDate")(event.target.value)} />}
        </Field>
        <Field label="Incident date" error={errors.incidentDate} hint="On or before the created date">
          {(control) => <Input {...control} type="date" max={values.createdDate || today} value={values.incidentDate} onChange={(event) => set("incidentDate")(event.target.value)} />}
        </Field>
        <Field label="Due date" error={errors.dueDate} hint="On or after the created date">
          {(control) => <Input {...control} type="date" min={values.createdDate || today} value={values.dueDate} onChange={(event) => set("dueDate")(event.target.value)} />}
        </Field>
      </div>
      <div className="flex justify-end gap-2 border-t border-line pt-4">
        <Button onClick={cancel}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create task"}
        </Button>
      </div>
    </form>
  );
}
