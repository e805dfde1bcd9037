/**
 * Planned work spread over the calendar: a planned job is due on its `dueDate`, and a recurring one
 * again every `every` days, weeks or months after it (a monthly job due on the 31st falls on the
 * last day of shorter months). A job already due before today is overdue once — its repeats are
 * counted from today on, not as a trail of missed visits. Pure.
 */
import type { TPlannedJob } from "@/modules/maintenance/contract/maintenance";

export interface Occurrence {
  job: TPlannedJob;
  /** The day this visit is due, `YYYY-MM-DD`. */
  date: string;
  /** 0 for the job's own due date, n for its n-th repeat. */
  repeat: number;
  /** Days past due (0 when not overdue). */
  overdueDays: number;
}

const DAY_MS = 86_400_000;
/** No plant plans visits more often than daily; this bounds a year of a daily job and then some. */
const MAX_REPEATS = 800;

const dayNumber = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
const isoOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The n-th repeat's day after `due` for a recurrence (months keep the day, clamped to the month's end). */
export function repeatDate(due: string, recurrence: NonNullable<TPlannedJob["recurrence"]>, n: number): string {
  if (recurrence.unit === "DAY") return isoOfDay(dayNumber(due) + n * recurrence.every);
  if (recurrence.unit === "WEEK") return isoOfDay(dayNumber(due) + n * 7 * recurrence.every);
  const [year, month, day] = due.split("-").map(Number) as [number, number, number];
  const monthIndex = month - 1 + n * recurrence.every;
  const targetYear = year + Math.floor(monthIndex / 12);
  const targetMonth = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  return new Date(Date.UTC(targetYear, targetMonth, Math.min(day, lastDay))).toISOString().slice(0, 10);
}

/**
 * Every visit of `jobs` due in `[from, to]`, plus each overdue job (due before `today`) once when
 * `includeOverdue` — overdue first (longest overdue first), then by day and title.
 */
export function occurrences(jobs: readonly TPlannedJob[], { from, to, today, includeOverdue }: { from: string; to: string; today: string; includeOverdue: boolean }): Occurrence[] {
  const out: Occurrence[] = [];
  for (const job of jobs) {
    const overdue = job.dueDate < today;
    if (overdue && includeOverdue) out.push({ job, date: job.dueDate, repeat: 0, overdueDays: dayNumber(today) - dayNumber(job.dueDate) });
    else if (!overdue && job.dueDate >= from && job.dueDate <= to) out.push({ job, date: job.dueDate, repeat: 0, overdueDays: 0 });
    if (!job.recurrence) continue;
    for (let n = 1; n <= MAX_REPEATS; n += 1) {
      const date = repeatDate(job.dueDate, job.recurrence, n);
      if (date > to) break;
      // Repeats fall due from today on; those before are folded into the overdue visit.
      if (date >= from && date >= today) out.push({ job, date, repeat: n, overdueDays: 0 });
    }
  }
  return out.sort((a, b) => b.overdueDays - a.overdueDays || a.date.localeCompare(b.date) || a.job.jobTitle.localeCompare(b.job.jobTitle) || a.repeat - b.repeat);
}

export function recurrenceText(job: Pick<TPlannedJob, "recurrence">): string | null {
  if (!job.recurrence) return null;
  const unit = job.recurrence.unit.toLowerCase();
  return job.recurrence.every === 1 ? `every ${unit}` : `every ${job.recurrence.every} ${unit}s`;
}

interface PlannedFilters {
  kind: string;
  dept: string;
  asset: string;
  /** Words that must all appear in the title, id, asset or work order. */
  q: string;
}

export function matchesFilters(job: TPlannedJob, filters: PlannedFilters): boolean {
  if (filters.kind && job.activityKind !== filters.kind) return false;
  if (filters.dept && job.department !== filters.dept) return false;
  if (filters.asset && job.asset.tagNumber !== filters.asset) return false;
  if (!filters.q.trim()) return true;
  const haystack = `${job.id} ${job.jobTitle} ${job.asset.tagNumber} ${job.workOrder?.id ?? ""}`.toLowerCase();
  return filters.q.toLowerCase().split(/\s+/).filter(Boolean).every((word) => haystack.includes(word));
}

/** The weeks (rows of seven days, Monday first) of the grid that shows a month. */
export function monthGrid(month: string, weekStartsOn: 1 | 7 = 1): string[][] {
  const first = dayNumber(`${month}-01`);
  // Day 0 (1970-01-01) was a Thursday: 4 in ISO numbering (Monday 1 … Sunday 7).
  const isoWeekday = ((first + 3) % 7) + 1;
  const lead = weekStartsOn === 1 ? isoWeekday - 1 : isoWeekday % 7;
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  const days = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  const cells = Math.ceil((lead + days) / 7) * 7;
  const weeks: string[][] = [];
  for (let index = 0; index < cells; index += 7) weeks.push(Array.from({ length: 7 }, (_, offset) => isoOfDay(first - lead + index + offset)));
  return weeks;
}

/** "2026-11" → "2026-12" (or back with -1). */
export function shiftMonth(month: string, delta: number): string {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  const date = new Date(Date.UTC(year, monthNumber - 1 + delta, 1));
  return date.toISOString().slice(0, 7);
}
