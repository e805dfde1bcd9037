/** The anonymous requests' rate and line (anonymous-rate.ts), on a clock the test moves. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAnonymousRate, type Entry } from "./anonymous-rate";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Enters `count` requests; how many have been let in, refused and are still waiting, read at any time. */
function crowd(rate: ReturnType<typeof createAnonymousRate>, count: number, gone: AbortSignal = new AbortController().signal) {
  const outcomes: (Entry | null)[] = Array.from({ length: count }, () => null);
  for (let i = 0; i < count; i += 1) {
    const entry = rate.enter(gone);
    if (entry instanceof Promise) void entry.then((settled) => (outcomes[i] = settled));
    else outcomes[i] = entry;
  }
  return () => ({
    entered: outcomes.filter((o) => o?.entered).length,
    refused: outcomes.filter((o) => o && !o.entered).length,
    waiting: outcomes.filter((o) => o === null).length,
  });
}

describe("createAnonymousRate", () => {
  it("lets a bucket's worth in at once, then one per interval in the order they came", async () => {
    const rate = createAnonymousRate({ perSecond: 50, line: 1000, waitMs: 10_000 }, () => Date.now());
    const tally = crowd(rate, 40);
    await Promise.resolve();
    // The bucket holds at least 10: a visitor's sign-in never waits; the other 30 wait in line.
    expect(tally()).toEqual({ entered: 10, refused: 0, waiting: 30 });
    expect(rate.waiting()).toBe(30);
    await vi.advanceTimersByTimeAsync(200);
    expect(tally().entered).toBe(20);
    await vi.advanceTimersByTimeAsync(400);
    expect(tally()).toEqual({ entered: 40, refused: 0, waiting: 0 });
    expect(rate.waiting()).toBe(0);
  });

  it("refuses at once beyond the line, and after the longest wait", async () => {
    const rate = createAnonymousRate({ perSecond: 10, line: 5, waitMs: 1_000 }, () => Date.now());
    const tally = crowd(rate, 20);
    await Promise.resolve();
    // 10 in from the bucket, 5 in line, 5 refused at once with a Retry-After of the wait.
    expect(tally()).toEqual({ entered: 10, refused: 5, waiting: 5 });
    await vi.advanceTimersByTimeAsync(1_000);
    // 10 a second: about 10 tokens came in the second, but the line only held 5.
    expect(tally()).toEqual({ entered: 15, refused: 5, waiting: 0 });

    const slow = createAnonymousRate({ perSecond: 1, line: 100, waitMs: 1_500 }, () => Date.now());
    const late = crowd(slow, 15);
    await vi.advanceTimersByTimeAsync(1_600);
    // 10 from the bucket, one more token in 1.5 s; the other four waited their 1.5 s and were refused.
    expect(late()).toEqual({ entered: 11, refused: 4, waiting: 0 });
  });

  it("a request whose client left gives its turn to the next", async () => {
    const rate = createAnonymousRate({ perSecond: 10, line: 100, waitMs: 10_000 }, () => Date.now());
    crowd(rate, 10);
    const left = new AbortController();
    const leaving = crowd(rate, 1, left.signal);
    const staying = crowd(rate, 1);
    left.abort();
    await vi.advanceTimersByTimeAsync(100);
    expect(leaving()).toEqual({ entered: 0, refused: 1, waiting: 0 });
    expect(staying()).toEqual({ entered: 1, refused: 0, waiting: 0 });
  });
});
