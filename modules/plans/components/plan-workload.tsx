"use client";
/**
 * The plans' workload: the coming weeks (`weeks` in the URL, 4–26), each with its occurrences, the
 * open tasks due in it and its hours per role against the crew's hours a week (`crew` in the URL),
 * overloaded weeks marked in words and colour. Calendar plans contribute each occurrence, meter
 * plans their forecast one; a task a plan opened counts once, with the plan's estimate (workload.ts).
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { plantPath } from "@/components/shell/nav-items";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Field, Input, Select } from "@/components/ui/field";
import { TableSkeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { addDays } from "@/lib/client/dates";
import { parseLocaleNumber, useFormat, useToday } from "@/lib/client/format";
import { maintenanceClient, maintenanceKeys, useLookupLabels } from "@/modules/maintenance/client/maintenance";
import { OPEN_TASK_STATUSES } from "@/lib/contract/vocabulary";
import { intParam, useUrlState } from "@/lib/client/url-state";
import type { TMaintenancePlan } from "@/modules/maintenance/contract/maintenance-plans";
import { planKeys, plansApi } from "@/modules/plans/client/plans";
import { workloadWeeks } from "./workload";

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
  const openTasks = useQuery({
    queryKey: [...maintenanceKeys.tasks(plantId), "open"],
    queryFn: ({ signal }) => maintenanceClient.allTasks(plantId, { taskStatus: OPEN_TASK_STATUSES.join(",") }, signal),
  });
  const loaded = planned.data && openTasks.data;
  const rows = loaded ? workloadWeeks({ jobs: planned.data, tasks: openTasks.data, plans }, { today, weeks, crewHours }) : [];
  const overloaded = rows.filter((week) => week.overloaded).length;
  const count = (kind: "occurrence" | "task") => rows.reduce((sum, week) => sum + week.entries.filter((entry) => entry.kind === kind).length, 0);
  const failed = planned.error ?? openTasks.error;
  const titles = new Map(plans.map((plan) => [plan.id, plan.title]));

  return (
    <Card aria-labelledby="workload-title">
      <CardHeader
        id="workload-title"
        title="Workload by week"
        description={loaded ? `${format.number(count("occurrence"))} planned occurrences and ${format.number(count("task"))} open tasks in ${weeks} weeks; ${overloaded === 0 ? "no week is overloaded" : `${format.number(overloaded)} ${overloaded === 1 ? "week is" : "weeks are"} over the crew's hours`}.` : "Estimated hours × people of each plan's occurrences and open tasks, week by week."}
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
      {failed ? (
        <ErrorState error={failed} title="The planned occurrences and open tasks could not be loaded" onRetry={() => void Promise.all([planned.refetch(), openTasks.refetch()])} />
      ) : !loaded ? (
        <TableSkeleton rows={6} columns={3} />
      ) : rows.every((week) => week.entries.length === 0) ? (
        <EmptyState title="Nothing planned">No plan has an occurrence and no task is open in the next {weeks} weeks.</EmptyState>
      ) : (
        <ol className="divide-y divide-line" aria-label="Weeks" data-testid="workload-weeks">
          {rows.map((week) => (
            <li key={week.start} className={cn("space-y-2 px-4 py-3", week.overloaded && "bg-danger-soft/40")} data-testid="workload-week">
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="mr-auto text-sm font-semibold">Week of {format.date(week.start)}</h3>
                <span className="text-sm">
                  {format.number(week.hours, { maximumFractionDigits: 1 })} h of {format.number(crewHours)} h
                </span>
                {week.overloaded ? <Badge tone="danger">Overloaded</Badge> : week.entries.length ? <Badge tone="success">Fits</Badge> : null}
              </div>
              <div className="h-2 w-full overflow-hidden rounded bg-surface-2" aria-hidden="true">
                <div className={cn("h-full", week.overloaded ? "bg-danger" : "bg-accent")} style={{ width: `${Math.min(100, (week.hours / crewHours) * 100)}%` }} />
              </div>
              {week.byTrade.length || week.unestimated ? (
                <p className="text-xs text-fg-muted">
                  {[
                    ...week.byTrade.map((trade) => `${trade.trade ? labels.label("assignedToRole", trade.trade) : "No role"} ${format.number(trade.hours, { maximumFractionDigits: 1 })} h`),
                    ...(week.unestimated ? [`${format.number(week.unestimated)} open ${week.unestimated === 1 ? "task" : "tasks"} without an estimate (not in the hours)`] : []),
                  ].join(" · ")}
                </p>
              ) : null}
              {week.entries.length ? (
                <ul className="space-y-1 text-sm">
                  {week.entries.map((entry) => (
                    <li key={`${entry.kind}:${entry.id}`} className="flex flex-wrap gap-x-3">
                      <span className="w-28 shrink-0 text-fg-muted">{entry.dueDate ? format.date(entry.dueDate) : "No due date"}</span>
                      {entry.kind === "task" ? <Badge tone="neutral">Open task</Badge> : null}
                      {entry.kind === "task" ? (
                        <Link className="min-w-0 font-medium text-accent wrap-anywhere hover:underline" href={`${plantPath(plantId, "tasks")}?task=${encodeURIComponent(entry.id)}`}>
                          {entry.title}
                        </Link>
                      ) : (
                        <Link className="min-w-0 font-medium text-accent wrap-anywhere hover:underline" href={`?plan=${encodeURIComponent(entry.planId ?? "")}`} scroll={false}>
                          {titles.get(entry.planId ?? "") ?? entry.title}
                        </Link>
                      )}
                      <span className="text-fg-muted">
                        {entry.tagNumber}
                        {entry.hours === null ? "" : ` · ${format.number(entry.hours, { maximumFractionDigits: 1 })} h`}
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
