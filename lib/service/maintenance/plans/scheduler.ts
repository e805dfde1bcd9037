/**
 * The plans' tick, in every server (docs/api.md, "Maintenance plans"): every PLANS_TICK_MS each
 * enabled plan is evaluated (evaluate.ts). With several instances one of them takes each tick's
 * lease in the shared state (Redis) and the others skip it; correctness does not rest on the lease:
 * an occurrence opens once because its row's key is unique in the database, whoever writes it.
 * Plans are evaluated one at a time, yielding to the event loop between them, so a plant full of
 * plans never crowds out the maintenance requests the same server answers.
 */
import type { SharedState } from "../../../shared-state";
import { createFixedWindowCounter } from "../../../shared-state/fixed-window";
import type { MaintenanceContext } from "../context";
import type { PlantRecord } from "../store";
import { evaluatePlan } from "./evaluate";

/** Plans read per query of a tick. */
const BATCH = 200;

export interface TickReport {
  /** False when another instance held this tick's lease. */
  ran: boolean;
  evaluated: number;
  opened: string[];
  failed: number;
}

export interface PlanScheduler {
  /** One tick now (the timer's, or a test's). */
  tick(): Promise<TickReport>;
  stop(): Promise<void>;
}

export function createPlanScheduler(
  ctx: MaintenanceContext,
  options: { tickMs: number; shared: SharedState; log: (line: string) => void; schedule: boolean },
): PlanScheduler {
  const lease = createFixedWindowCounter(options.shared, "plan-ticks", Math.max(1000, options.tickMs - 500));
  let running: Promise<TickReport> | null = null;
  let stopped = false;

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

  async function tick(): Promise<TickReport> {
    if (running) return running;
    const held = await lease.take("tick", 1, 1, "all", ctx.now().getTime());
    if (held.taken === 0) return { ran: false, evaluated: 0, opened: [], failed: 0 };
    running = evaluateAll().finally(() => {
      running = null;
    });
    return running;
  }

  const timer = options.schedule
    ? setInterval(() => {
        tick().catch((error) => options.log(`Maintenance plans' tick failed: ${error instanceof Error ? error.message : String(error)}`));
      }, options.tickMs)
    : null;
  timer?.unref();

  return {
    tick,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
