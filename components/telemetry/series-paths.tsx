"use client";
/**
 * The time-series chart's lines, drawn as one SVG path per series on Recharts' own scales.
 *
 * Why not Recharts' `<Line>`: each one registers itself in the chart's store and is re-measured
 * whenever any other changes, so 42 series of a plant (a board's "every device" panel) took
 * 4.6–11 s of the browser's main thread to draw, and re-rendered on every pointer move of the
 * hover readout; the same paths built here take well under a second (docs/explorer.md,
 * "Many series"). Recharts still lays out the axes, grid, reference marks and ticks: each axis is
 * sized by an invisible two-point line holding its lowest and highest drawn value (`axisExtents`),
 * so its "auto" domain and nice ticks are what a `<Line>` per series gave.
 */
import { useId, useMemo, type ReactNode } from "react";
import { DefaultZIndexes, Line, usePlotArea, useXAxisScale, useYAxisScale, ZIndexLayer } from "recharts";
import type { Point } from "@/lib/series/lttb";

type Scale = NonNullable<ReturnType<typeof useXAxisScale>>;

export interface DrawnSeries {
  key: string;
  /** The y axis (yAxisId) the series is drawn against. */
  axis: string;
  points: readonly Point[];
}

/** Per axis, its drawn values' lowest and highest as two points across the range; axes with no value are left out. */
export function axisExtents(series: readonly DrawnSeries[], x0: number, x1: number): { axis: string; points: [Point, Point] }[] {
  const range = new Map<string, { low: number; high: number }>();
  for (const s of series) {
    for (const p of s.points) {
      const seen = range.get(s.axis);
      if (!seen) range.set(s.axis, { low: p.y, high: p.y });
      else {
        if (p.y < seen.low) seen.low = p.y;
        if (p.y > seen.high) seen.high = p.y;
      }
    }
  }
  return [...range].map(([axis, { low, high }]) => ({ axis, points: [{ x: x0, y: low }, { x: x1, y: high }] }));
}

/** The path's `d`: straight segments between the points, in pixels to a tenth (finer is invisible and only lengthens the text). */
export function linePath(points: readonly Point[], x: (value: number) => number | undefined, y: (value: number) => number | undefined): string {
  let d = "";
  for (const p of points) {
    const px = x(p.x);
    const py = y(p.y);
    if (px === undefined || py === undefined || !Number.isFinite(px) || !Number.isFinite(py)) continue;
    d += `${d ? "L" : "M"}${Math.round(px * 10) / 10},${Math.round(py * 10) / 10}`;
  }
  return d;
}

/** Children of a Recharts chart: the invisible extent lines and, above the grid, every series' path clipped to the plot. */
export function SeriesPaths({ series, colorOf, x0, x1 }: { series: readonly DrawnSeries[]; colorOf: ReadonlyMap<string, string>; x0: number; x1: number }) {
  const extents = useMemo(() => axisExtents(series, x0, x1), [series, x0, x1]);
  return (
    <>
      {extents.map((extent) => (
        <Line
          key={`extent-${extent.axis}`}
          yAxisId={extent.axis}
          data={extent.points}
          dataKey="y"
          stroke="none"
          dot={false}
          activeDot={false}
          legendType="none"
          tooltipType="none"
          isAnimationActive={false}
        />
      ))}
      <ZIndexLayer zIndex={DefaultZIndexes.line}>
        <ClippedToPlot>
          {series.map((s) => (
            <SeriesPath key={s.key} series={s} color={colorOf.get(s.key) ?? "currentColor"} />
          ))}
        </ClippedToPlot>
      </ZIndexLayer>
    </>
  );
}

function ClippedToPlot({ children }: { children: ReactNode }) {
  const area = usePlotArea();
  // useId's colons are not safe inside url(#…).
  const id = `plot-clip-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  if (!area) return null;
  return (
    <g>
      <defs>
        <clipPath id={id}>
          <rect x={area.x} y={area.y} width={area.width} height={area.height} />
        </clipPath>
      </defs>
      <g clipPath={`url(#${id})`}>{children}</g>
    </g>
  );
}

function SeriesPath({ series, color }: { series: DrawnSeries; color: string }) {
  const x = useXAxisScale();
  const y = useYAxisScale(series.axis);
  const d = useMemo(() => (x && y ? linePath(series.points, numeric(x), numeric(y)) : ""), [series.points, x, y]);
  if (!d) return null;
  return <path className="series-line" data-series={series.key} d={d} fill="none" stroke={color} strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />;
}

/** A Recharts scale read as numbers to numbers (the time axis and value axes are numeric). */
function numeric(scale: Scale): (value: number) => number | undefined {
  return (value) => {
    const out = scale(value);
    return typeof out === "number" ? out : undefined;
  };
}
