"use client";

/**
 * Job history of a plant: filters, a chart of hours per month by activity kind, a server-paginated
 * table and a detail drawer. Everything the user chooses lives in the URL (see job-filters.ts).
 */
import dynamic from "next/dynamic";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { AssetPicker } from "@/components/ui/asset-picker";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CsvButton } from "@/components/ui/csv-button";
import { DataTable, hiddenColumnsParam, sortParam } from "@/components/ui/data-table";
import { Field, FilterSelect, Input } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { addDays, isIsoDate } from "@/lib/client/dates";
import { useFormat, useToday } from "@/lib/client/format";
import { toCsv } from "@/lib/client/csv";
import { maintenanceClient, maintenanceKeys, useLookupLabels } from "@/modules/maintenance/client/maintenance";
import { useUrlState } from "@/lib/client/url-state";
import { jobColumns, jobCsvColumns } from "./job-columns";
import { JobDrawer } from "./job-drawer";
import { DEFAULT_RANGE_DAYS, needsLocalProcessing, parseJobFilters, periodProblem, processLocally, serviceQuery } from "./job-filters";
import { formatHours, jobHours } from "./job-math";

// recharts is loaded with the chart, not with the page: it is most of the page's JavaScript.
const HoursChart = dynamic(() => import("./hours-chart").then((m) => m.HoursChart), {
  ssr: false,
  loading: () => <Skeleton className="h-72 w-full" />,
});

const PRESETS = [
  { days: 30, label: "Last 30 days" },
  { days: 90, label: "Last 90 days" },
  { days: 180, label: "Last 6 months" },
  { days: 365, label: "Last 12 months" },
  { days: 730, label: "Last 24 months" },
] as const;

export function JobHistory({ plantId }: { plantId: string }) {
  const { params, update } = useUrlState();
  const today = useToday();
  const filters = useMemo(() => parseJobFilters(new URLSearchParams(params.toString()), today), [params, today]);
  // One message for a period that cannot be asked for; nothing is fetched or shown for it.
  const format = useFormat();
  const problem = periodProblem(new URLSearchParams(params.toString()), filters, format.date);
  const query = serviceQuery(filters);
  const local = needsLocalProcessing(filters);

  const lookups = useLookupLabels(plantId);
  const labelFor = useMemo(() => (kind: string | null | undefined) => lookups.label("activityKind", kind), [lookups]);
  const codeLabel = useMemo(() => (kind: "failureCode" | "causeCode" | "remedyCode", code: string) => lookups.label(kind, code), [lookups]);

  // The whole range (every page): the chart, the department list and local filtering need it all.
  const range = useQuery({
    queryKey: maintenanceKeys.jobsDone(plantId, "all", query),
    queryFn: ({ signal }) => maintenanceClient.allJobsDone(plantId, query, signal),
    enabled: !problem,
  });
  // One page straight from the service: the table's fast path when the service can do all the work.
  const page = useQuery({
    queryKey: maintenanceKeys.jobsDone(plantId, "page", query, filters.page, filters.pageSize),
    queryFn: ({ signal }) => maintenanceClient.jobsDone(plantId, { ...query, page: filters.page, pageSize: filters.pageSize }, signal),
    enabled: !problem && !local,
    placeholderData: keepPreviousData,
  });

  const processed = useMemo(() => (range.data ? processLocally(range.data, filters) : undefined), [range.data, filters]);
  const localPage = useMemo(
    () => processed?.slice((filters.page - 1) * filters.pageSize, filters.page * filters.pageSize),
    [processed, filters.page, filters.pageSize],
  );
  const rows = (problem ? undefined : local ? localPage : page.data?.data) ?? EMPTY;
  const totalPages = local ? Math.ceil((processed?.length ?? 0) / filters.pageSize) : (page.data?.totalPages ?? 0);
  const tableQuery = local ? range : page;
  // The table's own query failed as well as the chart's: one error for both, not two.
  const bothFailed = Boolean(range.error && tableQuery.error);
  const periodInvalid = problem ? ({ "aria-invalid": true, "aria-describedby": "period-problem" } as const) : {};

  const departments = useMemo(() => [...new Set((range.data ?? []).map((job) => job.department))].sort(), [range.data]);
  const columns = useMemo(() => jobColumns(labelFor, format, codeLabel), [labelFor, format, codeLabel]);
  const csvColumns = useMemo(() => jobCsvColumns(labelFor, codeLabel), [labelFor, codeLabel]);
  const openJob = filters.job
    ? (rows.find((job) => job.id === filters.job) ?? range.data?.find((job) => job.id === filters.job))
    : filters.task
      ? range.data?.find((job) => job.taskId === filters.task)
      : undefined;
  const totalHours = processed?.reduce((sum, job) => sum + jobHours(job), 0) ?? 0;
  const anyFilter = Boolean(filters.kind || filters.dept || filters.failure || filters.cause || filters.remedy || filters.asset || params.has("from") || params.has("to"));

  async function buildCsv(onProgress: (done: number, total: number) => void) {
    const all = await maintenanceClient.allJobsDone(plantId, query, undefined, onProgress);
    return toCsv(csvColumns, processLocally(all, filters));
  }

  return (
    <div className="space-y-5">
      <PageHeader
        title="Job history"
        description={
          <>
            Work carried out at plant {plantId}, {format.date(filters.from)} – {format.date(filters.to)}
          </>
        }
        actions={problem ? null : <CsvButton filename={`jobs-done-${plantId}-${filters.from}-to-${filters.to}.csv`} build={buildCsv} />}
      />

      <Card aria-labelledby="job-filters-title">
        <h2 id="job-filters-title" className="sr-only">
          Filters
        </h2>
        <div className="grid grid-cols-1 gap-3 p-4 sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-5">
          <FilterSelect
            label="Period"
            value={PRESETS.find((preset) => filters.from === addDays(filters.to, -(preset.days - 1)) && filters.to === today)?.days.toString() ?? ""}
            allLabel="Custom"
            options={PRESETS.map((preset) => ({ value: String(preset.days), label: preset.label }))}
            onChange={(days) => {
              if (!days) return;
              update({ from: addDays(today, -(Number(days) - 1)), to: today });
            }}
          />
          <Field label="From">
            {(control) => (
              <Input
                {...control}
                {...periodInvalid}
                type="date"
                value={filters.from}
                max={filters.to}
                onChange={(event) => isIsoDate(event.target.value) && update({ from: event.target.value })}
              />
            )}
          </Field>
          <Field label="To">
            {(control) => (
              <Input {...control} {...periodInvalid} type="date" value={filters.to} onChange={(event) => isIsoDate(event.target.value) && update({ to: event.target.value })} />
            )}
          </Field>
          <FilterSelect
            label="Activity kind"
            value={filters.kind}
            onChange={(kind) => update({ kind })}
            options={lookups.values("activityKind").map((entry) => ({ value: entry.value, label: entry.label }))}
          />
          <FilterSelect label="Department" value={filters.dept} onChange={(dept) => update({ dept })} options={departments.map((dept) => ({ value: dept, label: dept }))} />
          <AssetPicker plantId={plantId} value={filters.asset} onChange={(asset) => update({ asset })} />
          <FilterSelect
            label="Failure"
            value={filters.failure}
            onChange={(failure) => update({ failure })}
            options={[{ value: "any", label: "Any failure" }, ...lookups.values("failureCode").map((entry) => ({ value: entry.value, label: entry.label || entry.value }))]}
          />
          <FilterSelect
            label="Cause"
            value={filters.cause}
            onChange={(cause) => update({ cause })}
            options={[{ value: "any", label: "Any cause" }, ...lookups.values("causeCode").map((entry) => ({ value: entry.value, label: entry.label || entry.value }))]}
          />
          <FilterSelect
            label="Remedy"
            value={filters.remedy}
            onChange={(remedy) => update({ remedy })}
            options={[{ value: "any", label: "Any remedy" }, ...lookups.values("remedyCode").map((entry) => ({ value: entry.value, label: entry.label || entry.value }))]}
          />
        </div>
        {problem ? (
          <div id="period-problem" role="alert" className="flex flex-wrap items-center justify-between gap-3 border-t border-line bg-danger-soft px-4 py-3 text-sm text-danger" data-testid="period-problem">
            <p className="font-medium">{problem}</p>
            <Button size="sm" onClick={() => update({ from: null, to: null })}>
              Back to the last {DEFAULT_RANGE_DAYS} days
            </Button>
          </div>
        ) : anyFilter ? (
          <div className="flex justify-end border-t border-line px-4 py-2">
            <Button size="sm" variant="ghost" onClick={() => update({ from: null, to: null, kind: null, dept: null, failure: null, cause: null, remedy: null, asset: null })}>
              Clear filters
            </Button>
          </div>
        ) : null}
      </Card>

      {problem ? null : bothFailed ? (
        <Card>
          <ErrorState error={range.error} title="Could not load the job history" onRetry={() => void Promise.all([range.refetch(), page.refetch()])} />
        </Card>
      ) : (
        <>
          <Card aria-labelledby="hours-title">
            <CardHeader
              id="hours-title"
              title="Hours per month by activity kind"
              description={
                processed ? (
                  <span data-testid="job-summary">
                    {format.number(processed.length)} jobs · {formatHours(totalHours, format)}
                  </span>
                ) : range.error ? (
                  "Not available"
                ) : (
                  "Loading…"
                )
              }
            />
            <CardBody>
              {range.error ? (
                <ErrorState error={range.error} onRetry={() => void range.refetch()} />
              ) : !processed ? (
                <Skeleton className="h-72 w-full" />
              ) : processed.length === 0 ? (
                <EmptyState title="No hours to chart">No jobs match these filters.</EmptyState>
              ) : (
                <HoursChart jobs={processed} labelFor={labelFor} />
              )}
            </CardBody>
          </Card>

          <DataTable
            caption={`Jobs done at plant ${plantId}`}
            columns={columns}
            rows={rows}
            getRowId={(job) => job.id}
            page={filters.page}
            pageSize={filters.pageSize}
            totalPages={totalPages}
            onPageChange={(nextPage, size) => update({ page: nextPage > 1 ? nextPage : null, size: size === 50 ? null : size }, { keepPage: true })}
            sorting={filters.sorting}
            onSortingChange={(sorting) => update({ sort: sortParam(sorting) })}
            columnVisibility={filters.hidden}
            onColumnVisibilityChange={(visibility) => update({ hide: hiddenColumnsParam(visibility) ?? "-" }, { keepPage: true })}
            onRowOpen={(job) => update({ job: job.id }, { keepPage: true })}
            isLoading={tableQuery.isPending}
            isFetching={tableQuery.isFetching}
            error={tableQuery.error}
            onRetry={() => void tableQuery.refetch()}
            empty={<EmptyState title="No jobs found">No job matches these filters. Try a longer period or clear a filter.</EmptyState>}
          />
        </>
      )}

      <JobDrawer
        plantId={plantId}
        jobId={filters.job || (filters.task ? `of task ${filters.task}` : "")}
        job={openJob}
        isLoading={range.isPending}
        labelFor={labelFor}
        codeLabel={codeLabel}
        onClose={() => update({ job: null, task: null }, { keepPage: true, replace: true })}
      />
    </div>
  );
}

const EMPTY: never[] = [];
