/**
 * The sign-in throttle's rules on each backend (memory, Redis), with the clock passed in: delays
 * per account and address that double up to 15 minutes, an account-wide ceiling that slows and
 * never refuses (so a guesser at one address never keeps the real user at another out), a success
 * that forgets the account and leaves no wait behind at the address — and, on Redis, one count for
 * all instances together. sign-in.test.ts drives the throttle through next-auth's `authorize`.
 */
import { expect, it } from "vitest";
import { describeSharedState } from "../shared-state/testing";
import { ACCOUNT_CEILING, ADDRESS_FREE, MAX_SLOW_MS, PAIR_FREE, createSignInThrottle, type Admission } from "./sign-in-throttle";

const admitted = (admission: Admission) => "attempt" in admission;

describeSharedState("sign-in throttle", (backend) => {
  const throttle = () => createSignInThrottle(backend.connect());

  it("lets colleagues behind an address with past failures sign in one after another", async () => {
    const t = throttle();
    const address = "10.0.0.10";
    let now = 0;
    // The address has used up its free failures, and then waited out its delay.
    for (let i = 0; i <= ADDRESS_FREE + 1; i++) {
      const admission = await t.begin({ account: `typo${i}@example.com`, address }, now);
      if ("retryAfterSeconds" in admission) now += admission.retryAfterSeconds * 1000;
    }
    now += 60 * 60_000 - 1;
    // Right passwords, back to back: none of them leaves a wait behind for the next one.
    for (const who of ["kim", "pat", "lee", "sam"]) {
      const admission = await t.begin({ account: `${who}@example.com`, address }, now);
      expect(admitted(admission), who).toBe(true);
      if ("attempt" in admission) await admission.attempt.succeeded();
      now += 10;
    }
  });

  it("doubles the wait at one address with each further failure, up to 15 minutes, and forgets it after a success", async () => {
    const t = throttle();
    const keys = { account: "a@example.com", address: "10.0.0.9" };
    let now = 0;
    const waits: number[] = [];
    for (let i = 0; i < 30; i++) {
      const admission = await t.begin(keys, now);
      if ("retryAfterSeconds" in admission) {
        waits.push(admission.retryAfterSeconds);
        now += admission.retryAfterSeconds * 1000;
      }
    }
    expect(waits.slice(0, 6)).toEqual([1, 2, 4, 8, 16, 32]);
    expect(Math.max(...waits)).toBe(15 * 60);
    const admission = await t.begin(keys, now + 15 * 60_000);
    expect(admitted(admission)).toBe(true);
    if ("attempt" in admission) await admission.attempt.succeeded();
    expect(admitted(await t.begin(keys, now + 15 * 60_000 + 1))).toBe(true);
  });

  it("never keeps the real user out: a guesser at one address leaves another address admitted at once", async () => {
    const t = throttle();
    const account = "admin@example.com";
    let now = 10_000;
    // One attempt every 15 minutes, for a day, plus a burst: the old rules kept the account locked.
    for (let i = 0; i < 96; i++, now += 15 * 60_000) await t.begin({ account, address: "203.0.113.66" }, now);
    const burst = await Promise.all(Array.from({ length: 50 }, () => t.begin({ account, address: "203.0.113.66" }, now)));
    expect(burst.filter(admitted).length).toBeLessThan(2);
    const real = await t.begin({ account, address: "198.51.100.7" }, now);
    expect(admitted(real)).toBe(true);
  });

  it("slows every address past the account's ceiling, never refuses, and forgets after a success", async () => {
    const t = throttle();
    const account = "sprayed@example.com";
    const now = 20_000;
    // Many addresses, one try each: no pair is throttled; the account-wide count passes its ceiling.
    const all = await Promise.all(Array.from({ length: ACCOUNT_CEILING + 40 }, (_, i) => t.begin({ account, address: `10.3.${i >> 8}.${i & 255}` }, now)));
    expect(all.every(admitted)).toBe(true);
    const slows = all.map((admission) => ("slowMs" in admission ? admission.slowMs : -1)).sort((a, b) => a - b);
    expect(slows.slice(0, ACCOUNT_CEILING).every((ms) => ms === 0)).toBe(true);
    expect(slows.at(-1)).toBe(MAX_SLOW_MS);
    const real = await t.begin({ account, address: "198.51.100.8" }, now);
    if (!("attempt" in real)) throw new Error("refused");
    expect(real.slowMs).toBe(MAX_SLOW_MS);
    await real.attempt.succeeded();
    const after = await t.begin({ account, address: "198.51.100.8" }, now + 1);
    expect("slowMs" in after && after.slowMs).toBe(0);
  });

  it("counts 200 parallel attempts from one address at their start: only the free ones and one more get through", async () => {
    const t = throttle();
    const all = await Promise.all(Array.from({ length: 200 }, () => t.begin({ account: "burst@example.com", address: "10.1.0.1" }, 1_000)));
    expect(all.filter(admitted)).toHaveLength(PAIR_FREE + 1);
  });

  it.skipIf(backend.kind === "memory")("counts the attempts of two instances together", async () => {
    const [one, two] = [throttle(), throttle()];
    const now = 2_000;
    const keys = { account: "spread@example.com", address: "10.2.0.1" };
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).begin(keys, now)));
    expect(all.filter(admitted)).toHaveLength(PAIR_FREE + 1);
    // A success on one instance forgets the pair's failures on the other at once.
    const later = now + 15 * 60_000;
    const admission = await one.begin(keys, later);
    if (!("attempt" in admission)) throw new Error("refused");
    await admission.attempt.succeeded();
    const fresh = await Promise.all(Array.from({ length: PAIR_FREE }, () => two.begin(keys, later + 1)));
    expect(fresh.every(admitted)).toBe(true);
  });
});
