"use client";
/**
 * The telemetry explorer: a KQL editor, a time range and plants, and the result as a chart or a
 * table. The URL holds the last run's whole state (query, range, plants, view), so a link shows
 * what its sender saw; the editor's text is a draft until it is run.
 */
import dynamic from "next/dynamic";
import { usePathname, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CsvButton } from "@/components/ui/csv-button";
import { TableSkeleton, Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { toCsv } from "@/lib/client/csv";
import { useMe, type MePlant } from "@/lib/client/me";
import { DEFAULT_QUERY, exampleQueries } from "./examples";
import {
  absoluteRange,
  describeRange,
  parseExplorerState,
  resolveRange,
  serializeExplorerState,
  type ExplorerState,
  type TimeRange,
} from "./explorer-state";
import { QueryHistory } from "./query-history";
import { ResultTable } from "./result-table";
import { buildSeries, type QueryResult } from "./series";
import { queryProblems, recordHistory, runTelemetryQuery } from "./telemetry-api";
import { TimeRangePicker } from "./time-range-picker";

const KqlEditor = dynamic(() => import("./kql-editor"), {
  ssr: false,
  loading: () => <Skeleton className="h-28 w-full" />,
});
const TimeSeriesChart = dynamic(() => import("./time-series-chart").then((m) => m.TimeSeriesChart), {
  ssr: false,
  loading: () => <Skeleton className="h-80 w-full" />,
});

const NO_NAMES: string[] = [];
/** Read only in event handlers and query functions, never to render. */
const currentTime = () => Date.now();

export function TelemetryExplorer({ plantId }: { plantId: string }) {
  const params = useSearchParams();
  const pathname = usePathname();
  const queryClient = useQueryClient();

  const me = useMe();
  // Telemetry is kept per customer: plants of one query must share the current plant's customer.
  const customerId = me.data?.plants.find((p) => p.id === plantId)?.customerId;
  const queryablePlants = useMemo(
    () => (me.data?.plants ?? []).filter((p) => customerId !== undefined && p.customerId === customerId),
    [me.data, customerId],
  );

  const state = parseExplorerState(params, {
    query: DEFAULT_QUERY,
    plantId,
    allowedPlants: me.data ? queryablePlants.map((p) => p.id) : undefined,
  });
  const stateKey = serializeExplorerState(state);

  const [draft, setDraft] = useState(state.query);
  const [urlQuery, setUrlQuery] = useState(state.query);
  // Back/forward or a pasted link changes the query in the URL: the editor follows it.
  if (urlQuery !== state.query) {
    setUrlQuery(state.query);
    setDraft(state.query);
  }
  // A shared link runs at once; a bare visit waits for the user (and shows the examples).
  const [runAt, setRunAt] = useState<number | null>(() => (params.has("q") ? currentTime() : null));

  const navigate = (next: ExplorerState, rerun: boolean) => {
    const search = serializeExplorerState(next);
    if (rerun) setRunAt(currentTime());
    // The native history API updates useSearchParams without asking the server for the page again
    // (router.push would wait for a server render before the query could even start).
    if (search !== stateKey) window.history.pushState(null, "", `${pathname}?${search}`);
  };

  const window_ = runAt === null ? null : resolveRange(state.range, runAt);
  const request = window_ && { query: state.query, startTime: window_.startTime, endTime: window_.endTime, plantIds: state.plants };
  const result = useQuery({
    queryKey: ["telemetry-query", request],
    enabled: request !== null && state.query.trim() !== "",
    queryFn: async ({ signal }) => {
      const outcome = await runTelemetryQuery(request!, signal);
      // History is a convenience: a failure to record it must not fail the query.
      recordHistory(request!)
        .then(() => queryClient.invalidateQueries({ queryKey: ["telemetry-history"] }))
        .catch(() => undefined);
      return outcome;
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
    retry: false,
    // The last result stays (dimmed) while the next one runs: no flash, and the chart stays mounted.
    placeholderData: keepPreviousData,
  });

  const run = () => {
    if (draft.trim() === "") return;
    const next = { ...state, query: draft };
    // Running the same absolute query again asks the server again.
    if (serializeExplorerState(next) === stateKey && state.range.kind === "absolute" && runAt !== null) void result.refetch();
    navigate(next, true);
  };

  const setRange = (range: TimeRange) => navigate({ ...state, query: draft, range }, runAt !== null);
  const setPlants = (plants: string[]) => navigate({ ...state, query: draft, plants }, runAt !== null);
  const setView = (view: ExplorerState["view"]) => navigate({ ...state, view }, false);

  // Data point names (for completion) and a device (for the examples), looked up once per plants.
  const catalogue = useQuery({
    queryKey: ["telemetry-catalogue", state.plants.join(",")],
    queryFn: async ({ signal }) => {
      const range = resolveRange({ kind: "relative", last: "24h" }, currentTime());
      const outcome = await runTelemetryQuery({ query: "States | distinct Name, DeviceId", ...range, plantIds: state.plants }, signal);
      const rows = outcome.result.rows.map((row) => ({ name: String(row[0]), deviceId: String(row[1]) }));
      return { names: [...new Set(rows.map((r) => r.name))].sort(), firstDevice: rows.map((r) => r.deviceId).sort()[0] };
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const pointNames = catalogue.data?.names ?? NO_NAMES;
  const problems = useMemo(() => queryProblems(result.error), [result.error]);

  const outcome = result.data;
  const plan = useMemo(() => (outcome ? buildSeries(outcome.result) : null), [outcome]);
  const domain: [number, number] | null = window_ ? [Date.parse(window_.startTime), Date.parse(window_.endTime)] : null;

  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <h1 className="text-2xl font-semibold">Telemetry explorer</h1>
          <p className="text-sm text-fg-muted">
            Query data points (<code>States</code>) and alarms (<code>Events</code>) in KQL. Times are UTC.
          </p>
        </div>
      </header>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <Card className="flex flex-col gap-3 p-4">
            <div className="flex flex-wrap items-end gap-4">
              <TimeRangePicker key={state.range.kind} range={state.range} onChange={setRange} now={() => runAt ?? currentTime()} />
              <PlantPicker plants={queryablePlants} selected={state.plants} onChange={setPlants} loading={me.isPending} />
            </div>
            <KqlEditor value={draft} onChange={setDraft} onRun={run} names={pointNames} problems={problems} label="KQL query" />
            <div className="flex flex-wrap items-center gap-3">
              <Button variant="primary" onClick={run} disabled={draft.trim() === "" || result.isFetching} aria-keyshortcuts="Shift+Enter Control+Enter Meta+Enter">
                {result.isFetching ? "Running…" : "Run query"}
              </Button>
              {result.isFetching && (
                <Button variant="ghost" size="sm" onClick={() => void queryClient.cancelQueries({ queryKey: ["telemetry-query"] })}>
                  Cancel
                </Button>
              )}
              <span className="text-xs text-fg-muted">
                <kbd className="rounded border border-line px-1">Shift</kbd>+<kbd className="rounded border border-line px-1">Enter</kbd> or{" "}
                <kbd className="rounded border border-line px-1">Ctrl/⌘</kbd>+<kbd className="rounded border border-line px-1">Enter</kbd> runs
              </span>
              <p role="status" aria-live="polite" className="ml-auto text-sm text-fg-muted" data-testid="query-status">
                {outcome && !result.isFetching
                  ? `${outcome.result.rows.length.toLocaleString("en-GB")} rows · ${Math.round(outcome.durationMs).toLocaleString("en-GB")} ms${outcome.render ? ` · render ${outcome.render}` : ""} · ${describeRange(state.range)}`
                  : ""}
              </p>
            </div>
          </Card>

          <Card as="section" aria-labelledby="results-title" className="flex min-h-80 flex-col gap-3 p-4">
            <div className="flex flex-wrap items-center gap-2">
              <h2 id="results-title" className="text-base font-semibold">
                Results
              </h2>
              <div role="group" aria-label="Show results as" className="ml-2 inline-flex rounded-md border border-line p-0.5">
                {(["chart", "table"] as const).map((view) => (
                  <button
                    key={view}
                    type="button"
                    aria-pressed={state.view === view}
                    onClick={() => setView(view)}
                    className={`rounded px-3 py-1 text-sm capitalize ${state.view === view ? "bg-accent text-accent-fg" : "hover:bg-surface-2"}`}
                  >
                    {view}
                  </button>
                ))}
              </div>
              {state.view === "chart" && state.range.kind === "absolute" && domain && (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    const half = domain[1] - domain[0];
                    setRange(absoluteRange(domain[0] - half / 2, Math.min(currentTime(), domain[1] + half / 2)));
                  }}
                >
                  Zoom out
                </Button>
              )}
              <div className="ml-auto">
                {outcome && outcome.result.rows.length > 0 && (
                  <CsvButton
                    filename={`telemetry-${state.plants.join("-")}-${(window_?.startTime ?? "").slice(0, 10)}.csv`}
                    build={async () => resultCsv(outcome.result)}
                  />
                )}
              </div>
            </div>

            {runAt === null ? (
              <EmptyState title="Run a query to see results">
                Write KQL above or pick an example, then press <strong>Run query</strong> or Shift+Enter.
              </EmptyState>
            ) : result.isPending ? (
              <div role="status" aria-live="polite">
                <span className="sr-only">Running query…</span>
                {state.view === "chart" ? <Skeleton className="h-80 w-full" /> : <TableSkeleton />}
              </div>
            ) : result.isError ? (
              problems.length > 0 ? (
                <div role="alert" className="rounded-md border border-danger bg-danger-soft p-3 text-sm text-danger" data-testid="query-error">
                  <p className="font-semibold">The query has a problem</p>
                  <ul className="mt-1 list-disc pl-5">
                    {problems.map((p, i) => (
                      <li key={i}>
                        Line {p.line}, column {p.column}: {p.message}
                      </li>
                    ))}
                  </ul>
                </div>
              ) : (
                <ErrorState error={result.error} title="The query failed" onRetry={() => void result.refetch()} />
              )
            ) : outcome && outcome.result.rows.length === 0 ? (
              <EmptyState title="No rows">Nothing matched in {describeRange(state.range).toLowerCase()}. Try a wider range or other plants.</EmptyState>
            ) : outcome && state.view === "table" ? (
              <div className={result.isFetching ? "opacity-60" : undefined}>
                <ResultTable result={outcome.result} />
              </div>
            ) : plan && !plan.ok ? (
              <EmptyState title="This result cannot be drawn" action={<Button size="sm" onClick={() => setView("table")}>Show table</Button>}>
                {plan.reason}
              </EmptyState>
            ) : plan && plan.ok && domain ? (
              <div className={result.isFetching ? "opacity-60" : undefined}>
                <TimeSeriesChart
                  series={plan.series}
                  domain={domain}
                  height={360}
                  label={`Line chart of ${plan.series.length} series over ${describeRange(state.range).toLowerCase()}`}
                  onZoom={(from, to) => setRange(absoluteRange(from, to))}
                />
                <p className="mt-1 text-xs text-fg-muted">Drag across the chart to zoom into a time range.</p>
              </div>
            ) : null}
          </Card>
        </div>

        <aside className="flex flex-col gap-4" aria-label="Examples and history">
          <Card className="p-4" aria-labelledby="examples-title">
            <h2 id="examples-title" className="mb-2 text-base font-semibold">
              Examples
            </h2>
            <ul className="flex flex-col gap-1">
              {exampleQueries(catalogue.data?.firstDevice).map((example) => (
                <li key={example.title}>
                  <button
                    type="button"
                    className="w-full rounded px-2 py-1.5 text-left text-sm hover:bg-surface-2"
                    onClick={() => setDraft(example.query)}
                    title={example.query}
                  >
                    {example.title}
                  </button>
                </li>
              ))}
            </ul>
          </Card>
          <QueryHistory
            onPick={(entry) => {
              setDraft(entry.query);
              const plants = entry.plantIds?.filter((p) => queryablePlants.some((q) => q.id === p));
              navigate({ ...state, query: entry.query, plants: plants && plants.length > 0 ? plants : state.plants }, true);
            }}
          />
        </aside>
      </div>
    </div>
  );
}

function PlantPicker({
  plants,
  selected,
  onChange,
  loading,
}: {
  plants: MePlant[];
  selected: string[];
  onChange: (plants: string[]) => void;
  loading: boolean;
}) {
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium">Plants</legend>
      <div className="flex min-h-10 flex-wrap items-center gap-3">
        {loading && <Skeleton className="h-6 w-32" />}
        {plants.map((plant) => {
          const checked = selected.includes(plant.id);
          return (
            <label key={plant.id} className="inline-flex items-center gap-1.5 text-sm" title={plant.name}>
              <input
                type="checkbox"
                className="size-4 accent-[var(--pd-accent)]"
                checked={checked}
                // The last plant stays: a query needs at least one.
                disabled={checked && selected.length === 1}
                onChange={() => onChange(checked ? selected.filter((p) => p !== plant.id) : [...selected, plant.id])}
              />
              {plant.id}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** Every row of the result, `dynamic` values as JSON — the same cells the API returned. */
function resultCsv(result: QueryResult): string {
  const columns = result.columns.map((column, index) => ({
    header: column.name,
    value: (row: unknown[]) => {
      const cell = row[index];
      return cell !== null && typeof cell === "object" ? JSON.stringify(cell) : (cell as string | number | boolean | null);
    },
  }));
  return toCsv(columns, result.rows);
}
