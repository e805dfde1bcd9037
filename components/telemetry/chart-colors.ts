/**
 * Chart colours, apart from the chart module so pages can draw legends without loading recharts.
 * Mid-tone hues that keep 3:1 contrast for lines on both the light and the dark surface.
 */
export const SERIES_COLORS = ["#2563eb", "#d97706", "#059669", "#db2777", "#7c3aed", "#0891b2", "#dc2626", "#65a30d"] as const;

export type MarkerTone = "job" | "task" | "alarm" | "planned";

export const MARKER_COLORS: Record<MarkerTone, string> = {
  job: "#059669",
  task: "#7c3aed",
  alarm: "#dc2626",
  planned: "#2563eb",
};
