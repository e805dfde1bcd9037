/**
 * Job history's view state, read from the URL. Date range and asset are filters the service
 * applies; activity kind, department and any order other than the service's own (newest first)
 * are not in the spec, so the page applies them itself over the whole date range it fetched —
 * the table stays exact, whatever the upstream supports.
 */
import type { ColumnVisibilityState, SortingState } from "@tanstack/react-table";
import { parseHiddenColumns, parseSortParam, PAGE_SIZES } from "@/components/ui/data-table";
import { addDays, isIsoDate } from "@/lib/client/dates";
import { intParam } from "@/lib/client/url-state";
import type { TJobDone } from "@/modules/maintenance/contract/maintenance";
import { jobHours } from "./job-math";

export const DEFAULT_RANGE_DAYS = 180;
const DEFAULT_PAGE_SIZE = 50;
const DEFAULT_HIDDEN: ColumnVisibilityState = { dueDate: false, requiredPersonCount: false, isFinal: false };

interface JobFilters {
  from: string;
  to: string;
  kind: string;
  dept: string;
  asset: string;
  page: number;
  pageSize: number;
  sorting: SortingState;
  hidden: ColumnVisibilityState;
  /** Id of the job whose detail is open. */
  job: string;
  /** Failure code (lookup value `failureCode`): only jobs whose close-out carried it; "any": every failure. */
  failure: string;
  /** Cause and remedy codes (lookup values `causeCode`, `remedyCode`): as `failure`, "any" every job with one. */
  cause: string;
  remedy: string;
  /** A task's id: the detail of the job its close-out wrote (a closed task links here). */
  task: string;
}

/** `today`: the reader's (useToday), the default end of the period. */
export function parseJobFilters(params: URLSearchParams, today: string): JobFilters {
  const to = isIsoDate(params.get("to") ?? "") ? params.get("to")! : today;
  const from = isIsoDate(params.get("from") ?? "") ? params.get("from")! : addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  const size = intParam(params.get("size"), DEFAULT_PAGE_SIZE, 1000);
  return {
    from,
    to,
    kind: params.get("kind") ?? "",
    dept: params.get("dept") ?? "",
    asset: params.get("asset") ?? "",
    page: intParam(params.get("page"), 1),
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
    sorting: parseSortParam(params.get("sort")),
    hidden: params.has("hide") ? parseHiddenColumns(params.get("hide")) : DEFAULT_HIDDEN,
    job: params.get("job") ?? "",
    failure: params.get("failure") ?? "",
    cause: params.get("cause") ?? "",
    remedy: params.get("remedy") ?? "",
    task: params.get("task") ?? "",
  };
}

/**
 * What is wrong with the period in the URL, as one sentence, or null. A malformed date is not
 * silently replaced here: the page shows this message instead of rows for a period nobody chose.
 */
export function periodProblem(params: URLSearchParams, filters: Pick<JobFilters, "from" | "to">, formatDate: (iso: string) => string): string | null {
  for (const [key, name] of [["from", "start"], ["to", "end"]] as const) {
    const raw = params.get(key);
    if (raw !== null && !isIsoDate(raw)) return `“${raw.slice(0, 40)}” is not a date: choose the ${name} date again.`;
  }
  if (filters.from > filters.to) return `The start date (${formatDate(filters.from)}) is after the end date (${formatDate(filters.to)}): choose a period that runs forwards.`;
  return null;
}

/** The part of the filter the service applies (docs/api.md §3 query parameters). */
export function serviceQuery(filters: JobFilters): Record<string, string | undefined> {
  // An asset's jobs include its components' (a pump's bearing, seal and motor jobs).
  return { startDate: filters.from, endDate: filters.to, assetTagNumber: filters.asset || undefined, includeComponents: filters.asset ? "true" : undefined };
}

/** The service's own order: doneDate descending, then id ascending. */
function isServiceOrder(sorting: SortingState): boolean {
  const first = sorting[0];
  return sorting.length === 0 || (sorting.length === 1 && first?.id === "doneDate" && first.desc);
}

/** True when the page must filter or sort itself (over every row of the range). */
export function needsLocalProcessing(filters: JobFilters): boolean {
  return Boolean(filters.kind || filters.dept || filters.failure || filters.cause || filters.remedy || !isServiceOrder(filters.sorting));
}

const SORT_VALUES: Record<string, (job: TJobDone) => string | number> = {
  doneDate: (job) => job.doneDate,
  dueDate: (job) => job.dueDate,
  jobTitle: (job) => job.jobTitle.toLowerCase(),
  activityKind: (job) => job.activityKind,
  department: (job) => job.department,
  asset: (job) => job.asset.tagNumber,
  carriedOutBy: (job) => `${job.carriedOutByUser.lastname} ${job.carriedOutByUser.firstname}`.toLowerCase(),
  hours: (job) => jobHours(job),
  requiredPersonCount: (job) => job.requiredPersonCount,
  workOrder: (job) => job.workOrder.id,
};

/** A code filter: "any" keeps every job with such a code, a code only its own jobs. */
function matchesCode(code: string | null | undefined, wanted: string): boolean {
  if (!wanted) return true;
  return wanted === "any" ? Boolean(code) : code === wanted;
}

/** Activity kind, department, failure, cause and remedy filters, then the chosen order (ties: the service's order). */
export function processLocally(rows: readonly TJobDone[], filters: JobFilters): TJobDone[] {
  const filtered = rows.filter(
    (job) =>
      (!filters.kind || job.activityKind === filters.kind) &&
      (!filters.dept || job.department === filters.dept) &&
      matchesCode(job.failureCode, filters.failure) &&
      matchesCode(job.causeCode, filters.cause) &&
      matchesCode(job.remedyCode, filters.remedy),
  );
  const sort = filters.sorting[0];
  const value = sort ? SORT_VALUES[sort.id] : undefined;
  if (!sort || !value || isServiceOrder(filters.sorting)) return filtered;
  const direction = sort.desc ? -1 : 1;
  // Array.prototype.sort is stable, and the rows arrive in the service's order: ties keep it.
  return [...filtered].sort((a, b) => {
    const left = value(a);
    const right = value(b);
    return left < right ? -direction : left > right ? direction : 0;
  });
}
