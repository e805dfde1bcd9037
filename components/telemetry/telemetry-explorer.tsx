"use client";
/**
 * The telemetry explorer: a KQL editor, a time range and plants, and the result as a chart or a
 * table. The URL holds the last run's whole state (query, range, plants, view), so a link shows
 * what its sender saw; the editor's text is a draft until it is run.
 */
import dynamic from "next/dynamic";
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { CsvButton } from "@/components/ui/csv-button";
import { TableSkeleton, Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { toCsv } from "@/lib/client/csv";
import { useCan, useMe, type MePlant } from "@/lib/client/me";
import { DEFAULT_QUERY, exampleQueries } from "./examples";
import {
  COMPARE_SHIFTS,
  describeRange,
  parseExplorerState,
  shiftedRange,
  type CompareShift,
  RELATIVE_RANGES,
  resolveRange,
  serializeExplorerState,
  type ExplorerState,
  type TimeRange,
} from "./explorer-state";
import { AutoRefreshPicker } from "./auto-refresh-picker";
import { REFRESH_INTERVALS, updatedAgo } from "./live-refresh";
import { useLiveResult } from "./use-live-result";
import { QueryHistory } from "./query-history";
import { QueryLibrary } from "@/modules/library/components/query-library";
import { SAVED_QUERY_PARAM, savedQueriesApi, savedQueryKeys, useSavedQuery } from "@/modules/boards/client/saved-queries";
import type { TSavedQuery } from "@/modules/boards/contract/saved-queries";
import { ResultTable } from "./result-table";
import { withUnits, type QueryResult, type Series } from "./series";
import type { TimeSeriesChartProps } from "./time-series-chart";
import { useChartWidth } from "./use-chart-width";
import { anomalyChart, forecastPoints, forecastSpan } from "./series-analysis";
import { planChart, planResult } from "./chart-plan";
import { useTelemetryCatalogue } from "./catalogue";
import { useZoomHistory } from "./zoom-history";
import { activeStoredTab, MAX_TABS, newTabId, queryOfSearch, readTabs, renameTab, useStoredTabs, type QueryTab } from "./query-tabs";
import { QueryTabBar } from "./query-tab-bar";
import { SchemaPanel } from "./schema-panel";
import { useTimeMode } from "./time-preference";
import { alarmTaskLink } from "./alarm-task";
import { CopyLinkButton } from "./copy-link";
import type { EditorCommand } from "./kql-editor";
import { useFormat } from "@/lib/client/format";
import { ApiError, errorMessage } from "@/lib/client/api";
import { MAX_RESULT_ROWS } from "@/lib/contract/vocabulary";
import { ResolutionBanner } from "./resolution-banner";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
import { queryProblems, recordHistory, fetchTelemetryQuery, type QueryProblem } from "./telemetry-api";
import { TimeRangePicker } from "./time-range-picker";

const KqlEditor = dynamic(() => import("./kql-editor"), {
  ssr: false,
  loading: () => <Skeleton className="h-28 w-full" />,
});
const SmallMultiplesChart = dynamic(() => import("./small-multiples").then((m) => m.SmallMultiplesChart), {
  ssr: false,
  loading: () => <Skeleton className="h-80 w-full" />,
});
const CategoryChart = dynamic(() => import("./category-chart").then((m) => m.CategoryChart), {
  ssr: false,
  loading: () => <Skeleton className="h-80 w-full" />,
});

// Opened on request (the inspector, "Compare with"): not in the page's first load.
const QueryInspector = dynamic(() => import("./query-inspector").then((m) => m.QueryInspector), {
  ssr: false,
  loading: () => <Skeleton className="h-24 w-full" />,
});
const ComparePane = dynamic(() => import("./compare-pane").then((m) => m.ComparePane), {
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

  // A bare visit reopens the tab left active last time (query-tabs.ts); read once, in the browser.
  const [restored] = useState(() => (typeof window === "undefined" || params.has("q") ? null : activeStoredTab(plantId)));
  // The editor's text: a draft until it is run. Not rendered on the server (the editor is client-only).
  const [draft, setDraft] = useState(() => restored?.draft ?? state.query);
  const [urlQuery, setUrlQuery] = useState<string | null>(() => (restored ? queryOfSearch(restored.search) : params.get("q")));
  // Back/forward or a pasted link changes the query in the URL: the editor follows it.
  const urlQ = params.get("q");
  if (urlQ !== null && urlQ !== urlQuery) {
    setUrlQuery(urlQ);
    setDraft(urlQ);
  }
  // A shared link runs at once; a bare visit waits for the user (and shows the examples).
  const [runAt, setRunAt] = useState<number | null>(() => (params.has("q") ? currentTime() : null));
  // A run's time waits for the URL to hold what it runs: the URL's update (pushState) renders after
  // this state's, and in between the old query went out once more with the new time — an engine
  // query nobody asked for, beside the one asked for (bench/ui.ts chart rows, issue 26).
  const [pendingRun, setPendingRun] = useState<{ at: number | null; from: string } | null>(null);
  if (pendingRun && pendingRun.from !== stateKey) {
    setPendingRun(null);
    setRunAt(pendingRun.at);
  }
  const runWhenShown = (at: number | null, search: string) => {
    if (search === stateKey) setRunAt(at);
    else setPendingRun({ at, from: stateKey });
  };

  const [storedTabs, writeTabs] = useStoredTabs(plantId);
  const activeTab = storedTabs?.active ?? params.get("tab") ?? "";
  const withTab = (search: string, tabId = activeTab) => [search, tabId ? `tab=${encodeURIComponent(tabId)}` : ""].filter(Boolean).join("&");

  const navigate = (next: ExplorerState, rerun: boolean) => {
    const search = serializeExplorerState(next);
    if (rerun) runWhenShown(currentTime(), search);
    // The native history API updates useSearchParams without asking the server for the page again
    // (router.push would wait for a server render before the query could even start).
    if (search !== stateKey || !params.has("q")) window.history.pushState(null, "", `${pathname}?${withTab(search)}`);
  };

  // Once, after the first render: make the URL's query one of the stored tabs (or reopen the last one).
  useEffect(() => {
    const saved = readTabs(plantId);
    const urlTab = params.get("tab");
    const search = params.has("q") ? serializeExplorerState(state) : "";
    if (restored && saved) {
      writeTabs({ ...saved, active: restored.id });
      window.history.replaceState(null, "", `${pathname}?${withTab(restored.search, restored.id)}`);
    } else if (saved && urlTab && saved.tabs.some((tab) => tab.id === urlTab)) {
      writeTabs({ tabs: saved.tabs.map((tab) => (tab.id === urlTab && search ? { ...tab, search, draft: state.query } : tab)), active: urlTab });
    } else {
      // A shared link, or the first visit: a tab of its own.
      const tab = { id: newTabId(), search, draft: state.query };
      writeTabs({ tabs: [...(saved?.tabs ?? []), tab].slice(-MAX_TABS), active: tab.id });
      window.history.replaceState(null, "", `${pathname}?${withTab(search || params.toString().replace(/(^|&)tab=[^&]*/g, ""), tab.id)}`);
    }
    // Only on arrival; later changes go through the handlers and the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The active tab keeps what it shows: its last run (the URL) and the editor's draft.
  const hasQuery = params.has("q");
  const urlTabParam = params.get("tab");
  useEffect(() => {
    const saved = readTabs(plantId);
    if (!saved) return;
    // Back/forward to another tab's URL makes that tab active.
    if (urlTabParam && urlTabParam !== saved.active && saved.tabs.some((tab) => tab.id === urlTabParam)) {
      writeTabs({ ...saved, active: urlTabParam });
      return;
    }
    const current = saved.tabs.find((tab) => tab.id === saved.active);
    const search = hasQuery ? stateKey : (current?.search ?? "");
    if (current && (current.search !== search || current.draft !== draft)) {
      writeTabs({ ...saved, tabs: saved.tabs.map((tab) => (tab.id === current.id ? { ...tab, search, draft } : tab)) });
    }
  }, [plantId, stateKey, hasQuery, draft, urlTabParam, writeTabs]);

  const openTab = (tab: QueryTab, tabs: QueryTab[]) => {
    writeTabs({ tabs, active: tab.id });
    setUrlQuery(queryOfSearch(tab.search));
    setDraft(tab.draft);
    window.history.pushState(null, "", `${pathname}?${withTab(tab.search, tab.id)}`);
    // A tab that had run shows its result again (re-run: relative ranges move on).
    runWhenShown(tab.search ? currentTime() : null, tab.search);
  };
  const tabs = storedTabs?.tabs ?? [];
  const selectTab = (id: string) => {
    const target = tabs.find((tab) => tab.id === id);
    if (target && id !== activeTab) openTab(target, tabs);
  };
  const addTab = () => {
    const tab = { id: newTabId(), search: "", draft: DEFAULT_QUERY };
    openTab(tab, [...tabs, tab].slice(-MAX_TABS));
  };
  const renameTabTo = (id: string, name: string) => writeTabs({ tabs: renameTab(tabs, id, name), active: activeTab });
  const closeTab = (id: string) => {
    const index = tabs.findIndex((tab) => tab.id === id);
    const rest = tabs.filter((tab) => tab.id !== id);
    if (index < 0 || rest.length === 0) return;
    if (id === activeTab) openTab(rest[Math.min(index, rest.length - 1)]!, rest);
    else writeTabs({ tabs: rest, active: activeTab });
  };

  const { mode: timeMode, timeZone, setMode: setTimeMode } = useTimeMode();
  const [editorCommand, setEditorCommand] = useState<EditorCommand | null>(null);
  // The request a person cancelled: its result area says so rather than showing the last result.
  const [cancelledKey, setCancelledKey] = useState<string | null>(null);
  const sendToEditor = (command: DistributiveOmit<EditorCommand, "id">) => setEditorCommand((last) => ({ ...command, id: (last?.id ?? 0) + 1 }) as EditorCommand);

  const window_ = runAt === null ? null : resolveRange(state.range, runAt);
  // The plot's width decides the resolution the server answers with (docs/explorer.md); a table sends none.
  const resultsRef = useRef<HTMLDivElement>(null);
  const paneWidth = useChartWidth(resultsRef, state.compare ? 2 : 1);
  const [inspectorOpen, setInspectorOpen] = useState(false);
  const chartWanted = state.view !== "table";
  const base = window_ && { query: state.query, startTime: window_.startTime, endTime: window_.endTime, plantIds: state.plants };
  const resolution = chartWanted && paneWidth > 0 ? { resolution: { width: paneWidth, ...(state.full ? { full: true } : {}) } } : {};
  const request = base && { ...base, ...resolution };
  const result = useQuery({
    queryKey: ["telemetry-query", request],
    enabled: request !== null && state.query.trim() !== "" && (!chartWanted || paneWidth > 0),
    queryFn: async ({ signal }) => {
      // Rows scanned are counted only while the inspector is open (one more query on the engine).
      const outcome = await fetchTelemetryQuery({ ...request!, ...(inspectorOpen ? { inspect: true } : {}) }, signal);
      // History is a convenience: a failure to record it must not fail the query.
      recordHistory(base!)
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

  // A query the editor marks invalid is not sent: the server would refuse it for the same reason.
  // Its problems are shown where the server's would be, in the same words and with the same jumps.
  const [localProblems, setLocalProblems] = useState<QueryProblem[]>([]);
  const run = async () => {
    sendToEditor({ kind: "close" });
    if (draft.trim() === "") return;
    const { diagnose } = await import("@/lib/kql/diagnose");
    const found = diagnose(draft).map(({ line, column, message }) => ({ line, column, message }));
    setLocalProblems(found);
    if (found.length > 0) {
      sendToEditor({ kind: "jump", line: found[0]!.line, column: found[0]!.column });
      return;
    }
    setCancelledKey(null);
    // Full resolution was asked for one query: a changed query starts at the automatic one again.
    const { full: _, ...automatic } = state;
    const next = { ...(draft === state.query ? state : automatic), query: draft };
    // Running the same absolute query again asks the server again.
    if (serializeExplorerState(next) === stateKey && state.range.kind === "absolute" && runAt !== null) void result.refetch();
    navigate(next, true);
  };

  const setRange = (range: TimeRange) => navigate({ ...state, query: draft, range }, runAt !== null);
  const setPlants = (plants: string[]) => navigate({ ...state, query: draft, plants }, runAt !== null);
  // These change the request (its width, full resolution, a second range), which runs it again over the same window.
  const setView = (view: ExplorerState["view"]) => navigate({ ...state, view }, false);
  const setFull = (full: boolean) => {
    const { full: _, ...rest } = state;
    navigate(full ? { ...rest, full: true } : rest, false);
  };
  const setCompare = (compare: CompareShift | null) => {
    const { compare: _, ...rest } = state;
    navigate(compare ? { ...rest, compare } : rest, false);
  };
  const setRefresh = (refresh: ExplorerState["refresh"] | null) => {
    const { refresh: _, ...rest } = state;
    navigate(refresh ? { ...rest, refresh } : rest, false);
  };

  // A saved query of the team library, by id: from its link (`?savedQuery=<id>`, docs/boards.md) or
  // picked beside the editor. It opens in the editor and runs; the library notes the run.
  const [fromLibrary, setFromLibrary] = useState<{ id: number; title: string } | null>(null);
  const openSaved = (saved: TSavedQuery) => {
    setFromLibrary({ id: saved.id, title: saved.title });
    setDraft(saved.query);
    navigate({ ...state, query: saved.query }, true);
    void savedQueriesApi
      .ran(plantId, saved.id)
      .then(() => queryClient.invalidateQueries({ queryKey: savedQueryKeys.all(plantId) }))
      .catch(() => undefined);
  };
  const savedParam = params.get(SAVED_QUERY_PARAM);
  const linkedId = savedParam !== null && /^\d{1,15}$/.test(savedParam) ? Number(savedParam) : null;
  const linked = useSavedQuery(plantId, linkedId);
  const openedLink = useRef<number | null>(null);
  useEffect(() => {
    if (!linked.data || openedLink.current === linked.data.id) return;
    openedLink.current = linked.data.id;
    openSaved(linked.data);
    // Once per link (openSaved changes the URL, which drops the parameter): not again when it changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linked.data]);

  // Data point names (completion), units (chart axes) and a device (examples), once per plants.
  const catalogue = useTelemetryCatalogue(state.plants);
  const pointNames = catalogue.data?.names ?? NO_NAMES;
  const problems = useMemo(() => (localProblems.length > 0 ? localProblems : queryProblems(result.error)), [localProblems, result.error]);

  const requestKey = request && JSON.stringify(request);
  const cancelled = cancelledKey !== null && cancelledKey === requestKey && !result.isFetching;
  const cancel = () => {
    setCancelledKey(requestKey);
    void queryClient.cancelQueries({ queryKey: ["telemetry-query"] });
  };
  // After Cancel the query keeps the previous run's data as its placeholder: it is not this query's.
  const outcome = cancelled ? undefined : result.data;
  // Auto-refresh appends what is new to the last run's result and slides its window.
  const live = useLiveResult(outcome?.result, window_ && { start: Date.parse(window_.startTime), end: Date.parse(window_.endTime) }, {
    intervalMs: state.refresh && state.range.kind === "relative" && !result.isFetching ? REFRESH_INTERVALS[state.refresh].ms : null,
    spanMs: state.range.kind === "relative" ? RELATIVE_RANGES[state.range.last].ms : 0,
    fetchRange: (startTime, endTime, signal) =>
      fetchTelemetryQuery({ query: state.query, startTime, endTime, plantIds: state.plants }, signal).then((o) => o.result),
  });
  const shown = live.result;
  const render = outcome?.render ?? null;
  const automatic = useMemo(() => (shown ? planResult(shown, render) : null), [shown, render]);
  // Asked for a chart of rows that would open as a table: find the best chart they allow.
  const forced = useMemo(() => (shown && automatic?.view === "table" ? planChart(shown, render) : null), [shown, render, automatic]);
  const plan = state.view === "chart" && forced ? forced : automatic;
  // What is on screen: the person's choice, else what the query's render or the result's shape asks for.
  const shownView = !plan ? null : state.view === "table" ? "table" : state.view === "chart" && plan.view === "table" ? "cannot-draw" : plan.view;
  const zoom = useZoomHistory(state.range, setRange);
  const format = useFormat();
  const devices = catalogue.data?.devices;
  // Alarms become tasks only for those who may create tasks.
  const canCreateTask = useCan("tasks:create");
  const alarmAction = useMemo(() => (shown && canCreateTask ? alarmTaskLink(shown, devices, plantId) : undefined), [shown, canCreateTask, devices, plantId]);
  const domain: [number, number] | null = live.window ? [live.window.start, live.window.end] : null;

  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 className="text-2xl font-semibold">Telemetry explorer</h1>
          <p className="text-sm text-fg-muted">
            Query data points (<code>States</code>) and alarms (<code>Events</code>) in KQL. Times are shown in {timeMode === "utc" ? "UTC" : `your time (${timeZone})`}.
          </p>
        </div>
        <div role="group" aria-label="Show times in" className="inline-flex rounded-md border border-line p-0.5 text-sm" data-testid="time-mode">
          {(["utc", "local"] as const).map((mode) => (
            <button
              key={mode}
              type="button"
              aria-pressed={timeMode === mode}
              onClick={() => setTimeMode(mode)}
              className={`rounded px-3 py-1 ${timeMode === mode ? "bg-accent text-accent-fg" : "hover:bg-surface-2"}`}
            >
              {mode === "utc" ? "UTC" : "Local time"}
            </button>
          ))}
        </div>
      </header>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <Card className="flex flex-col gap-3 p-4">
            <div className="flex flex-wrap items-end gap-4">
              <TimeRangePicker key={state.range.kind} range={state.range} onChange={setRange} now={() => runAt ?? currentTime()} utc={timeMode === "utc"} />
              {state.range.kind === "relative" && <AutoRefreshPicker value={state.refresh ?? null} onChange={setRefresh} />}
              <PlantPicker plants={queryablePlants} selected={state.plants} onChange={setPlants} loading={me.isPending} />
            </div>
            <QueryTabBar tabs={tabs} active={activeTab} onSelect={selectTab} onAdd={addTab} onClose={closeTab} onRename={renameTabTo} />
            {linked.isError ? (
              <p role="alert" className="text-sm text-danger wrap-anywhere">
                Could not open saved query {savedParam}: {errorMessage(linked.error)}
              </p>
            ) : fromLibrary && draft === state.query ? (
              <p className="text-sm text-fg-muted wrap-anywhere" data-testid="from-library">
                From the team library: <a className="text-accent underline" href={`${pathname}?${SAVED_QUERY_PARAM}=${fromLibrary.id}`}>{fromLibrary.title}</a>
              </p>
            ) : null}
            <KqlEditor value={draft} onChange={setDraft} onRun={() => void run()} names={pointNames} problems={problems} label="KQL query" command={editorCommand} />
            <div className="flex flex-wrap items-center gap-3">
              <Button variant="primary" onClick={() => void run()} disabled={result.isFetching} aria-keyshortcuts="Shift+Enter Control+Enter Meta+Enter">
                {result.isFetching ? "Running…" : "Run query"}
              </Button>
              {result.isFetching && (
                <Button variant="ghost" size="sm" onClick={cancel}>
                  Cancel
                </Button>
              )}
              <span className="text-xs text-fg-muted">
                <kbd className="rounded border border-line px-1">Shift</kbd>+<kbd className="rounded border border-line px-1">Enter</kbd> or{" "}
                <kbd className="rounded border border-line px-1">Ctrl/⌘</kbd>+<kbd className="rounded border border-line px-1">Enter</kbd> runs
              </span>
              <p role="status" aria-live="polite" className="ml-auto text-sm text-fg-muted" data-testid="query-status">
                {outcome && shown && !result.isFetching
                  ? `${format.number(shown.rows.length)} rows · ${format.number(Math.round(outcome.durationMs))} ms${outcome.render ? ` · render ${outcome.render}` : ""} · ${describeRange(state.range, timeZone)}`
                  : ""}
              </p>
              {state.refresh && state.range.kind === "relative" && shown && !result.isFetching ? (
                <UpdatedAgo at={live.updatedAt ?? result.dataUpdatedAt} locale={format.locale} />
              ) : null}
              <Button size="sm" variant="ghost" aria-expanded={inspectorOpen} aria-controls="query-inspector-panel" onClick={() => setInspectorOpen((open) => !open)}>
                {inspectorOpen ? "Hide inspector" : "Inspector"}
              </Button>
            </div>
            {inspectorOpen ? (
              <section id="query-inspector-panel" aria-label="Query inspector" className="rounded-md border border-line p-3">
                <QueryInspector inspection={outcome?.meta?.inspection ?? null} roundTripMs={outcome ? outcome.roundTripMs : null} />
              </section>
            ) : null}
          </Card>

          <Card as="section" aria-labelledby="results-title" className="flex min-h-80 flex-col gap-3 p-4">
            <div ref={resultsRef} aria-hidden="true" className="h-0 w-full" />
            <div className="flex flex-wrap items-center gap-2">
              <h2 id="results-title" className="text-base font-semibold">
                Results
              </h2>
              <div role="group" aria-label="Show results as" className="ml-2 inline-flex rounded-md border border-line p-0.5">
                {(["chart", "table"] as const).map((view) => {
                  const pressed = view === "table" ? shownView === "table" : shownView !== null && shownView !== "table";
                  return (
                    <button
                      key={view}
                      type="button"
                      aria-pressed={pressed}
                      onClick={() => setView(view)}
                      className={`rounded px-3 py-1 text-sm capitalize ${pressed ? "bg-accent text-accent-fg" : "hover:bg-surface-2"}`}
                    >
                      {view}
                    </button>
                  );
                })}
              </div>
              {shownView === "line" && (
                <div role="group" aria-label="Zoom" className="flex flex-wrap items-center gap-1">
                  <Button size="sm" variant="ghost" onClick={zoom.undo} disabled={zoom.depth === 0}>
                    Undo zoom{zoom.depth > 1 ? ` (${zoom.depth})` : ""}
                  </Button>
                  {zoom.depth > 1 ? (
                    <Button size="sm" variant="ghost" onClick={zoom.reset}>
                      Reset zoom
                    </Button>
                  ) : null}
                  {state.range.kind === "absolute" && domain ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => {
                        const half = domain[1] - domain[0];
                        zoom.zoom(domain[0] - half / 2, Math.min(currentTime(), domain[1] + half / 2));
                      }}
                    >
                      Zoom out
                    </Button>
                  ) : null}
                </div>
              )}
              <div className="ml-auto flex flex-wrap items-center gap-2">
                {chartWanted ? (
                  <label className="inline-flex items-center gap-1.5 text-sm">
                    <span className="text-fg-muted">Compare with</span>
                    <select
                      className="rounded-md border border-line bg-surface px-2 py-1 text-sm"
                      value={state.compare ?? ""}
                      onChange={(event) => setCompare((event.target.value || null) as CompareShift | null)}
                      data-testid="compare-select"
                    >
                      <option value="">nothing</option>
                      {(Object.keys(COMPARE_SHIFTS) as CompareShift[]).map((shift) => (
                        <option key={shift} value={shift}>
                          {COMPARE_SHIFTS[shift].label}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : null}
                <CopyLinkButton />
                {shown && shown.rows.length > 0 && (
                  <CsvButton
                    filename={`telemetry-${state.plants.join("-")}-${(window_?.startTime ?? "").slice(0, 10)}.csv`}
                    build={async () => resultCsv(shown)}
                  />
                )}
              </div>
            </div>

            {localProblems.length > 0 ? (
              <QueryProblems problems={localProblems} notRun onJump={(p) => sendToEditor({ kind: "jump", line: p.line, column: p.column })} />
            ) : runAt === null ? (
              <EmptyState title="Run a query to see results">
                Write KQL above or pick an example, then press <strong>Run query</strong> or Shift+Enter.
              </EmptyState>
            ) : cancelled ? (
              <div data-testid="query-cancelled">
                <EmptyState title="Query cancelled" action={<Button size="sm" onClick={() => void run()}>Run again</Button>}>
                  The query was cancelled before it finished, so there is no result for it; the previous result is not shown under it.
                </EmptyState>
              </div>
            ) : result.isPending ? (
              <div role="status" aria-live="polite">
                <span className="sr-only">Running query…</span>
                {state.view === "chart" ? <Skeleton className="h-80 w-full" /> : <TableSkeleton />}
              </div>
            ) : result.isError ? (
              problems.length > 0 ? (
                <QueryProblems problems={problems} onJump={(p) => sendToEditor({ kind: "jump", line: p.line, column: p.column })} />
              ) : result.error instanceof ApiError && result.error.code === "QUERY_LIMIT_EXCEEDED" ? (
                <div role="alert" className="flex flex-col items-center gap-2 px-6 py-10 text-center" data-testid="row-limit">
                  <p className="font-medium">{chartWanted ? "Too many rows to draw" : "Too many rows for a table"}</p>
                  <p className="max-w-lg text-sm text-fg-muted">
                    {result.error.message} A query returns at most {format.number(MAX_RESULT_ROWS)} rows.{" "}
                    {chartWanted
                      ? "Summarize the rows, or narrow the range or the plants."
                      : "Summarize the rows, narrow the range or the plants, or show them as a chart: a chart is reduced to what the screen can show."}
                  </p>
                  {chartWanted ? (
                    state.full ? (
                      <Button size="sm" onClick={() => setFull(false)}>
                        Fit to the screen
                      </Button>
                    ) : null
                  ) : (
                    <Button size="sm" onClick={() => setView("chart")}>
                      Show as a chart
                    </Button>
                  )}
                </div>
              ) : (
                <ErrorState error={result.error} title="The query failed" onRetry={() => void result.refetch()} />
              )
            ) : shown && shown.rows.length === 0 ? (
              <EmptyState title="No rows">Nothing matched in {describeRange(state.range, timeZone).toLowerCase()}. Try a wider range or other plants.</EmptyState>
            ) : shown && (shownView === "table" || !plan) ? (
              <div className={result.isFetching ? "opacity-60" : undefined}>
                {plan?.view === "table" && state.view === "auto" ? (
                  <p className="mb-2 text-xs text-fg-muted" data-testid="view-reason">
                    {plan.reason}
                  </p>
                ) : null}
                <ResultTable result={shown} timeZone={timeZone} rowAction={alarmAction} />
              </div>
            ) : plan?.view === "table" ? (
              <EmptyState title="This result cannot be drawn" action={<Button size="sm" onClick={() => setView("table")}>Show table</Button>}>
                {plan.reason}
              </EmptyState>
            ) : plan?.view === "line" && domain ? (
              <div className={state.compare ? "grid grid-cols-1 gap-4 xl:grid-cols-2" : undefined} data-testid={state.compare ? "split-view" : undefined}>
                <section aria-label={state.compare ? describeRange(state.range, timeZone) : undefined} className={cn("flex min-w-0 flex-col gap-2", result.isFetching && "opacity-60")}>
                  {state.compare ? <h3 className="text-sm font-medium">{describeRange(state.range, timeZone)}</h3> : null}
                  <ResolutionBanner resolution={outcome?.meta?.resolution ?? null} full={state.full === true} onFull={setFull} />
                  <LineResult
                    series={plan.series}
                    units={catalogue.data?.units}
                    query={state.query}
                    domain={domain}
                    timeZone={timeZone}
                    label={`Line chart over ${describeRange(state.range, timeZone).toLowerCase()}`}
                    onZoom={zoom.zoom}
                    render={render}
                  />
                  <p className="mt-1 text-xs text-fg-muted">Drag across the chart to zoom into a time range; the legend hides and shows series.</p>
                </section>
                {state.compare && request ? (
                  <ComparePane
                    request={{ ...request, ...shiftedRange(request, state.compare) }}
                    title={`${COMPARE_SHIFTS[state.compare].label}: ${describeRange({ kind: "absolute", ...toRange(shiftedRange(request, state.compare)) }, timeZone)}`}
                    units={catalogue.data?.units}
                    timeZone={timeZone}
                    full={state.full === true}
                    onFull={setFull}
                  />
                ) : null}
              </div>
            ) : plan && plan.view !== "line" ? (
              <div className={result.isFetching ? "opacity-60" : undefined}>
                <CategoryChart kind={plan.view} data={plan.data} timeZone={timeZone} label={`${plan.view === "pie" ? "Pie" : plan.view === "bar" ? "Bar" : "Column"} chart`} />
              </div>
            ) : null}
          </Card>
        </div>

        <aside className="flex flex-col gap-4" aria-label="Schema, examples and history">
          <Card className="p-4">
            <SchemaPanel catalogue={catalogue.data} isLoading={catalogue.isPending} error={catalogue.error} onInsert={(text) => sendToEditor({ kind: "insert", text })} />
          </Card>
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
          <QueryLibrary plantId={plantId} currentQuery={draft} pathname={pathname} onOpen={openSaved} />
          <QueryHistory
            timeZone={timeZone}
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

const toRange = (window: { startTime: string; endTime: string }) => ({ from: window.startTime, to: window.endTime });

/** When live mode last brought the result up to date, re-read every few seconds (not a live region: no interruptions). */
function UpdatedAgo({ at, locale }: { at: number; locale: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 5_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className="text-xs text-fg-muted" data-testid="live-updated">
      {updatedAgo(now - at, locale)}
    </span>
  );
}

/**
 * The line chart of a result, each series with the unit of its data point; an anomaly chart marks
 * its anomalies, a forecast's future is shaded and the time axis runs to its end (series-analysis.ts).
 */
function LineResult({
  series,
  units,
  query,
  render,
  domain,
  ...chart
}: { series: Series[]; units: Map<string, string> | undefined; query: string; render: string | null } & Omit<TimeSeriesChartProps, "series">) {
  const analysed = useMemo(() => (render?.toLowerCase() === "anomalychart" ? anomalyChart(series) : { series, marks: [] }), [series, render]);
  const withUnit = useMemo(() => withUnits(analysed.series, (name) => units?.get(name), query), [analysed, units, query]);
  const forecast = useMemo(() => {
    const points = forecastPoints(query);
    return points === null ? null : forecastSpan(analysed.series, points);
  }, [analysed, query]);
  const shownDomain: [number, number] = forecast ? [domain[0], Math.max(domain[1], forecast.to)] : domain;
  return (
    <SmallMultiplesChart
      series={withUnit}
      height={360}
      domain={shownDomain}
      anomalies={analysed.marks}
      shade={forecast ? { from: forecast.from, to: forecast.to, label: "Forecast" } : undefined}
      {...chart}
    />
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

/** The problems of a query, each position a button that puts the editor's cursor there. */
function QueryProblems({ problems, notRun = false, onJump }: { problems: QueryProblem[]; notRun?: boolean; onJump: (problem: QueryProblem) => void }) {
  return (
    <div role="alert" className="rounded-md border border-danger bg-danger-soft p-3 text-sm text-danger wrap-anywhere" data-testid="query-error">
      <p className="font-semibold">
        {notRun ? "Not run: " : ""}The query has {problems.length === 1 ? "a problem" : `${problems.length} problems`}
      </p>
      <ul className="mt-1 list-disc pl-5">
        {problems.map((p, i) => (
          <li key={i}>
            <button type="button" className="font-semibold underline" onClick={() => onJump(p)}>
              Line {p.line}, column {p.column}
            </button>
            : {p.message}
          </li>
        ))}
      </ul>
      <p className="mt-1 text-xs">Select a position to put the cursor there.</p>
    </div>
  );
}
