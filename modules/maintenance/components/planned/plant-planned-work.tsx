"use client";
/**
 * The plant's planned work as a whole: a list (overdue first, then every visit in the chosen
 * days, recurring jobs as their repeats) and a month calendar, with the same filters. Everything
 * is in the URL: `view` (list | calendar), `from`, `to`, `overdue=1`, `kind`, `dept`, `asset`, `q`,
 * `month`, `page`, `size`, and `job`+`on` for the open detail. The overview's "Overdue planned
 * jobs" lands here with `overdue=1`.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo } from "react";
import { plantPath } from "@/components/shell/nav-items";
import { AssetPicker } from "@/components/ui/asset-picker";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { columnHelper, DataTable, PAGE_SIZES, type DataColumn } from "@/components/ui/data-table";
import { DetailList, Drawer } from "@/components/ui/drawer";
import { Field, FilterSelect, Input } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { fetchAllPages } from "@/lib/client/api";
import { addDays, isIsoDate } from "@/lib/client/dates";
import { useFormat, useToday, type Format } from "@/lib/client/format";
import { operationApiPath } from "@/lib/contract/api";
import { maintenanceKeys, useLookupLabels } from "@/modules/maintenance/client/maintenance";
import { intParam, useUrlState } from "@/lib/client/url-state";
import type { TPlannedJob } from "@/modules/maintenance/contract/maintenance";
import { matchesFilters, monthGrid, occurrences, recurrenceText, shiftMonth, type Occurrence } from "./occurrences";

/** The list's default window: the coming 30 days (daily rounds make longer ones very long). */
const DEFAULT_LIST_DAYS = 30;
const DEFAULT_PAGE_SIZE = 50;
/** Visits shown in a calendar day before "+ n more". */
const DAY_SHOWN = 3;

type PlantView = "list" | "calendar";

function usePlannedJobs(plantId: string, endDate: string) {
  return useQuery({
    queryKey: maintenanceKeys.jobsPlanned(plantId, "plant", endDate),
    // No start date: everything still planned up to the end, overdue work included.
    queryFn: ({ signal }) => fetchAllPages<TPlannedJob>(operationApiPath("listJobsPlanned", { plantId }), { endDate }, signal),
  });
}

export function PlantPlannedWork({ plantId, view }: { plantId: string; view: PlantView }) {
  const { params, get, update } = useUrlState();
  const format = useFormat();
  const today = useToday();
  const lookups = useLookupLabels(plantId);
  const labelFor = useMemo(() => (kind: string | null | undefined) => lookups.label("activityKind", kind), [lookups]);

  const overdueOnly = get("overdue") === "1";
  const fromParam = get("from");
  const toParam = get("to");
  const from = isIsoDate(fromParam) ? fromParam : today;
  const to = isIsoDate(toParam) ? toParam : addDays(from, DEFAULT_LIST_DAYS - 1);
  const monthParam = get("month");
  const month = /^\d{4}-(0[1-9]|1[0-2])$/.test(monthParam) ? monthParam : today.slice(0, 7);
  const kind = get("kind");
  const dept = get("dept");
  const asset = get("asset");
  const q = get("q");

  const problem =
    (fromParam && !isIsoDate(fromParam) && `“${fromParam.slice(0, 40)}” is not a date: choose the first day again.`) ||
    (toParam && !isIsoDate(toParam) && `“${toParam.slice(0, 40)}” is not a date: choose the last day again.`) ||
    (from > to && `The first day (${format.date(from)}) is after the last day (${format.date(to)}).`) ||
    null;

  const monthEnd = addDays(`${shiftMonth(month, 1)}-01`, -1);
  const endDate = view === "calendar" ? monthEnd : overdueOnly ? addDays(today, -1) : to;
  const jobs = usePlannedJobs(plantId, endDate);
  const filtered = useMemo(() => (jobs.data ?? []).filter((job) => matchesFilters(job, { kind, dept, asset, q })), [jobs.data, kind, dept, asset, q]);
  const departments = useMemo(() => [...new Set((jobs.data ?? []).map((job) => job.department))].sort(), [jobs.data]);
  const overdueCount = useMemo(() => filtered.filter((job) => job.dueDate < today).length, [filtered, today]);

  const openJob = get("job");
  const openOn = get("on");
  const opened = openJob ? jobs.data?.find((job) => job.id === openJob) : undefined;

  return (
    <div className="flex flex-col gap-4">
      <Card aria-labelledby="planned-filters-title">
        <h2 id="planned-filters-title" className="sr-only">
          Filters
        </h2>
        <div className="grid grid-cols-1 gap-3 p-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
          {view === "list" ? (
            <>
              <Field label="From">
                {(control) => (
                  <Input {...control} type="date" value={from} disabled={overdueOnly} aria-invalid={problem ? true : undefined} onChange={(event) => isIsoDate(event.target.value) && update({ from: event.target.value })} />
                )}
              </Field>
              <Field label="To">
                {(control) => (
                  <Input {...control} type="date" value={to} disabled={overdueOnly} aria-invalid={problem ? true : undefined} onChange={(event) => isIsoDate(event.target.value) && update({ to: event.target.value })} />
                )}
              </Field>
            </>
          ) : null}
          <FilterSelect label="Activity kind" value={kind} onChange={(value) => update({ kind: value })} options={lookups.values("activityKind").map((entry) => ({ value: entry.value, label: entry.label }))} />
          <FilterSelect label="Department" value={dept} onChange={(value) => update({ dept: value })} options={departments.map((entry) => ({ value: entry, label: entry }))} />
          <AssetPicker plantId={plantId} value={asset} onChange={(value) => update({ asset: value })} />
          <Field label="Search">
            {(control) => <Input {...control} type="search" placeholder="Title, id, work order…" defaultValue={q} onChange={(event) => update({ q: event.target.value }, { replace: true })} />}
          </Field>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-line px-4 py-2">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="h-4 w-4 accent-accent" checked={overdueOnly} onChange={(event) => update({ overdue: event.target.checked ? "1" : null, view: "list" })} />
            Overdue only
            {jobs.data ? <Badge tone={overdueCount > 0 ? "danger" : "success"}>{format.number(overdueCount)} overdue</Badge> : null}
          </label>
          {Array.from(params.keys()).some((key) => ["from", "to", "overdue", "kind", "dept", "asset", "q"].includes(key)) ? (
            <Button size="sm" variant="ghost" onClick={() => update({ from: null, to: null, overdue: null, kind: null, dept: null, asset: null, q: null })}>
              Clear filters
            </Button>
          ) : null}
        </div>
        {problem && view === "list" ? (
          <div role="alert" className="flex flex-wrap items-center justify-between gap-3 border-t border-line bg-danger-soft px-4 py-3 text-sm text-danger">
            <p className="font-medium">{problem}</p>
            <Button size="sm" onClick={() => update({ from: null, to: null })}>
              Back to the next {DEFAULT_LIST_DAYS} days
            </Button>
          </div>
        ) : null}
      </Card>

      {jobs.isError ? (
        <Card>
          <ErrorState error={jobs.error} title="Could not load the planned work" onRetry={() => void jobs.refetch()} />
        </Card>
      ) : view === "list" ? (
        problem ? null : (
          <PlannedList
            plantId={plantId}
            jobs={filtered}
            loading={jobs.isPending}
            from={overdueOnly ? today : from}
            to={overdueOnly ? addDays(today, -1) : to}
            today={today}
            overdueOnly={overdueOnly}
            labelFor={labelFor}
            format={format}
            page={intParam(params.get("page"), 1)}
            pageSize={(PAGE_SIZES as readonly number[]).includes(intParam(params.get("size"), DEFAULT_PAGE_SIZE)) ? intParam(params.get("size"), DEFAULT_PAGE_SIZE) : DEFAULT_PAGE_SIZE}
            onPage={(page, size) => update({ page: page > 1 ? page : null, size: size === DEFAULT_PAGE_SIZE ? null : size }, { keepPage: true })}
            onOpen={(occurrence) => update({ job: occurrence.job.id, on: occurrence.date }, { keepPage: true })}
          />
        )
      ) : (
        <PlannedCalendar
          plantId={plantId}
          jobs={filtered}
          loading={jobs.isPending}
          month={month}
          today={today}
          overdueCount={overdueCount}
          format={format}
          labelFor={labelFor}
          onMonth={(next) => update({ month: next === today.slice(0, 7) ? null : next }, { keepPage: true })}
          onOpen={(occurrence) => update({ job: occurrence.job.id, on: occurrence.date }, { keepPage: true })}
        />
      )}

      <PlannedJobDrawer
        plantId={plantId}
        jobId={openJob}
        job={opened}
        on={openOn}
        loading={jobs.isPending}
        today={today}
        labelFor={labelFor}
        format={format}
        onClose={() => update({ job: null, on: null }, { keepPage: true, replace: true })}
      />
    </div>
  );
}

function dueCell(occurrence: Occurrence, format: Format) {
  return (
    <span className="flex flex-col items-start gap-0.5 whitespace-nowrap">
      <span className="tabular-nums">{format.date(occurrence.date)}</span>
      {occurrence.overdueDays > 0 ? <Badge tone="danger">Overdue {format.number(occurrence.overdueDays)} d</Badge> : null}
    </span>
  );
}

function PlannedList({
  plantId,
  jobs,
  loading,
  from,
  to,
  today,
  overdueOnly,
  labelFor,
  format,
  page,
  pageSize,
  onPage,
  onOpen,
}: {
  plantId: string;
  jobs: TPlannedJob[];
  loading: boolean;
  from: string;
  to: string;
  today: string;
  overdueOnly: boolean;
  labelFor: (value: string | null | undefined) => string;
  format: Format;
  page: number;
  pageSize: number;
  onPage: (page: number, pageSize: number) => void;
  onOpen: (occurrence: Occurrence) => void;
}) {
  // Overdue work is listed whenever the days shown start today or earlier (and alone when asked).
  const rows = useMemo(
    () => (overdueOnly ? occurrences(jobs, { from, to, today, includeOverdue: true }).filter((o) => o.overdueDays > 0) : occurrences(jobs, { from, to, today, includeOverdue: from <= today })),
    [jobs, from, to, today, overdueOnly],
  );
  const pageRows = rows.slice((page - 1) * pageSize, page * pageSize);
  const overdue = rows.filter((row) => row.overdueDays > 0).length;

  const columns = useMemo<DataColumn<Occurrence>[]>(() => {
    const helper = columnHelper<Occurrence>();
    return helper.columns([
      helper.accessor("date", { header: "Due", cell: (info) => dueCell(info.row.original, format) }),
      helper.accessor((row) => row.job.jobTitle, {
        id: "job",
        header: "Job",
        cell: (info) => {
          const { job, repeat } = info.row.original;
          const recurrence = recurrenceText(job);
          return (
            <span className="block max-w-md min-w-48 whitespace-normal wrap-anywhere">
              <span className="font-medium">{job.jobTitle}</span>
              <span className="block text-xs text-fg-muted">
                {job.id}
                {recurrence ? ` · ↻ ${recurrence}` : ""}
                {repeat > 0 ? ` · repeat ${repeat} of the job due ${format.date(job.dueDate)}` : ""}
              </span>
            </span>
          );
        },
      }),
      helper.accessor((row) => row.job.asset.tagNumber, {
        id: "asset",
        header: "Asset",
        cell: (info) => (
          <Link className="font-mono text-xs text-accent hover:underline" href={`${plantPath(plantId, "planned")}?view=assets&asset=${encodeURIComponent(info.getValue())}`} onClick={(event) => event.stopPropagation()}>
            {info.getValue()}
          </Link>
        ),
      }),
      helper.accessor((row) => row.job.activityKind, { id: "activity", header: "Activity", cell: (info) => <Badge tone="accent">{labelFor(info.getValue())}</Badge> }),
      helper.accessor((row) => row.job.department, { id: "department", header: "Department", meta: { wrap: true } }),
      helper.accessor((row) => Number(row.job.estimatedTimeInHours), { id: "hours", header: "Est. hours", meta: { align: "right" }, cell: (info) => format.number(info.getValue(), { maximumFractionDigits: 2 }) }),
      helper.accessor((row) => row.job.requiredPersonCount, { id: "people", header: "People", meta: { align: "right" } }),
      helper.accessor((row) => row.job.workOrder?.id ?? "—", { id: "workOrder", header: "Work order" }),
    ]);
  }, [format, labelFor, plantId]);

  return (
    <DataTable
      caption="Planned work of the plant"
      toolbar={
        <p className="text-sm text-fg-muted" data-testid="planned-list-summary">
          {loading ? (
            "Loading…"
          ) : overdueOnly ? (
            <>
              <strong className="text-danger">{format.number(overdue)} overdue</strong> {overdue === 1 ? "job" : "jobs"}, longest overdue first
            </>
          ) : (
            <>
              {format.number(rows.length)} visits · {overdue > 0 ? <strong className="text-danger">{format.number(overdue)} overdue first</strong> : "none overdue"} · then {format.date(from)} – {format.date(to)}
            </>
          )}
        </p>
      }
      columns={columns}
      rows={pageRows}
      getRowId={(row) => `${row.job.id}@${row.date}`}
      page={page}
      pageSize={pageSize}
      totalPages={Math.ceil(rows.length / pageSize)}
      onPageChange={onPage}
      onRowOpen={onOpen}
      isLoading={loading}
      empty={<EmptyState title={overdueOnly ? "Nothing overdue" : "No planned work"}>{overdueOnly ? "No planned job is past its due date." : "No job is due in these days with these filters."}</EmptyState>}
    />
  );
}

function PlannedCalendar({
  plantId,
  jobs,
  loading,
  month,
  today,
  overdueCount,
  format,
  labelFor,
  onMonth,
  onOpen,
}: {
  plantId: string;
  jobs: TPlannedJob[];
  loading: boolean;
  month: string;
  today: string;
  overdueCount: number;
  format: Format;
  labelFor: (value: string | null | undefined) => string;
  onMonth: (month: string) => void;
  onOpen: (occurrence: Occurrence) => void;
}) {
  const weeks = useMemo(() => monthGrid(month), [month]);
  const byDay = useMemo(() => {
    const first = weeks[0]![0]!;
    const last = weeks[weeks.length - 1]![6]!;
    const map = new Map<string, Occurrence[]>();
    // Overdue jobs sit on the day they were due, so the calendar shows where the backlog began.
    for (const occurrence of occurrences(jobs, { from: first, to: last, today, includeOverdue: true })) {
      if (occurrence.date < first || occurrence.date > last) continue;
      const list = map.get(occurrence.date) ?? [];
      list.push(occurrence);
      map.set(occurrence.date, list);
    }
    return map;
  }, [jobs, weeks, today]);
  const weekdayFormat = useMemo(() => new Intl.DateTimeFormat(format.locale, { weekday: "short", timeZone: "UTC" }), [format.locale]);
  const longWeekday = useMemo(() => new Intl.DateTimeFormat(format.locale, { weekday: "long", timeZone: "UTC" }), [format.locale]);
  const monthTitle = format.month(month);

  return (
    <Card aria-labelledby="calendar-title">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line px-4 py-3">
        <h2 id="calendar-title" className="text-base font-semibold" aria-live="polite">
          {monthTitle}
        </h2>
        <div className="flex items-center gap-1">
          <Button size="sm" onClick={() => onMonth(shiftMonth(month, -1))} aria-label="Previous month">
            ‹
          </Button>
          <Button size="sm" onClick={() => onMonth(today.slice(0, 7))}>
            This month
          </Button>
          <Button size="sm" onClick={() => onMonth(shiftMonth(month, 1))} aria-label="Next month">
            ›
          </Button>
        </div>
      </div>
      {overdueCount > 0 ? (
        <p className="border-b border-line bg-danger-soft px-4 py-2 text-sm text-danger">
          <strong>{format.number(overdueCount)} overdue</strong> {overdueCount === 1 ? "job is" : "jobs are"} past due.{" "}
          <Link href={`${plantPath(plantId, "planned")}?view=list&overdue=1`} className="font-medium underline">
            List the overdue jobs
          </Link>
        </p>
      ) : null}
      {loading ? (
        <div role="status" className="p-4">
          <span className="sr-only">Loading planned work…</span>
          <Skeleton className="h-96 w-full" />
        </div>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[44rem] table-fixed border-collapse text-sm" data-testid="planned-calendar">
            <caption className="sr-only">Planned work in {monthTitle}</caption>
            <thead>
              <tr>
                {weeks[0]!.map((day) => (
                  <th key={day} scope="col" className="border-b border-line px-2 py-1.5 text-left text-xs font-semibold text-fg-muted">
                    <abbr title={longWeekday.format(Date.parse(`${day}T00:00:00Z`))} className="no-underline">
                      {weekdayFormat.format(Date.parse(`${day}T00:00:00Z`))}
                    </abbr>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeks.map((week) => (
                <tr key={week[0]}>
                  {week.map((day) => {
                    const visits = byDay.get(day) ?? [];
                    const inMonth = day.startsWith(month);
                    const overdue = visits.filter((visit) => visit.overdueDays > 0).length;
                    return (
                      <td
                        key={day}
                        className={cn("h-28 border border-line p-1 align-top", !inMonth && "bg-canvas text-fg-muted", day === today && "bg-accent-soft/50")}
                        data-day={day}
                        aria-label={`${format.date(day)}: ${visits.length} planned ${visits.length === 1 ? "visit" : "visits"}${overdue ? `, ${overdue} overdue` : ""}`}
                      >
                        <div className="flex items-center justify-between px-0.5 text-xs">
                          <span className={cn("tabular-nums", day === today && "font-bold text-accent")}>{Number(day.slice(8))}</span>
                          {visits.length > 0 ? <span className="text-fg-muted tabular-nums">{format.number(visits.length)}</span> : null}
                        </div>
                        <ul className="mt-0.5 flex flex-col gap-0.5">
                          {visits.slice(0, DAY_SHOWN).map((visit) => (
                            <li key={`${visit.job.id}-${visit.repeat}`}>
                              <button
                                type="button"
                                onClick={() => onOpen(visit)}
                                title={`${visit.job.jobTitle} · ${labelFor(visit.job.activityKind)}${visit.overdueDays ? ` · overdue ${visit.overdueDays} d` : ""}`}
                                className={cn(
                                  "block w-full truncate rounded px-1 py-0.5 text-left text-xs",
                                  visit.overdueDays > 0 ? "bg-danger-soft text-danger" : visit.repeat > 0 ? "bg-surface-2" : "bg-accent-soft text-accent",
                                )}
                              >
                                {visit.repeat > 0 ? <span aria-label="repeat">↻ </span> : null}
                                {visit.job.jobTitle}
                              </button>
                            </li>
                          ))}
                          {visits.length > DAY_SHOWN ? (
                            <li>
                              <Link href={`${plantPath(plantId, "planned")}?view=list&from=${day}&to=${day}`} className="block px-1 text-xs font-medium text-accent hover:underline">
                                + {format.number(visits.length - DAY_SHOWN)} more
                              </Link>
                            </li>
                          ) : null}
                        </ul>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="px-4 py-2 text-xs text-fg-muted">Red: overdue, on the day it was due. ↻: a repeat of a recurring job. Select a visit for its details.</p>
    </Card>
  );
}

function PlannedJobDrawer({
  plantId,
  jobId,
  job,
  on,
  loading,
  today,
  labelFor,
  format,
  onClose,
}: {
  plantId: string;
  jobId: string;
  job: TPlannedJob | undefined;
  on: string;
  loading: boolean;
  today: string;
  labelFor: (value: string | null | undefined) => string;
  format: Format;
  onClose: () => void;
}) {
  const date = isIsoDate(on) ? on : job?.dueDate;
  return (
    <Drawer open={Boolean(jobId)} onClose={onClose} title={job ? job.jobTitle : `Planned job ${jobId}`} description={job ? `Planned job ${job.id}` : undefined}>
      {!job ? (
        loading ? (
          <p role="status" className="text-sm text-fg-muted">
            Loading…
          </p>
        ) : (
          <EmptyState title="Planned job not found">There is no planned job {jobId} in the loaded period.</EmptyState>
        )
      ) : (
        <DetailList
          items={[
            {
              label: "Due",
              value: (
                <>
                  {format.date(date)}
                  {job.dueDate < today && date === job.dueDate ? (
                    <>
                      {" "}
                      <Badge tone="danger">Overdue</Badge>
                    </>
                  ) : null}
                </>
              ),
            },
            ...(date !== job.dueDate ? [{ label: "Repeat of", value: `the visit due ${format.date(job.dueDate)}` }] : []),
            { label: "Repeats", value: recurrenceText(job) ?? "Once" },
            { label: "Activity", value: <Badge tone="accent">{labelFor(job.activityKind)}</Badge> },
            { label: "Department", value: job.department },
            { label: "Estimated hours", value: format.number(Number(job.estimatedTimeInHours), { maximumFractionDigits: 2 }) },
            { label: "People", value: format.number(job.requiredPersonCount) },
            {
              label: "Asset",
              value: (
                <Link className="font-medium text-accent hover:underline" href={`${plantPath(plantId, "planned")}?view=assets&asset=${encodeURIComponent(job.asset.tagNumber)}`}>
                  {job.asset.tagNumber}
                </Link>
              ),
            },
            { label: "Work order", value: job.workOrder ? `${job.workOrder.id}${job.workOrder.remark ? ` · ${job.workOrder.remark}` : ""}` : "—" },
          ]}
        />
      )}
    </Drawer>
  );
}
