"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { chartTheme, kindColor } from "@/components/ui/chart-colors";
import { useFormat } from "@/lib/client/format";
import type { TJobDone } from "@/modules/maintenance/contract/maintenance";
import { formatHours, hoursByMonth } from "./job-math";

/** Hours worked per month, stacked by activity kind. */
export function HoursChart({ jobs, labelFor }: { jobs: readonly TJobDone[]; labelFor: (kind: string) => string }) {
  const format = useFormat();
  const { months, kinds } = hoursByMonth(jobs);
  const total = months.reduce((sum, month) => sum + month.total, 0);
  const summary = `Hours per month by activity kind: ${formatHours(total, format)} in ${months.length} month${months.length === 1 ? "" : "s"}.`;
  return (
    <figure aria-label={summary} className="h-72 w-full" data-testid="hours-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={months} margin={{ top: 8, right: 8, bottom: 0, left: -8 }}>
          <CartesianGrid vertical={false} stroke={chartTheme.grid} />
          <XAxis dataKey="month" tickFormatter={format.month} stroke={chartTheme.axis} tick={{ fill: chartTheme.axis, fontSize: 12 }} />
          <YAxis stroke={chartTheme.axis} tick={{ fill: chartTheme.axis, fontSize: 12 }} unit=" h" width={64} />
          <Tooltip
            cursor={{ fill: "var(--pd-surface-2)" }}
            labelFormatter={(month) => format.month(String(month))}
            formatter={(value, name) => [formatHours(Number(value), format), name]}
            contentStyle={{ background: chartTheme.tooltipBackground, borderColor: chartTheme.tooltipBorder, color: chartTheme.text, borderRadius: 8 }}
          />
          <Legend wrapperStyle={{ fontSize: 12, color: chartTheme.text }} />
          {kinds.map((kind, index) => (
            <Bar key={kind} dataKey={kind} name={labelFor(kind)} stackId="hours" fill={kindColor(index)} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="sr-only">{summary}</figcaption>
    </figure>
  );
}
