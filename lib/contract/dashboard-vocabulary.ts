/**
 * A dashboard's vocabulary and bounds as plain values, without zod: the schemas in dashboards.ts
 * are built from them, and the board's pages read them without loading zod
 * (docs/architecture.md, "What the browser loads").
 */
export const DASHBOARD_LIMITS = {
  maxPanels: 24,
  maxVariables: 8,
  /** Dashboards per plant (deleted ones not counted). */
  maxPerPlant: 200,
  /** An imported file, as text: a board of 24 long queries fits many times over. */
  maxImportBytes: 256 * 1024,
  maxValueLength: 200,
  /** Folders per plant; a folder's name is unique in its plant whatever its case. */
  maxFolders: 100,
  /** Saved queries per plant (the team library, docs/boards.md). */
  maxSavedQueries: 500,
  maxTags: 10,
} as const;

/** Who sees a board (docs/boards.md): its owner only, the owner and one role of the plant, or the whole plant. */
export const BOARD_VISIBILITIES = ["private", "role", "plant"] as const;
export type TBoardVisibility = (typeof BOARD_VISIBILITIES)[number];
/** A saved query's tag: lower-case letters, digits, ' ', '-' or '_', starting with a letter or digit. */
export const TAG_PATTERN = /^[\p{Ll}\p{Lo}\p{N}][\p{Ll}\p{Lo}\p{N} _-]{0,29}$/u;

export const PANEL_CHARTS = ["line", "column", "bar", "pie", "table", "stat"] as const;
export const VARIABLE_KINDS = ["device", "dataPoint", "text"] as const;
/** The board's range: always ending now (a panel's drag-zoom is the explorer's job). */
export const BOARD_RANGES = ["1h", "6h", "24h", "7d", "30d", "90d", "365d"] as const;
export const BOARD_REFRESH = ["off", "30s", "1m", "5m", "15m"] as const;

/** `$name` in a query; `__` names are the board's own (`$__bin`), never a variable. */
export const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
export const DASHBOARD_EXPORT_FORMAT = "plantdesk-dashboard";

export type TPanelChart = (typeof PANEL_CHARTS)[number];
export type TVariableKind = (typeof VARIABLE_KINDS)[number];
export type TBoardRange = (typeof BOARD_RANGES)[number];
export type TBoardRefresh = (typeof BOARD_REFRESH)[number];

export const BOARD_RANGE_MS: Record<TBoardRange, number> = { "1h": 3_600_000, "6h": 6 * 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000, "90d": 90 * 86_400_000, "365d": 365 * 86_400_000 };
export const BOARD_RANGE_LABEL: Record<TBoardRange, string> = { "1h": "Last 1 hour", "6h": "Last 6 hours", "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days", "365d": "Last 365 days" };
export const BOARD_REFRESH_MS: Record<TBoardRefresh, number | null> = { off: null, "30s": 30_000, "1m": 60_000, "5m": 300_000, "15m": 900_000 };
export const BOARD_REFRESH_LABEL: Record<TBoardRefresh, string> = { off: "Off", "30s": "Every 30 s", "1m": "Every minute", "5m": "Every 5 minutes", "15m": "Every 15 minutes" };
