/**
 * The plans' tick, in every server (docs/api.md, "Maintenance plans"): every PLANS_TICK_MS each
 * enabled plan is evaluated (evaluate.ts). With several instances one of them takes each tick's
 * lease in the shared state (Redis) and the others skip it; correctness does not rest on the lease:
 * an occurrence opens once because its row's key is unique in the database, whoever writes it.
 * Plans are evaluated one at a time, yielding to the event loop between them, so a plant full of
 * plans never crowds out the maintenance requests the same server answers.
 */
import type { SharedState } from "@/lib/shared-state";
import { metrics } from "@/lib/platform/metrics";
import { createFixedWindowCounter } from "@/lib/shared-state/fixed-window";
import type { MaintenanceContext } from "./context";
import type { PlantRecord } from "@/modules/maintenance/store";
import { evaluatePlan } from "./plan-evaluate";

/** Plans read per query of a tick. */
const BATCH = 200;

interface TickReport {
  /** False when another instance held this tick's lease. */
  ran: boolean;
  evaluated: number;
  opened: string[];
  failed: number;
}

/** How the ticks keep time (the `/metrics` gauges; wall-clock milliseconds). */
interface TickTiming {
  /** How late the last tick this instance ran started, after it was due; null before the first. */
  lastLagMs: number | null;
  /** How long a tick that is due has been waiting to start now (0: none is owed). */
  overdueMs: number;
}

export interface PlanScheduler {
  /** One tick now (the timer's with the time it was due, or a test's). */
  tick(dueAt?: number): Promise<TickReport>;
  timing(now?: number): TickTiming;
  stop(): Promise<void>;
}

export function createPlanScheduler(
  ctx: MaintenanceContext,
  options: { tickMs: number; shared: SharedState; log: (line: string) => void; schedule: boolean },
): PlanScheduler {
  const lease = createFixedWindowCounter(options.shared, "plan-ticks", Math.max(1000, options.tickMs - 500));
  let running: Promise<TickReport> | null = null;
  let stopped = false;
  // Wall-clock timing of the timer's ticks, read by /metrics (README, "Operating").
  let nextDueAt = Date.now() + options.tickMs;
  /** The oldest due tick that has not started: its due time (a tick was still running then). */
  let owedSince: number | null = null;
  let lastLagMs: number | null = null;
  const { planTickLag, planTickDuration } = metrics();

  async function evaluateAll(): Promise<TickReport> {
    const report: TickReport = { ran: true, evaluated: 0, opened: [], failed: 0 };
    const plants = new Map<string, PlantRecord | undefined>();
    for (let after = ""; !stopped; ) {
      const batch = await ctx.plans.enabledPlans(after, BATCH);
      for (const plan of batch) {
        if (stopped) break;
        if (!plants.has(plan.plantId)) plants.set(plan.plantId, await ctx.store.findPlant(plan.plantId));
        const plant = plants.get(plan.plantId);
        try {
          if (plant) report.opened.push(...(await evaluatePlan(ctx, plant, plan)).opened);
          report.evaluated += 1;
        } catch (error) {
          report.failed += 1;
          options.log(`Maintenance plan ${plan.id} could not be evaluated: ${error instanceof Error ? error.message : String(error)}`);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (batch.length < BATCH) break;
      after = batch[batch.length - 1]!.id;
    }
    return report;
  }

  async function tick(dueAt?: number): Promise<TickReport> {
    if (running) {
      if (dueAt !== undefined) owedSince ??= dueAt;
      return running;
    }
    const held = await lease.take("tick", 1, 1, "all", ctx.now().getTime());
    if (held.taken === 0) {
      owedSince = null; // another instance runs this one
      return { ran: false, evaluated: 0, opened: [], failed: 0 };
    }
    const startedAt = Date.now();
    const due = owedSince ?? dueAt;
    owedSince = null;
    if (due !== undefined) {
      lastLagMs = Math.max(0, startedAt - due);
      planTickLag.observe(lastLagMs / 1000);
    }
    running = evaluateAll().finally(() => {
      planTickDuration.observe((Date.now() - startedAt) / 1000);
      running = null;
    });
    return running;
  }

  const timer = options.schedule
    ? setInterval(() => {
        // Node runs an interval's next call `tickMs` after this one started: that is when it is due.
        const dueAt = nextDueAt;
        nextDueAt = Date.now() + options.tickMs;
        tick(dueAt).catch((error) => options.log(`Maintenance plans' tick failed: ${error instanceof Error ? error.message : String(error)}`));
      }, options.tickMs)
    : null;
  timer?.unref();

  return {
    tick,
    timing(now = Date.now()) {
      const waitingSince = owedSince ?? (timer && now > nextDueAt ? nextDueAt : null);
      return { lastLagMs, overdueMs: waitingSince === null ? 0 : Math.max(0, now - waitingSince) };
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
