/**
 * A monitor acts as its author (issue 35): once the author is disabled or loses the plant, the
 * next run pauses the monitor (shown on it, audited) and opens no task; an engineer who saves it
 * takes it over and it runs again as them. Real HTTP through `/api/`, the real embedded service,
 * the real schedule's tick.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => (await import("@/lib/bff/testing/environment")).setTestEnvironment("monitor-author", { DEMO_PASSWORD: "demo-password-for-tests", DEMO_LIVE: "0" }));

import { startEmbeddedDashboard, type EmbeddedDashboard } from "@/lib/bff/testing/dashboards";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { setUserDisabled, upsertUser } from "@/lib/dashboard-store/users";
import type { TMonitorInputBody } from "@/modules/monitors/contract/monitors";
import { monitorDeps } from "./index";
import { MonitorScheduler } from "./scheduler";

let dashboard: EmbeddedDashboard;
let body: TMonitorInputBody;

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, "demo-password-for-tests");
  const store = dashboard.runtime.maintenance;
  body = {
    name: "Two devices",
    query: 'States | where Name == "Temperature" | summarize MaxValue = max(todouble(Value)) by DeviceId | top 2 by DeviceId asc',
    keyColumns: ["DeviceId"],
    every: "1m",
    lookback: "1h",
    enabled: true,
    task: {
      taskTitle: "Check {DeviceId}",
      activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0]!,
      priority: (await store.allowedLookupValues("RTM1", "priority"))[0]!,
      assignedToRole: (await store.allowedLookupValues("RTM1", "assignedToRole"))[0]!,
      dueInDays: 1,
    },
  };
}, 120_000);

afterAll(() => dashboard?.close());

/** One run of every due monitor, as the schedule makes it a few minutes from now; each run's outcome. */
let minutesAhead = 0;
async function runDue(monitorId: number): Promise<boolean[]> {
  // A later tick each time: a tick is claimed once.
  minutesAhead += 5;
  const outcomes: boolean[] = [];
  const scheduler = new MonitorScheduler(await monitorDeps(), { concurrency: 1, pollMs: 60_000, onEvaluated: (event) => {
    if (event.monitorId === monitorId) outcomes.push(event.ok);
  } });
  await Promise.all(await scheduler.tick(Date.now() + minutesAhead * 60_000));
  return outcomes;
}

async function monitorAs(email: string): Promise<{ id: number; cookie: string }> {
  const cookie = await dashboard.cookieFor(email);
  const created = await dashboard.api.call("/api/plants/RTM1/monitors", { method: "POST", cookie, body });
  expect(created.status).toBe(201);
  return { id: ((await created.json()) as { id: number }).id, cookie };
}

const firings = async (id: number) => (await (await getDashboardDb()).all("SELECT id FROM monitor_firings WHERE monitor_id = @id", { id })).length;

describe("a monitor acts as its author", () => {
  it("pauses when its author is disabled, opens no task, says why, is audited; an engineer's save takes it over", async () => {
    const db = await getDashboardDb();
    const author = `leaver-${Date.now()}@example.com`;
    await upsertUser(db, { email: author, role: "engineer", plants: ["RTM1"] });
    const { id } = await monitorAs(author);
    await setUserDisabled(db, author, true);

    expect(await runDue(id)).toEqual([false]);
    expect(await firings(id)).toBe(0);
    const admin = await dashboard.cookieFor("admin@plantdesk.demo");
    const shown = (await (await dashboard.api.call(`/api/plants/RTM1/monitors/${id}`, { cookie: admin })).json()) as Record<string, unknown>;
    expect(shown).toMatchObject({ enabled: false, state: "disabled", lastError: expect.stringMatching(/^Paused: its author is disabled\. An engineer or admin takes it over/) });
    expect(await db.all("SELECT action, outcome, target FROM audit_log WHERE action = 'monitor.pause'")).toEqual([{ action: "monitor.pause", outcome: "PAUSED", target: String(id) }]);
    // Paused: not due any more.
    expect(await runDue(id)).toEqual([]);

    const engineer = await dashboard.cookieFor("engineer@plantdesk.demo");
    const taken = await dashboard.api.call(`/api/plants/RTM1/monitors/${id}`, { method: "PUT", cookie: engineer, body });
    expect(taken.status).toBe(200);
    expect(await taken.json()).toMatchObject({ enabled: true, createdBy: "engineer@plantdesk.demo" });
    expect(await runDue(id)).toEqual([true]);
    expect(await firings(id)).toBe(2);
  });

  it("pauses when its author no longer has the plant", async () => {
    const db = await getDashboardDb();
    const author = `mover-${Date.now()}@example.com`;
    await upsertUser(db, { email: author, role: "engineer", plants: ["RTM1"] });
    const { id } = await monitorAs(author);
    await upsertUser(db, { email: author, role: "engineer", plants: ["HOU1"] });
    expect(await runDue(id)).toEqual([false]);
    expect(await firings(id)).toBe(0);
    const row = await db.get<{ enabled: number; last_error: string }>("SELECT enabled, last_error FROM monitors WHERE id = @id", { id });
    expect(row).toMatchObject({ enabled: 0, last_error: expect.stringContaining("its author no longer has plant RTM1") });
  });
});
