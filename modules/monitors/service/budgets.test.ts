/**
 * Monitors' telemetry budgets over real HTTP on the embedded service (docs/api.md, "Monitors"):
 * each monitor spends a budget of its own within its plant's monitors' budget, a preview spends the
 * user's preview budget and not their explorer's, and a preview replays `ago()` from each replayed
 * moment. Small budgets (12 units a minute per client and per plant's monitors, 3 per monitor)
 * make the limits visible in a few calls; a query here costs 1 unit (it reads almost nothing).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  const demoPassword = "demo-password-for-tests";
  const environment = (await import("@/lib/bff/testing/environment")).setTestEnvironment("monitor-budgets", {
    DEMO_PASSWORD: demoPassword,
    DEMO_LIVE: "0",
    TELEMETRY_COST_BUDGET_PER_MINUTE: "12",
    MONITOR_COST_BUDGET_PER_MINUTE: "3",
    MONITORS_SCHEDULE: "0",
  });
  return { ...environment, demoPassword };
});

import { startEmbeddedDashboard, type EmbeddedDashboard } from "@/lib/bff/testing/dashboards";
import type { TMonitorInputBody } from "@/modules/monitors/contract/monitors";

const ENGINEER = "engineer@plantdesk.demo";
const PLANNER = "planner@plantdesk.demo";
const SUPERVISOR = "supervisor@plantdesk.demo";

let dashboard: EmbeddedDashboard;
const cookies: Record<string, string> = {};
let task: TMonitorInputBody["task"];

const call = (who: string, method: string, path: string, body?: unknown) => dashboard.api.call(path, { method, body, cookie: cookies[who] });

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, env.demoPassword);
  for (const who of [ENGINEER, PLANNER, SUPERVISOR]) cookies[who] = await dashboard.cookieFor(who);
  const store = dashboard.runtime.maintenance;
  task = {
    taskTitle: "Check {DeviceId}",
    activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0]!,
    priority: (await store.allowedLookupValues("RTM1", "priority"))[0]!,
    assignedToRole: (await store.allowedLookupValues("RTM1", "assignedToRole"))[0]!,
    dueInDays: 3,
  };
}, 120_000);

afterAll(async () => {
  await dashboard?.close();
});

async function createMonitor(name: string): Promise<number> {
  // Returns no row: each evaluation is one query and opens nothing.
  const body: TMonitorInputBody = { name, query: "States | take 0 | project DeviceId", keyColumns: ["DeviceId"], every: "5m", lookback: "1h", task, enabled: true };
  const created = await call(ENGINEER, "POST", "/api/plants/RTM1/monitors", body);
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

async function run(monitorId: number): Promise<{ status: number; code?: string }> {
  const response = await call(ENGINEER, "POST", `/api/plants/RTM1/monitors/${monitorId}/run`);
  const body = (await response.json()) as { code?: string };
  return { status: response.status, code: body.code };
}

describe("monitor budgets", () => {
  it("a monitor spends a budget of its own: a heavy one is refused at its share and the plant's other monitors still run", async () => {
    const heavy = await createMonitor("Heavy");
    const other = await createMonitor("Other");
    const runs = [];
    for (let i = 0; i < 6; i += 1) runs.push(await run(heavy));
    const served = runs.filter((outcome) => outcome.status === 200).length;
    expect(served).toBeGreaterThanOrEqual(1);
    // 3 units a minute: at most 3 runs of 1 unit each; the plant's 12 would have let all 6 through.
    expect(served).toBeLessThanOrEqual(3);
    expect(runs.at(-1)).toEqual({ status: 429, code: "RATE_LIMITED" });
    expect(await run(other)).toEqual({ status: 200, code: undefined });
  });

  it("the monitors of a plant together stay within the plant's monitors' budget", async () => {
    // 12 units a minute for all of RTM1's monitors: the first test spent at most 4 of them.
    let served = 0;
    let refusedFresh = false;
    for (let m = 0; m < 5 && !refusedFresh; m += 1) {
      const monitor = await createMonitor(`Share ${m}`);
      for (let i = 0; i < 3; i += 1) {
        const outcome = await run(monitor);
        if (outcome.status === 200) served += 1;
        else if (i === 0) refusedFresh = true; // refused on its first run: its own budget was untouched
      }
    }
    expect(served).toBeLessThanOrEqual(12);
    expect(refusedFresh).toBe(true);
  });
});

describe("monitor previews", () => {
  it("spend the user's preview budget, not their explorer's: after a preview too large for the budget the explorer still answers", async () => {
    const preview = await call(ENGINEER, "POST", "/api/plants/RTM1/monitors/preview", {
      query: "States | take 0 | project DeviceId",
      keyColumns: ["DeviceId"],
      every: "5m",
      lookback: "1h",
      from: "2026-01-01T00:00:00.000Z",
      to: "2026-01-01T02:00:00.000Z",
    });
    // 24 evaluations against 12 units: the preview's budget runs out.
    expect(preview.status).toBe(429);
    const explorer = await call(ENGINEER, "POST", "/api/telemetry/query", {
      query: "States | take 1",
      startTime: "2026-01-01T00:00:00Z",
      endTime: "2026-01-02T00:00:00Z",
      plantIds: ["RTM1"],
    });
    expect(explorer.status).toBe(200);
  });

  it("replay ago() from each replayed moment (the \"no data\" template's clock), not from now", async () => {
    const preview = await call(PLANNER, "POST", "/api/plants/RTM1/monitors/preview", {
      query: "print DeviceId = tostring(ago(30m))",
      keyColumns: ["DeviceId"],
      every: "10m",
      lookback: "1h",
      from: "2026-01-01T00:00:00.000Z",
      to: "2026-01-01T01:00:00.000Z",
    });
    expect(preview.status).toBe(200);
    const body = (await preview.json()) as { times: string[]; firings: { at: string; key: { DeviceId: string } }[] };
    expect(body.times.length).toBe(6);
    expect(body.firings.length).toBe(6);
    for (const firing of body.firings) expect(Date.parse(firing.key.DeviceId)).toBe(Date.parse(firing.at) - 30 * 60_000);
  });
});
