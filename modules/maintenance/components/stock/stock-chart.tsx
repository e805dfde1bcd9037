"use client";

import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { chartTheme } from "@/components/ui/chart-colors";
import { axisNumber, useFormat } from "@/lib/client/format";
import type { TStockLevelEntry } from "@/modules/maintenance/contract/maintenance";

const HALF_YEAR_MS = 183 * 86_400_000;

/**
 * The part's level over time: a step line (a level holds until the next count), short counts in
 * red. Numbers and dates in the reader's language and zone; big levels shortened on the axis
 * (1,2 mld.) so they never clip.
 */
export function StockChart({ history, unit, reorderLevel }: { history: readonly TStockLevelEntry[]; unit: string; reorderLevel?: number | null }) {
  const format = useFormat();
  const points = [...history].reverse().map((entry) => ({ at: Date.parse(entry.submittedAt), quantity: entry.quantity, isShort: entry.isShort }));
  // Over a long history the year matters more than the day.
  const span = (points[points.length - 1]?.at ?? 0) - (points[0]?.at ?? 0);
  const tick = (value: number) => (span > HALF_YEAR_MS ? format.month(new Date(value).toISOString().slice(0, 7)) : format.date(new Date(value).toISOString()));
  const summary = `Stock level over time: ${points.length} counts, from ${format.number(points[0]?.quantity ?? 0)} to ${format.number(points[points.length - 1]?.quantity ?? 0)} ${unit}${
    reorderLevel != null ? `; reorder level ${format.number(reorderLevel)} ${unit}` : ""
  }.`;
  // overflow-hidden: recharts leaves its (hidden) tooltip where the pointer last was; after the screen
  // narrows it would stand beyond the page's edge and make the whole page scroll sideways.
  return (
    <figure aria-label={summary} className="h-64 w-full overflow-hidden" data-testid="stock-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke={chartTheme.grid} />
          <XAxis dataKey="at" type="number" scale="time" domain={["dataMin", "dataMax"]} tickFormatter={tick} stroke={chartTheme.axis} tick={{ fill: chartTheme.axis, fontSize: 12 }} />
          <YAxis
            stroke={chartTheme.axis}
            tick={{ fill: chartTheme.axis, fontSize: 12 }}
            width={72}
            allowDecimals
            tickFormatter={(value: number) => axisNumber(value, format)}
            label={{ value: unit, angle: -90, position: "insideLeft", style: { fill: chartTheme.text, fontSize: 12, textAnchor: "middle" } }}
          />
          <Tooltip
            labelFormatter={(value) => format.dateTime(Number(value))}
            formatter={(value) => [`${format.number(Number(value))} ${unit}`, "Level"]}
            contentStyle={{ background: chartTheme.tooltipBackground, borderColor: chartTheme.tooltipBorder, color: chartTheme.text, borderRadius: 8 }}
          />
          {reorderLevel != null ? (
            <ReferenceLine
              y={reorderLevel}
              stroke="#dc2626"
              strokeDasharray="6 4"
              ifOverflow="extendDomain"
              label={{ value: `Reorder level ${format.number(reorderLevel)}`, position: "insideTopRight", fill: "#dc2626", fontSize: 12 }}
            />
          ) : null}
          <Line
            type="stepAfter"
            dataKey="quantity"
            stroke="#3b82f6"
            strokeWidth={2}
            isAnimationActive={false}
            dot={(props: { cx?: number; cy?: number; index?: number; payload?: { isShort: boolean } }) => (
              <circle key={props.index} cx={props.cx} cy={props.cy} r={props.payload?.isShort ? 4 : 2.5} fill={props.payload?.isShort ? "#dc2626" : "#3b82f6"} stroke="none" />
            )}
          />
        </LineChart>
      </ResponsiveContainer>
      <figcaption className="sr-only">{summary}</figcaption>
    </figure>
  );
}
