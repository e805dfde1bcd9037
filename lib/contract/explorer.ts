/**
 * The dashboard's telemetry query, `POST /api/telemetry/query`: the service's request and answer
 * (lib/contract/telemetry.ts) plus what a chart and the explorer's inspector need — the width the
 * chart can show (the server then reduces the answer to it: docs/explorer.md, "Automatic
 * resolution") and, beside `data`, `meta`: how the answer was reduced and what the query cost,
 * stage by stage. The service's own endpoint is unchanged. No server-only import.
 */
import { z } from "./zod";
import { TELEMETRY_QUERY_FIELDS, checkQueryRange, ZTelemetryColumn, ZRenderHint } from "./telemetry";

/** Widest plot a chart may ask for, in pixels (a 4K screen's width with room to spare). */
const MAX_CHART_WIDTH = 8_000;

export const ZChartResolution = z.object({
  /** Width of the chart's plot in pixels: the answer keeps about two points per pixel per series. */
  width: z.number().int().min(50).max(MAX_CHART_WIDTH),
  /** Ask for every point, as the query has them (refused by the row limit as before when too many). */
  full: z.boolean().optional(),
});

export const ZExplorerQueryRequest = z
  .object({
    ...TELEMETRY_QUERY_FIELDS,
    resolution: ZChartResolution.optional(),
    /** Also count the rows the query scanned (one more, cheap, query on the engine). */
    inspect: z.boolean().optional(),
  })
  .superRefine(checkQueryRange);

/** How an answer was brought within a chart's width. */
export const ZQueryResolution = z.object({
  /** `bin`: the query's own time bin made coarser; `minmax`: raw samples reduced to each bin's low and high. */
  method: z.enum(["bin", "minmax"]),
  /** The query's own bin (ms); null for raw samples. */
  sourceBinMs: z.number().positive().nullable(),
  /** The bin the chart shows (ms). */
  shownBinMs: z.number().positive(),
  /** Rows at full resolution: counted (`minmax`) or estimated from the bins (`bin`). */
  fullRows: z.number().int().nonnegative(),
  /** Whether the full resolution fits the row limit (the chart then offers it). */
  fullFits: z.boolean(),
});

/** Milliseconds per stage of the engine's work (null when the service does not say: remote mode). */
export const ZQueryStages = z.object({
  compileMs: z.number().nonnegative().nullable(),
  queueMs: z.number().nonnegative().nullable(),
  executeMs: z.number().nonnegative().nullable(),
  serializeMs: z.number().nonnegative().nullable(),
});

export const ZQueryInspection = z.object({
  /** Rows of the tables the query read, within its range and plants (null when not counted). */
  rowsScanned: z.number().int().nonnegative().nullable(),
  rowsReturned: z.number().int().nonnegative(),
  /** Cost units charged to the user's budget (all of the answer's engine queries). */
  cost: z.number().nonnegative().nullable(),
  /** Engine queries the answer took (a reduced raw query is counted first: two). */
  queries: z.number().int().positive(),
  stages: ZQueryStages,
});

export const ZExplorerQueryMeta = z.object({
  resolution: ZQueryResolution.nullable(),
  inspection: ZQueryInspection,
});

export const ZExplorerQueryResponse = z.object({
  data: z.object({
    columns: z.array(ZTelemetryColumn),
    rows: z.array(z.array(z.unknown())),
    render: ZRenderHint.optional(),
  }),
  meta: ZExplorerQueryMeta,
});

export type TExplorerQueryRequest = z.output<typeof ZExplorerQueryRequest>;
export type TQueryResolution = z.infer<typeof ZQueryResolution>;
export type TQueryStages = z.infer<typeof ZQueryStages>;
export type TQueryInspection = z.infer<typeof ZQueryInspection>;
export type TExplorerQueryMeta = z.infer<typeof ZExplorerQueryMeta>;
export type TExplorerQueryResponse = z.output<typeof ZExplorerQueryResponse>;
