/**
 * Per-key budgets per fixed one-minute window (decisions.md §6): the maintenance interface spends 1
 * per request and token, the telemetry interface a query's cost per client. In memory: a restart
 * resets the windows, which only ever lets a client through early.
 */
export interface RateDecision {
  allowed: boolean;
  /** Budget left in the current window after this request (0 when refused). */
  remaining: number;
  /** Whole seconds until the window resets; the `Retry-After` of a 429. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  consume(key: string, cost?: number, now?: number): RateDecision;
}

export function createRateLimiter(budgetPerWindow: number, windowMs = 60_000): RateLimiter {
  const windows = new Map<string, { start: number; used: number }>();
  let lastSweep = 0;

  return {
    consume(key, cost = 1, now = Date.now()) {
      // Forget finished windows now and then, so keys of departed clients do not pile up.
      if (now - lastSweep > windowMs) {
        for (const [k, w] of windows) if (now - w.start >= windowMs) windows.delete(k);
        lastSweep = now;
      }
      let window = windows.get(key);
      if (!window || now - window.start >= windowMs) {
        window = { start: now, used: 0 };
        windows.set(key, window);
      }
      const retryAfterSeconds = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
      if (window.used + cost > budgetPerWindow) return { allowed: false, remaining: 0, retryAfterSeconds };
      window.used += cost;
      return { allowed: true, remaining: budgetPerWindow - window.used, retryAfterSeconds };
    },
  };
}
