"use client";
/**
 * A line chart that never needs more than two value axes: the series it cannot put on the main
 * chart's two axes (a third unit and beyond) are drawn as small charts of their own below it, on
 * the same time axis, each labelled with its unit (axes.ts `smallMultiples`). Same props as
 * TimeSeriesChart, which it uses for every panel; markers and zoom apply to each.
 */
import { useMemo } from "react";
import { smallMultiples } from "./axes";
import { TimeSeriesChart, type TimeSeriesChartProps } from "./time-series-chart";
import { unitLabel } from "./units";

/** Height of each extra chart: enough for its shape, small enough for several below the main one. */
const SMALL_HEIGHT = 170;

export function SmallMultiplesChart({ series, height = 320, label, ...chart }: TimeSeriesChartProps) {
  const panels = useMemo(() => smallMultiples(series), [series]);
  if (panels.length <= 1) return <TimeSeriesChart series={series} height={height} label={label} {...chart} />;
  const [main, ...rest] = panels;
  return (
    <div className="flex flex-col gap-3" data-testid="small-multiples">
      <TimeSeriesChart series={main!} height={height} label={label} {...chart} />
      {rest.map((panel) => {
        const unit = panel[0]?.unit ? unitLabel(panel[0].unit) : "no unit";
        return (
          <section key={panel.map((s) => s.key).join("|")} aria-label={`${label}: series in ${unit}`} className="border-t border-line pt-2">
            <h3 className="mb-1 text-xs font-medium text-fg-muted">In {unit}</h3>
            <TimeSeriesChart series={panel} height={SMALL_HEIGHT} label={`${label}, series in ${unit}`} {...chart} />
          </section>
        );
      })}
    </div>
  );
}
