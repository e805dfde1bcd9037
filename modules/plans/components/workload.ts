/**
 * The plans' work by week (Monday first): each week's hours (estimated hours × people) per role
 * and in all, against the crew's hours a week; a week above it is overloaded. Two kinds of work
 * count: the plans' coming occurrences (the service writes each as a planned job with its `planId`,
 * docs/api.md "Maintenance plans") and the open tasks, in their due week. A task a plan opened is
 * its occurrence: it counts once, with the plan's estimate, and the occurrence's planned job (if a
 * listing still holds it) is left out. Other open tasks carry no estimate in the spec: they are
 * counted per week, not in hours. Work past due, or with no due date, is this week's. Pure.
 */
import type { TPlannedJob, TTask } from "@/modules/maintenance/contract/maintenance";

/** One piece of a week's work. */
interface WorkloadEntry {
  kind: "occurrence" | "task";
  /** The planned job's id, or the task's. */
  id: string;
  dueDate: string | null;
  title: string;
  tagNumber: string;
  planId: string | null;
  /** Role (trade) the hours count against. */
  role: string | null;
  /** Estimated hours × people; null when unknown (a task no plan opened). */
  hours: number | null;
}

interface WorkloadWeek {
  /** The week's Monday, `YYYY-MM-DD`. */
  start: string;
  entries: WorkloadEntry[];
  hours: number;
  byTrade: { trade: string; hours: number }[];
  /** Open tasks in this week whose hours are unknown. */
  unestimated: number;
  overloaded: boolean;
}

/** What a plan contributes to its tasks' hours. */
type PlanEstimate = { id: string; estimatedTimeInHours: number; requiredPersonCount: number };

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
const isoOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The Monday of a day's week (1970-01-01, day 0, was a Thursday). */
export function mondayOf(iso: string): string {
  const day = dayNumber(iso);
  return isoOfDay(day - ((day + 3) % 7));
}

const jobHours = (job: { estimatedTimeInHours: string | number; requiredPersonCount: number }) => (Number(job.estimatedTimeInHours) || 0) * Math.max(1, job.requiredPersonCount);

export function workloadWeeks(
  work: { jobs: readonly TPlannedJob[]; tasks: readonly TTask[]; plans: readonly PlanEstimate[] },
  { today, weeks, crewHours }: { today: string; weeks: number; crewHours: number },
): WorkloadWeek[] {
  const first = dayNumber(mondayOf(today));
  const out: WorkloadWeek[] = Array.from({ length: weeks }, (_, index) => ({ start: isoOfDay(first + index * 7), entries: [], hours: 0, byTrade: [], unestimated: 0, overloaded: false }));
  const place = (entry: WorkloadEntry) => {
    const index = entry.dueDate === null ? 0 : Math.max(0, Math.floor((dayNumber(entry.dueDate) - first) / 7));
    out[index]?.entries.push(entry);
  };
  const plans = new Map(work.plans.map((plan) => [plan.id, plan]));
  const open = work.tasks.filter((task) => task.status !== "CLOSED");
  // An occurrence whose task is open is that task's work (its due date is the occurrence's).
  const opened = new Set(open.filter((task) => task.planId).map((task) => `${task.planId}\u0000${task.dueDate}`));
  for (const job of work.jobs) {
    if (!job.planId || opened.has(`${job.planId}\u0000${job.dueDate}`)) continue;
    place({ kind: "occurrence", id: job.id, dueDate: job.dueDate, title: job.jobTitle, tagNumber: job.asset.tagNumber, planId: job.planId, role: job.department, hours: jobHours(job) });
  }
  for (const task of open) {
    const plan = task.planId ? plans.get(task.planId) : undefined;
    place({
      kind: "task",
      id: task.id,
      dueDate: task.dueDate,
      title: task.taskTitle,
      tagNumber: task.asset.tagNumber,
      planId: task.planId ?? null,
      role: task.assignedToRole,
      hours: plan ? jobHours(plan) : null,
    });
  }
  for (const week of out) {
    const trades = new Map<string, number>();
    for (const entry of week.entries) {
      if (entry.hours === null) {
        week.unestimated += 1;
        continue;
      }
      week.hours += entry.hours;
      const trade = entry.role ?? "";
      trades.set(trade, (trades.get(trade) ?? 0) + entry.hours);
    }
    week.entries.sort((a, b) => (a.dueDate ?? "").localeCompare(b.dueDate ?? "") || a.kind.localeCompare(b.kind) || a.title.localeCompare(b.title));
    week.byTrade = [...trades].map(([trade, hours]) => ({ trade, hours })).sort((a, b) => b.hours - a.hours || a.trade.localeCompare(b.trade));
    week.overloaded = week.hours > crewHours;
  }
  return out;
}
