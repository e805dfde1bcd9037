/**
 * The plans' coming occurrences by week (Monday first): each week's hours (estimated hours ×
 * people) per trade and in all, against the crew's hours a week; a week above it is overloaded.
 * The service writes each occurrence of a plan as a planned job with its `planId` (docs/api.md
 * "Maintenance plans"), so the rows are the occurrences as they are. Pure.
 */
import type { TPlannedJob } from "@/lib/contract/maintenance";

interface WorkloadWeek {
  /** The week's Monday, `YYYY-MM-DD`. */
  start: string;
  jobs: TPlannedJob[];
  hours: number;
  byTrade: { trade: string; hours: number }[];
  overloaded: boolean;
}

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
const isoOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The Monday of a day's week (1970-01-01, day 0, was a Thursday). */
export function mondayOf(iso: string): string {
  const day = dayNumber(iso);
  return isoOfDay(day - ((day + 3) % 7));
}

export const jobHours = (job: Pick<TPlannedJob, "estimatedTimeInHours" | "requiredPersonCount">) => (Number(job.estimatedTimeInHours) || 0) * Math.max(1, job.requiredPersonCount);

export function workloadWeeks(jobs: readonly TPlannedJob[], { today, weeks, crewHours }: { today: string; weeks: number; crewHours: number }): WorkloadWeek[] {
  const first = dayNumber(mondayOf(today));
  const out: WorkloadWeek[] = Array.from({ length: weeks }, (_, index) => ({ start: isoOfDay(first + index * 7), jobs: [], hours: 0, byTrade: [], overloaded: false }));
  for (const job of jobs) {
    if (!job.planId) continue;
    // An occurrence already past due is this week's work.
    const index = Math.max(0, Math.floor((dayNumber(job.dueDate) - first) / 7));
    const week = out[index];
    if (!week) continue;
    week.jobs.push(job);
  }
  for (const week of out) {
    const trades = new Map<string, number>();
    for (const job of week.jobs) {
      const hours = jobHours(job);
      week.hours += hours;
      trades.set(job.department, (trades.get(job.department) ?? 0) + hours);
    }
    week.jobs.sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.jobTitle.localeCompare(b.jobTitle));
    week.byTrade = [...trades].map(([trade, hours]) => ({ trade, hours })).sort((a, b) => b.hours - a.hours || a.trade.localeCompare(b.trade));
    week.overloaded = week.hours > crewHours;
  }
  return out;
}
