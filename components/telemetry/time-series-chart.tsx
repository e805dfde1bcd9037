"use client";
/**
 * A time-series line chart for telemetry, shared by the explorer and the asset page, drawn the way
 * Grafana users expect:
 * - a value axis per unit (`DataMetadata.Unit`), labelled with it, so 45 A of motor current does
 *   not flatten 6 bar of pressure; counts unitless on their own axis; at most two axes (axes.ts);
 * - a colour per series from its name, kept when a filter changes what else is drawn;
 * - a legend whose entries hide and show their series (the axes follow what is shown);
 * - every series reduced (LTTB, lib/series) to one point per pixel column of the plot, so half a
 *   million points draw as fast as a few thousand, and drawn as one path each (series-paths.tsx);
 * - dragging across the plot reports a narrower time range (zoom; the page keeps the undo steps);
 * - markers (jobs, tasks, alarms) on the same time axis as reference lines and areas.
 * Times are shown in `timeZone` (UTC or the reader's), numbers in the reader's language.
 * Loaded lazily by pages.
 */
import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { CartesianGrid, LineChart, ReferenceArea, ReferenceDot, ReferenceLine, XAxis, YAxis } from "recharts";
import { cn } from "@/components/ui/cn";
import { axisNumber, useFormat } from "@/lib/client/format";
import { pointsForWidth, type Point } from "@/lib/series/lttb";
import { axisUnits, planAxes, seriesColors } from "./axes";
import { MARKER_COLORS, type MarkerTone } from "./chart-colors";
import { SeriesPaths } from "./series-paths";
import { formatTimeTick, timeTicks } from "./time-ticks";
import type { Series } from "./series";
import type { AnomalyMark } from "./series-analysis";
import { unitLabel } from "./units";

export interface ChartMarker {
  /** A line at `x`, or an area from `x` to `x2` (an alarm's incident). */
  x: number;
  x2?: number;
  label: string;
  tone: MarkerTone;
}

export interface TimeSeriesChartProps {
  series: Series[];
  /** The time range shown, ms since the epoch. */
  domain: [number, number];
  height?: number;
  markers?: ChartMarker[];
  /** Called with the dragged range (ms); without it the chart does not zoom. */
  onZoom?: (from: number, to: number) => void;
  /** Accessible name of the chart image. */
  label: string;
  /** IANA zone the time axis and readout use; the reader's own when left out. */
  timeZone?: string;
  /** Points marked as anomalies on their series (render anomalychart; series-analysis.ts). */
  anomalies?: AnomalyMark[];
  /** A stretch of time shaded and named (a forecast's future). */
  shade?: { from: number; to: number; label: string };
}

const MARGIN = { top: 12, right: 12, bottom: 4, left: 4 };
const AXIS_WIDTH = 64;
/** Drags shorter than this are clicks, not zooms. */
const MIN_DRAG_PX = 6;

const NO_ANOMALIES: AnomalyMark[] = [];

export function TimeSeriesChart({ series, domain, height = 320, markers = [], onZoom, label, timeZone, anomalies = NO_ANOMALIES, shade }: TimeSeriesChartProps) {
  const format = useFormat(timeZone);
  const wrapper = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [drag, setDrag] = useState<{ start: number; end: number } | null>(null);
  const [hoverPx, setHoverPx] = useState<number | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());

  useEffect(() => {
    const element = wrapper.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Colours follow a series' name, so hiding one or filtering others out does not repaint it.
  const colorOf = useMemo(() => seriesColors(series.map((s) => s.key)), [series]);
  const visible = useMemo(() => series.filter((s) => !hidden.has(s.key)), [series, hidden]);
  const axisPlan = useMemo(() => planAxes(visible), [visible]);
  const leftAxes = 1;
  const rightAxes = axisPlan.axes.length - 1;

  const plotLeft = MARGIN.left + leftAxes * AXIS_WIDTH;
  const plotWidth = Math.max(1, width - plotLeft - MARGIN.right - rightAxes * AXIS_WIDTH);
  const [x0, x1] = domain;
  const pxToTime = (px: number) => x0 + ((Math.min(Math.max(px, plotLeft), plotLeft + plotWidth) - plotLeft) / plotWidth) * (x1 - x0);

  const drawn = useMemo(
    () =>
      visible.map((s) => ({
        key: s.key,
        axis: axisPlan.axisOf.get(s.key)!,
        unit: axisPlan.axes.find((axis) => axis.id === axisPlan.axisOf.get(s.key))?.kind === "unit" ? (s.unit ?? "") : "",
        points: width > 0 ? pointsForWidth(s.points, plotWidth, x0, x1) : [],
      })),
    [visible, axisPlan, width, plotWidth, x0, x1],
  );

  const localX = (event: ReactPointerEvent) => event.clientX - (wrapper.current?.getBoundingClientRect().left ?? 0);
  const onPointerDown = (event: ReactPointerEvent) => {
    if (!onZoom || event.button !== 0) return;
    const px = localX(event);
    if (px < plotLeft || px > plotLeft + plotWidth) return;
    (event.currentTarget as HTMLElement).setPointerCapture?.(event.pointerId);
    setDrag({ start: px, end: px });
  };
  const onPointerMove = (event: ReactPointerEvent) => {
    const px = localX(event);
    setHoverPx(px >= plotLeft && px <= plotLeft + plotWidth ? px : null);
    if (drag) setDrag({ ...drag, end: px });
  };
  const onPointerUp = () => {
    if (drag && onZoom && Math.abs(drag.end - drag.start) >= MIN_DRAG_PX) {
      onZoom(pxToTime(Math.min(drag.start, drag.end)), pxToTime(Math.max(drag.start, drag.end)));
    }
    setDrag(null);
  };

  const spanMs = x1 - x0;
  const zone = format.timeZone;
  const readout = hoverPx !== null && !drag ? nearestValues(drawn, pxToTime(hoverPx), spanMs / plotWidth) : null;
  const firstAxis = axisPlan.axes[0]!.id;
  const shownAnomalies = anomalies.filter((mark) => !hidden.has(mark.key) && axisPlan.axisOf.has(mark.key) && mark.x >= x0 && mark.x <= x1);
  const onAxis = (id: string) => visible.filter((s) => axisPlan.axisOf.get(s.key) === id);
  const namesOn = (id: string) => [...new Set(onAxis(id).map((s) => s.name ?? s.key))];
  /** A unit axis is named after its data point when it carries only one ("Pressure (bar)"), else after its units. */
  const axisText = (axis: (typeof axisPlan.axes)[number]) => {
    const words = axisUnits(axis, axisPlan, visible).map((unit) => (axis.kind === "unit" ? unitLabel(unit) : unit));
    const names = [...new Set(onAxis(axis.id).map((s) => s.name))];
    return axis.kind === "unit" && axis.units.length === 1 && names.length === 1 && names[0] !== undefined ? `${names[0]} (${words[0]})` : words.join(" · ") || "value";
  };

  return (
    <div className="flex flex-col gap-2">
      <div
        ref={wrapper}
        className="relative w-full touch-none select-none"
        style={{ height }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerLeave={() => setHoverPx(null)}
        role="img"
        aria-label={`${label}. Axes: ${axisPlan.axes.map((axis) => `${axisText(axis)} for ${namesOn(axis.id).join(", ")}`).join("; ")}.${shownAnomalies.length > 0 ? ` ${shownAnomalies.length} ${shownAnomalies.length === 1 ? "anomaly" : "anomalies"} marked.` : ""}${shade ? ` ${shade.label} shaded from ${format.dateTime(shade.from)}.` : ""}`}
        data-testid="time-series-chart"
      >
        {width > 0 && (
          <LineChart width={width} height={height} margin={MARGIN}>
            <CartesianGrid stroke="var(--pd-line)" strokeDasharray="3 3" yAxisId={firstAxis} />
            <XAxis
              type="number"
              dataKey="x"
              domain={[x0, x1]}
              allowDataOverflow
              scale="time"
              ticks={timeTicks(x0, x1, Math.max(2, Math.floor(plotWidth / 90)), zone)}
              tickFormatter={(value: number) => formatTimeTick(value, spanMs, zone, format.locale)}
              stroke="var(--pd-fg-muted)"
              tick={{ fill: "var(--pd-fg-muted)", fontSize: 12 }}
            />
            {axisPlan.axes.map((axis) => {
              const text = axisText(axis);
              const isBool = axis.kind === "unit" && axis.units.length === 1 && axis.units[0] === "bool";
              return (
                <YAxis
                  key={axis.id}
                  yAxisId={axis.id}
                  orientation={axis.side}
                  type="number"
                  dataKey="y"
                  width={AXIS_WIDTH}
                  domain={isBool ? [0, 1] : ["auto", "auto"]}
                  ticks={isBool ? [0, 1] : undefined}
                  stroke="var(--pd-fg-muted)"
                  tick={{ fill: "var(--pd-fg-muted)", fontSize: 12 }}
                  tickFormatter={(value: number) => axisNumber(value, format)}
                  label={{
                    value: text,
                    angle: -90,
                    position: axis.side === "left" ? "insideLeft" : "insideRight",
                    style: { fill: "var(--pd-fg)", fontSize: 12, textAnchor: "middle" },
                    // Clear of the neighbouring axis' line when several stand side by side.
                    offset: 10,
                  }}
                />
              );
            })}
            {markers.map((m, i) =>
              m.x2 !== undefined ? (
                <ReferenceArea
                  key={`a${i}`}
                  yAxisId={firstAxis}
                  x1={Math.max(m.x, x0)}
                  x2={Math.min(m.x2, x1)}
                  fill={MARKER_COLORS[m.tone]}
                  fillOpacity={0.12}
                  stroke={MARKER_COLORS[m.tone]}
                  strokeOpacity={0.4}
                  ifOverflow="hidden"
                />
              ) : (
                <ReferenceLine
                  key={`l${i}`}
                  yAxisId={firstAxis}
                  x={m.x}
                  stroke={MARKER_COLORS[m.tone]}
                  strokeDasharray={m.tone === "planned" ? "4 3" : undefined}
                  strokeWidth={1.5}
                  ifOverflow="hidden"
                />
              ),
            )}
            {shade ? (
              <ReferenceArea
                yAxisId={firstAxis}
                x1={Math.max(shade.from, x0)}
                x2={Math.min(shade.to, x1)}
                fill="var(--pd-accent)"
                fillOpacity={0.12}
                stroke="var(--pd-accent)"
                strokeOpacity={0.5}
                strokeDasharray="4 3"
                ifOverflow="hidden"
                label={{ value: shade.label, position: "insideTopRight", fill: "var(--pd-fg)", fontSize: 12 }}
              />
            ) : null}
            <SeriesPaths series={drawn} colorOf={colorOf} x0={x0} x1={x1} />
            {shownAnomalies.map((mark) => (
              <ReferenceDot
                key={`${mark.key}@${mark.x}`}
                yAxisId={axisPlan.axisOf.get(mark.key)!}
                x={mark.x}
                y={mark.y}
                r={5}
                fill={mark.direction > 0 ? MARKER_COLORS.alarm : MARKER_COLORS.planned}
                stroke="var(--pd-surface)"
                strokeWidth={1.5}
                ifOverflow="hidden"
                className="anomaly-mark"
              />
            ))}
          </LineChart>
        )}
        {drag && (
          <div
            aria-hidden
            className="pointer-events-none absolute border-x border-accent bg-accent/15"
            style={{ left: Math.min(drag.start, drag.end), width: Math.abs(drag.end - drag.start), top: MARGIN.top, bottom: 30 }}
          />
        )}
        {readout && hoverPx !== null && (
          <div
            aria-hidden
            className="pointer-events-none absolute top-2 z-10 max-w-xs rounded-md border border-line bg-surface/95 px-2 py-1 text-xs shadow-sm"
            style={hoverPx > width / 2 ? { right: width - hoverPx + 12 } : { left: hoverPx + 12 }}
          >
            <div className="font-medium">{format.dateTime(readout.time)}</div>
            {readout.values.map((v) => (
              <div key={v.key} className="flex items-center gap-1.5">
                <span className="inline-block size-2 rounded-full" style={{ background: colorOf.get(v.key) }} />
                <span className="truncate">{v.key}</span>
                <span className="ml-auto pl-2 font-mono tabular-nums">
                  {format.number(v.y, { maximumSignificantDigits: 4 })} {v.unit && v.unit !== "bool" ? unitLabel(v.unit) : ""}
                </span>
              </div>
            ))}
          </div>
        )}
      </div>
      {series.length > 0 ? (
        <SeriesLegend
          series={series}
          colorOf={colorOf}
          hidden={hidden}
          onToggle={(key) =>
            setHidden((current) => {
              const next = new Set(current);
              if (next.has(key)) next.delete(key);
              else next.add(key);
              return next;
            })
          }
          onShowAll={() => setHidden(new Set())}
        />
      ) : null}
    </div>
  );
}

/** The legend: one toggle button per series (pressed = shown), keyboard and screen-reader usable. */
function SeriesLegend({
  series,
  colorOf,
  hidden,
  onToggle,
  onShowAll,
}: {
  series: Series[];
  colorOf: Map<string, string>;
  hidden: ReadonlySet<string>;
  onToggle: (key: string) => void;
  onShowAll: () => void;
}) {
  return (
    <div role="group" aria-label="Series: press to hide or show" className="flex flex-wrap items-center gap-1.5" data-testid="chart-legend">
      {series.map((s) => {
        const shown = !hidden.has(s.key);
        return (
          <button
            key={s.key}
            type="button"
            aria-pressed={shown}
            onClick={() => onToggle(s.key)}
            title={shown ? `Hide ${s.key}` : `Show ${s.key}`}
            className={cn(
              "inline-flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs",
              shown ? "border-line bg-surface text-fg" : "border-dashed border-line bg-transparent text-fg-muted line-through",
            )}
          >
            <span aria-hidden="true" className="inline-block h-2 w-3 rounded-sm" style={{ background: shown ? colorOf.get(s.key) : "transparent", outline: `1px solid ${colorOf.get(s.key)}` }} />
            {s.key}
            {s.unit ? <span className="text-fg-muted">({unitLabel(s.unit)})</span> : null}
          </button>
        );
      })}
      {hidden.size > 0 ? (
        <button type="button" onClick={onShowAll} className="px-1.5 text-xs font-medium text-accent hover:underline">
          Show all
        </button>
      ) : null}
    </div>
  );
}

/** For the hover readout: each series' point nearest to `time`, if within a few pixels. */
function nearestValues(series: { key: string; unit: string; points: readonly Point[] }[], time: number, msPerPx: number) {
  const values: { key: string; unit: string; y: number }[] = [];
  let shownTime = time;
  for (const s of series) {
    const p = nearest(s.points, time);
    if (p && Math.abs(p.x - time) <= msPerPx * 8) {
      values.push({ key: s.key, unit: s.unit, y: p.y });
      shownTime = p.x;
    }
  }
  return values.length > 0 ? { time: shownTime, values: values.slice(0, 8) } : null;
}

function nearest(points: readonly Point[], x: number): Point | undefined {
  let lo = 0;
  let hi = points.length - 1;
  if (hi < 0) return undefined;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.x < x) lo = mid + 1;
    else hi = mid;
  }
  const after = points[lo]!;
  const before = points[lo - 1];
  return before && x - before.x < after.x - x ? before : after;
}
