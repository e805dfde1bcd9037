"use client";
/**
 * A part's reorder level (below it the part is short) and reorder quantity (how much to order then),
 * set by planners and supervisors through PATCH parts/{partId} (docs/api.md §3, extension). Numbers
 * are read in the reader's language (decimal comma or point), whole ones for parts counted in items,
 * checked with the contract's schema before sending. The change is audited by the dashboard.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { DraftNotice } from "@/components/ui/draft-notice";
import { Field, Input } from "@/components/ui/field";
import { apiSend, errorMessage } from "@/lib/client/api";
import { useFormDraft } from "@/lib/client/drafts";
import { ambiguousNumber, parseLocaleNumber, type Format } from "@/lib/client/format";
import { loadMaintenanceContract } from "@/lib/client/lazy-contract";
import { operationApiPath } from "@/lib/contract/api";
import { maintenanceKeys } from "@/modules/maintenance/client/maintenance";
import type { TWriteResult } from "@/lib/contract/common";
import type { TPart, TPartUpdate } from "@/modules/maintenance/contract/maintenance";
import { COUNTED_UNITS } from "@/lib/contract/vocabulary";

interface ReorderValues {
  level: string;
  quantity: string;
}

type Errors = Partial<Record<keyof ReorderValues, string>>;

const NAMES: Record<keyof ReorderValues, string> = { level: "reorder level", quantity: "reorder quantity" };

export function ReorderForm({ plantId, part, format }: { plantId: string; part: TPart; format: Format }) {
  const queryClient = useQueryClient();
  const shown = (value: number | null | undefined) => (value == null ? "" : format.number(value, { useGrouping: false, maximumFractionDigits: 6 }));
  const initial = (): ReorderValues => ({ level: shown(part.reorderLevel), quantity: shown(part.reorderQuantity) });
  const draft = useFormDraft<ReorderValues>(`plantdesk:reorder:${plantId}:${part.id}`, initial, (values) => values.level !== initial().level || values.quantity !== initial().quantity);
  const { values } = draft;
  const [errors, setErrors] = useState<Errors>({});
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const save = useMutation({
    mutationFn: (body: TPartUpdate) => apiSend<TWriteResult>("PATCH", operationApiPath("updatePart", { plantId, partId: part.id }), body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: maintenanceKeys.parts(plantId) }),
  });
  const whole = COUNTED_UNITS.includes(part.unit);

  const set = (field: keyof ReorderValues) => (value: string) => {
    draft.setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  /** A typed figure, or the words it is refused with. */
  function read(field: keyof ReorderValues): number | null | string {
    const text = values[field].trim();
    if (text === "") return field === "quantity" ? null : `Enter the ${NAMES[field]}, e.g. ${whole ? "4" : format.number(2.5)}.`;
    const doubt = ambiguousNumber(text, format.locale);
    if (doubt) return doubt;
    const value = parseLocaleNumber(text, format.locale);
    if (value === null) return `Enter a number for the ${NAMES[field]}, e.g. ${whole ? "4" : format.number(2.5)}.`;
    if (whole && !Number.isInteger(value)) return `Enter a whole number: ${part.unit} are counted in whole items.`;
    return value;
  }

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    draft.dismissRestored();
    setOutcome(null);
    const level = read("level");
    const quantity = read("quantity");
    const found: Errors = {};
    if (typeof level === "string") found.level = level;
    if (typeof quantity === "string") found.quantity = quantity;
    const body: TPartUpdate = { reorderLevel: typeof level === "number" ? level : undefined, reorderQuantity: typeof quantity === "string" ? undefined : quantity };
    if (Object.keys(found).length === 0) {
      const { ZPartUpdate } = await loadMaintenanceContract();
      const parsed = ZPartUpdate.safeParse(body);
      for (const issue of parsed.error?.issues ?? []) {
        const field = issue.path[0] === "reorderQuantity" ? "quantity" : "level";
        found[field] ??= `The ${NAMES[field]} ${issue.message}.`;
      }
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      draft.sending();
      const answer = await save.mutateAsync(body);
      draft.sent();
      const short = (answer.data[0] as { isShort?: unknown } | undefined)?.isShort === true;
      setOutcome({
        ok: true,
        text: `Reorder level ${format.number(level as number)} ${part.unit}${quantity === null ? ", no reorder quantity" : `, order ${format.number(quantity as number)} ${part.unit}`} saved. ${short ? `${part.name} is now below its reorder level.` : `${part.name} is not short.`}`,
      });
    } catch (error) {
      draft.failed(error);
      setOutcome({ ok: false, text: `Not saved: ${errorMessage(error)}` });
    }
  }

  return (
    <Card aria-labelledby="reorder-title">
      <CardHeader id="reorder-title" title="Reorder levels" description={`Below the reorder level the part is short and goes on the "To order" list, with the reorder quantity. In ${part.unit}.`} />
      <form noValidate onSubmit={(event) => void submit(event)} className="grid grid-cols-1 gap-4 p-4 sm:grid-cols-3" data-testid="reorder-form">
        {draft.restored ? (
          <div className="sm:col-span-3">
            <DraftNotice what="reorder levels" sending={draft.restored.sending} resendNote="sending the same levels again changes nothing more" onSend={() => void submit()} onDiscard={draft.discard} />
          </div>
        ) : null}
        <Field label="Reorder level" error={errors.level} hint={whole ? "Whole items" : `For example ${format.number(2.5)}`}>
          {(control) => <Input {...control} inputMode={whole ? "numeric" : "decimal"} autoComplete="off" value={values.level} onChange={(event) => set("level")(event.target.value)} />}
        </Field>
        <Field label="Reorder quantity" error={errors.quantity} hint="How much to order; empty if not known">
          {(control) => <Input {...control} inputMode={whole ? "numeric" : "decimal"} autoComplete="off" value={values.quantity} onChange={(event) => set("quantity")(event.target.value)} />}
        </Field>
        <div className="flex items-end">
          <Button type="submit" variant="primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save reorder levels"}
          </Button>
        </div>
        <div role="status" aria-live="polite" className="sm:col-span-3">
          {outcome ? (
            <p data-testid="reorder-outcome" className={cn("rounded-md px-3 py-2 text-sm font-medium", outcome.ok ? "bg-success-soft text-success" : "bg-danger-soft text-danger")}>
              {outcome.ok ? "✓ " : "✗ "}
              {outcome.text}
            </p>
          ) : null}
        </div>
      </form>
    </Card>
  );
}
