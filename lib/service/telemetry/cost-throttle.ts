/**
 * Per-client, per-minute cost budget of the telemetry interface (decisions.md §6). A query's cost
 * is only known once it ran, so a query is admitted when at least the minimum cost (1) is left,
 * reserves that minimum at once (parallel queries cannot all slip through on the same unit) and is
 * charged the rest afterwards; a long query may push the window into debt, which refuses the
 * client's further queries until the window renews.
 */
import { createWindows, type Window } from "../rate-limit";

export const MIN_QUERY_COST = 1;
/** Engine milliseconds per extra cost unit: the default budget of 300 buys ~30 s of DuckDB time. */
export const MS_PER_COST_UNIT = 100;

export function queryCost(engineMs: number): number {
  return MIN_QUERY_COST + Math.floor(Math.max(0, engineMs) / MS_PER_COST_UNIT);
}

export interface CostWindow {
  /** Units used in the current window, this query included. */
  used: number;
  remaining: number;
  budget: number;
  /** Whole seconds until the window renews. */
  resetSeconds: number;
}

export interface Admission {
  /** Charges the query's final cost (the reserved minimum included) and reports the window. */
  settle(cost: number, now?: number): CostWindow;
}

export interface CostThrottle {
  /** An admission, or the window (with remaining 0) when the budget is spent. */
  admit(key: string, now?: number): { admission: Admission } | { refused: CostWindow };
}

export function createCostThrottle(budget: number, windowMs = 60_000): CostThrottle {
  const windows = createWindows(windowMs);
  const current = (key: string, now: number) => windows.current(key, now);
  const report = (window: Window, now: number): CostWindow => ({
    used: window.used,
    remaining: Math.max(0, budget - window.used),
    budget,
    resetSeconds: windows.secondsLeft(window, now),
  });

  return {
    admit(key, now = Date.now()) {
      const window = current(key, now);
      if (window.used + MIN_QUERY_COST > budget) return { refused: report(window, now) };
      window.used += MIN_QUERY_COST;
      return {
        admission: {
          settle(cost, at = Date.now()) {
            // The window may have renewed while the query ran: charge whichever is current.
            const charged = current(key, at);
            charged.used += Math.max(0, cost - (charged === window ? MIN_QUERY_COST : 0));
            return report(charged, at);
          },
        },
      };
    },
  };
}

/** `x-query-cost` header value: what this request consumed and what is left this minute. */
export function costHeader(consumed: number, window: CostWindow): string {
  return `consumed=${consumed}; remaining=${window.remaining}; budget=${window.budget}; reset=${window.resetSeconds}`;
}
