"use client";
/**
 * The work on one task, in its drawer: whom it is assigned to (planners and supervisors choose a
 * user of the plant), and the close-out — hours, people, parts used (in each part's own unit, whole
 * items for counted ones), failure/cause/remedy codes and a note — which closes the task, writes its
 * job-done record and takes the parts off stock (docs/api.md §3). Against a service without these
 * extensions (a task without `assignee`, a close-out answered FEATURE_UNAVAILABLE) they stay hidden.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { DraftNotice } from "@/components/ui/draft-notice";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { ApiError, errorMessage } from "@/lib/client/api";
import { useFormDraft } from "@/lib/client/drafts";
import { parseLocaleNumber, useFormat, useServiceToday, useToday } from "@/lib/client/format";
import { maintenanceKeys, useParts, usePlantPeople, type LookupLabels } from "@/modules/maintenance/client/maintenance";
import type { TTask } from "@/modules/maintenance/contract/maintenance";
import { COUNTED_UNITS } from "@/lib/contract/vocabulary";
import { useCloseOutTask, useUpdateTask } from "./task-mutations";
import { checklistAnswers, CloseOutChecklist, type ChecklistValues } from "./close-out-checklist";

export function personName(person: { firstname: string; lastname: string; username: string } | null | undefined): string {
  if (!person) return "Nobody";
  return `${person.firstname} ${person.lastname}`.trim() || person.username;
}

/**
 * A refused assignment in words. When the task changed after the drawer showed it (412
 * TASK_CHANGED: the edit was made on an older version) the list has been read again, and `now` is
 * the task as it is: its assignee is named, as a refused move names the status it is in.
 */
function refusedAssignmentText(error: unknown, task: TTask, wanted: string, now: TTask | undefined): string {
  if (error instanceof ApiError && error.code === "TASK_CHANGED") {
    const current = !now || now.assignee === undefined ? "" : now.assignee ? ` It is assigned to ${personName(now.assignee)} now.` : " Nobody is assigned to it now.";
    return `Someone else changed ${task.id} after it was shown here, so it was not ${wanted}.${current} The card now shows it as it is: choose again if you still want to.`;
  }
  if (error instanceof ApiError && error.code === "TASK_CLOSED") return `${task.id} was closed meanwhile, so it was not ${wanted}.`;
  return `Could not assign ${task.id}: ${errorMessage(error)}`;
}

/** The assignee, and a select to change it for those who may edit tasks. */
export function AssigneeControl({ plantId, task, canEdit, onDone }: { plantId: string; task: TTask; canEdit: boolean; onDone: (text: string, ok: boolean) => void }) {
  const people = usePlantPeople(plantId, canEdit);
  const update = useUpdateTask(plantId);
  const queryClient = useQueryClient();
  if (task.assignee === undefined) return null; // the service does not keep assignees
  if (!canEdit || task.status === "CLOSED") return <span data-testid="task-assignee">{personName(task.assignee)}</span>;
  const options = (people.data ?? []).map((person) => ({ value: person.username, label: `${person.name} (${person.role})` }));
  if (task.assignee && !options.some((option) => option.value === task.assignee!.username)) options.unshift({ value: task.assignee.username, label: personName(task.assignee) });
  return (
    <Field label="Assignee" className="max-w-sm">
      {(control) => (
        <Select
          {...control}
          data-testid="task-assignee-select"
          disabled={update.isPending || people.isPending}
          value={task.assignee?.username ?? ""}
          placeholder="Nobody"
          options={options}
          onChange={(event) => {
            const username = event.target.value;
            const wanted = username ? `assigned to ${options.find((option) => option.value === username)?.label ?? username}` : "unassigned";
            // On the version shown, as every task edit is (task-edit-form.tsx): a change made by
            // someone else since is refused, not overwritten.
            const version = task.updatedAt ? { ifUpdatedAt: task.updatedAt } : {};
            update.mutate(
              { taskId: task.id, update: { assignee: username ? { username, firstname: "", lastname: "" } : null, ...version } },
              {
                onSuccess: () => onDone(`${task.id} ${wanted}.`, true),
                // useUpdateTask has read the list again by now (its onSettled is awaited first).
                onError: (error) => {
                  const now = queryClient.getQueryData<TTask[]>(maintenanceKeys.tasks(plantId))?.find((entry) => entry.id === task.id);
                  onDone(refusedAssignmentText(error, task, wanted, now), false);
                },
              },
            );
          }}
        />
      )}
    </Field>
  );
}

interface PartLine {
  partId: string;
  quantity: string;
}

interface CloseOutValues {
  hours: string;
  people: string;
  lines: PartLine[];
  codes: { failureCode: string; causeCode: string; remedyCode: string };
  note: string;
  /** The asset's downtime for this job; empty: the hours worked (the service's default). */
  downtime: string;
  checklist: ChecklistValues;
}

const emptyCloseOut = (): CloseOutValues => ({ hours: "", people: "1", lines: [], codes: { failureCode: "", causeCode: "", remedyCode: "" }, note: "", downtime: "", checklist: {} });

/** The close-out form: closes the task with the record of the work. */
export function CloseOutForm({ plantId, task, labels, meEmail, onClosed }: { plantId: string; task: TTask; labels: LookupLabels; meEmail: string; onClosed: (text: string) => void }) {
  const format = useFormat();
  const parts = useParts(plantId);
  const closeOut = useCloseOutTask(plantId);
  // Kept as a draft across an expired session; its attempt id is the Idempotency-Key, so a resent
  // close-out writes one job and moves the stock once.
  const draft = useFormDraft<CloseOutValues>(`plantdesk:close-out:${plantId}:${task.id}`, emptyCloseOut, (values) => JSON.stringify(values) !== JSON.stringify(emptyCloseOut()));
  const { attemptId } = draft;
  const { hours, people, lines, codes, note } = draft.values;
  // A draft kept by an older version has neither field.
  const downtime = draft.values.downtime ?? "";
  const checklist = draft.values.checklist ?? {};
  const items = task.checklist ?? [];
  const patch = <K extends keyof CloseOutValues>(field: K) => (update: CloseOutValues[K] | ((current: CloseOutValues[K]) => CloseOutValues[K])) =>
    draft.setValues((current) => ({ ...current, [field]: typeof update === "function" ? (update as (value: CloseOutValues[K]) => CloseOutValues[K])(current[field]) : update }));
  const setHours = patch("hours");
  const setPeople = patch("people");
  const setLines = patch("lines");
  const setCodes = patch("codes");
  const setNote = patch("note");
  const setDowntime = patch("downtime");
  const setChecklist = patch("checklist");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const partsById = new Map((parts.data ?? []).map((part) => [part.id, part]));

  if (unavailable) return <p className="text-sm text-fg-muted">This service does not record close-outs: use “Confirm and close”.</p>;

  function validate() {
    const found: Record<string, string> = {};
    const hoursValue = parseLocaleNumber(hours, format.locale);
    if (hoursValue === null || hoursValue <= 0 || hoursValue > 10_000) found.hours = `Enter the hours worked, e.g. ${format.number(2.5)}.`;
    const peopleValue = Number(people);
    if (!Number.isInteger(peopleValue) || peopleValue < 1 || peopleValue > 100) found.people = "Enter how many people worked, 1 to 100.";
    lines.forEach((line, index) => {
      const part = partsById.get(line.partId);
      const quantity = parseLocaleNumber(line.quantity, format.locale);
      if (!part) found[`part-${index}`] = "Choose a part.";
      else if (quantity === null || quantity <= 0) found[`quantity-${index}`] = `Enter how many ${part.unit} were used.`;
      else if (COUNTED_UNITS.includes(part.unit) && !Number.isInteger(quantity)) found[`quantity-${index}`] = `${part.unit} are counted in whole items.`;
      else if (quantity > part.quantity) found[`quantity-${index}`] = `Only ${format.number(part.quantity)} ${part.unit} in stock.`;
    });
    if (new Set(lines.map((line) => line.partId)).size !== lines.length) found.parts = "Each part once, with its total.";
    const downtimeValue = downtime.trim() ? parseLocaleNumber(downtime, format.locale) : null;
    if (downtime.trim() && (downtimeValue === null || downtimeValue < 0 || downtimeValue > 10_000)) found.downtime = `Enter the hours the asset was down, e.g. ${format.number(1.5)}, or leave it empty.`;
    const answered = checklistAnswers(items, checklist, format);
    Object.assign(found, answered.errors);
    return { found, hoursValue, peopleValue, downtimeValue, answers: answered.answers };
  }

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    draft.dismissRestored();
    setFormError(null);
    const { found, hoursValue, peopleValue, downtimeValue, answers } = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>("[data-close-out] [aria-invalid=true]")?.focus());
      return;
    }
    try {
      draft.sending();
      await closeOut.mutateAsync({
        taskId: task.id,
        attemptId,
        closeOut: {
          hoursWorked: String(hoursValue),
          personCount: peopleValue,
          partsUsed: lines.map((line) => ({ partId: line.partId, quantity: parseLocaleNumber(line.quantity, format.locale)!, unit: partsById.get(line.partId)!.unit })),
          failureCode: codes.failureCode || null,
          causeCode: codes.causeCode || null,
          remedyCode: codes.remedyCode || null,
          note: note.trim() || null,
          ...(downtimeValue !== null ? { downtimeHours: downtimeValue } : {}),
          ...(items.length ? { checklist: answers } : {}),
          // Nobody assigned: the person closing it out did the work (the dashboard names them).
          ...(task.assignee ? {} : { carriedOutBy: { username: meEmail, firstname: "", lastname: "" } }),
        },
      });
      draft.sent();
      onClosed(`${task.id} closed out: ${format.number(hoursValue!)} h, ${lines.length} ${lines.length === 1 ? "part" : "parts"} taken off stock. The job is in the job history.`);
    } catch (error) {
      draft.failed(error);
      if (error instanceof ApiError && error.code === "FEATURE_UNAVAILABLE") setUnavailable(true);
      setFormError(
        error instanceof ApiError && error.code === "INVALID_TRANSITION"
          ? `Someone else moved ${task.id} meanwhile (${error.message}) The board shows it as it is now.`
          : errorMessage(error),
      );
    }
  }

  const codeOptions = (kind: "failureCode" | "causeCode" | "remedyCode") => labels.values(kind).map((entry) => ({ value: entry.value, label: entry.label }));
  const partOptions = (parts.data ?? []).map((part) => ({ value: part.id, label: `${part.name} · ${part.id} (${format.number(part.quantity)} ${part.unit})` }));

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-3" data-close-out aria-labelledby="close-out-heading">
      <h3 id="close-out-heading" className="text-sm font-semibold">
        Close out with the work done
      </h3>
      {draft.restored ? <DraftNotice what="close-out" sending={draft.restored.sending} resendNote="the job is recorded and the stock moved once" onSend={() => void submit()} onDiscard={draft.discard} /> : null}
      {formError ? (
        <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
          {formError}
        </p>
      ) : null}
      <div className="grid grid-cols-2 gap-3">
        <Field label="Hours worked" error={errors.hours} hint={`For example ${format.number(2.5)}`}>
          {(control) => <Input {...control} inputMode="decimal" autoComplete="off" value={hours} onChange={(event) => setHours(event.target.value)} data-testid="close-out-hours" />}
        </Field>
        <Field label="People" error={errors.people}>
          {(control) => <Input {...control} inputMode="numeric" autoComplete="off" value={people} onChange={(event) => setPeople(event.target.value)} data-testid="close-out-people" />}
        </Field>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Parts used</legend>
        {errors.parts ? <p className="text-xs font-medium text-danger">{errors.parts}</p> : null}
        {lines.map((line, index) => {
          const unit = partsById.get(line.partId)?.unit;
          return (
            <div key={index} className="grid grid-cols-[1fr_7rem_auto] items-end gap-2" data-testid={`close-out-part-${index}`}>
              <Field label={`Part ${index + 1}`} error={errors[`part-${index}`]}>
                {(control) => (
                  <Select
                    {...control}
                    value={line.partId}
                    placeholder="Choose a part…"
                    options={partOptions}
                    onChange={(event) => setLines((current) => current.map((entry, at) => (at === index ? { ...entry, partId: event.target.value } : entry)))}
                  />
                )}
              </Field>
              <Field label={`Quantity${unit ? ` (${unit})` : ""}`} error={errors[`quantity-${index}`]}>
                {(control) => (
                  <Input
                    {...control}
                    inputMode="decimal"
                    autoComplete="off"
                    value={line.quantity}
                    onChange={(event) => setLines((current) => current.map((entry, at) => (at === index ? { ...entry, quantity: event.target.value } : entry)))}
                  />
                )}
              </Field>
              <Button size="sm" variant="ghost" aria-label={`Remove part ${index + 1}`} onClick={() => setLines((current) => current.filter((_, at) => at !== index))}>
                Remove
              </Button>
            </div>
          );
        })}
        <Button size="sm" onClick={() => setLines((current) => [...current, { partId: "", quantity: "" }])} disabled={lines.length >= 50 || parts.isPending}>
          Add a part
        </Button>
      </fieldset>
      {items.length ? <CloseOutChecklist items={items} values={checklist} onChange={setChecklist} errors={errors} format={format} /> : null}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Field label="Failure">{(control) => <Select {...control} value={codes.failureCode} placeholder="—" options={codeOptions("failureCode")} onChange={(event) => setCodes((c) => ({ ...c, failureCode: event.target.value }))} />}</Field>
        <Field label="Cause">{(control) => <Select {...control} value={codes.causeCode} placeholder="—" options={codeOptions("causeCode")} onChange={(event) => setCodes((c) => ({ ...c, causeCode: event.target.value }))} />}</Field>
        <Field label="Remedy">{(control) => <Select {...control} value={codes.remedyCode} placeholder="—" options={codeOptions("remedyCode")} onChange={(event) => setCodes((c) => ({ ...c, remedyCode: event.target.value }))} />}</Field>
      </div>
      <Field label="Downtime (hours)" error={errors.downtime} hint="How long the asset was down; empty: the hours worked" className="max-w-xs">
        {(control) => <Input {...control} inputMode="decimal" autoComplete="off" value={downtime} onChange={(event) => setDowntime(event.target.value)} data-testid="close-out-downtime" />}
      </Field>
      <Field label="Note (work order remark)">{(control) => <Textarea {...control} className="min-h-14" maxLength={4000} value={note} onChange={(event) => setNote(event.target.value)} />}</Field>
      <Button type="submit" variant="primary" disabled={closeOut.isPending} data-testid="close-out-submit">
        {closeOut.isPending ? "Closing out…" : "Close out"}
      </Button>
    </form>
  );
}

/**
 * A postponement's new due date: asked for before the move, not before today — the reader's, and
 * not before UTC's either, which the service checks (docs/api.md, Postponement): in a New York
 * evening UTC's day is already the next one.
 */
export function PostponeDate({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  const readerToday = useToday();
  const serviceToday = useServiceToday();
  const today = readerToday > serviceToday ? readerToday : serviceToday;
  return (
    <Field label="New due date (for a postponement)" error={error} className="max-w-xs">
      {(control) => <Input {...control} type="date" min={today} value={value} onChange={(event) => onChange(event.target.value)} data-testid="postpone-date" />}
    </Field>
  );
}
