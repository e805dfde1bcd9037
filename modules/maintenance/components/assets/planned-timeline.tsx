"use client";
/**
 * An asset's planned jobs over the next six months: a timeline to see the load at a glance, with
 * overdue work gathered in a red lane before today, and the same jobs as a list (the accessible,
 * detailed form of the picture).
 */
import { Badge } from "@/components/ui/badge";
import { addDays } from "@/lib/client/dates";
import { useFormat } from "@/lib/client/format";
import type { LookupLabels } from "@/modules/maintenance/client/maintenance";
import type { TPlannedJob } from "@/modules/maintenance/contract/maintenance";

const DAY_MS = 86_400_000;
const OVERDUE_LANE = 0.12; // share of the width for the overdue lane
const LANES = 4;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "Mar", or "Jan 27" where a year begins: short enough for a month-wide column on a tablet. */
const shortMonth = (month: string) => {
  const name = MONTHS[Number(month.slice(5, 7)) - 1] ?? month;
  return month.endsWith("-01") ? `${name} ${month.slice(2, 4)}` : name;
};

const dayNumber = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);

function daysOverdue(job: TPlannedJob, today: string): number {
  return Math.max(0, dayNumber(today) - dayNumber(job.dueDate));
}

function recurrenceText(job: TPlannedJob): string | null {
  if (!job.recurrence) return null;
  const unit = job.recurrence.unit.toLowerCase();
  return job.recurrence.every === 1 ? `every ${unit}` : `every ${job.recurrence.every} ${unit}s`;
}

export function PlannedTimeline({ jobs, today, horizonEnd, labels }: { jobs: TPlannedJob[]; today: string; horizonEnd: string; labels: Pick<LookupLabels, "label"> }) {
  const format = useFormat();
  const overdue = jobs.filter((j) => j.dueDate < today);
  const upcoming = jobs.filter((j) => j.dueDate >= today && j.dueDate <= horizonEnd);
  const start = dayNumber(today);
  const span = Math.max(1, dayNumber(horizonEnd) - start);
  const months: string[] = [];
  for (let month = today.slice(0, 7); month <= horizonEnd.slice(0, 7); month = addDays(`${month}-01`, 32).slice(0, 7)) months.push(month);

  // Jobs close together are put on separate lanes so each stays visible and clickable.
  const laneEnds: number[] = [];
  const placed = upcoming.map((job) => {
    const x = OVERDUE_LANE + (1 - OVERDUE_LANE) * ((dayNumber(job.dueDate) - start) / span);
    let lane = laneEnds.findIndex((end) => x - end > 0.025);
    if (lane < 0) lane = laneEnds.length < LANES ? laneEnds.length : laneEnds.indexOf(Math.min(...laneEnds));
    laneEnds[lane] = x;
    return { job, x, lane };
  });

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm" data-testid="planned-summary">
        <strong>{jobs.length}</strong> planned {jobs.length === 1 ? "job" : "jobs"}
        {overdue.length > 0 ? (
          <>
            {" · "}
            <strong className="text-danger">{overdue.length} overdue</strong>
          </>
        ) : null}
      </p>
      <div
        role="img"
        aria-label={`Timeline: ${overdue.length} overdue, ${upcoming.length} due between ${format.date(today)} and ${format.date(horizonEnd)}`}
        className="relative h-28 rounded-md border border-line bg-canvas"
      >
        <div className="absolute inset-y-0 left-0 border-r border-danger/40 bg-danger-soft" style={{ width: `${OVERDUE_LANE * 100}%` }}>
          <span className="absolute top-1 left-1 text-[11px] font-semibold text-danger">Overdue</span>
          <span className="absolute bottom-1 left-1 text-lg font-semibold text-danger">{overdue.length}</span>
        </div>
        {months.map((month) => {
          // The current month starts before today: its label would collide with the next one.
          const first = dayNumber(`${month}-01`);
          if (first < start) return null;
          const x = OVERDUE_LANE + (1 - OVERDUE_LANE) * ((first - start) / span);
          return (
            <div key={month} className="absolute inset-y-0 border-l border-line" style={{ left: `${x * 100}%` }}>
              <span className="absolute bottom-1 left-1 whitespace-nowrap text-[11px] text-fg-muted">{shortMonth(month)}</span>
            </div>
          );
        })}
        {placed.map(({ job, x, lane }) => (
          <span
            key={job.id}
            title={`${format.date(job.dueDate)} · ${job.jobTitle}`}
            className="absolute size-3 -translate-x-1/2 rotate-45 rounded-[2px] border border-surface bg-accent"
            style={{ left: `${x * 100}%`, top: `${24 + lane * 14}px` }}
          />
        ))}
      </div>
      <p className="-mt-2 text-xs text-fg-muted">Red lane: overdue. Then from today to {format.date(horizonEnd)}; each diamond is a job.</p>
      {jobs.length > 0 && (
        // Scrollable, so reachable by keyboard (Tab, then arrow keys scroll).
        <div role="region" aria-label="Planned jobs" tabIndex={0} className="max-h-80 overflow-auto rounded-md border border-line">
          <ol className="flex flex-col divide-y divide-line" data-testid="planned-list">
            {[...overdue, ...upcoming].map((job) => {
              const late = daysOverdue(job, today);
              const recurrence = recurrenceText(job);
              return (
                <li key={job.id} className={`px-3 py-2 text-sm ${late > 0 ? "bg-danger-soft/60" : ""}`}>
                  <span className="flex flex-wrap items-center gap-2 text-xs text-fg-muted">
                    <span className="tabular-nums">{format.date(job.dueDate)}</span>
                    {late > 0 && <Badge tone="danger">Overdue {late} d</Badge>}
                  </span>
                  <span className="block font-medium">{job.jobTitle}</span>
                  <span className="block text-xs text-fg-muted">
                    {labels.label("activityKind", job.activityKind)} · {job.estimatedTimeInHours} h{recurrence ? ` · ${recurrence}` : ""}
                  </span>
                </li>
              );
            })}
          </ol>
        </div>
      )}
    </div>
  );
}
