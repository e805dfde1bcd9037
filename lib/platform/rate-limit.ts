/**
 * Requests per key per fixed one-minute window (docs/api.md §6): the maintenance interface spends 1
 * per request and token. The windows are a FixedWindowCounter: in memory by default (a restart
 * resets them, which only ever lets a client through early), in Redis when several instances must
 * share one limit.
 */
import { createMemoryWindows, secondsLeft, type FixedWindowCounter } from "../shared-state/fixed-window";

interface RateDecision {
  allowed: boolean;
  /** Budget left in the current window after this request (0 when refused). */
  remaining: number;
  /** Whole seconds until the window resets; the `Retry-After` of a 429. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Throws 503 SERVICE_UNAVAILABLE when the shared windows cannot be reached. */
  consume(key: string, cost?: number, now?: number): Promise<RateDecision>;
}

export function createRateLimiter(budgetPerWindow: number, windows: FixedWindowCounter = createMemoryWindows(60_000)): RateLimiter {
  return {
    async consume(key, cost = 1, now = Date.now()) {
      const window = await windows.take(key, cost, budgetPerWindow, "all", now);
      const retryAfterSeconds = secondsLeft(windows.windowMs, window, now);
      if (window.taken < cost) return { allowed: false, remaining: 0, retryAfterSeconds };
      return { allowed: true, remaining: budgetPerWindow - window.used, retryAfterSeconds };
    },
  };
}
