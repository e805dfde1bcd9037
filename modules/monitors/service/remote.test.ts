/**
 * A monitor against a remote service (a second server on its own port and database, configured
 * through the environment only): its query goes to the remote telemetry endpoint with the
 * dashboard's client credentials, its task to the remote maintenance interface with the plant's
 * token; the dashboard opens no service database of its own.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () =>
  (await import("@/lib/bff/testing/environment")).setTestEnvironment("monitor-remote", { NEXTAUTH_SECRET: "remote-mode-test-secret-0123456789abcdef", DEMO_LIVE: "0" }),
);

import { sessionCookie, startRemoteDashboard, type RemoteDashboard } from "@/lib/bff/testing/dashboards";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { upsertUser } from "@/lib/dashboard-store/users";

let dashboard: RemoteDashboard;
let engineer: string;

beforeAll(async () => {
  dashboard = await startRemoteDashboard({
    env,
    tokens: async (issue) => ({ RTM1: { token: await issue("RTM1"), name: "Rotterdam (remote)", customerId: "CUST-ACME" } }),
    supervisor: { email: "sup@remote.test", plants: ["RTM1"] },
  });
  await upsertUser(await getDashboardDb(), { email: "eng@remote.test", role: "engineer", plants: ["RTM1"], password: "long-enough-1" });
  engineer = await sessionCookie("eng@remote.test", process.env.NEXTAUTH_SECRET!, 600);
}, 120_000);

afterAll(() => dashboard?.close());

describe("monitors in remote mode", () => {
  it("evaluates through the remote service: telemetry with the client credentials, the task with the plant token", async () => {
    const store = dashboard.remote.runtime.maintenance;
    const body = {
      name: "Remote hot device",
      query: 'States | where Name == "Temperature" | summarize MaxValue = max(todouble(Value)) by DeviceId | top 1 by DeviceId asc',
      keyColumns: ["DeviceId"],
      every: "5m",
      lookback: "1h",
      task: {
        taskTitle: "Check {DeviceId}",
        activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0],
        priority: (await store.allowedLookupValues("RTM1", "priority"))[0],
        assignedToRole: (await store.allowedLookupValues("RTM1", "assignedToRole"))[0],
        dueInDays: 2,
      },
      enabled: true,
    };
    const created = await dashboard.api.call("/api/plants/RTM1/monitors", { method: "POST", body, cookie: engineer });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const before = dashboard.remote.requests.length;
    const run = await dashboard.api.call(`/api/plants/RTM1/monitors/${id}/run`, { method: "POST", cookie: engineer });
    expect(run.status).toBe(200);
    const [firing] = (await run.json()).firings;
    expect(firing.state).toBe("opened");
    const task = await store.getTask("RTM1", firing.taskId);
    expect(task?.taskTitle).toBe(`Check ${firing.key.DeviceId}`);
    expect(task?.taskDescription).toContain(`/plants/RTM1/monitors?monitor=${id}`);
    const sent = dashboard.remote.requests.slice(before);
    const paths = sent.map((request) => `${request.method} ${request.path}`);
    expect(paths).toContain("POST /insights/v1/telemetry/query/table");
    expect(paths).toContain("POST /maintenance/v1/plants/RTM1/tasks");
    const query = sent.find((request) => request.path === "/insights/v1/telemetry/query/table")!;
    expect(JSON.parse(query.body)).toMatchObject({ plantIds: ["RTM1"] });
    expect(String(sent.find((request) => request.path.endsWith("/tasks"))!.headers.authorization)).toMatch(/^Bearer pdm_/);

    // A second run finds the task open on the remote service and opens nothing.
    const again = await (await dashboard.api.call(`/api/plants/RTM1/monitors/${id}/run`, { method: "POST", cookie: engineer })).json();
    expect(again.firings).toEqual([{ key: firing.key, state: "open", taskId: firing.taskId }]);
    expect(fs.readdirSync(env.dataDir).filter((name) => name.startsWith("plantdesk.sqlite") || name.endsWith(".duckdb"))).toEqual([]);
  });
});
