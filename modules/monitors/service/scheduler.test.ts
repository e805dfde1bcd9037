/**
 * The monitors' schedule as several instances run it: two schedulers, each on its own connection to
 * one shared store (the SQLite file, and PostgreSQL when it answers), ticking at the same moment
 * evaluate a monitor once per tick between them; a failing monitor is recorded and backed off, not
 * retried at every poll.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () =>
  (await import("@/lib/bff/testing/environment")).setTestEnvironment("monitor-schedule", { DEMO_PASSWORD: "demo-password-for-tests", DEMO_LIVE: "0" }),
);

import { getConfig } from "@/lib/config";
import type { TMonitorInputBody } from "@/modules/monitors/contract/monitors";
import { DASHBOARD_MIGRATIONS, DASHBOARD_MIGRATIONS_KEY, closeDashboardDb, openDashboardSql } from "@/lib/dashboard-store/database";
import { createMonitor, getMonitor } from "@/modules/monitors/store/monitors";
import { upsertUser } from "@/lib/dashboard-store/users";
import { openPostgres } from "@/lib/platform/postgres";
import type { SqlDb } from "@/lib/platform/sql";
import { getServiceRuntime, type ServiceRuntime } from "@/lib/service/runtime";
import { createTestSchema } from "@/lib/testing/postgres-schema";
import { describeWithService } from "@/lib/testing/with-service";
import { createEmbeddedUpstream } from "@/lib/upstream/embedded";
import type { Upstream } from "@/lib/upstream";
import { MonitorScheduler, backoffUntil } from "./scheduler";

let runtime: ServiceRuntime;
let upstream: Upstream;
let definition: TMonitorInputBody;

beforeAll(async () => {
  runtime = await getServiceRuntime();
  upstream = createEmbeddedUpstream(runtime);
  const store = runtime.maintenance;
  definition = {
    name: "Two devices",
    query: 'States | where Name == "Temperature" | summarize MaxValue = max(todouble(Value)) by DeviceId | top 2 by DeviceId asc',
    keyColumns: ["DeviceId"],
    every: "1m",
    lookback: "1h",
    task: {
      taskTitle: "Check {DeviceId}",
      activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0]!,
      priority: (await store.allowedLookupValues("RTM1", "priority"))[0]!,
      assignedToRole: (await store.allowedLookupValues("RTM1", "assignedToRole"))[0]!,
      dueInDays: 1,
    },
    enabled: true,
  };
}, 120_000);

afterAll(async () => {
  await runtime?.close();
  await closeDashboardDb();
  env.remove();
});

const notifier = { smtpUrl: null, smtpFrom: "Plantdesk <plantdesk@localhost>", allowPrivateWebhooks: false };

/** Two instances on `open()`'s connections: a monitor is evaluated once per tick between them. */
function twoInstances(open: () => Promise<SqlDb>) {
  return async () => {
    const [first, second] = [await open(), await open()];
    try {
      // A monitor acts as its author (author.ts): an engineer of RTM1 in this store.
      await upsertUser(first, { email: "engineer@plantdesk.demo", role: "engineer", plants: ["RTM1"] });
      const created = await createMonitor(first, "RTM1", definition, "engineer@plantdesk.demo", Date.UTC(2026, 0, 1));
      const evaluated: { instance: string; tickAt: number; ok: boolean }[] = [];
      const scheduler = (db: SqlDb, instance: string) =>
        new MonitorScheduler({ db, upstream, notifier }, { concurrency: 2, pollMs: 60_000, instance, onEvaluated: (event) => evaluated.push({ instance, tickAt: event.tickAt, ok: event.ok }) });
      const a = scheduler(first, "a");
      const b = scheduler(second, "b");
      const base = Math.floor(Date.now() / 60_000) * 60_000;
      for (const tick of [0, 1, 2]) {
        // Both instances poll at the same moment of each tick, several times.
        const now = base + tick * 60_000 + 1_000;
        const started = await Promise.all([a.tick(now), b.tick(now), a.tick(now + 500), b.tick(now + 500)]);
        await Promise.all(started.flat());
      }
      expect(evaluated.map(({ tickAt, ok }) => [tickAt - base, ok])).toEqual([
        [0, true],
        [60_000, true],
        [120_000, true],
      ]);
      const claims = await first.all<{ tick_at: string }>("SELECT tick_at FROM monitor_claims WHERE monitor_id = @monitorId ORDER BY tick_at", {
        monitorId: created.id,
      });
      expect(claims.map((row) => Date.parse(row.tick_at) - base)).toEqual([0, 60_000, 120_000]);
      // Two firings, opened once: the first tick opened two tasks, the others found them open.
      const firings = await second.all<{ task_id: string }>("SELECT task_id FROM monitor_firings WHERE monitor_id = @monitorId", { monitorId: created.id });
      expect(firings).toHaveLength(2);
      expect(firings.every((row) => row.task_id)).toBe(true);
      const stored = await getMonitor(second, "RTM1", created.id);
      expect(stored).toMatchObject({ lastRunAt: new Date(base + 120_000).toISOString(), nextRunAt: new Date(base + 180_000).toISOString(), consecutiveFailures: 0 });
      await second.run("UPDATE monitors SET enabled = 0 WHERE id = @id", { id: created.id });
    } finally {
      await first.close();
      await second.close();
    }
  };
}

describe("the monitors' schedule", () => {
  it("evaluates a monitor once per tick across two instances on one SQLite store", twoInstances(() => openDashboardSql({ dataDir: getConfig().dataDir })), 60_000);

  it("records a failure on the monitor and backs off instead of retrying at every poll", async () => {
    const db = await openDashboardSql({ dataDir: getConfig().dataDir });
    try {
      // Every data point of every device: more distinct keys than a monitor may open at once.
      await upsertUser(db, { email: "engineer@plantdesk.demo", role: "engineer", plants: ["RTM1"] });
      const created = await createMonitor(db, "RTM1", { ...definition, name: "Too broad", query: "States | summarize count() by DeviceId, Name", keyColumns: ["DeviceId", "Name"] }, "engineer@plantdesk.demo", Date.now() - 120_000);
      const outcomes: boolean[] = [];
      const scheduler = new MonitorScheduler({ db, upstream, notifier }, { concurrency: 1, pollMs: 60_000, onEvaluated: (event) => outcomes.push(event.ok) });
      const base = Math.floor(Date.now() / 60_000) * 60_000;
      await Promise.all(await scheduler.tick(base + 1000));
      let stored = await getMonitor(db, "RTM1", created.id);
      expect(outcomes).toEqual([false]);
      expect(stored?.lastError).toMatch(/more than 50 distinct keys/);
      expect(stored?.consecutiveFailures).toBe(1);
      const firstRetry = Date.parse(stored!.nextRunAt!);
      expect(firstRetry).toBeGreaterThan(Date.now());
      // Polls before the backoff ends evaluate nothing.
      await Promise.all(await scheduler.tick(firstRetry - 1));
      expect(outcomes).toHaveLength(1);
      await Promise.all(await scheduler.tick(firstRetry + 1));
      stored = await getMonitor(db, "RTM1", created.id);
      expect(outcomes).toEqual([false, false]);
      expect(stored?.consecutiveFailures).toBe(2);
      expect(Date.parse(stored!.nextRunAt!) - firstRetry).toBeGreaterThanOrEqual(120_000);
      await db.run("UPDATE monitors SET enabled = 0 WHERE id = @id", { id: created.id });
    } finally {
      await db.close();
    }
  }, 60_000);

  it("doubles the backoff per failure up to an hour, on the tick grid", () => {
    const at = Date.UTC(2026, 0, 1, 0, 0, 30);
    expect(backoffUntil(60_000, 1, at) - at).toBe(60_000 + 30_000);
    expect(backoffUntil(60_000, 3, at) - Date.UTC(2026, 0, 1)).toBe(5 * 60_000);
    expect(backoffUntil(60_000, 30, at) - Date.UTC(2026, 0, 1)).toBe(61 * 60_000);
  });
});

describeWithService("postgres", "the monitors' schedule on PostgreSQL", (service) => {
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  beforeAll(async () => {
    schema = await createTestSchema(service.url);
  });
  afterAll(() => schema?.drop());

  it(
    "evaluates a monitor once per tick across two instances on one PostgreSQL schema",
    twoInstances(() => openPostgres(schema.url, DASHBOARD_MIGRATIONS, DASHBOARD_MIGRATIONS_KEY)),
    60_000,
  );
});
