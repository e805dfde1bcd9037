import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limit";

describe("rate limiter (fixed one-minute windows per key)", () => {
  it("allows the budget, refuses the rest with the seconds left in the window, then renews", () => {
    const limiter = createRateLimiter(3, 60_000);
    const t0 = 1_000_000;
    expect([0, 1, 2].map((i) => limiter.consume("a", 1, t0 + i).remaining)).toEqual([2, 1, 0]);
    expect(limiter.consume("a", 1, t0 + 15_000)).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 45 });
    expect(limiter.consume("b", 1, t0 + 15_000).allowed).toBe(true);
    expect(limiter.consume("a", 1, t0 + 60_000)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it("charges costs and refuses a request that would overdraw, without spending it", () => {
    const limiter = createRateLimiter(10);
    expect(limiter.consume("c", 7, 0).remaining).toBe(3);
    expect(limiter.consume("c", 4, 1).allowed).toBe(false);
    expect(limiter.consume("c", 3, 2)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("never answers a Retry-After below one second", () => {
    const limiter = createRateLimiter(1, 60_000);
    limiter.consume("d", 1, 0);
    expect(limiter.consume("d", 1, 59_999).retryAfterSeconds).toBe(1);
  });
});
