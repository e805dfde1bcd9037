"use client";
/**
 * A maintenance plan's editor: what the task is (title, asset, the plant's own lookup values, hours
 * and people), when it falls due (the calendar, or a meter read from the plant's telemetry with KQL
 * in the explorer's editor, with a live preview of the reading and its forecast), the lead time,
 * FIXED or FLOATING, and the checklist answered at close-out (at most 100 items). The server checks
 * everything again; its refusals are shown at the field they name, a query's at its line.
 */
import dynamic from "next/dynamic";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { AssetPicker } from "@/components/ui/asset-picker";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError, errorMessage } from "@/lib/client/api";
import { useFormat, useToday } from "@/lib/client/format";
import { useLookupLabels } from "@/modules/maintenance/client/maintenance";
import type { TLookupKind } from "@/modules/maintenance/contract/maintenance";
import type { TMaintenancePlan } from "@/modules/maintenance/contract/maintenance-plans";
import { PLAN_LIMITS } from "@/lib/contract/vocabulary";
import type { QueryProblem } from "@/components/telemetry/telemetry-api";
import { planKeys, plansApi, writtenId } from "@/modules/plans/client/plans";
import { formFieldOf, initialPlanValues, newChecklistRow, toPlanInput, type ChecklistRow, type PlanFormValues } from "./plan-form";
import { MeterPreview } from "./meter-preview";

const KqlEditor = dynamic(() => import("@/components/telemetry/kql-editor"), { ssr: false, loading: () => <Skeleton className="h-36 w-full" /> });

const METER_NAMES = ["RunningState", "Throughput", "MotorCurrent", "Temperature", "Pressure", "Vibration"];

export function PlanEditor({ plantId, plan, onDone }: { plantId: string; plan: TMaintenancePlan | null; onDone: (savedId: string | null) => void }) {
  const queryClient = useQueryClient();
  const format = useFormat();
  const today = useToday();
  const labels = useLookupLabels(plantId);
  const [values, setValues] = useState<PlanFormValues>(() => initialPlanValues(plan, today, format.locale));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<QueryProblem[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const [previewRun, setPreviewRun] = useState(0);
  const set = <K extends keyof PlanFormValues>(key: K, value: PlanFormValues[K]) => setValues((current) => ({ ...current, [key]: value }));

  const options = (kind: TLookupKind) => labels.values(kind).map((entry) => ({ value: entry.value, label: entry.label || entry.value }));
  const effective: PlanFormValues = {
    ...values,
    activityKind: values.activityKind || options("activityKind").find((option) => option.value === "PREVENTIVE")?.value || options("activityKind")[0]?.value || "",
    // The least urgent priority: planned work is rarely an emergency (the company orders them most urgent first).
    priority: values.priority || options("priority").at(-1)?.value || "",
    assignedToRole: values.assignedToRole || options("assignedToRole")[0]?.value || "",
  };

  function showRefusal(error: unknown) {
    setFieldErrors({});
    setProblems([]);
    if (error instanceof ApiError && error.code === "INVALID_QUERY") {
      const found = (error.data ?? []) as QueryProblem[];
      setProblems(found);
      setFieldErrors({ query: error.message.replace(/^trigger\.query: /, "Meter query: ") });
      setFormError("The meter query has a problem; it is marked in the editor.");
      return;
    }
    if (error instanceof ApiError && error.code === "INVALID_INPUT") {
      const byField: Record<string, string> = {};
      for (const item of (error.data ?? []) as { field?: string; problem?: string }[]) {
        if (item.field && item.problem) byField[formFieldOf(item.field, values.triggerKind)] ??= item.problem;
      }
      setFieldErrors(byField);
    }
    setFormError(errorMessage(error));
  }

  const save = useMutation({
    mutationFn: () => {
      const input = toPlanInput(effective, format.locale);
      return plan ? plansApi.replace(plantId, plan.id, input) : plansApi.create(plantId, input);
    },
    onSuccess: async (saved) => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: planKeys.all(plantId) }), queryClient.invalidateQueries({ queryKey: ["plant", plantId, "jobs-planned"] })]);
      onDone(writtenId(saved) ?? plan?.id ?? null);
    },
    onError: showRefusal,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    save.mutate();
  }

  const setRow = (index: number, change: Partial<ChecklistRow>) => set("checklist", values.checklist.map((row, at) => (at === index ? { ...row, ...change } : row)));
  const moveRow = (index: number, delta: number) => {
    const rows = [...values.checklist];
    const [row] = rows.splice(index, 1);
    rows.splice(index + delta, 0, row!);
    set("checklist", rows);
  };

  return (
    <Card aria-labelledby="plan-editor-title">
      <CardHeader id="plan-editor-title" title={plan ? `Edit “${plan.title}”` : "New maintenance plan"} description="A recurring job on an asset: the plan opens its task when it comes due, with its checklist." />
      <form onSubmit={submit} noValidate>
        <CardBody className="space-y-4">
          <Field label="Title" error={fieldErrors.title}>
            {(control) => <Input {...control} value={values.title} maxLength={200} onChange={(event) => set("title", event.target.value)} />}
          </Field>
          <Field label="Procedure" hint="What to do and how; it becomes the task's description" error={fieldErrors.description}>
            {(control) => <Textarea {...control} value={values.description} maxLength={4000} onChange={(event) => set("description", event.target.value)} />}
          </Field>
          <AssetPicker plantId={plantId} value={values.assetTagNumber} onChange={(tag) => set("assetTagNumber", tag)} error={fieldErrors.assetTagNumber} />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
            <Field label="Activity kind" error={fieldErrors.activityKind}>
              {(control) => <Select {...control} value={effective.activityKind} onChange={(event) => set("activityKind", event.target.value)} options={options("activityKind")} />}
            </Field>
            <Field label="Priority" error={fieldErrors.priority}>
              {(control) => <Select {...control} value={effective.priority} onChange={(event) => set("priority", event.target.value)} options={options("priority")} />}
            </Field>
            <Field label="Trade" error={fieldErrors.assignedToRole}>
              {(control) => <Select {...control} value={effective.assignedToRole} onChange={(event) => set("assignedToRole", event.target.value)} options={options("assignedToRole")} />}
            </Field>
          </div>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
            <Field label="Estimated hours" error={fieldErrors.estimatedTimeInHours}>
              {(control) => <Input {...control} inputMode="decimal" value={values.estimatedTimeInHours} onChange={(event) => set("estimatedTimeInHours", event.target.value)} />}
            </Field>
            <Field label="People" error={fieldErrors.requiredPersonCount}>
              {(control) => <Input {...control} inputMode="numeric" value={values.requiredPersonCount} onChange={(event) => set("requiredPersonCount", event.target.value)} />}
            </Field>
            <Field label="Lead time (days)" hint="Opens the task this many days before it is due (0–365)" error={fieldErrors.leadTimeDays}>
              {(control) => <Input {...control} inputMode="numeric" value={values.leadTimeDays} onChange={(event) => set("leadTimeDays", event.target.value)} />}
            </Field>
          </div>
        </CardBody>

        <CardBody className="space-y-4 border-t border-line">
          <fieldset className="space-y-2">
            <legend className="text-sm font-semibold">Falls due</legend>
            <div className="flex flex-wrap gap-4 text-sm">
              {(["CALENDAR", "METER"] as const).map((kind) => (
                <label key={kind} className="flex min-h-10 items-center gap-2">
                  <input type="radio" name="trigger-kind" className="h-4 w-4 accent-accent" checked={values.triggerKind === kind} onChange={() => set("triggerKind", kind)} />
                  {kind === "CALENDAR" ? "By the calendar" : "By a meter (running hours, cycles, tonnes)"}
                </label>
              ))}
            </div>
          </fieldset>
          {values.triggerKind === "CALENDAR" ? (
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
              <Field label="Every" error={fieldErrors.every}>
                {(control) => <Input {...control} inputMode="numeric" value={values.every} onChange={(event) => set("every", event.target.value)} />}
              </Field>
              <Field label="Unit" error={fieldErrors.unit}>
                {(control) => (
                  <Select
                    {...control}
                    value={values.unit}
                    onChange={(event) => set("unit", event.target.value as PlanFormValues["unit"])}
                    options={[
                      { value: "DAY", label: "Days" },
                      { value: "WEEK", label: "Weeks" },
                      { value: "MONTH", label: "Months" },
                    ]}
                  />
                )}
              </Field>
              <Field label="First due" error={fieldErrors.startDate}>
                {(control) => <Input {...control} type="date" value={values.startDate} onChange={(event) => set("startDate", event.target.value)} />}
              </Field>
            </div>
          ) : (
            <div className="space-y-4">
              <div className="flex flex-col gap-1">
                <span className="text-sm font-medium">Meter query</span>
                <KqlEditor value={values.query} onChange={(text) => set("query", text)} onRun={() => setPreviewRun((run) => run + 1)} names={METER_NAMES} problems={problems} label="Meter query (KQL)" />
                <p className="text-xs text-fg-muted">Over plant {plantId}&apos;s telemetry; the first column of the first row is the meter&apos;s reading now. Ctrl+Enter previews.</p>
                {fieldErrors.query ? <p className="text-xs font-medium text-danger">{fieldErrors.query}</p> : null}
              </div>
              <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
                <Field label="Every (meter units)" error={fieldErrors.meterEvery}>
                  {(control) => <Input {...control} inputMode="decimal" value={values.meterEvery} onChange={(event) => set("meterEvery", event.target.value)} />}
                </Field>
                <Field label="Meter unit" hint="e.g. h, cycles, t" error={fieldErrors.meterUnit}>
                  {(control) => <Input {...control} value={values.meterUnit} maxLength={40} onChange={(event) => set("meterUnit", event.target.value)} />}
                </Field>
                <Field label="Counted from reading" error={fieldErrors.startReading}>
                  {(control) => <Input {...control} inputMode="decimal" value={values.startReading} onChange={(event) => set("startReading", event.target.value)} />}
                </Field>
              </div>
              <MeterPreview plantId={plantId} values={values} run={previewRun} onRun={() => setPreviewRun((run) => run + 1)} onProblems={setProblems} />
            </div>
          )}
          <fieldset className="space-y-2">
            <legend className="text-sm font-semibold">After a close-out</legend>
            <div className="flex flex-col gap-1 text-sm">
              <label className="flex min-h-10 items-center gap-2">
                <input type="radio" name="schedule" className="h-4 w-4 accent-accent" checked={values.schedule === "FIXED"} onChange={() => set("schedule", "FIXED")} />
                Fixed: the next one stays on the schedule
              </label>
              <label className="flex min-h-10 items-center gap-2">
                <input type="radio" name="schedule" className="h-4 w-4 accent-accent" checked={values.schedule === "FLOATING"} onChange={() => set("schedule", "FLOATING")} />
                Floating: the next one counts from when the work was done
              </label>
            </div>
          </fieldset>
        </CardBody>

        <CardBody className="space-y-3 border-t border-line">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="text-sm font-semibold">
              Checklist <span className="font-normal text-fg-muted">({format.number(values.checklist.length)} of {PLAN_LIMITS.checklistItems})</span>
            </h3>
            <Button size="sm" disabled={values.checklist.length >= PLAN_LIMITS.checklistItems} onClick={() => set("checklist", [...values.checklist, newChecklistRow()])}>
              Add item
            </Button>
          </div>
          {fieldErrors.checklist ? <p className="text-xs font-medium text-danger">{fieldErrors.checklist}</p> : null}
          {values.checklist.length === 0 ? <p className="text-sm text-fg-muted">No checklist: the task closes with hours and codes only.</p> : null}
          <ol className="space-y-3" aria-label="Checklist items">
            {values.checklist.map((row, index) => (
              <li key={row.key} className="space-y-2 rounded-md border border-line p-3" data-testid="checklist-row">
                <div className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_10rem]">
                  <Field label={`Item ${index + 1}`} error={fieldErrors[`checklist.${index}`]}>
                    {(control) => <Input {...control} value={row.text} maxLength={500} onChange={(event) => setRow(index, { text: event.target.value })} />}
                  </Field>
                  <Field label="Kind">
                    {(control) => (
                      <Select
                        {...control}
                        value={row.kind}
                        onChange={(event) => setRow(index, { kind: event.target.value as ChecklistRow["kind"] })}
                        options={[
                          { value: "CHECK", label: "Check" },
                          { value: "READING", label: "Reading" },
                        ]}
                      />
                    )}
                  </Field>
                </div>
                {row.kind === "READING" ? (
                  <div className="grid grid-cols-3 gap-3">
                    <Field label="Unit">{(control) => <Input {...control} value={row.unit} maxLength={40} onChange={(event) => setRow(index, { unit: event.target.value })} />}</Field>
                    <Field label="Min">{(control) => <Input {...control} inputMode="decimal" value={row.min} onChange={(event) => setRow(index, { min: event.target.value })} />}</Field>
                    <Field label="Max">{(control) => <Input {...control} inputMode="decimal" value={row.max} onChange={(event) => setRow(index, { max: event.target.value })} />}</Field>
                  </div>
                ) : null}
                <div className="flex flex-wrap items-center gap-2">
                  <label className="mr-auto flex min-h-10 items-center gap-2 text-sm">
                    <input type="checkbox" className="h-4 w-4 accent-accent" checked={row.required} onChange={(event) => setRow(index, { required: event.target.checked })} />
                    Required
                  </label>
                  <Button size="sm" variant="ghost" disabled={index === 0} onClick={() => moveRow(index, -1)} aria-label={`Move item ${index + 1} up`}>
                    Up
                  </Button>
                  <Button size="sm" variant="ghost" disabled={index === values.checklist.length - 1} onClick={() => moveRow(index, 1)} aria-label={`Move item ${index + 1} down`}>
                    Down
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => set("checklist", values.checklist.filter((_, at) => at !== index))} aria-label={`Remove item ${index + 1}`}>
                    Remove
                  </Button>
                </div>
              </li>
            ))}
          </ol>
        </CardBody>

        <CardBody className="space-y-3 border-t border-line">
          <label className="flex min-h-10 items-center gap-2 text-sm">
            <input type="checkbox" checked={values.enabled} onChange={(event) => set("enabled", event.target.checked)} className="h-4 w-4 accent-accent" />
            Enabled (opens work when it comes due)
          </label>
          {formError ? (
            <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
              {formError}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="primary" disabled={save.isPending}>
              {save.isPending ? "Saving…" : plan ? "Save changes" : "Create plan"}
            </Button>
            <Button onClick={() => onDone(null)}>Cancel</Button>
          </div>
        </CardBody>
      </form>
    </Card>
  );
}
