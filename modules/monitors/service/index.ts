import "server-only";
/**
 * Condition monitoring in this process: the dependencies of an evaluation (the dashboard's store,
 * THE upstream, the notification settings) and the schedule the server starts. docs/api.md,
 * "Monitors", describes the behaviour; modules/monitors/store/monitors.ts keeps the rows.
 */
import { getConfig } from "@/lib/config";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { getUpstream } from "@/lib/upstream";
import { MonitorScheduler, type RunDeps } from "./scheduler";

export async function monitorDeps(): Promise<RunDeps> {
  const { smtpUrl, smtpFrom, allowPrivateWebhooks, emailDomains } = getConfig().dashboard.monitors;
  return { db: await getDashboardDb(), upstream: await getUpstream(), notifier: { smtpUrl, smtpFrom, allowPrivateWebhooks, emailDomains } };
}

/** Starts this instance's schedule (scripts/serve.ts), unless MONITORS_SCHEDULE=0. */
export async function startMonitorSchedule(): Promise<MonitorScheduler | null> {
  const { schedule, concurrency, pollMs } = getConfig().dashboard.monitors;
  if (!schedule) return null;
  const scheduler = new MonitorScheduler(await monitorDeps(), { concurrency, pollMs });
  scheduler.start();
  return scheduler;
}
