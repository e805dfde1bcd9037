/**
 * What the front door's operator endpoints (scripts/front-door.ts) ask of the rest of the server:
 * readiness (the service's databases and brokers, and the dashboard's store), who may read the
 * metrics (the metrics token, or an admin's session), and the gauges read at each scrape (ingest,
 * monitors, telemetry places, database pools).
 */
import type { IncomingMessage } from "node:http";
import { userFromCookieHeader } from "../lib/auth/session";
import { getDashboardDb } from "../lib/dashboard-store/database";
import { isMetricsToken } from "../lib/dashboard-store/metrics-token";
import { addScrapeHook, metrics } from "../lib/platform/metrics";
import type { ReadinessCheck, ServiceRuntime } from "../lib/service/runtime";

interface OperatorProbes {
  readiness(): Promise<{ name: string; ok: boolean }[]>;
  metricsAllowed(headers: IncomingMessage["headers"]): Promise<boolean>;
}

/** A bearer token from the metrics token command, or an enabled admin's session cookie. */
async function metricsAllowed(headers: IncomingMessage["headers"]): Promise<boolean> {
  const bearer = /^bearer\s+(\S+)$/i.exec(headers.authorization ?? "")?.[1];
  if (bearer) return isMetricsToken(await getDashboardDb(), bearer);
  if (!headers.cookie) return false;
  const user = await userFromCookieHeader(headers.cookie);
  return user !== null && !user.disabled && user.role === "admin";
}

async function dashboardStoreCheck(): Promise<ReadinessCheck | { name: string; ok: boolean }> {
  try {
    await (await getDashboardDb()).get("SELECT 1 AS one");
    return { name: "dashboard database", ok: true };
  } catch {
    return { name: "dashboard database", ok: false };
  }
}

/** The gauges of things above the kernel, set when Prometheus scrapes. */
function registerGauges(runtime: ServiceRuntime | null): void {
  const m = metrics();
  const monitorLag = m.gauge("plantdesk_monitor_lag_seconds", "How long the most overdue enabled monitor has waited past its run time (0: none overdue).");
  addScrapeHook(async () => {
    const row = await (await getDashboardDb()).get<{ oldest: string | null }>(
      "SELECT MIN(next_run_at) AS oldest FROM monitors WHERE enabled = 1 AND deleted_at IS NULL AND next_run_at <= @now",
      { now: new Date().toISOString() },
    );
    monitorLag.set(row?.oldest ? Math.max(0, (Date.now() - Date.parse(row.oldest)) / 1000) : 0);
  });
  if (!runtime) return;
  const planLastLag = m.gauge("plantdesk_plan_last_tick_lag_seconds", "How late the last maintenance plans' tick this instance ran started, after it was due.");
  const planOverdue = m.gauge("plantdesk_plan_tick_overdue_seconds", "How long a due maintenance plans' tick has been waiting to start now (0: none waiting): a stalled or overrunning scheduler.");
  addScrapeHook(() => {
    const timing = runtime.planScheduler.timing();
    if (timing.lastLagMs !== null) planLastLag.set(timing.lastLagMs / 1000);
    planOverdue.set(timing.overdueMs / 1000);
  });
  const queries = m.gauge("plantdesk_telemetry_queries_in_flight", "Telemetry queries running and waiting for a place now.", ["state"]);
  addScrapeHook(() => {
    const load = runtime.telemetry.load();
    queries.set({ state: "running" }, load.running);
    queries.set({ state: "waiting" }, load.waiting);
  });
  if (runtime.sql.engine === "postgres") {
    const pool = runtime.sql.pool;
    const connections = m.gauge("plantdesk_db_pool_connections", "The service's PostgreSQL pool: connections by state, and requests waiting for one.", ["state"]);
    addScrapeHook(() => {
      connections.set({ state: "total" }, pool.totalCount);
      connections.set({ state: "idle" }, pool.idleCount);
      connections.set({ state: "waiting" }, pool.waitingCount);
    });
  }
  const live = runtime.live;
  if (live) {
    const messages = m.gauge("plantdesk_ingest_messages_received", "MQTT messages received by ingestion since start (a counter; rate() it).");
    const readings = m.gauge("plantdesk_ingest_readings_written", "Readings written by ingestion since start (a counter; rate() it).");
    const dropped = m.gauge("plantdesk_ingest_dropped", "Messages and readings ingestion dropped since start, by reason.", ["what", "reason"]);
    const lag = m.gauge("plantdesk_ingest_lag_seconds", "How long the oldest queued reading has waited (the ingest lag now).");
    const batchLag = m.gauge("plantdesk_ingest_last_batch_lag_seconds", "Receive to commit of the last batch's oldest reading.");
    addScrapeHook(() => {
      const status = live.telemetry.status();
      messages.set(status.messagesReceived);
      readings.set(status.readingsWritten);
      for (const [reason, count] of Object.entries(status.droppedMessages)) dropped.set({ what: "message", reason }, count ?? 0);
      for (const [reason, count] of Object.entries(status.droppedReadings)) dropped.set({ what: "reading", reason }, count ?? 0);
      lag.set(status.oldestQueuedMs / 1000);
      batchLag.set((status.lastBatchLagMs ?? 0) / 1000);
    });
  }
}

let gaugesRegistered = false;

export async function operatorProbes(runtime: ServiceRuntime | null): Promise<OperatorProbes> {
  // Once per process: a metric's name can be registered once.
  if (!gaugesRegistered) registerGauges(runtime);
  gaugesRegistered = true;
  return {
    async readiness() {
      return [...(runtime ? await runtime.readiness() : []), await dashboardStoreCheck()];
    },
    metricsAllowed,
  };
}
