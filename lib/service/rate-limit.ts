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

export interface Window {
  start: number;
  used: number;
}

/**
 * Fixed windows per key: the current window of a key, a new one once the last has ended. Finished
 * windows are forgotten now and then, so keys of departed clients do not pile up. Shared by the
 * request limiter below and the telemetry cost throttle.
 */
export function createWindows(windowMs: number): { current(key: string, now: number): Window; secondsLeft(window: Window, now: number): number } {
  const windows = new Map<string, Window>();
  let lastSweep = 0;
  return {
    current(key, now) {
      if (now - lastSweep > windowMs) {
        for (const [k, w] of windows) if (now - w.start >= windowMs) windows.delete(k);
        lastSweep = now;
      }
      let window = windows.get(key);
      if (!window || now - window.start >= windowMs) {
        window = { start: now, used: 0 };
        windows.set(key, window);
      }
      return window;
    },
    secondsLeft(window, now) {
      return Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
    },
  };
}

export function createRateLimiter(budgetPerWindow: number, windowMs = 60_000): RateLimiter {
  const windows = createWindows(windowMs);
  return {
    consume(key, cost = 1, now = Date.now()) {
      const window = windows.current(key, now);
      const retryAfterSeconds = windows.secondsLeft(window, now);
      if (window.used + cost > budgetPerWindow) return { allowed: false, remaining: 0, retryAfterSeconds };
      window.used += cost;
      return { allowed: true, remaining: budgetPerWindow - window.used, retryAfterSeconds };
    },
  };
}
