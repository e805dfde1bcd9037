import { expect, it } from "vitest";
import { createFixedWindowCounter } from "../shared-state/fixed-window";
import { describeSharedState } from "../shared-state/testing";
import { createRateLimiter } from "./rate-limit";

describeSharedState("rate limiter (fixed one-minute windows per key)", (backend) => {
  const limiter = (budget: number, name: string) => createRateLimiter(budget, createFixedWindowCounter(backend.connect(), name, 60_000));

  it("allows the budget, refuses the rest with the seconds left in the window, then renews", async () => {
    const limit = limiter(3, "renews");
    const t0 = 1_000_000;
    const first = [];
    for (const i of [0, 1, 2]) first.push((await limit.consume("a", 1, t0 + i)).remaining);
    expect(first).toEqual([2, 1, 0]);
    expect(await limit.consume("a", 1, t0 + 15_000)).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 45 });
    expect((await limit.consume("b", 1, t0 + 15_000)).allowed).toBe(true);
    expect(await limit.consume("a", 1, t0 + 60_000)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it("charges costs and refuses a request that would overdraw, without spending it", async () => {
    const limit = limiter(10, "costs");
    expect((await limit.consume("c", 7, 0)).remaining).toBe(3);
    expect((await limit.consume("c", 4, 1)).allowed).toBe(false);
    expect(await limit.consume("c", 3, 2)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("never answers a Retry-After below one second", async () => {
    const limit = limiter(1, "retry-after");
    await limit.consume("d", 1, 0);
    expect((await limit.consume("d", 1, 59_999)).retryAfterSeconds).toBe(1);
  });

  // Memory is one process's state by design: two of them are two limits (this test fails there).
  it.skipIf(backend.kind === "memory")("holds one limit for two instances together, however their requests interleave", async () => {
    const [one, two] = [limiter(100, "instances"), limiter(100, "instances")];
    const now = Date.now();
    const decisions = await Promise.all(Array.from({ length: 150 }, (_, i) => (i % 2 ? one : two).consume("shared-token", 1, now)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
    // Each instance saw its own requests refused once the sum reached the budget, not at 100 of its own.
    expect((await one.consume("shared-token", 1, now)).allowed).toBe(false);
    expect((await two.consume("shared-token", 1, now)).allowed).toBe(false);
    expect(decisions.filter((d) => d.allowed).map((d) => d.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });
});
