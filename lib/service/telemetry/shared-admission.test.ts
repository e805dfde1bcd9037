/**
 * The telemetry admission's shared state on each backend (memory, Redis): the per-client cost
 * budget with reservations, and the caps on queries running at once. With Redis, two separately
 * built throttles or gates (two instances) hold ONE budget and ONE cap together, and the places of a
 * killed instance come free when their lease runs out. admission.test.ts covers the same rules over
 * HTTP on real DuckDB files.
 */
import { expect, it } from "vitest";
import { createFixedWindowCounter } from "../../shared-state/fixed-window";
import { createConcurrencySlots } from "../../shared-state/slots";
import { describeSharedState, type Backend } from "../../shared-state/testing";
import { ApiError } from "../../contract/errors";
import { createCostThrottle, type Reservation } from "./cost-throttle";
import { createQueryGate } from "./query-gate";

const MINUTE = 60_000;

function reservationOf(admitted: Awaited<ReturnType<ReturnType<typeof createCostThrottle>["admit"]>>): Reservation {
  if ("refused" in admitted) throw new Error("refused");
  return admitted.reservation;
}

describeSharedState("telemetry cost budget", (backend: Backend) => {
  const throttle = (budget: number, name: string) => createCostThrottle(budget, createFixedWindowCounter(backend.connect(), name, MINUTE));

  it("reserves an estimate per query, refuses a spent budget, and takes back what a query did not use", async () => {
    const t = throttle(5, "reserve");
    const now = 5_000_000;
    const first = reservationOf(await t.admit("client", now));
    const second = reservationOf(await t.admit("client", now));
    expect([first.held, second.held]).toEqual([2, 2]);
    const third = reservationOf(await t.admit("client", now)); // only 1 left: it gets 1
    expect(third.held).toBe(1);
    const refused = await t.admit("client", now + 20_000);
    expect(refused).toEqual({ refused: { used: 5, remaining: 0, budget: 5, resetSeconds: 40 } });
    // A query that never ran costs nothing; one that ran briefly costs 1 and gives back the rest.
    expect(await first.cancel(now + 1)).toMatchObject({ used: 3, remaining: 2 });
    const settled = await second.settle(now + 2);
    expect(settled).toEqual({ cost: 1, window: { used: 2, remaining: 3, budget: 5, resetSeconds: 60 } });
    // Another client has a budget of its own.
    expect((await t.admit("other", now)).hasOwnProperty("reservation")).toBe(true);
  });

  it("does not give units back to a window that has ended (they were spent in it)", async () => {
    const t = throttle(5, "ended");
    const now = 7_000_000;
    const held = reservationOf(await t.admit("client", now));
    const next = reservationOf(await t.admit("client", now + MINUTE)); // a new window: 2 of 5 used
    expect(await held.cancel(now + MINUTE + 1)).toMatchObject({ used: 2, remaining: 3 });
    expect(await next.cancel(now + MINUTE + 2)).toMatchObject({ used: 0, remaining: 5 });
  });

  it.skipIf(backend.kind === "memory")("holds one budget for two instances together", async () => {
    const [one, two] = [throttle(20, "instances"), throttle(20, "instances")];
    const now = Date.now();
    const admitted = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 ? one : two).admit("client", now)));
    const held = admitted.map((a) => ("reservation" in a ? a.reservation.held : 0));
    expect(held.reduce((sum, units) => sum + units, 0)).toBe(20);
    expect(admitted.filter((a) => "refused" in a)).toHaveLength(6);
  });
});

describeSharedState("telemetry queries running at once", (backend: Backend) => {
  const caps = { perKey: 2, perGroup: 3 };

  it("caps places per client and per customer, and frees them on release", async () => {
    const slots = createConcurrencySlots(backend.connect(), "caps", caps);
    const a1 = await slots.tryOccupy("a", "acme");
    const a2 = await slots.tryOccupy("a", "acme");
    expect(a1 && a2).toBeTruthy();
    expect(await slots.tryOccupy("a", "acme")).toBeNull(); // client a is at 2
    const b1 = await slots.tryOccupy("b", "acme");
    expect(b1).not.toBeNull();
    expect(await slots.tryOccupy("c", "acme")).toBeNull(); // customer acme is at 3
    expect(await slots.tryOccupy("c", "nordic")).not.toBeNull(); // another customer is not held up
    await a1!.release();
    await a1!.release(); // twice gives back one place, not two
    expect(await slots.tryOccupy("c", "acme")).not.toBeNull();
    expect(await slots.tryOccupy("a", "acme")).toBeNull();
  });

  it.skipIf(backend.kind === "memory")("holds the caps for two instances together", async () => {
    const [one, two] = [createConcurrencySlots(backend.connect(), "instances", caps), createConcurrencySlots(backend.connect(), "instances", caps)];
    const places = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? one : two).tryOccupy("a", "acme")));
    expect(places.filter(Boolean)).toHaveLength(2);
  });

  it.skipIf(backend.kind === "memory")("frees the places of a killed instance once their lease runs out", async () => {
    const leaseMs = 10_000;
    const killed = createConcurrencySlots(backend.connect(), "lease", { perKey: 1, perGroup: 1 }, leaseMs);
    const survivor = createConcurrencySlots(backend.connect(), "lease", { perKey: 1, perGroup: 1 }, leaseMs);
    const now = Date.now();
    expect(await killed.tryOccupy("a", "acme", now)).not.toBeNull(); // never released, never renewed again
    expect(await survivor.tryOccupy("a", "acme", now + 1)).toBeNull();
    expect(await survivor.tryOccupy("a", "acme", now + leaseMs + 1)).not.toBeNull();
  });

  it("queues a query over its cap and lets it in when a place comes free on any instance", async () => {
    const limits = { perClient: 1, perCustomer: 4, queuePerClient: 1, queueWaitMs: 60_000 };
    const shared = (name: string) => createConcurrencySlots(backend.connect(), name, { perKey: 1, perGroup: 4 });
    // Memory: one gate (one process). Redis: two gates on one Redis, like two instances.
    const slotsOne = shared("queue");
    const one = createQueryGate(limits, slotsOne, backend.kind === "redis" ? 10 : undefined);
    const two = backend.kind === "redis" ? createQueryGate(limits, shared("queue"), 10) : one;
    const leave = await one.enter("a", "acme");
    const waiting = two.enter("a", "acme");
    const refused = await two.enter("a", "acme").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: "RATE_LIMITED", headers: { "retry-after": "1" } });
    expect(two.load()).toEqual({ running: backend.kind === "redis" ? 0 : 1, waiting: 1 });
    leave();
    const leaveSecond = await waiting;
    expect(two.load()).toMatchObject({ running: 1, waiting: 0 });
    leaveSecond();
  });
});
