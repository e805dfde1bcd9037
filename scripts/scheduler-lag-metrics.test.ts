/**
 * The maintenance plans' scheduler lag and the monitors' evaluation lag in `/metrics`
 * (scripts/operator-probes.ts, modules/maintenance/service/plan-scheduler.ts), read over real HTTP
 * through the front door with Prometheus' text-format parser. The plans' timer is a real one
 * (PLANS_TICK_MS at its minimum, 1 s); the test holds the event loop past the first tick's due
 * time, so that tick starts late by at least what the test held it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => (await import("../lib/bff/testing/environment")).setTestEnvironment("scheduler-lag-metrics", { DEMO_PASSWORD: "demo-password-for-tests" }));

import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { startEmbeddedDashboard, type EmbeddedDashboard } from "../lib/bff/testing/dashboards";
import { apiHandler } from "../lib/bff/routes";
import { parseConfig } from "../lib/config";
import { nodeListener } from "../lib/platform/http/node-adapter";
import { createPlanScheduler, type PlanScheduler } from "@/modules/maintenance/service/plan-scheduler";
import { openSharedState } from "../lib/shared-state";
import { createFrontDoor } from "./front-door";
import { operatorProbes } from "./operator-probes";

let dashboard: EmbeddedDashboard;
let scheduler: PlanScheduler;
let server: http.Server;
let url: string;
const TICK_MS = 1000;
const HELD_MS = 1600;

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, "demo-password-for-tests");
  const shared = openSharedState(parseConfig({ NODE_ENV: "test", REDIS_KEY_PREFIX: `pd-lag-${process.pid}:` }));
  scheduler = createPlanScheduler(dashboard.runtime.maintenanceContext, { tickMs: TICK_MS, shared, log: () => undefined, schedule: true });
  // Held past the first tick's due time (1 s after the scheduler started): it fires at least 0.6 s late.
  const until = Date.now() + HELD_MS;
  while (Date.now() < until) {
    // busy: nothing else runs, the timer included
  }
  const probes = await operatorProbes({ ...dashboard.runtime, planScheduler: scheduler });
  server = http.createServer(
    createFrontDoor({
      service: nodeListener(dashboard.runtime.handle, "http://127.0.0.1"),
      api: nodeListener(apiHandler, "http://127.0.0.1"),
      next: (_req, res) => res.end(),
      readiness: probes.readiness,
      metricsAllowed: async () => true,
      trustProxy: false,
      jsonLogs: false,
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await scheduler.stop();
  server.closeAllConnections();
  server.close();
  await dashboard.close();
});

type Family = ReturnType<typeof parsePrometheusTextFormat>[number];

async function scrapeFamilies(): Promise<Family[]> {
  const response = await fetch(`${url}/metrics`);
  expect(response.status).toBe(200);
  return parsePrometheusTextFormat(await response.text());
}

describe("/metrics: scheduler lag", () => {
  it("the plans' ticks: how late each started after it was due (histogram and last value), how long they took, and a tick waiting now", async () => {
    let families: Family[] = [];
    let count = 0;
    for (let tries = 0; tries < 100 && count < 1; tries += 1) {
      families = await scrapeFamilies();
      const lag = families.find((family) => family.name === "plantdesk_plan_tick_lag_seconds");
      count = Number((lag?.metrics[0] as { count?: string } | undefined)?.count ?? 0);
      if (count < 1) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const family = (name: string) => families.find((f) => f.name === name);
    expect(family("plantdesk_plan_tick_lag_seconds")!.type).toBe("HISTOGRAM");
    expect(count).toBeGreaterThanOrEqual(1);
    const last = Number((family("plantdesk_plan_last_tick_lag_seconds")!.metrics[0] as { value: string }).value);
    expect(family("plantdesk_plan_last_tick_lag_seconds")!.type).toBe("GAUGE");
    // The first tick was due 1 s after the start and could not fire before the event loop was free at 1.6 s.
    const lagSum = Number((family("plantdesk_plan_tick_lag_seconds")!.metrics[0] as { sum: string }).sum);
    expect(lagSum).toBeGreaterThanOrEqual((HELD_MS - TICK_MS) / 1000 - 0.05);
    expect(last).toBeGreaterThanOrEqual(0);
    expect(family("plantdesk_plan_tick_duration_seconds")!.type).toBe("HISTOGRAM");
    expect(family("plantdesk_plan_tick_overdue_seconds")!.type).toBe("GAUGE");
    // Monitors: the most overdue one now, and each evaluation's lag by stage.
    expect(family("plantdesk_monitor_lag_seconds")!.type).toBe("GAUGE");
    expect(family("plantdesk_monitor_evaluation_lag_seconds")!.type).toBe("HISTOGRAM");
  });

  it("a tick that is due and has not started shows as overdue, growing with the wait", () => {
    const now = Date.now();
    expect(scheduler.timing(now).overdueMs).toBeLessThan(TICK_MS + 1000);
    expect(scheduler.timing(now + 30_000).overdueMs).toBeGreaterThanOrEqual(28_000);
  });
});
