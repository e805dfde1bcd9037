"use client";
/**
 * A task's checklist in its close-out form (docs/api.md "Checklists at close-out"): each CHECK a
 * large tick target, each READING a number field with the phone's numeric keyboard and its range;
 * a reading outside [min, max] is flagged at once (the server keeps it and opens a follow-up task).
 * Required items are checked here in words before sending, and again by the server.
 */
import { Field, Input } from "@/components/ui/field";
import { parseLocaleNumber, type Format } from "@/lib/client/format";
import type { TChecklistAnswer, TChecklistItem } from "@/modules/maintenance/contract/maintenance-plans";

interface ChecklistValue {
  done: boolean;
  reading: string;
  note: string;
}

export type ChecklistValues = Record<string, ChecklistValue>;

const EMPTY: ChecklistValue = { done: false, reading: "", note: "" };

function rangeWords(item: Pick<TChecklistItem, "min" | "max" | "unit">, format: Format): string {
  const unit = item.unit ? ` ${item.unit}` : "";
  if (item.min !== null && item.max !== null) return `${format.number(item.min)}–${format.number(item.max)}${unit}`;
  if (item.min !== null) return `at least ${format.number(item.min)}${unit}`;
  if (item.max !== null) return `at most ${format.number(item.max)}${unit}`;
  return item.unit ?? "";
}

export const outOfRange = (item: Pick<TChecklistItem, "min" | "max">, reading: number) => (item.min !== null && reading < item.min) || (item.max !== null && reading > item.max);

/**
 * The answers to send and the refusals in words (keyed `checklist-<itemId>`): a required item not
 * done, a reading that is not a number, a required READING without one.
 */
export function checklistAnswers(items: readonly TChecklistItem[], values: ChecklistValues, format: Format): { answers: TChecklistAnswer[]; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const answers = items.map((item) => {
    const value = values[item.itemId] ?? EMPTY;
    const reading = value.reading.trim() ? parseLocaleNumber(value.reading, format.locale) : null;
    if (value.reading.trim() && reading === null) errors[`checklist-${item.itemId}`] = `“${item.text}”: write the reading as a number, e.g. ${format.number(12.5)}.`;
    else if (item.kind === "READING" && item.required && reading === null) errors[`checklist-${item.itemId}`] = `“${item.text}” is required: enter the reading.`;
    else if (item.kind === "CHECK" && item.required && !value.done) errors[`checklist-${item.itemId}`] = `“${item.text}” is required: tick it when done.`;
    // A reading given counts as the item done.
    const done = item.kind === "READING" ? reading !== null || value.done : value.done;
    return { itemId: item.itemId, done, reading: item.kind === "READING" ? reading : null, note: value.note.trim() || null };
  });
  return { answers, errors };
}

export function CloseOutChecklist({ items, values, onChange, errors, format }: { items: readonly TChecklistItem[]; values: ChecklistValues; onChange: (values: ChecklistValues) => void; errors: Record<string, string>; format: Format }) {
  const set = (itemId: string, change: Partial<ChecklistValue>) => onChange({ ...values, [itemId]: { ...(values[itemId] ?? EMPTY), ...change } });
  const required = items.filter((item) => item.required).length;
  return (
    <fieldset className="space-y-2" data-testid="close-out-checklist">
      <legend className="text-sm font-medium">
        Checklist <span className="font-normal text-fg-muted">({format.number(required)} of {format.number(items.length)} required)</span>
      </legend>
      <ol className="space-y-2">
        {items.map((item) => {
          const value = values[item.itemId] ?? EMPTY;
          const reading = value.reading.trim() ? parseLocaleNumber(value.reading, format.locale) : null;
          // A refusal from the last try, until the item is answered.
          const answered = item.kind === "CHECK" ? value.done : reading !== null;
          const error = answered ? undefined : errors[`checklist-${item.itemId}`];
          const flagged = reading !== null && outOfRange(item, reading);
          return (
            <li key={item.itemId} className="rounded-md border border-line p-2" data-testid={`checklist-item-${item.itemId}`}>
              {item.kind === "CHECK" ? (
                <label className="flex min-h-11 items-center gap-3 text-sm">
                  <input type="checkbox" className="h-6 w-6 shrink-0 accent-accent" checked={value.done} aria-invalid={error ? true : undefined} onChange={(event) => set(item.itemId, { done: event.target.checked })} />
                  <span className="wrap-anywhere">
                    {item.text}
                    {item.required ? <span className="text-fg-muted"> (required)</span> : null}
                  </span>
                </label>
              ) : (
                <Field label={`${item.text}${item.required ? " (required)" : ""}`} hint={rangeWords(item, format) ? `Expected ${rangeWords(item, format)}` : undefined}>
                  {(control) => <Input {...control} inputMode="decimal" autoComplete="off" className="h-11" aria-invalid={error ? true : control["aria-invalid"]} value={value.reading} onChange={(event) => set(item.itemId, { reading: event.target.value })} />}
                </Field>
              )}
              {flagged ? (
                <p className="mt-1 text-xs font-medium text-warning" data-testid="checklist-out-of-range">
                  Out of range ({rangeWords(item, format)}): it is kept as read and a follow-up task is opened on the asset.
                </p>
              ) : null}
              {error ? <p className="mt-1 text-xs font-medium text-danger">{error}</p> : null}
            </li>
          );
        })}
      </ol>
    </fieldset>
  );
}
