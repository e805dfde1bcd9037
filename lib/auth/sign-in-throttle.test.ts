/**
 * The sign-in throttle's rules on each backend (memory, Redis), with the clock passed in: delays
 * that double up to 15 minutes, a success that forgets the account and leaves no wait behind at the
 * address — and, on Redis, one count for all instances together. sign-in.test.ts drives the
 * throttle through next-auth's `authorize`.
 */
import { expect, it } from "vitest";
import { describeSharedState } from "../shared-state/testing";
import { ACCOUNT_POLICY, ADDRESS_POLICY, createSignInThrottle, type Admission } from "./sign-in-throttle";

const admitted = (admission: Admission) => "attempt" in admission;

describeSharedState("sign-in throttle", (backend) => {
  const throttle = () => createSignInThrottle(backend.connect());

  it("lets colleagues behind an address with past failures sign in one after another", async () => {
    const t = throttle();
    const address = "10.0.0.10";
    let now = 0;
    // The address has used up its free failures, and then waited out its delay.
    for (let i = 0; i <= ADDRESS_POLICY.free + 1; i++) {
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

  it("doubles the wait with each further failure, up to 15 minutes, and forgets it after a success", async () => {
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

  it("counts 200 parallel attempts at their start: only the free ones and one more get through", async () => {
    const t = throttle();
    const now = 1_000;
    const all = await Promise.all(Array.from({ length: 200 }, (_, i) => t.begin({ account: "burst@example.com", address: `10.1.0.${i % 50}` }, now)));
    expect(all.filter(admitted)).toHaveLength(ACCOUNT_POLICY.free + 1);
  });

  it.skipIf(backend.kind === "memory")("counts the attempts of two instances together", async () => {
    const [one, two] = [throttle(), throttle()];
    const now = 2_000;
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).begin({ account: "spread@example.com", address: `10.2.0.${i}` }, now)));
    expect(all.filter(admitted)).toHaveLength(ACCOUNT_POLICY.free + 1);
    // A success on one instance forgets the account's failures on the other at once.
    const later = now + 15 * 60_000;
    const admission = await one.begin({ account: "spread@example.com", address: "10.2.1.1" }, later);
    if (!("attempt" in admission)) throw new Error("refused");
    await admission.attempt.succeeded();
    const fresh = await Promise.all(Array.from({ length: ACCOUNT_POLICY.free }, (_, i) => two.begin({ account: "spread@example.com", address: `10.2.2.${i}` }, later + 1)));
    expect(fresh.every(admitted)).toBe(true);
  });
});
