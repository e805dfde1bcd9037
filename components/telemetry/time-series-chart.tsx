"use client";
/**
 * A time-series line chart for telemetry, shared by the explorer and the asset page: every series
 * is downsampled (M4) to the plot's pixel width, so half a million points draw as fast as a few
 * thousand; dragging across the plot reports a narrower time range (zoom); markers (jobs, tasks,
 * alarms) are drawn on the same time axis as reference lines and areas. Loaded lazily by pages.
 */
import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { CartesianGrid, Legend, Line, LineChart, ReferenceArea, ReferenceLine, XAxis, YAxis } from "recharts";
import { MARKER_COLORS, SERIES_COLORS, type MarkerTone } from "./chart-colors";
import { downsampleM4, type Point } from "./downsample";
import { formatTimeTick, timeTicks } from "./time-ticks";
import type { Series } from "./series";

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
}


const MARGIN = { top: 12, right: 20, bottom: 4, left: 4 };
const Y_AXIS_WIDTH = 64;
/** Drags shorter than this are clicks, not zooms. */
const MIN_DRAG_PX = 6;

export function TimeSeriesChart({ series, domain, height = 320, markers = [], onZoom, label }: TimeSeriesChartProps) {
  const wrapper = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [drag, setDrag] = useState<{ start: number; end: number } | null>(null);
  const [hoverPx, setHoverPx] = useState<number | null>(null);

  useEffect(() => {
    const element = wrapper.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const plotLeft = MARGIN.left + Y_AXIS_WIDTH;
  const plotWidth = Math.max(1, width - plotLeft - MARGIN.right);
  const [x0, x1] = domain;
  const pxToTime = (px: number) => x0 + ((Math.min(Math.max(px, plotLeft), plotLeft + plotWidth) - plotLeft) / plotWidth) * (x1 - x0);

  const drawn = useMemo(
    () => series.map((s) => ({ key: s.key, points: width > 0 ? downsampleM4(s.points, plotWidth, x0, x1) : [] })),
    [series, width, plotWidth, x0, x1],
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
  const readout = hoverPx !== null && !drag ? nearestValues(drawn, pxToTime(hoverPx), spanMs / plotWidth) : null;

  return (
    <div
      ref={wrapper}
      className="relative w-full select-none touch-none"
      style={{ height }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerLeave={() => setHoverPx(null)}
      role="img"
      aria-label={label}
      data-testid="time-series-chart"
    >
      {width > 0 && (
        <LineChart width={width} height={height} margin={MARGIN}>
          <CartesianGrid stroke="var(--pd-line)" strokeDasharray="3 3" />
          <XAxis
            type="number"
            dataKey="x"
            domain={[x0, x1]}
            allowDataOverflow
            scale="time"
            ticks={timeTicks(x0, x1, Math.max(2, Math.floor(plotWidth / 90)))}
            tickFormatter={(value: number) => formatTimeTick(value, spanMs)}
            stroke="var(--pd-fg-muted)"
            tick={{ fill: "var(--pd-fg-muted)", fontSize: 12 }}
          />
          <YAxis
            type="number"
            dataKey="y"
            width={Y_AXIS_WIDTH}
            domain={["auto", "auto"]}
            stroke="var(--pd-fg-muted)"
            tick={{ fill: "var(--pd-fg-muted)", fontSize: 12 }}
            tickFormatter={formatValue}
          />
          {markers.map((m, i) =>
            m.x2 !== undefined ? (
              <ReferenceArea
                key={`a${i}`}
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
                x={m.x}
                stroke={MARKER_COLORS[m.tone]}
                strokeDasharray={m.tone === "planned" ? "4 3" : undefined}
                strokeWidth={1.5}
                ifOverflow="hidden"
              />
            ),
          )}
          {drawn.map((s, i) => (
            <Line
              key={s.key}
              data={s.points}
              dataKey="y"
              name={s.key}
              type="linear"
              dot={false}
              activeDot={false}
              stroke={SERIES_COLORS[i % SERIES_COLORS.length]}
              strokeWidth={1.5}
              isAnimationActive={false}
              connectNulls
            />
          ))}
          {drawn.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
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
          <div className="font-medium">{formatTooltipTime(readout.time)}</div>
          {readout.values.map((v) => (
            <div key={v.key} className="flex items-center gap-1.5">
              <span className="inline-block size-2 rounded-full" style={{ background: SERIES_COLORS[v.index % SERIES_COLORS.length] }} />
              <span className="truncate">{v.key}</span>
              <span className="ml-auto pl-2 font-mono tabular-nums">{formatValue(v.y)}</span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** For the hover readout: each series' point nearest to `time`, if within a few pixels. */
function nearestValues(series: { key: string; points: Point[] }[], time: number, msPerPx: number) {
  const values: { key: string; y: number; index: number }[] = [];
  let shownTime = time;
  series.forEach((s, index) => {
    const p = nearest(s.points, time);
    if (p && Math.abs(p.x - time) <= msPerPx * 8) {
      values.push({ key: s.key, y: p.y, index });
      shownTime = p.x;
    }
  });
  return values.length > 0 ? { time: shownTime, values: values.slice(0, 8) } : null;
}

function nearest(points: Point[], x: number): Point | undefined {
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

const valueFormat = new Intl.NumberFormat("en-GB", { maximumSignificantDigits: 4 });
export function formatValue(value: number): string {
  return Number.isFinite(value) ? valueFormat.format(value) : "—";
}

function formatTooltipTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
