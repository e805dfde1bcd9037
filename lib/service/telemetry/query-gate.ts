/**
 * How many telemetry queries run at once (docs/api.md §6, docs/architecture.md "Telemetry under
 * load"): at most `perClient` per budget key (a telemetry client, or one signed-in dashboard user)
 * and `perCustomer` per customer (all of its clients and users together). A query over a cap waits
 * in a short queue — at most `queuePerClient` per key, at most `queueWaitMs` — and is refused with
 * 429 and `Retry-After` beyond it. Waiting queries are let in first come, first served, each as
 * soon as both of its caps allow.
 *
 * The places themselves are ConcurrencySlots: in memory, or in Redis so that the caps hold for all
 * instances together. The queue is this instance's: a release here lets its waiters in at once; a
 * release on another instance is noticed by polling (`pollMs`) while anyone waits.
 */
import { ApiError } from "../../contract/errors";
import { createMemorySlots, type ConcurrencySlots, type Slot } from "../../shared-state/slots";

interface QueryGateLimits {
  perClient: number;
  perCustomer: number;
  queuePerClient: number;
  queueWaitMs: number;
}

export interface QueryGate {
  /** Waits for a place; resolves to the function that gives it back. Throws 429 RATE_LIMITED when refused. */
  enter(key: string, customerId: string, signal?: AbortSignal): Promise<() => void>;
  /** Queries of this instance running and waiting (tests, diagnostics). */
  load(): { running: number; waiting: number };
}

interface Waiter {
  key: string;
  customerId: string;
  /** False once it has left (timed out, client gone): a place found for it then goes back. */
  waiting: boolean;
  admit(slot: Slot): void;
}

const RETRY_AFTER_SECONDS = 1;

function busy(message: string): ApiError {
  return new ApiError("RATE_LIMITED", message, [], { "retry-after": String(RETRY_AFTER_SECONDS) });
}

export function createQueryGate(
  limits: QueryGateLimits,
  slots: ConcurrencySlots = createMemorySlots({ perKey: limits.perClient, perGroup: limits.perCustomer }),
  /** How often waiters look for places freed elsewhere; undefined when every release is local (memory). */
  pollMs?: number,
): QueryGate {
  const waiting: Waiter[] = [];
  let running = 0;
  let pumping: Promise<void> | null = null;
  let pumpAgain = false;
  let poll: ReturnType<typeof setInterval> | undefined;

  function occupied(slot: Slot): () => void {
    running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running -= 1;
      // An unreachable Redis keeps the place until its lease runs out.
      void slot.release().catch(() => {}).finally(pump);
    };
  }

  /** Lets waiters in, first come first served, each as soon as both of its caps allow; one pass at a time. */
  function pump(): void {
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = (async () => {
      do {
        pumpAgain = false;
        for (const waiter of [...waiting]) {
          if (!waiter.waiting) continue;
          const slot = await slots.tryOccupy(waiter.key, waiter.customerId).catch(() => null);
          if (!slot) continue;
          if (waiter.waiting) waiter.admit(slot);
          else void slot.release().catch(() => {});
        }
      } while (pumpAgain);
    })().finally(() => {
      pumping = null;
    });
  }

  function stopPollingWhenIdle(): void {
    if (waiting.length === 0 && poll) {
      clearInterval(poll);
      poll = undefined;
    }
  }

  return {
    async enter(key, customerId, signal) {
      // Every waiter is over one of its caps (a release lets in whoever fits at once), so a query
      // that fits now jumps no one of its own key or customer.
      const slot = await slots.tryOccupy(key, customerId);
      if (slot) return occupied(slot);
      if (waiting.filter((waiter) => waiter.key === key).length >= limits.queuePerClient) {
        throw busy(`Too many queries at once: at most ${limits.perClient} run and ${limits.queuePerClient} wait per client; retry in ${RETRY_AFTER_SECONDS} s.`);
      }
      return new Promise((resolve, reject) => {
        const leave = () => {
          waiter.waiting = false;
          const index = waiting.indexOf(waiter);
          if (index >= 0) waiting.splice(index, 1);
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          stopPollingWhenIdle();
        };
        const onAbort = () => {
          leave();
          reject(new ApiError("QUERY_TIMEOUT", "The query was stopped because the client went away."));
        };
        const timer = setTimeout(() => {
          leave();
          reject(busy(`The server is busy with this client's or customer's other queries; retry in ${RETRY_AFTER_SECONDS} s.`));
        }, limits.queueWaitMs);
        const waiter: Waiter = {
          key,
          customerId,
          waiting: true,
          admit(slot) {
            leave();
            resolve(occupied(slot));
          },
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        waiting.push(waiter);
        pump(); // a place freed while this query looked for one would otherwise go unnoticed
        if (pollMs !== undefined && !poll) {
          poll = setInterval(pump, pollMs);
          poll.unref();
        }
      });
    },
    load: () => ({ running, waiting: waiting.length }),
  };
}
