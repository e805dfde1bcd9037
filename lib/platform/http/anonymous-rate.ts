/**
 * The anonymous requests' rate (docs/architecture.md, "A fair front door"): before their pool,
 * requests without an accepted credential are let in at most `perSecond` a second, one after the
 * other, and the rest wait in one line in the order they came. The token bucket holds a fifth of a
 * second's worth (at least 10): enough that a visitor's sign-in — a page, its CSRF token, its
 * session, the post — never waits, and little enough that a flood's first requests are not let in
 * all at once (measured: a bucket of 100 let each burst's first 100 through in one stretch).
 *
 * Why a rate and a line, when the pool already bounds how many run at once: a pool bounds places,
 * not the event loop's time. Measured with bench:load, a client sending 300 requests at once, again
 * as soon as all are answered, was answered ever faster as each answer got cheaper (the sign-in
 * page from memory, redirects and 401s at the door): 880 a second, every burst parsed and answered
 * in one stretch of the one event loop, which a signed-in user's request then waited behind
 * (p95 ×15). Held in the line, such a client gets its answers at the rate, the server spends on
 * it what the rate allows and the user's requests find the loop free. Waiting costs nothing but the
 * open connection; a full line (or one waited in for `waitMs`) is refused at once.
 */

export interface AnonymousRateLimits {
  /** Anonymous requests let in per second. */
  perSecond: number;
  /** Requests waiting in the line; beyond it a request is refused at once. */
  line: number;
  /** Longest wait in the line before the request is refused. */
  waitMs: number;
}

export type Entry = { entered: true } | { entered: false; retryAfterSeconds: number };

interface AnonymousRate {
  /** Lets the request in now (a resolved answer, no wait) or when its turn in the line comes; refused when the line is full or waited in too long. */
  enter(gone: AbortSignal): Entry | Promise<Entry>;
  /** Requests waiting in the line (metrics, tests). */
  waiting(): number;
}

interface Waiter {
  resolve(entry: Entry): void;
  gone: AbortSignal;
  until: number;
}

export function createAnonymousRate(limits: AnonymousRateLimits, now: () => number = () => performance.now()): AnonymousRate {
  const capacity = Math.max(10, limits.perSecond / 5);
  const interval = 1000 / limits.perSecond;
  let tokens = capacity;
  let filledAt = now();
  const line: Waiter[] = [];
  let head = 0;
  let timer: NodeJS.Timeout | null = null;
  const retryAfterSeconds = Math.max(1, Math.ceil(limits.waitMs / 1000));

  function refill(at: number) {
    tokens = Math.min(capacity, tokens + ((at - filledAt) * limits.perSecond) / 1000);
    filledAt = at;
  }

  /** Lets the line's first in as tokens come; one timer for the whole line. */
  function release() {
    timer = null;
    const at = now();
    refill(at);
    while (head < line.length) {
      const waiter = line[head]!;
      if (waiter.gone.aborted || at >= waiter.until) {
        head += 1;
        waiter.resolve({ entered: false, retryAfterSeconds });
        continue;
      }
      if (tokens < 1) break;
      tokens -= 1;
      head += 1;
      waiter.resolve({ entered: true });
    }
    if (head === line.length) {
      line.length = 0;
      head = 0;
      return;
    }
    // A line that never empties under a flood: drop the served part now and then.
    if (head >= 1024) {
      line.splice(0, head);
      head = 0;
    }
    // The next token, or the first waiter's end of patience, whichever comes first.
    timer = setTimeout(release, Math.max(1, Math.min((1 - tokens) * interval, line[head]!.until - at)));
  }

  return {
    enter(gone) {
      const at = now();
      refill(at);
      if (head === line.length && tokens >= 1) {
        tokens -= 1;
        return { entered: true };
      }
      if (line.length - head >= limits.line || limits.waitMs === 0) return { entered: false, retryAfterSeconds };
      return new Promise<Entry>((resolve) => {
        line.push({ resolve, gone, until: at + limits.waitMs });
        if (!timer) timer = setTimeout(release, Math.max(1, (1 - tokens) * interval));
      });
    },
    waiting: () => line.length - head,
  };
}
