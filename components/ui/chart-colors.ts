/**
 * Colours of kinds in a chart (the job-hours chart's work types; telemetry series take theirs from
 * components/telemetry/chart-colors.ts): distinct hues that stay legible on the light and the dark
 * surface, assigned by a kind's position in a sorted list so a kind keeps its colour across pages.
 */
const KIND_COLORS = ["#3b82f6", "#16a34a", "#f59e0b", "#dc2626", "#8b5cf6", "#0891b2", "#db2777", "#65a30d", "#f97316", "#64748b"] as const;

export function kindColor(index: number): string {
  return KIND_COLORS[index % KIND_COLORS.length]!;
}

/** Axis and grid colours read the theme's CSS variables, so charts follow light/dark. */
export const chartTheme = {
  axis: "var(--pd-fg-muted)",
  grid: "var(--pd-line)",
  tooltipBackground: "var(--pd-surface)",
  tooltipBorder: "var(--pd-line)",
  text: "var(--pd-fg)",
} as const;
