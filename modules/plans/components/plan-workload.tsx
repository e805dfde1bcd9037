"use client";
/**
 * The plans' workload: the coming weeks (`weeks` in the URL, 4–26), each with its occurrences and
 * hours per trade against the crew's hours a week (`crew` in the URL), overloaded weeks marked in
 * words and colour. Calendar plans contribute each occurrence, meter plans their forecast one.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Field, Input, Select } from "@/components/ui/field";
import { TableSkeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { addDays } from "@/lib/client/dates";
import { parseLocaleNumber, useFormat, useToday } from "@/lib/client/format";
import { useLookupLabels } from "@/lib/client/maintenance";
import { intParam, useUrlState } from "@/lib/client/url-state";
import type { TMaintenancePlan } from "@/lib/contract/maintenance-plans";
import { planKeys, plansApi } from "@/modules/plans/client/plans";
import { jobHours, workloadWeeks } from "./workload";

const DEFAULT_CREW_HOURS = 80;

export function PlanWorkload({ plantId, plans }: { plantId: string; plans: readonly TMaintenancePlan[] }) {
  const { get, update } = useUrlState();
  const format = useFormat();
  const today = useToday();
  const labels = useLookupLabels(plantId);
  const weeks = Math.max(4, intParam(get("weeks") || null, 12, 26));
  const crewText = get("crew");
  const crewParsed = crewText ? parseLocaleNumber(crewText, format.locale) : DEFAULT_CREW_HOURS;
  const crewHours = crewParsed !== null && crewParsed > 0 ? crewParsed : DEFAULT_CREW_HOURS;
  const endDate = addDays(today, weeks * 7 + 7);
  const planned = useQuery({ queryKey: planKeys.planned(plantId, endDate), queryFn: ({ signal }) => plansApi.planned(plantId, endDate, signal) });
  const rows = planned.data ? workloadWeeks(planned.data, { today, weeks, crewHours }) : [];
  const overloaded = rows.filter((week) => week.overloaded).length;
  const titles = new Map(plans.map((plan) => [plan.id, plan.title]));

  return (
    <Card aria-labelledby="workload-title">
      <CardHeader
        id="workload-title"
        title="Workload by week"
        description={planned.data ? `${format.number(rows.reduce((sum, week) => sum + week.jobs.length, 0))} planned occurrences in ${weeks} weeks; ${overloaded === 0 ? "no week is overloaded" : `${format.number(overloaded)} ${overloaded === 1 ? "week is" : "weeks are"} over the crew's hours`}.` : "Estimated hours × people of each plan's occurrences, week by week."}
      />
      <div className="flex flex-wrap items-end gap-3 px-4 pb-3">
        <Field label="Weeks">
          {(control) => (
            <Select {...control} value={String(weeks)} onChange={(event) => update({ weeks: event.target.value === "12" ? null : event.target.value })} options={[4, 8, 12, 26].map((value) => ({ value: String(value), label: `${value} weeks` }))} />
          )}
        </Field>
        <Field label="Crew hours a week" hint="All trades together" error={crewText && crewParsed === null ? "Write a number of hours, e.g. 80." : crewText && crewParsed !== null && crewParsed <= 0 ? "Must be more than 0." : undefined}>
          {(control) => <Input {...control} inputMode="decimal" className="w-32" defaultValue={crewText || String(DEFAULT_CREW_HOURS)} onBlur={(event) => update({ crew: event.target.value.trim() === String(DEFAULT_CREW_HOURS) ? null : event.target.value.trim() || null })} onKeyDown={(event) => event.key === "Enter" && update({ crew: event.currentTarget.value.trim() || null })} />}
        </Field>
      </div>
      {planned.error ? (
        <ErrorState error={planned.error} title="The planned occurrences could not be loaded" onRetry={() => void planned.refetch()} />
      ) : planned.isPending ? (
        <TableSkeleton rows={6} columns={3} />
      ) : rows.every((week) => week.jobs.length === 0) ? (
        <EmptyState title="Nothing planned">No plan has an occurrence in the next {weeks} weeks.</EmptyState>
      ) : (
        <ol className="divide-y divide-line" aria-label="Weeks" data-testid="workload-weeks">
          {rows.map((week) => (
            <li key={week.start} className={cn("space-y-2 px-4 py-3", week.overloaded && "bg-danger-soft/40")} data-testid="workload-week">
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="mr-auto text-sm font-semibold">Week of {format.date(week.start)}</h3>
                <span className="text-sm">
                  {format.number(week.hours, { maximumFractionDigits: 1 })} h of {format.number(crewHours)} h
                </span>
                {week.overloaded ? <Badge tone="danger">Overloaded</Badge> : week.jobs.length ? <Badge tone="success">Fits</Badge> : null}
              </div>
              <div className="h-2 w-full overflow-hidden rounded bg-surface-2" aria-hidden="true">
                <div className={cn("h-full", week.overloaded ? "bg-danger" : "bg-accent")} style={{ width: `${Math.min(100, (week.hours / crewHours) * 100)}%` }} />
              </div>
              {week.byTrade.length ? (
                <p className="text-xs text-fg-muted">{week.byTrade.map((trade) => `${labels.label("assignedToRole", trade.trade)} ${format.number(trade.hours, { maximumFractionDigits: 1 })} h`).join(" · ")}</p>
              ) : null}
              {week.jobs.length ? (
                <ul className="space-y-1 text-sm">
                  {week.jobs.map((job) => (
                    <li key={job.id} className="flex flex-wrap gap-x-3">
                      <span className="w-28 shrink-0 text-fg-muted">{format.date(job.dueDate)}</span>
                      <Link className="min-w-0 font-medium text-accent wrap-anywhere hover:underline" href={`?plan=${encodeURIComponent(job.planId ?? "")}`} scroll={false}>
                        {titles.get(job.planId ?? "") ?? job.jobTitle}
                      </Link>
                      <span className="text-fg-muted">
                        {job.asset.tagNumber} · {format.number(jobHours(job), { maximumFractionDigits: 1 })} h
                      </span>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-xs text-fg-muted">Nothing planned.</p>
              )}
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
