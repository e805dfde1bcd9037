/**
 * Per-client, per-minute cost budget of the telemetry interface (docs/api.md §6): a query costs 1
 * plus 1 per 100 ms of engine time. Cost is reserved BEFORE a query runs, so queries running at the
 * same time cannot spend the same units (docs/architecture.md, "Telemetry under load"):
 *
 *  1. admission reserves an estimate (the client's recent typical cost, at most what is left);
 *  2. while the query runs, its reservation is extended just before the engine time it covers runs
 *     out, as long as the window has budget; when it cannot be, the query is told to stop;
 *  3. afterwards the query is charged its cost — never more than it held — and the rest goes back.
 *
 * Every unit a query is charged was reserved first, so the units charged in a window never exceed
 * the budget, however many queries run at once. The windows are a FixedWindowCounter: with Redis,
 * the queries of every instance reserve from one budget per client. The estimate of a client's
 * next cost is only a guess, kept per instance.
 */
import { ApiError } from "../../contract/errors";
import { createMemoryWindows, secondsLeft, type FixedWindowCounter, type WindowUse } from "../../shared-state/fixed-window";

const MIN_QUERY_COST = 1;
/** Engine milliseconds per extra cost unit: the default budget of 300 buys ~30 s of DuckDB time. */
const MS_PER_COST_UNIT = 100;
/** A client's first query is expected to be light; afterwards its own recent queries tell. */
const INITIAL_ESTIMATE = 2;
/** Extensions grow with the query (fewer timers for long ones), up to 5 s of engine time at once. */
const MAX_EXTENSION = 50;
/** An extension is made this long before the held time runs out. */
const EXTEND_AHEAD_MS = 30;
/** Clients whose estimates are remembered; the oldest is forgotten beyond this. */
const ESTIMATES_KEPT = 10_000;

function queryCost(engineMs: number): number {
  return MIN_QUERY_COST + Math.floor(Math.max(0, engineMs) / MS_PER_COST_UNIT);
}

/**
 * Compile work units (lib/kql budget.ts) per extra cost unit: a compile at its bound (100,000
 * units) costs 10 more. Compiling blocks the event loop, so the engine clock's extensions cannot
 * run meanwhile: the work is charged when the query settles, from what the window has left.
 */
const COMPILE_WORK_PER_COST_UNIT = 10_000;

function compileCost(work: number): number {
  return Math.floor(Math.max(0, work) / COMPILE_WORK_PER_COST_UNIT);
}

export interface CostWindow {
  /** Units used in the current window (reservations of running queries included). */
  used: number;
  remaining: number;
  budget: number;
  /** Whole seconds until the window renews. */
  resetSeconds: number;
}

export interface Reservation {
  /** Units held for the query now. */
  readonly held: number;
  /**
   * Starts the engine clock. The reservation then grows as the query runs, while the client's
   * window has budget; `onSpent` is called once when it cannot grow: the query must stop. Its
   * argument is the error to answer instead of "budget spent" (the shared budget was unreachable).
   */
  run(onSpent: (error?: ApiError) => void): void;
  /**
   * The query is over: charges its cost (at most what it held, plus `compileWork`'s units as far as
   * the window has them), returns the rest, reports.
   */
  settle(now?: number, compileWork?: number): Promise<{ cost: number; window: CostWindow }>;
  /** The query never ran (refused before it started): everything goes back, nothing is charged. */
  cancel(now?: number): Promise<CostWindow>;
}

/** A budget a key's spending also counts against: a monitor's own budget lies within its plant's monitors' budget. */
interface BudgetLevel {
  key: string;
  budget: number;
}

export interface AdmitOptions {
  /** The key's own budget per window, when not the throttle's. */
  budget?: number;
  /** Budgets the key's units are also taken from, each unit from every one of them (docs/architecture.md, "Telemetry under load"). */
  within?: readonly BudgetLevel[];
}

export interface CostThrottle {
  /** A reservation, or the window (with remaining 0) when a budget is spent. 503 when the shared budget is unreachable. */
  admit(key: string, now?: number, options?: AdmitOptions): Promise<{ reservation: Reservation } | { refused: CostWindow }>;
}

export function createCostThrottle(
  budget: number,
  windows: FixedWindowCounter = createMemoryWindows(60_000),
  clock: () => number = () => performance.now(),
): CostThrottle {
  const estimates = new Map<string, number>();
  /** The tightest of the levels' windows (least left): what a client is told. */
  const report = (levels: readonly BudgetLevel[], views: readonly WindowUse[], now: number): CostWindow => {
    let tightest = 0;
    views.forEach((view, index) => {
      if (levels[index]!.budget - view.used < levels[tightest]!.budget - views[tightest]!.used) tightest = index;
    });
    const window = views[tightest]!;
    const limit = levels[tightest]!.budget;
    return { used: window.used, remaining: Math.max(0, limit - window.used), budget: limit, resetSeconds: secondsLeft(windows.windowMs, window, now) };
  };

  /** Up to `units` from every level: as many as the tightest has, the others' surplus given back at once. */
  async function takeAll(levels: readonly BudgetLevel[], units: number, now: number): Promise<{ taken: number; starts: number[]; views: WindowUse[] }> {
    let grant = units;
    const got: (WindowUse & { taken: number })[] = [];
    for (const level of levels) {
      const window = await windows.take(level.key, grant, level.budget, "upTo", now);
      got.push(window);
      grant = Math.min(grant, window.taken);
    }
    const views: WindowUse[] = [];
    for (let index = 0; index < got.length; index += 1) {
      const surplus = got[index]!.taken - grant;
      views.push(surplus > 0 ? await windows.giveBack(levels[index]!.key, got[index]!.start, surplus, now) : got[index]!);
    }
    return { taken: grant, starts: got.map((window) => window.start), views };
  }

  /** A moving average of the client's recent costs (kept unrounded, so it can settle back to 1). */
  function learn(key: string, cost: number): void {
    const previous = estimates.get(key) ?? INITIAL_ESTIMATE;
    estimates.delete(key); // re-inserted last: the map's order is the forgetting order
    estimates.set(key, previous * 0.7 + cost * 0.3);
    if (estimates.size > ESTIMATES_KEPT) estimates.delete(estimates.keys().next().value!);
  }
  const estimate = (key: string) => Math.max(MIN_QUERY_COST, Math.round(estimates.get(key) ?? INITIAL_ESTIMATE));

  return {
    async admit(key, now = Date.now(), options = {}) {
      const levels: BudgetLevel[] = [{ key, budget: options.budget ?? budget }, ...(options.within ?? [])];
      const first = await takeAll(levels, estimate(key), now);
      if (first.taken < MIN_QUERY_COST) return { refused: report(levels, first.views, now) };

      /** Units taken, per window of each level (by their starts), newest last: unused units go back to windows still current. */
      const leases: { starts: number[]; units: number }[] = [{ starts: first.starts, units: first.taken }];
      let held = first.taken;
      const took = (starts: number[], units: number) => {
        held += units;
        const last = leases.at(-1)!;
        if (last.starts.every((start, index) => start === starts[index])) last.units += units;
        else leases.push({ starts, units });
      };

      let startedAt: number | null = null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let done = false;

      /** Gives `units` back to every level, newest lease first; the levels' current windows afterwards. */
      const giveBack = async (units: number, at: number): Promise<WindowUse[]> => {
        let left = units;
        let views: WindowUse[] | null = null;
        for (const lease of [...leases].reverse()) {
          if (left <= 0) break;
          const back = Math.min(left, lease.units);
          lease.units -= back;
          left -= back;
          views = await Promise.all(levels.map((level, index) => windows.giveBack(level.key, lease.starts[index]!, back, at)));
        }
        held -= units;
        return views ?? Promise.all(levels.map((level, index) => windows.giveBack(level.key, leases.at(-1)!.starts[index]!, 0, at)));
      };

      const reservation: Reservation = {
        get held() {
          return held;
        },
        run(onSpent) {
          startedAt = clock();
          const schedule = () => {
            const covered = held * MS_PER_COST_UNIT - EXTEND_AHEAD_MS;
            timer = setTimeout(() => void extend(), Math.max(0, covered - (clock() - startedAt!)));
            timer.unref?.();
          };
          const extend = async () => {
            if (done) return;
            let window;
            try {
              window = await takeAll(levels, Math.max(MIN_QUERY_COST, Math.min(held, MAX_EXTENSION)), Date.now());
            } catch (error) {
              if (!done) onSpent(error instanceof ApiError ? error : undefined);
              return;
            }
            if (done) {
              // Settled while this extension was on its way: settle could not give these units back.
              const taken = window;
              if (taken.taken > 0) void Promise.all(levels.map((level, index) => windows.giveBack(level.key, taken.starts[index]!, taken.taken, Date.now()))).catch(() => {});
              return;
            }
            if (window.taken > 0) took(window.starts, window.taken);
            if (window.taken < MIN_QUERY_COST) {
              onSpent();
              return;
            }
            schedule();
          };
          schedule();
        },
        async settle(now = Date.now(), compileWork = 0) {
          done = true;
          clearTimeout(timer);
          let cost = Math.min(held, startedAt === null ? MIN_QUERY_COST : queryCost(clock() - startedAt));
          const compile = compileCost(compileWork);
          if (compile > 0) {
            // From what the query held beyond its time first, then from the window (never past the budget).
            const spare = Math.min(compile, held - cost);
            const more = compile - spare > 0 ? await takeAll(levels, compile - spare, now) : undefined;
            if (more && more.taken > 0) took(more.starts, more.taken);
            cost += spare + (more?.taken ?? 0);
          }
          learn(key, cost);
          return { cost, window: report(levels, await giveBack(held - cost, now), now) };
        },
        async cancel(now = Date.now()) {
          done = true;
          clearTimeout(timer);
          return report(levels, await giveBack(held, now), now);
        },
      };
      return { reservation };
    },
  };
}

/** `x-query-cost` header value: what this request consumed and what is left this minute. */
export function costHeader(consumed: number, window: CostWindow): string {
  return `consumed=${consumed}; remaining=${window.remaining}; budget=${window.budget}; reset=${window.resetSeconds}`;
}
