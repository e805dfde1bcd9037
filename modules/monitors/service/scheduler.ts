import "server-only";
/**
 * The monitors' schedule, in every dashboard server. Ticks are multiples of a monitor's `every`
 * since the epoch, the same on every instance. Each poll takes the monitors that are due, claims
 * (monitor, tick) in the shared store — one instance wins each claim, whatever the number of
 * instances — and evaluates what it won, at most `concurrency` at a time, so a plant full of
 * monitors cannot crowd out the maintenance requests the same server answers. A failed evaluation
 * is recorded on the monitor and pushes its next run back (doubling up to BACKOFF_CAP_MS), never
 * retried in a storm.
 */
import { randomUUID } from "node:crypto";
import { ApiError } from "@/lib/contract/errors";
import { metrics } from "@/lib/platform/metrics";
import { claimTick, dueMonitors, nextTick, pruneClaims, recordEvaluation, type StoredMonitor } from "@/modules/monitors/store/monitors";
import { evaluateMonitor, firingProblems, type Evaluation, type MonitorDeps } from "./evaluate";
import { authorProblem, pauseForAuthor } from "./author";
import { notifyEvaluation, type NotifierConfig } from "./notify";
import { flushNotifications, routeEvaluation } from "./routing";
import { judgeRecipients, refusedNote } from "./recipients";
import { notifyFiring } from "@/modules/notifications/service/notify";

const BACKOFF_CAP_MS = 3_600_000;
/** Due monitors taken per poll; the rest wait for the next poll. */
const POLL_BATCH = 1000;

export interface RunDeps extends MonitorDeps {
  notifier: NotifierConfig;
}

/** When a monitor that failed `failures` times in a row runs next: `every`, doubled per failure, at most an hour (or `every`, if longer). */
export function backoffUntil(everyMs: number, failures: number, at: number): number {
  const delay = Math.min(everyMs * 2 ** Math.min(failures - 1, 20), Math.max(BACKOFF_CAP_MS, everyMs));
  return Math.ceil((at + delay) / everyMs) * everyMs;
}

function describeFailure(error: unknown): string {
  if (error instanceof ApiError) return `${error.message}`.slice(0, 1000);
  return "Internal error while evaluating (see the server log).";
}

/**
 * Evaluates a monitor at `at` and records the outcome on it: last run, next run (the next tick, or
 * later after a failure), the failure, and the notification's fate. Throws what evaluation threw.
 */
export async function runMonitor(deps: RunDeps, monitor: StoredMonitor, at: number, clock: () => number = Date.now): Promise<Evaluation> {
  let evaluation: Evaluation;
  try {
    // It acts as its author: with the author's rights gone it pauses instead of running.
    const problem = await authorProblem(deps.db, monitor);
    if (problem) throw new ApiError("FORBIDDEN", await pauseForAuthor(deps.db, monitor, problem));
    evaluation = await evaluateMonitor(deps, monitor, at);
  } catch (error) {
    if (!(error instanceof ApiError)) console.error(`Monitor ${monitor.id} failed:`, error);
    await recordEvaluation(deps.db, monitor.id, { at, nextRunAt: backoffUntil(monitor.everyMs, monitor.consecutiveFailures + 1, Math.max(at, clock())), error: describeFailure(error) });
    throw error;
  }
  // Recipients are judged again at send: a user may have left the plant since the monitor was saved.
  const recipients = await judgeRecipients(deps.db, monitor.plantId, monitor.emails, deps.notifier.emailDomains ?? null);
  const sent = await notifyEvaluation(deps.notifier, { ...monitor, emails: recipients.allowed }, evaluation);
  const refused = !evaluation.muted && evaluation.opened + evaluation.resolved > 0 ? refusedNote(recipients.refused) : null;
  const notifyError = refused ? [sent, refused].filter(Boolean).join("; ") : sent;
  // The plant's contact points hear it too, grouped (./routing.ts); a muted evaluation queues nothing.
  await routeEvaluation(deps.db, monitor, evaluation, Math.max(at, clock()));
  // The plant's people see it in their notification centre (modules/notifications).
  if (!evaluation.muted && evaluation.opened > 0) await notifyFiring(deps.db, monitor, evaluation.opened, Math.max(at, clock()));
  const problems = await firingProblems(deps, monitor.id);
  await recordEvaluation(deps.db, monitor.id, {
    at,
    nextRunAt: problems ? backoffUntil(monitor.everyMs, monitor.consecutiveFailures + 1, Math.max(at, clock())) : nextTick(monitor.everyMs, Math.max(at, clock())),
    error: problems,
    notifyError,
  });
  return evaluation;
}

interface SchedulerOptions {
  /** Evaluations running at once on this instance. */
  concurrency: number;
  /** How often due monitors are looked for. */
  pollMs: number;
  /** Names this instance in its claims. */
  instance?: string;
  clock?: () => number;
  /** Called when an evaluation ends (the bench measures lag with it). */
  onEvaluated?: (event: { monitorId: number; tickAt: number; doneAt: number; ok: boolean }) => void;
}

export class MonitorScheduler {
  readonly instance: string;
  private readonly clock: () => number;
  private readonly running = new Set<number>();
  private readonly waiting: (() => void)[] = [];
  private active = 0;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private lastPrune = 0;

  constructor(
    private readonly deps: RunDeps,
    private readonly options: SchedulerOptions,
  ) {
    this.instance = options.instance ?? randomUUID();
    this.clock = options.clock ?? Date.now;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.options.pollMs);
    this.timer.unref();
    void this.poll();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling;
  }

  /** One poll; overlapping polls are folded into the one running. */
  poll(): Promise<void> {
    this.polling ??= this.tick(this.clock())
      .then((evaluations) => void Promise.allSettled(evaluations))
      // Groups of routed firings whose wait is over go out, one message per contact point.
      .then(async () => void (await flushNotifications(this.deps, this.clock())))
      .catch((error: unknown) => console.error("Monitor schedule: the store could not be read:", error instanceof Error ? error.message : error))
      .finally(() => {
        this.polling = null;
      });
    return this.polling;
  }

  /**
   * Claims the due monitors' current ticks at `now` and starts the evaluations this instance won.
   * Returns them (each settles when its evaluation ends), so tests can wait for them.
   */
  async tick(now: number): Promise<Promise<void>[]> {
    if (now - this.lastPrune > 3_600_000) {
      this.lastPrune = now;
      await pruneClaims(this.deps.db, now);
    }
    const started: Promise<void>[] = [];
    for (const monitor of await dueMonitors(this.deps.db, now, POLL_BATCH)) {
      if (this.running.has(monitor.id)) continue;
      const tickAt = Math.floor(now / monitor.everyMs) * monitor.everyMs;
      if (!(await claimTick(this.deps.db, monitor.id, new Date(tickAt).toISOString(), this.instance, now))) continue;
      this.running.add(monitor.id);
      started.push(this.evaluate(monitor, tickAt));
    }
    return started;
  }

  private async evaluate(monitor: StoredMonitor, tickAt: number): Promise<void> {
    await this.place();
    const lag = metrics().monitorEvaluationLag;
    lag.observe({ stage: "start" }, Math.max(0, this.clock() - tickAt) / 1000);
    let ok = false;
    try {
      await runMonitor(this.deps, monitor, tickAt, this.clock);
      ok = true;
    } catch {
      // recorded on the monitor by runMonitor
    } finally {
      this.running.delete(monitor.id);
      this.active -= 1;
      this.waiting.shift()?.();
      const doneAt = this.clock();
      lag.observe({ stage: "done" }, Math.max(0, doneAt - tickAt) / 1000);
      this.options.onEvaluated?.({ monitorId: monitor.id, tickAt, doneAt, ok });
    }
  }

  /** Waits for one of `concurrency` places. */
  private place(): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.waiting.push(() => {
        this.active += 1;
        resolve();
      }),
    );
  }
}
