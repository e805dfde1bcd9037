"use client";
/**
 * One panel of a board: its query, the board's values in it, run through `/api/telemetry/query`
 * (the explorer's path, on the reader's own budget) over the board's range, again at every refresh
 * tick; drawn with the explorer's charts. The page's first view may come with the server's answer
 * (`early`, asked for while the page rendered): the panel draws it without asking again. Loading,
 * waiting for a variable, no rows and failures are said in words; a failed refresh keeps the last
 * result and says it is stale.
 *
 * Lines, columns and bars send the plot's width and are brought within it like the explorer's
 * charts (docs/explorer.md, "Automatic resolution"): a panel never refuses a range the explorer
 * draws. "Show full resolution" is per panel and per query: a changed query (a variable, the range)
 * returns to the automatic resolution.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { use, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { carriesUnit, isCountColumn } from "@/components/telemetry/axes";
import { unitLabel } from "@/components/telemetry/units";
import { categoryData } from "@/components/telemetry/chart-plan";
import { columnTitle } from "@/components/telemetry/column-title";
import { ResultTable } from "@/components/telemetry/result-table";
import { buildSeries, type QueryResult } from "@/components/telemetry/series";
import { fetchTelemetryQuery } from "@/components/telemetry/telemetry-api";
import { ResolutionBanner } from "@/components/telemetry/resolution-banner";
import { useChartWidth } from "@/components/telemetry/use-chart-width";
import { errorMessage } from "@/lib/client/api";
import { loadExplorerContract } from "@/lib/client/lazy-contract";
import { useFormat, type Format } from "@/lib/client/format";
import { BOARD_RANGE_MS, BOARD_REFRESH_MS } from "@/lib/contract/dashboard-vocabulary";
import type { TDashboardPanel } from "@/modules/boards/contract/boards";
import type { TQueryResolution } from "@/lib/contract/explorer";
import { panelRequestWidth, rememberPanelWidth, resolvesByWidth, type PanelQuery } from "./board-state";

const loadTimeSeriesChart = () => import("@/components/telemetry/time-series-chart");
const loadCategoryChart = () => import("@/components/telemetry/category-chart");

/**
 * Starts loading the charts' code (recharts) and the answers' metadata schema at once: next/dynamic
 * would wait for the first result, and each answer waits for the schema (telemetry-api.ts).
 */
export function preloadCharts(): void {
  void loadTimeSeriesChart();
  void loadCategoryChart();
  loadExplorerContract().catch(() => undefined);
}

const TimeSeriesChart = dynamic(() => loadTimeSeriesChart().then((m) => m.TimeSeriesChart), {
  ssr: false,
  loading: () => <Skeleton className="h-60 w-full" />,
});
const CategoryChart = dynamic(() => loadCategoryChart().then((m) => m.CategoryChart), {
  ssr: false,
  loading: () => <Skeleton className="h-60 w-full" />,
});

const CHART_HEIGHT = 240;

/** A panel's answer: the rows, how they were reduced, the window they cover and when they were asked for (ms since the epoch). */
export interface PanelAnswer {
  result: QueryResult;
  resolution: TQueryResolution | null;
  from: number;
  to: number;
  at: number;
}

/**
 * A panel's answer the page's server asked for while it rendered (the page's first view), for the
 * query and range it ran; null when it could not (the panel then asks itself).
 */
export interface EarlyPanelAnswer {
  query: string;
  range: keyof typeof BOARD_RANGE_MS;
  /** The width it was asked for (null: a chart that sends none); used while the panel's own is not measured yet. */
  width: number | null;
  answer: Promise<PanelAnswer | null>;
}

/** How long an early answer counts as fresh: it was asked for while the page rendered. */
const EARLY_FRESH_MS = 30_000;

interface PanelViewProps {
  plantId: string;
  panel: TDashboardPanel;
  query: PanelQuery;
  range: keyof typeof BOARD_RANGE_MS;
  refresh: keyof typeof BOARD_REFRESH_MS;
  timeZone: string;
  early?: EarlyPanelAnswer;
  /** `panel.unit` is the chosen data point's (board-state panelUnit), not the author's: only columns carrying it get it. */
  unitFollowed?: boolean;
}

export function PanelView({ plantId, panel, query, range, refresh, timeZone, early, unitFollowed = false }: PanelViewProps) {
  const format = useFormat(timeZone);
  const text = query.ok ? query.query : null;
  const host = useRef<HTMLDivElement>(null);
  const plot = useChartWidth(host);
  const byWidth = resolvesByWidth(panel.chart);
  // Until the panel is measured, the width the server's early answer was asked for stands in.
  const width = !byWidth ? null : plot > 0 ? panelRequestWidth(plot, panel.chart) : (early?.width ?? 0);
  // The next visit's server asks for the first view at this width (board-state, PANEL_WIDTH_COOKIE).
  useEffect(() => {
    if (panel.chart !== "line" || plot === 0) return;
    const cookie = rememberPanelWidth(panel.width, panelRequestWidth(plot, panel.chart), document.cookie);
    if (cookie) document.cookie = cookie;
  }, [panel.chart, panel.width, plot]);
  const [fullFor, setFullFor] = useState<string | null>(null);
  const full = byWidth && text !== null && fullFor === text;
  // The server's answer for this very query, range and width (the page's first view); a changed variable or range asks anew.
  const first = early && early.query === text && early.range === range && early.width === width && !full ? use(early.answer) : null;
  const result = useQuery({
    queryKey: ["dashboard-panel", plantId, text, range, width, full],
    enabled: text !== null && width !== 0,
    queryFn: async ({ signal }): Promise<PanelAnswer> => {
      // Whole seconds: every panel of a tick asks for the same window.
      const end = Math.floor(Date.now() / 1000) * 1000;
      const window = { startTime: new Date(end - BOARD_RANGE_MS[range]).toISOString(), endTime: new Date(end).toISOString() };
      const resolution = width === null ? {} : { resolution: { width, ...(full ? { full: true } : {}) } };
      const outcome = await fetchTelemetryQuery({ query: text!, ...window, plantIds: [plantId], ...resolution }, signal);
      return { result: outcome.result, resolution: outcome.meta?.resolution ?? null, from: Date.parse(window.startTime), to: end, at: Date.now() };
    },
    ...(first ? { initialData: first, initialDataUpdatedAt: first.at, staleTime: EARLY_FRESH_MS } : {}),
    refetchInterval: BOARD_REFRESH_MS[refresh] ?? false,
    placeholderData: keepPreviousData,
    retry: false,
  });

  // The measured element is always there, so the width is known before the first answer.
  return (
    <div ref={host} className="min-w-0">
      {!query.ok ? (
        query.waiting ? (
          <Note>Waiting for the board&apos;s variables: choose a value above.</Note>
        ) : (
          <Note tone="danger">This panel cannot run. {query.message}</Note>
        )
      ) : result.isPending ? (
        <PanelLoading title={panel.title} />
      ) : result.error && !result.data ? (
        <div role="alert" className="flex flex-col items-start gap-2 text-sm">
          <p className="font-medium text-danger">The query failed.</p>
          <p className="text-fg-muted wrap-anywhere">{errorMessage(result.error)}</p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => void result.refetch()}>
              Try again
            </Button>
            {full ? (
              <Button size="sm" onClick={() => setFullFor(null)}>
                Fit to the panel
              </Button>
            ) : null}
          </div>
        </div>
      ) : (
        <PanelResult
          panel={panel}
          unitFollowed={unitFollowed}
          answer={result.data!}
          stale={result.error}
          fetching={result.isFetching}
          byWidth={byWidth}
          full={full}
          onFull={(wanted) => setFullFor(wanted ? text : null)}
          format={format}
          timeZone={timeZone}
        />
      )}
    </div>
  );
}

function PanelResult({
  panel,
  unitFollowed,
  answer,
  stale,
  fetching,
  byWidth,
  full,
  onFull,
  format,
  timeZone,
}: {
  panel: TDashboardPanel;
  unitFollowed: boolean;
  answer: PanelAnswer;
  stale: unknown;
  fetching: boolean;
  byWidth: boolean;
  full: boolean;
  onFull: (full: boolean) => void;
  format: Format;
  timeZone: string;
}) {
  const { result: rows, resolution, from, to, at } = answer;
  return (
    <div className="space-y-2">
      {byWidth ? <ResolutionBanner resolution={resolution} full={full} onFull={onFull} /> : null}
      <PanelBody panel={panel} unitFollowed={unitFollowed} result={rows} domain={[from, to]} format={format} timeZone={timeZone} />
      <p className="text-xs text-fg-muted" aria-live="polite">
        {stale ? <span className="text-danger">Refresh failed ({errorMessage(stale)}); showing the result of </span> : "Updated "}
        {format.time(at)}
        {fetching ? " · refreshing…" : ""}
      </p>
    </div>
  );
}

export function PanelLoading({ title }: { title: string }) {
  return (
    <div role="status" className="space-y-2">
      <span className="sr-only">Loading {title}…</span>
      <Skeleton className="h-60 w-full" />
    </div>
  );
}

function Note({ children, tone }: { children: React.ReactNode; tone?: "danger" }) {
  return <p className={tone === "danger" ? "text-sm text-danger wrap-anywhere" : "text-sm text-fg-muted"}>{children}</p>;
}

function PanelBody({
  panel,
  unitFollowed,
  result,
  domain,
  format,
  timeZone,
}: {
  panel: TDashboardPanel;
  unitFollowed: boolean;
  result: QueryResult;
  domain: [number, number];
  format: Format;
  timeZone: string;
}) {
  const plan = useMemo(() => (panel.chart === "line" ? buildSeries(result) : null), [panel.chart, result]);
  const categories = useMemo(() => (panel.chart === "column" || panel.chart === "bar" || panel.chart === "pie" ? categoryData(result) : null), [panel.chart, result]);
  if (result.rows.length === 0) return <Note>No data in this range.</Note>;
  const label = `${panel.title}${panel.unit ? ` (${unitLabel(panel.unit)})` : ""}`;

  if (panel.chart === "line") {
    if (!plan!.ok) return <Fallback reason={`Cannot draw lines: ${plan!.reason}`} result={result} timeZone={timeZone} />;
    // The panel's author names the unit of what it measures; counts stay unitless on their own axis (axes.ts).
    // A unit followed from the chosen data point goes only on the columns that carry it (Value, avg …).
    const series = plan!.series.map((s) =>
      s.column !== undefined && isCountColumn(s.column)
        ? { ...s, unit: "" }
        : { ...s, column: undefined, unit: unitFollowed && s.column !== undefined && !carriesUnit(s.column) ? "" : panel.unit },
    );
    return <TimeSeriesChart series={series} domain={domain} height={CHART_HEIGHT} label={label} timeZone={timeZone} />;
  }
  if (panel.chart === "column" || panel.chart === "bar" || panel.chart === "pie") {
    if ("reason" in categories!) return <Fallback reason={`Cannot draw a ${panel.chart} chart: ${categories!.reason}`} result={result} timeZone={timeZone} />;
    return <CategoryChart kind={panel.chart} data={categories!} label={label} timeZone={timeZone} height={CHART_HEIGHT} />;
  }
  if (panel.chart === "stat") return <Stat panel={panel} unitFollowed={unitFollowed} result={result} format={format} />;
  return (
    <div className="min-w-0">
      <ResultTable result={result} timeZone={timeZone} />
    </div>
  );
}

function Fallback({ reason, result, timeZone }: { reason: string; result: QueryResult; timeZone: string }) {
  return (
    <div className="space-y-2">
      <Note>{reason} The rows are shown as a table.</Note>
      <div className="min-w-0">
        <ResultTable result={result} timeZone={timeZone} />
      </div>
    </div>
  );
}

/** The first row's numbers, big: "Devices reporting 42". */
function Stat({ panel, unitFollowed, result, format }: { panel: TDashboardPanel; unitFollowed: boolean; result: QueryResult; format: Format }) {
  const row = result.rows[0]!;
  const numbers = result.columns.flatMap((column, index) => (typeof row[index] === "number" ? [{ name: column.name, value: row[index] as number }] : [])).slice(0, 4);
  if (numbers.length === 0) return <Note>The first row has no number to show.</Note>;
  return (
    <dl className="flex flex-wrap gap-6" data-testid="panel-stat">
      {numbers.map((item) => (
        <div key={item.name}>
          <dt className="text-sm text-fg-muted">{columnTitle(item.name)}</dt>
          <dd className="text-3xl font-semibold tabular-nums">
            {format.number(item.value)}
            {panel.unit && !isCountColumn(item.name) && (!unitFollowed || carriesUnit(item.name)) ? <span className="ml-1 text-base font-normal text-fg-muted">{unitLabel(panel.unit)}</span> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
