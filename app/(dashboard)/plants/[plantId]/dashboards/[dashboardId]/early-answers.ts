import "server-only";
/**
 * The first view's panel queries, started while the page renders (bench/ui.ts, row 4): each goes
 * through the dashboard's own `/api/telemetry/query` route in process with the reader's cookie
 * (lib/bff/in-process.ts: the same checks and limits as the browser's request), so the answers
 * travel with the page instead of being asked for after it has loaded and hydrated. A panel whose
 * query cannot run yet (a variable waiting for the plant's devices), that fails, or whose answer is
 * large is left to ask for itself, as it always did.
 */
import { headers } from "next/headers";
import { panelQuery, parseBoardView } from "@/components/dashboards/board-state";
import type { EarlyPanelAnswer, PanelAnswer } from "@/components/dashboards/panel-view";
import { callApiInProcess } from "@/lib/bff/in-process";
import { BOARD_RANGE_MS } from "@/lib/contract/dashboard-vocabulary";
import type { TDashboard } from "@/lib/contract/dashboards";

/** Larger answers are not written into the page (the browser asks for them itself, as before). */
const MAX_EARLY_ANSWER_BYTES = 512 * 1024;

export async function earlyAnswers(board: TDashboard, search: URLSearchParams): Promise<Record<string, EarlyPanelAnswer>> {
  const request = await headers();
  const forwarded = {
    cookie: request.get("cookie") ?? undefined,
    host: request.get("host") ?? undefined,
    "sec-fetch-site": request.get("sec-fetch-site") ?? undefined,
  };
  const view = parseBoardView(search, board.definition, undefined);
  // Whole seconds, like the panels' own: every panel asks for the same window.
  const end = Math.floor(Date.now() / 1000) * 1000;
  const window = { startTime: new Date(end - BOARD_RANGE_MS[view.range]).toISOString(), endTime: new Date(end).toISOString() };
  const early: Record<string, EarlyPanelAnswer> = {};
  for (const panel of board.definition.panels) {
    const query = panelQuery(panel, board.definition, view);
    if (!query.ok) continue;
    const answer = callApiInProcess({
      method: "POST",
      path: "/api/telemetry/query",
      body: { query: query.query, ...window, plantIds: [board.plantId] },
      headers: forwarded,
    })
      .then(({ status, text }): PanelAnswer | null => {
        if (status !== 200 || text.length > MAX_EARLY_ANSWER_BYTES) return null;
        const data = (JSON.parse(text) as { data?: { columns?: unknown; rows?: unknown } }).data;
        if (!Array.isArray(data?.columns) || !Array.isArray(data.rows)) return null;
        return { result: { columns: data.columns as PanelAnswer["result"]["columns"], rows: data.rows as unknown[][] }, from: Date.parse(window.startTime), to: end, at: Date.now() };
      })
      // The panel asks for itself and says what went wrong, in words.
      .catch(() => null);
    early[panel.id] = { query: query.query, range: view.range, answer };
  }
  return early;
}
