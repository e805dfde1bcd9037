"use client";
/**
 * A plant's maintenance plans: the list (next due date, the meter's reading and forecast; filtered
 * by asset, trigger and state, all in the URL), a chosen plan's definition with "Run now", and for
 * planners and admins (plans:write; the server checks it again) the editor and delete. The
 * workload view (`view=workload`) spreads the coming occurrences over weeks. A service without
 * plans (FEATURE_UNAVAILABLE) is said so in words.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, ButtonLink } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Field, FilterSelect, Input } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { plantPath } from "@/components/shell/nav-items";
import { errorMessage } from "@/lib/client/api";
import { useFormat, type Format } from "@/lib/client/format";
import { useLookupLabels, type LookupLabels } from "@/modules/maintenance/client/maintenance";
import { useCan } from "@/lib/client/me";
import { useUrlState } from "@/lib/client/url-state";
import type { TMaintenancePlan, TPlanRunResult } from "@/modules/maintenance/contract/maintenance-plans";
import { isUnavailable, planKeys, plansApi, usePlans } from "@/modules/plans/client/plans";
import { PlanEditor } from "./plan-editor";
import { PlanWorkload } from "./plan-workload";
import { matchesPlan, triggerText, type PlanFilters } from "./plan-text";

export function PlansPage({ plantId }: { plantId: string }) {
  const { get, update } = useUrlState();
  const format = useFormat();
  const canWrite = useCan("plans:write");
  const plans = usePlans(plantId);
  const view = get("view") === "workload" ? "workload" : "list";
  const selectedParam = get("plan");
  const editing = get("edit") === "1";
  const creating = selectedParam === "new" && canWrite;
  const filters: PlanFilters = { asset: get("asset"), trigger: get("trigger"), state: get("state"), q: get("q") };
  const all = plans.data ?? [];
  const shown = all.filter((plan) => matchesPlan(plan, filters));
  const selected = all.find((plan) => plan.id === selectedParam) ?? null;
  const filterParams = Object.fromEntries(Object.entries(filters).filter(([, value]) => value)) as Record<string, string>;

  if (plans.error && isUnavailable(plans.error)) {
    return (
      <div className="space-y-5">
        <PageHeader title="Maintenance plans" />
        <Card>
          <EmptyState title="Plans are not offered here">The maintenance service this console talks to has no maintenance plans; planned work is read from its planned jobs.</EmptyState>
        </Card>
      </div>
    );
  }

  return (
    <div className="space-y-5">
      <PageHeader
        title="Maintenance plans"
        description={plans.data ? `${format.number(all.length)} ${all.length === 1 ? "plan" : "plans"} at plant ${plantId}: ${format.number(all.filter((plan) => plan.enabled).length)} enabled` : `Recurring work at plant ${plantId}, by the calendar or by a meter`}
        actions={
          <>
            <nav aria-label="Plan views" className="inline-flex rounded-md border border-line p-0.5 text-sm">
              {(["list", "workload"] as const).map((id) => (
                <button
                  key={id}
                  type="button"
                  aria-current={view === id ? "page" : undefined}
                  onClick={() => update({ view: id === "list" ? null : id }, { keepPage: true })}
                  className={cn("min-h-9 rounded px-3 py-1", view === id ? "bg-accent text-accent-fg" : "hover:bg-surface-2")}
                >
                  {id === "list" ? "Plans" : "Workload"}
                </button>
              ))}
            </nav>
            {canWrite ? (
              <ButtonLink href="?plan=new" variant="primary" scroll={false}>
                New plan
              </ButtonLink>
            ) : null}
          </>
        }
      />
      {view === "workload" && !creating ? (
        <PlanWorkload plantId={plantId} plans={all} />
      ) : (
        <div className="grid grid-cols-1 gap-5 lg:grid-cols-[24rem_minmax(0,1fr)]">
          {/* Below the two-column width the list and the plan take turns: a phone shows the plan (or the
              editor) alone, with a way back, instead of below every plan of the plant. */}
          <div className={cn("min-w-0 space-y-3 self-start", selectedParam && "hidden lg:block")}>
            <PlanFilterBar plantId={plantId} filters={filters} onChange={(changes) => update(changes, { replace: "q" in changes })} />
            <Card aria-labelledby="plan-list-title" className="min-h-40">
              <h2 id="plan-list-title" className="sr-only">
                Plans
              </h2>
              {plans.error ? (
                <ErrorState error={plans.error} title="The plans could not be loaded" onRetry={() => void plans.refetch()} />
              ) : plans.isPending ? (
                <div role="status" className="space-y-2 p-3">
                  <span className="sr-only">Loading plans…</span>
                  {Array.from({ length: 5 }, (_, index) => (
                    <Skeleton key={index} className="h-14 w-full" />
                  ))}
                </div>
              ) : shown.length === 0 ? (
                <EmptyState title={all.length === 0 ? "No plans yet" : "No plan matches"}>
                  {all.length === 0 ? (canWrite ? "Create the first: a calendar job such as a monthly lubrication, or one that follows a machine's running hours." : "Planners make the plans; they appear here.") : "Change or clear the filters to see more plans."}
                </EmptyState>
              ) : (
                <ul className="divide-y divide-line" aria-label={`${shown.length} plans`} data-testid="plan-list">
                  {shown.map((plan) => (
                    <li key={plan.id}>
                      <Link
                        href={`?${new URLSearchParams({ ...filterParams, plan: plan.id })}`}
                        scroll={false}
                        aria-current={plan.id === selectedParam ? "true" : undefined}
                        className={cn("flex flex-col gap-1 px-3 py-2 text-sm hover:bg-surface-2", plan.id === selectedParam && "bg-accent-soft")}
                      >
                        <span className="flex items-start justify-between gap-2">
                          <span className="min-w-0 font-medium wrap-anywhere">{plan.title}</span>
                          {plan.enabled ? <Badge tone="success">On</Badge> : <Badge>Off</Badge>}
                        </span>
                        <span className="text-xs text-fg-muted wrap-anywhere">
                          {plan.assetTagNumber} · {triggerText(plan, format)}
                        </span>
                        <span className="text-xs">{nextDueText(plan, format)}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          </div>
          <div className={cn("min-w-0 space-y-5", !selectedParam && "hidden lg:block")}>
            {selectedParam ? (
              <Link href={`?${new URLSearchParams(filterParams)}`} scroll={false} className="inline-flex min-h-11 items-center text-sm font-medium text-accent underline-offset-2 hover:underline lg:hidden">
                ← All plans
              </Link>
            ) : null}
            {creating ? (
              <PlanEditor plantId={plantId} plan={null} onDone={(savedId) => update({ plan: savedId, edit: null })} />
            ) : !selectedParam ? (
              <Card>
                <EmptyState title="Choose a plan">Pick a plan to see when it falls due, its checklist and the work it opened.</EmptyState>
              </Card>
            ) : plans.isPending ? (
              <Skeleton className="h-64 w-full" />
            ) : !selected ? (
              <Card>
                <EmptyState title="Plan not found">There is no plan {selectedParam} at plant {plantId}.</EmptyState>
              </Card>
            ) : editing && canWrite ? (
              <PlanEditor key={selected.id} plantId={plantId} plan={selected} onDone={() => update({ edit: null })} />
            ) : (
              <PlanDetail key={selected.id} plantId={plantId} plan={selected} canWrite={canWrite} format={format} onEdit={() => update({ edit: "1" })} onDeleted={() => update({ plan: null, edit: null })} />
            )}
          </div>
        </div>
      )}
    </div>
  );
}

function PlanFilterBar({ plantId, filters, onChange }: { plantId: string; filters: PlanFilters; onChange: (changes: Record<string, string | null>) => void }) {
  return (
    <div className="grid grid-cols-2 gap-3" role="search" aria-label={`Filter the plans of plant ${plantId}`}>
      <Field label="Search" className="col-span-2">
        {(control) => <Input {...control} type="search" value={filters.q} placeholder="Title or asset" onChange={(event) => onChange({ q: event.target.value || null })} />}
      </Field>
      <FilterSelect
        label="Due by"
        value={filters.trigger}
        onChange={(value) => onChange({ trigger: value || null })}
        options={[
          { value: "CALENDAR", label: "Calendar" },
          { value: "METER", label: "Meter" },
        ]}
      />
      <FilterSelect
        label="State"
        value={filters.state}
        onChange={(value) => onChange({ state: value || null })}
        options={[
          { value: "enabled", label: "Enabled" },
          { value: "disabled", label: "Disabled" },
        ]}
      />
      {filters.asset ? (
        <p className="col-span-2 text-sm">
          Asset {filters.asset}{" "}
          <button type="button" className="text-accent underline" onClick={() => onChange({ asset: null })}>
            show all assets
          </button>
        </p>
      ) : null}
    </div>
  );
}

function nextDueText(plan: TMaintenancePlan, format: Format): string {
  if (!plan.enabled) return "Disabled: opens no work";
  if (plan.trigger.kind === "CALENDAR") return plan.nextDueDate ? `Next due ${format.date(plan.nextDueDate)}` : "No further occurrence";
  const unit = plan.trigger.unit;
  const reading = plan.lastReading === null ? "not read yet" : `${format.number(plan.lastReading)} ${unit}`;
  const due = plan.nextDueReading === null ? "" : ` · due at ${format.number(plan.nextDueReading)} ${unit}`;
  const forecast = plan.nextDueDate ? ` (≈ ${format.date(plan.nextDueDate)})` : plan.lastReading !== null ? " (meter not moving)" : "";
  return `Meter ${reading}${due}${forecast}`;
}

function PlanDetail({ plantId, plan, canWrite, format, onEdit, onDeleted }: { plantId: string; plan: TMaintenancePlan; canWrite: boolean; format: Format; onEdit: () => void; onDeleted: () => void }) {
  const queryClient = useQueryClient();
  const labels = useLookupLabels(plantId);
  const [confirming, setConfirming] = useState(false);
  const [lastRun, setLastRun] = useState<TPlanRunResult | null>(null);
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: planKeys.all(plantId) }), queryClient.invalidateQueries({ queryKey: ["plant", plantId, "jobs-planned"] }), queryClient.invalidateQueries({ queryKey: ["plant", plantId, "tasks"] })]);
  const run = useMutation({
    mutationFn: () => plansApi.run(plantId, plan.id),
    onSuccess: (result) => {
      setLastRun(result);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => plansApi.remove(plantId, plan.id),
    onSuccess: async () => {
      await refresh();
      onDeleted();
    },
  });
  const toggle = useMutation({
    mutationFn: () => {
      const { id: _id, plantId: _plant, nextDueDate: _n, lastReading: _l, lastReadingAt: _la, nextDueReading: _nr, ratePerDay: _r, createdAt: _c, updatedAt: _u, checklist, ...rest } = plan;
      return plansApi.replace(plantId, plan.id, { ...rest, checklist: checklist.map(({ itemId: _item, ...item }) => item), enabled: !plan.enabled });
    },
    onSuccess: () => void refresh(),
  });

  return (
    <Card aria-labelledby="plan-title">
      <CardHeader id="plan-title" title={plan.title} description={`${plan.assetTagNumber} · ${triggerText(plan, format)}`} actions={plan.enabled ? <Badge tone="success">Enabled</Badge> : <Badge>Disabled</Badge>} />
      <CardBody className="space-y-4">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          <Detail label="Next" value={nextDueText(plan, format)} />
          <Detail label="Task" value={`${labels.label("activityKind", plan.activityKind)} · ${labels.label("priority", plan.priority)} · ${labels.label("assignedToRole", plan.assignedToRole)}`} />
          <Detail label="Work" value={`${format.number(plan.estimatedTimeInHours)} h × ${format.number(plan.requiredPersonCount)} ${plan.requiredPersonCount === 1 ? "person" : "people"}`} />
          <Detail label="Opens" value={plan.leadTimeDays === 0 ? "On the due date" : `${format.number(plan.leadTimeDays)} ${plan.leadTimeDays === 1 ? "day" : "days"} before it is due`} />
          <Detail label="After a close-out" value={plan.schedule === "FIXED" ? "Stays on the schedule (fixed)" : "Counts from the work done (floating)"} />
          {plan.trigger.kind === "METER" && plan.lastReadingAt ? <Detail label="Meter read" value={format.dateTime(plan.lastReadingAt)} /> : null}
          <Detail label="Changed" value={format.dateTime(plan.updatedAt)} />
        </dl>
        {plan.description ? <p className="text-sm whitespace-pre-wrap wrap-anywhere">{plan.description}</p> : null}
        {plan.trigger.kind === "METER" ? (
          <pre className="max-h-48 overflow-auto rounded-md bg-surface-2 p-3 text-xs whitespace-pre-wrap wrap-anywhere" aria-label="Meter query">
            {plan.trigger.query}
          </pre>
        ) : null}
        <section aria-labelledby="plan-checklist-title">
          <h3 id="plan-checklist-title" className="text-sm font-semibold">
            Checklist
          </h3>
          {plan.checklist.length === 0 ? (
            <p className="text-sm text-fg-muted">No checklist.</p>
          ) : (
            <ol className="mt-1 list-decimal space-y-1 pl-5 text-sm" data-testid="plan-checklist">
              {plan.checklist.map((item) => (
                <li key={item.itemId} className="wrap-anywhere">
                  {item.text}
                  {item.kind === "READING" ? <span className="text-fg-muted"> — reading{item.unit ? ` in ${item.unit}` : ""}{rangeText(item.min, item.max, format)}</span> : null}
                  {item.required ? <Badge className="ml-2">Required</Badge> : null}
                </li>
              ))}
            </ol>
          )}
        </section>
        <div className="flex flex-wrap gap-2">
          <ButtonLink href={`${plantPath(plantId, "planned")}?asset=${encodeURIComponent(plan.assetTagNumber)}&view=list`}>Planned jobs of {plan.assetTagNumber}</ButtonLink>
          {canWrite ? (
            <>
              <Button variant="primary" onClick={() => run.mutate()} disabled={run.isPending}>
                {run.isPending ? "Running…" : "Run now"}
              </Button>
              <Button onClick={onEdit}>Edit</Button>
              <Button onClick={() => toggle.mutate()} disabled={toggle.isPending}>
                {plan.enabled ? "Disable" : "Enable"}
              </Button>
              {confirming ? (
                <>
                  <Button variant="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
                    Delete “{plan.title}”
                  </Button>
                  <Button variant="ghost" onClick={() => setConfirming(false)}>
                    Keep it
                  </Button>
                </>
              ) : (
                <Button variant="danger" onClick={() => setConfirming(true)}>
                  Delete…
                </Button>
              )}
            </>
          ) : null}
        </div>
        <div aria-live="polite" className="text-sm">
          {run.error ? <p className="text-danger">Run failed: {errorMessage(run.error)}</p> : null}
          {remove.error ? <p className="text-danger">Not deleted: {errorMessage(remove.error)}</p> : null}
          {toggle.error ? <p className="text-danger">Not changed: {errorMessage(toggle.error)}</p> : null}
          {lastRun ? <RunOutcome plantId={plantId} result={lastRun} format={format} labels={labels} /> : null}
        </div>
      </CardBody>
    </Card>
  );
}

function RunOutcome({ plantId, result, format }: { plantId: string; result: TPlanRunResult; format: Format; labels: LookupLabels }) {
  const next = result.nextDueDate ? ` Next due ${format.date(result.nextDueDate)}.` : result.nextDueReading !== null ? ` Next due at ${format.number(result.nextDueReading)}.` : "";
  if (result.opened.length === 0) return <p data-testid="plan-run-outcome">Nothing was due, or its task is already open.{next}</p>;
  return (
    <p data-testid="plan-run-outcome">
      Opened{" "}
      {result.opened.map((taskId, index) => (
        <span key={taskId}>
          {index > 0 ? ", " : ""}
          <Link className="font-medium text-accent hover:underline" href={`${plantPath(plantId, "tasks")}?task=${encodeURIComponent(taskId)}`}>
            {taskId}
          </Link>
        </span>
      ))}
      .{next}
    </p>
  );
}

function rangeText(min: number | null, max: number | null, format: Format): string {
  if (min !== null && max !== null) return `, ${format.number(min)}–${format.number(max)}`;
  if (min !== null) return `, at least ${format.number(min)}`;
  if (max !== null) return `, at most ${format.number(max)}`;
  return "";
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-fg-muted">{label}</dt>
      <dd className="wrap-anywhere">{value}</dd>
    </div>
  );
}
