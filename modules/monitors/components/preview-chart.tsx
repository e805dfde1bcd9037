"use client";
/**
 * A monitor's preview: at each replayed evaluation, how many keys it would have returned, with the
 * evaluations that would have opened new work (a key not returned the time before) in the danger
 * colour. Loaded lazily with recharts by the editor.
 */
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useFormat } from "@/lib/client/format";
import type { TMonitorPreview } from "@/modules/monitors/contract/monitors";

const tooltipStyle = { background: "var(--pd-surface)", borderColor: "var(--pd-line)", color: "var(--pd-fg)", borderRadius: 8, fontSize: 12 };
const QUIET = "var(--pd-fg-muted)";
const OPENS = "#dc2626";
const HOLDS = "#f59e0b";

interface PreviewPoint {
  at: number;
  keys: number;
  opened: number;
}

function previewPoints(preview: TMonitorPreview): PreviewPoint[] {
  const byTime = new Map<string, PreviewPoint>(preview.times.map((time) => [time, { at: Date.parse(time), keys: 0, opened: 0 }]));
  for (const firing of preview.firings) {
    const point = byTime.get(firing.at);
    if (!point) continue;
    point.keys += 1;
    if (firing.new) point.opened += 1;
  }
  return [...byTime.values()];
}

export function PreviewChart({ preview }: { preview: TMonitorPreview }) {
  const format = useFormat();
  const points = previewPoints(preview);
  const opening = points.filter((point) => point.opened > 0);
  const summary = `${preview.evaluations} replayed evaluations; ${opening.length} would have opened work, ${opening.reduce((sum, point) => sum + point.opened, 0)} tasks in all.`;
  return (
    <figure className="flex flex-col gap-2" data-testid="preview-chart">
      <div role="img" aria-label={summary} className="h-48">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid stroke="var(--pd-line)" vertical={false} />
            <XAxis dataKey="at" type="category" tickFormatter={(value: number) => format.time(value)} stroke="var(--pd-fg-muted)" fontSize={11} minTickGap={24} />
            <YAxis allowDecimals={false} stroke="var(--pd-fg-muted)" fontSize={11} width={40} />
            <Tooltip
              contentStyle={tooltipStyle}
              labelFormatter={(value) => format.dateTime(Number(value))}
              formatter={(value, _name, item) => [`${format.number(Number(value))} firing · ${format.number((item.payload as PreviewPoint).opened)} new`, "Keys"]}
            />
            <Bar dataKey="keys" isAnimationActive={false} minPointSize={2}>
              {points.map((point) => (
                <Cell key={point.at} fill={point.opened > 0 ? OPENS : point.keys > 0 ? HOLDS : QUIET} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-fg-muted">
        <span>{summary}</span>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block size-2.5 rounded-sm" style={{ background: OPENS }} /> would open a task
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block size-2.5 rounded-sm" style={{ background: HOLDS }} /> still firing
        </span>
      </figcaption>
    </figure>
  );
}
