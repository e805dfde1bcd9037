/** Figures derived from job records (hours are decimal strings in the spec). */
import type { Format } from "@/lib/client/format";
import type { TJobDone } from "@/modules/maintenance/contract/maintenance";

export function jobHours(job: Pick<TJobDone, "totalTimeUsedInHours">): number {
  const hours = Number(job.totalTimeUsedInHours);
  return Number.isFinite(hours) ? hours : 0;
}

/** Hours in the reader's language ("3.211,8 h" in German), one decimal at most. */
export function formatHours(hours: number, format: Pick<Format, "number">): string {
  return `${format.number(hours, { maximumFractionDigits: 1 })} h`;
}

interface MonthlyHours {
  month: string;
  total: number;
  [activityKind: string]: number | string;
}

/** Hours per calendar month (of doneDate) split by activity kind, months in order, gaps filled. */
export function hoursByMonth(jobs: readonly TJobDone[]): { months: MonthlyHours[]; kinds: string[] } {
  const byMonth = new Map<string, Map<string, number>>();
  const kinds = new Set<string>();
  for (const job of jobs) {
    const month = job.doneDate.slice(0, 7);
    kinds.add(job.activityKind);
    const perKind = byMonth.get(month) ?? new Map<string, number>();
    perKind.set(job.activityKind, (perKind.get(job.activityKind) ?? 0) + jobHours(job));
    byMonth.set(month, perKind);
  }
  const sortedMonths = [...byMonth.keys()].sort();
  const first = sortedMonths[0];
  const last = sortedMonths[sortedMonths.length - 1];
  const months: MonthlyHours[] = [];
  if (first && last) {
    for (let cursor = first; cursor <= last; cursor = nextMonth(cursor)) {
      const perKind = byMonth.get(cursor);
      const row: MonthlyHours = { month: cursor, total: 0 };
      for (const kind of kinds) {
        const value = Math.round((perKind?.get(kind) ?? 0) * 10) / 10;
        row[kind] = value;
        row.total = Math.round((row.total + value) * 10) / 10;
      }
      months.push(row);
    }
  }
  return { months, kinds: [...kinds].sort() };
}

function nextMonth(yearMonth: string): string {
  const [year, month] = yearMonth.split("-").map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, "0")}`;
}
