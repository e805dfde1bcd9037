"use client";
/**
 * Values per category (`summarize count() by Name`): vertical columns, horizontal bars or a pie,
 * as `render columnchart | barchart | piechart` asks. Several value columns become grouped bars
 * whose legend entries hide and show them, like the time chart's. Loaded lazily by the explorer.
 */
import { useMemo, useState } from "react";
import { Bar, BarChart, CartesianGrid, Cell, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { cn } from "@/components/ui/cn";
import { axisNumber, useFormat } from "@/lib/client/format";
import { SERIES_COLORS } from "./chart-colors";
import { pieSlices, type CategoryData, type CategoryKind } from "./chart-plan";
import { columnTitle } from "./column-title";

const tooltipStyle = { background: "var(--pd-surface)", borderColor: "var(--pd-line)", color: "var(--pd-fg)", borderRadius: 8, fontSize: 12 };

export function CategoryChart({ kind, data, label, timeZone, height = 360 }: { kind: CategoryKind; data: CategoryData; label: string; timeZone?: string; height?: number }) {
  const format = useFormat(timeZone);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const labelOf = (value: string) => (data.labelsAreTimes ? format.dateTime(value) : value);
  const rows = useMemo(
    () => data.rows.map((row) => ({ label: data.labelsAreTimes ? format.dateTime(row.label) : row.label, ...Object.fromEntries(data.valueColumns.map((name, index) => [name, row.values[index] ?? 0])) })),
    [data, format],
  );
  const shown = data.valueColumns.filter((name) => !hidden.has(name));
  const numberText = (value: unknown) => format.number(Number(value), { maximumSignificantDigits: 6 });
  // Whole values (counts of alarms, devices…) tick in whole numbers: "0,25 alarms" cannot happen.
  const wholeValues = data.rows.every((row) => row.values.every((value) => value == null || Number.isInteger(value)));
  const summary = `${label}: ${data.rows.length} ${columnTitle(data.labelColumn)} values, ${data.valueColumns.map(columnTitle).join(", ")}.`;

  if (kind === "pie") {
    const slices = pieSlices(data);
    const total = slices.reduce((sum, slice) => sum + slice.value, 0);
    return (
      <figure className="flex flex-col gap-2" data-testid="category-chart" data-kind="pie">
        <div role="img" aria-label={summary} style={{ height }}>
          <ResponsiveContainer width="100%" height="100%">
            <PieChart>
              <Pie data={slices.map((slice) => ({ ...slice, label: labelOf(slice.label) }))} dataKey="value" nameKey="label" innerRadius="45%" outerRadius="80%" isAnimationActive={false} stroke="var(--pd-surface)">
                {slices.map((slice, index) => (
                  <Cell key={slice.label} fill={SERIES_COLORS[index % SERIES_COLORS.length]} />
                ))}
              </Pie>
              <Tooltip formatter={(value) => numberText(value)} contentStyle={tooltipStyle} />
            </PieChart>
          </ResponsiveContainer>
        </div>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label={`${columnTitle(data.valueColumns[0]!)} by ${columnTitle(data.labelColumn)}`}>
          {slices.map((slice, index) => (
            <li key={slice.label} className="inline-flex items-center gap-1.5">
              <span aria-hidden="true" className="inline-block size-2.5 rounded-sm" style={{ background: SERIES_COLORS[index % SERIES_COLORS.length] }} />
              {labelOf(slice.label)}: <span className="tabular-nums">{numberText(slice.value)}</span>
              <span className="text-fg-muted">({format.number(total > 0 ? (slice.value / total) * 100 : 0, { maximumFractionDigits: 1 })} %)</span>
            </li>
          ))}
        </ul>
      </figure>
    );
  }

  const horizontal = kind === "bar";
  return (
    <figure className="flex flex-col gap-2" data-testid="category-chart" data-kind={kind}>
      <div role="img" aria-label={summary} style={{ height: horizontal ? Math.max(height, rows.length * 28 + 60) : height }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} layout={horizontal ? "vertical" : "horizontal"} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
            <CartesianGrid stroke="var(--pd-line)" strokeDasharray="3 3" horizontal={!horizontal} vertical={horizontal} />
            {horizontal ? (
              <>
                <XAxis type="number" allowDecimals={!wholeValues} stroke="var(--pd-fg-muted)" tick={{ fill: "var(--pd-fg-muted)", fontSize: 12 }} tickFormatter={(value: number) => axisNumber(value, format)} />
                <YAxis type="category" dataKey="label" width={160} stroke="var(--pd-fg-muted)" tick={{ fill: "var(--pd-fg-muted)", fontSize: 12 }} interval={0} />
              </>
            ) : (
              <>
                <XAxis type="category" dataKey="label" stroke="var(--pd-fg-muted)" tick={{ fill: "var(--pd-fg-muted)", fontSize: 12 }} interval="preserveStartEnd" />
                <YAxis
                  type="number"
                  allowDecimals={!wholeValues}
                  width={72}
                  stroke="var(--pd-fg-muted)"
                  tick={{ fill: "var(--pd-fg-muted)", fontSize: 12 }}
                  tickFormatter={(value: number) => axisNumber(value, format)}
                  label={data.valueColumns.length === 1 ? { value: columnTitle(data.valueColumns[0]!), angle: -90, position: "insideLeft", style: { fill: "var(--pd-fg)", fontSize: 12, textAnchor: "middle" } } : undefined}
                />
              </>
            )}
            <Tooltip formatter={(value) => numberText(value)} contentStyle={tooltipStyle} cursor={{ fill: "var(--pd-surface-2)" }} />
            {data.valueColumns.map((name, index) =>
              hidden.has(name) ? null : <Bar key={name} dataKey={name} name={columnTitle(name)} fill={SERIES_COLORS[index % SERIES_COLORS.length]} isAnimationActive={false} />,
            )}
          </BarChart>
        </ResponsiveContainer>
      </div>
      {data.valueColumns.length > 1 ? (
        <div role="group" aria-label="Series: press to hide or show" className="flex flex-wrap gap-1.5" data-testid="chart-legend">
          {data.valueColumns.map((name, index) => {
            const on = !hidden.has(name);
            return (
              <button
                key={name}
                type="button"
                aria-pressed={on}
                disabled={on && shown.length === 1}
                onClick={() =>
                  setHidden((current) => {
                    const next = new Set(current);
                    if (next.has(name)) next.delete(name);
                    else next.add(name);
                    return next;
                  })
                }
                className={cn("inline-flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs", on ? "border-line bg-surface" : "border-dashed border-line text-fg-muted line-through")}
              >
                <span aria-hidden="true" className="inline-block h-2 w-3 rounded-sm" style={{ background: SERIES_COLORS[index % SERIES_COLORS.length] }} />
                {columnTitle(name)}
              </button>
            );
          })}
        </div>
      ) : null}
    </figure>
  );
}
