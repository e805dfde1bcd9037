/**
 * A board's view as URL search parameters, so a link opens the same view: `range` and `refresh`
 * (the board's own when absent) and `var-<name>` per variable. Pure, so it is tested without React:
 * a range or refresh the board does not know falls back to the board's own instead of failing.
 */
import {
  BOARD_RANGES,
  BOARD_RANGE_MS,
  BOARD_REFRESH,
  DASHBOARD_LIMITS,
  type TBoardRange,
  type TBoardRefresh,
  type TPanelChart,
} from "@/lib/contract/dashboard-vocabulary";
import type { TDashboardDefinition, TDashboardPanel, TDashboardVariable } from "@/modules/boards/contract/boards";
import { binFor, substituteVariables, variablesUsed } from "@/lib/kql/variables";
import { MAX_CATEGORIES } from "@/components/telemetry/chart-plan";

export interface BoardView {
  range: TBoardRange;
  refresh: TBoardRefresh;
  /** Each variable's value; absent while its options are not known yet. */
  values: Record<string, string>;
}

/** What a `device` or `dataPoint` variable may take (the plant's, from the telemetry catalogue). */
export interface VariableOptions {
  devices: readonly string[];
  dataPoints: readonly string[];
}

export const varParam = (name: string) => `var-${name}`;

export function optionsOf(variable: TDashboardVariable, options: VariableOptions | undefined): readonly string[] | null {
  if (variable.kind === "text") return null;
  return (variable.kind === "device" ? options?.devices : options?.dataPoints) ?? [];
}

/**
 * A variable's value: the URL's, else the default, else (a device or data point) the plant's first
 * option once known. A named value is used at once, without waiting for the plant's options: it goes
 * into the query as a literal whatever it is, so an unknown device simply draws no data.
 */
function valueOf(variable: TDashboardVariable, fromUrl: string | null, options: VariableOptions | undefined): string | undefined {
  const named = [fromUrl, variable.default].find((candidate): candidate is string => candidate !== null && candidate.length <= DASHBOARD_LIMITS.maxValueLength);
  if (variable.kind === "text") return named ?? "";
  if (named !== undefined && named !== "") return named;
  return options ? optionsOf(variable, options)![0] : undefined;
}

export function parseBoardView(params: URLSearchParams, definition: TDashboardDefinition, options: VariableOptions | undefined): BoardView {
  const range = params.get("range");
  const refresh = params.get("refresh");
  const values: Record<string, string> = {};
  for (const variable of definition.variables) {
    const value = valueOf(variable, params.get(varParam(variable.name)), options);
    if (value !== undefined) values[variable.name] = value;
  }
  return {
    range: (BOARD_RANGES as readonly string[]).includes(range ?? "") ? (range as TBoardRange) : definition.range,
    refresh: (BOARD_REFRESH as readonly string[]).includes(refresh ?? "") ? (refresh as TBoardRefresh) : definition.refresh,
    values,
  };
}

export type PanelQuery = { ok: true; query: string } | { ok: false; waiting: true } | { ok: false; waiting: false; message: string };

/** The panel's query with the board's values in it, or why it cannot run yet. */
export function panelQuery(panel: TDashboardPanel, definition: TDashboardDefinition, view: BoardView): PanelQuery {
  const declared = new Set(definition.variables.map((variable) => variable.name));
  const substituted = substituteVariables(panel.query, Object.fromEntries(Object.entries(view.values).filter(([name]) => declared.has(name))), binFor(BOARD_RANGE_MS[view.range]), BOARD_RANGE_MS[view.range]);
  if (substituted.ok) return substituted;
  if (declared.has(substituted.problem.name)) return { ok: false, waiting: true };
  return { ok: false, waiting: false, message: `Line ${substituted.problem.line}, column ${substituted.problem.column}: ${substituted.problem.message}.` };
}

/**
 * The unit of a panel's values: its author's when named; else, when the query is for one data point
 * variable (`Name == $point`), the chosen data point's unit from the plant's catalogue (`units`:
 * name → `DataMetadata.Unit`), which the author cannot fix in advance; else "". A followed unit
 * goes only on columns that carry it (PanelView), never on counts.
 */
export function panelUnit(panel: TDashboardPanel, definition: TDashboardDefinition, view: BoardView, units: ReadonlyMap<string, string> | undefined): { unit: string; followed: boolean } {
  if (panel.unit) return { unit: panel.unit, followed: false };
  const pointVariables = new Set(definition.variables.filter((variable) => variable.kind === "dataPoint").map((variable) => variable.name));
  const used = new Set(variablesUsed(panel.query).map((use) => use.name).filter((name) => pointVariables.has(name)));
  if (used.size !== 1) return { unit: "", followed: false };
  const value = view.values[[...used][0]!];
  const unit = value === undefined ? "" : (units?.get(value) ?? "");
  return { unit, followed: unit !== "" };
}

/** A panel id not yet on the board, from its title. */
export function newPanelId(title: string, taken: readonly string[]): string {
  const base = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 30) || "panel";
  let id = base;
  for (let n = 2; taken.includes(id); n++) id = `${base}-${n}`;
  return id;
}

/** A new empty board (what "New dashboard" saves). */
export function emptyBoard(title: string): TDashboardDefinition {
  return { title, description: "", range: "24h", refresh: "off", variables: [], panels: [] };
}

/** Charts whose answer is brought within the plot's width (docs/explorer.md); tables, pies and big numbers keep their rows. */
export function resolvesByWidth(chart: TPanelChart): boolean {
  return chart === "line" || chart === "column" || chart === "bar";
}

/**
 * The width a panel asks the server for: its plot's width rounded UP to a few steps, so a panel
 * gets at least one point per pixel column, a small resize asks nothing again, and the server can
 * ask for the page's first view at the width the panel will then measure (earlyPanelWidth).
 */
const PANEL_WIDTH_STEPS = [400, 800, 1600, 3200] as const;
/**
 * Bars are read one by one: at most MAX_CATEGORIES (60, components/telemetry/chart-plan.ts) can be
 * drawn, so columns and bars ask for that many bins whatever the width (73 hourly bins at 390 px fell
 * back to a table). One fewer than that: a range that does not start on a bin's edge touches one bin
 * more than it spans (30 days at 12 h gave 61 bars, and the 30-day board's column panel a table).
 */
const BAR_REQUEST_WIDTH = MAX_CATEGORIES - 1;
export function panelRequestWidth(plotPx: number, chart: TPanelChart = "line"): number {
  if (chart === "column" || chart === "bar") return BAR_REQUEST_WIDTH;
  return PANEL_WIDTH_STEPS.find((step) => step >= plotPx) ?? 3200;
}

/**
 * The widths this browser's line panels asked for last time, by panel size: a cookie, so the page's
 * server asks for the first view at the width the panels will measure (a guess that missed cost the
 * 30-day board every line panel twice, the first answer thrown away; bench/ui.ts row 5).
 */
export const PANEL_WIDTH_COOKIE = "pd-panel-widths";
export type RememberedPanelWidths = Partial<Record<TDashboardPanel["width"], number>>;

/** Whether a width is one a line panel asks for (anything else in the cookie is ignored). */
export function isPanelRequestWidth(width: number): boolean {
  return (PANEL_WIDTH_STEPS as readonly number[]).includes(width);
}

/** Remembers what a line panel of this size asked for; written only when it changed. */
export function rememberPanelWidth(size: TDashboardPanel["width"], width: number, current: string): string | null {
  const widths = Object.fromEntries(
    current
      .split(";")
      .map((part) => part.trim())
      .find((part) => part.startsWith(`${PANEL_WIDTH_COOKIE}=`))
      ?.slice(PANEL_WIDTH_COOKIE.length + 1)
      .split(".")
      .map((entry) => entry.split(":"))
      .filter(([name, value]) => (name === "half" || name === "full") && isPanelRequestWidth(Number(value))) ?? [],
  ) as Record<string, string>;
  if (widths[size] === String(width) || !isPanelRequestWidth(width)) return null;
  widths[size] = String(width);
  const value = Object.entries(widths)
    .map(([name, w]) => `${name}:${w}`)
    .join(".");
  return `${PANEL_WIDTH_COOKIE}=${value}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/**
 * The width a panel will most likely ask for: what this browser's panels of its size asked for
 * last time, else a laptop's (1,366–1,440 px: a half panel's plot is under 400 px, a full one's 800–1,600).
 */
export function earlyPanelWidth(panel: Pick<TDashboardPanel, "chart" | "width">, remembered: RememberedPanelWidths = {}): number | null {
  if (!resolvesByWidth(panel.chart)) return null;
  if (panel.chart !== "line") return BAR_REQUEST_WIDTH;
  return remembered[panel.width] ?? (panel.width === "full" ? 1600 : 400);
}
