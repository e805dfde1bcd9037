import "server-only";
/**
 * The first view's panel queries, started while the page renders (bench/ui.ts, row 4): each goes
 * through the dashboard's own `/api/telemetry/query` route in process with the reader's cookie
 * (lib/bff/page-reads.ts: the same checks and limits as the browser's request), so the answers
 * travel with the page instead of being asked for after it has loaded and hydrated. A panel whose
 * query cannot run yet (a variable waiting for the plant's devices), that fails, or whose answer is
 * large is left to ask for itself, as it always did. A chart is asked for at the width the panel
 * most likely measures (earlyPanelWidth: what this browser's panels of its size asked for last
 * time, from PANEL_WIDTH_COOKIE); a panel that measures another asks again at its own.
 */
import { cookies } from "next/headers";
import { z } from "zod";
import { earlyPanelWidth, isPanelRequestWidth, PANEL_WIDTH_COOKIE, panelQuery, parseBoardView, type RememberedPanelWidths } from "@/modules/boards/components/board-state";
import type { EarlyPanelAnswer, PanelAnswer } from "@/modules/boards/components/panel-view";
import { readApiForPage } from "@/app/page-server";
import { BOARD_RANGE_MS } from "@/lib/contract/dashboard-vocabulary";
import type { TDashboard } from "@/modules/boards/contract/boards";
import { ZQueryResolution } from "@/lib/contract/explorer";
import { apiPath } from "@/lib/contract/api";

/** Larger answers are not written into the page (the browser asks for them itself, as before). */
const MAX_EARLY_ANSWER_BYTES = 512 * 1024;

/** `half:400.full:800`; a cookie the browser mangled or someone forged is ignored (the laptop's guess stands). */
const ZRememberedWidths = z
  .string()
  .max(64)
  .transform((value): unknown => Object.fromEntries(value.split(".").map((entry) => entry.split(":"))))
  .pipe(z.object({ half: z.coerce.number().refine(isPanelRequestWidth).optional(), full: z.coerce.number().refine(isPanelRequestWidth).optional() }).strict());

async function rememberedWidths(): Promise<RememberedPanelWidths> {
  return ZRememberedWidths.safeParse((await cookies()).get(PANEL_WIDTH_COOKIE)?.value).data ?? {};
}

export async function earlyAnswers(board: TDashboard, search: URLSearchParams): Promise<Record<string, EarlyPanelAnswer>> {
  const view = parseBoardView(search, board.definition, undefined);
  const remembered = await rememberedWidths();
  // Whole seconds, like the panels' own: every panel asks for the same window.
  const end = Math.floor(Date.now() / 1000) * 1000;
  const window = { startTime: new Date(end - BOARD_RANGE_MS[view.range]).toISOString(), endTime: new Date(end).toISOString() };
  const early: Record<string, EarlyPanelAnswer> = {};
  for (const panel of board.definition.panels) {
    const query = panelQuery(panel, board.definition, view);
    if (!query.ok) continue;
    const width = earlyPanelWidth(panel, remembered);
    const answer = readApiForPage<{ data?: { columns?: unknown; rows?: unknown }; meta?: { resolution?: unknown } }>(apiPath("telemetryQuery"), {
      method: "POST",
      body: { query: query.query, ...window, plantIds: [board.plantId], ...(width === null ? {} : { resolution: { width } }) },
      timeoutMs: null,
      maxBytes: MAX_EARLY_ANSWER_BYTES,
    }).then((read): PanelAnswer | null => {
      // Anything else: the panel asks for itself and says what went wrong, in words.
      const data = read?.value.data;
      if (!read || !Array.isArray(data?.columns) || !Array.isArray(data.rows)) return null;
      const resolution = ZQueryResolution.nullable().safeParse(read.value.meta?.resolution ?? null).data ?? null;
      return { result: { columns: data.columns as PanelAnswer["result"]["columns"], rows: data.rows as unknown[][] }, resolution, from: Date.parse(window.startTime), to: end, at: read.readAt };
    });
    early[panel.id] = { query: query.query, range: view.range, width, answer };
  }
  return early;
}
