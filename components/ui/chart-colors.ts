/**
 * Series colours for charts: distinct hues that stay legible on the light and the dark surface,
 * assigned by a series' position in a sorted list so a kind keeps its colour across pages.
 */
export const SERIES_COLORS = ["#3b82f6", "#16a34a", "#f59e0b", "#dc2626", "#8b5cf6", "#0891b2", "#db2777", "#65a30d", "#f97316", "#64748b"] as const;

export function seriesColor(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length]!;
}

/** Axis and grid colours read the theme's CSS variables, so charts follow light/dark. */
export const chartTheme = {
  axis: "var(--pd-fg-muted)",
  grid: "var(--pd-line)",
  tooltipBackground: "var(--pd-surface)",
  tooltipBorder: "var(--pd-line)",
  text: "var(--pd-fg)",
} as const;
