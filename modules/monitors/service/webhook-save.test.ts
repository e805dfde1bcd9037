/**
 * A monitor's webhook is refused at save when it names a private, loopback, link-local, … address
 * (any spelling) or a name that resolves to one, without WEBHOOK_ALLOW_PRIVATE: over real HTTP
 * through the dashboard's `/api/`, as an admin, with a real receiver that must never be called.
 * The same rule at send is in notify.test.ts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => (await import("@/lib/bff/testing/environment")).setTestEnvironment("webhook-save", { DEMO_PASSWORD: "demo-password-for-tests", DEMO_LIVE: "0" }));

import { startEmbeddedDashboard, type EmbeddedDashboard } from "@/lib/bff/testing/dashboards";
import type { TMonitorInputBody } from "@/modules/monitors/contract/monitors";

let dashboard: EmbeddedDashboard;
let admin: string;
let body: TMonitorInputBody;
let receiver: http.Server;
let port: number;
let calls = 0;

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, "demo-password-for-tests");
  admin = await dashboard.cookieFor("admin@plantdesk.demo");
  const store = dashboard.runtime.maintenance;
  body = {
    name: "Hot devices",
    query: 'States | where Name == "Temperature" | summarize MaxValue = max(todouble(Value)) by DeviceId | top 2 by DeviceId asc',
    keyColumns: ["DeviceId"],
    every: "5m",
    lookback: "1h",
    enabled: true,
    task: {
      taskTitle: "Check {DeviceId}",
      activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0]!,
      priority: (await store.allowedLookupValues("RTM1", "priority"))[0]!,
      assignedToRole: (await store.allowedLookupValues("RTM1", "assignedToRole"))[0]!,
      dueInDays: 3,
    },
  };
  receiver = http.createServer((_req, res) => {
    calls += 1;
    res.writeHead(200).end("ok");
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  port = (receiver.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  await dashboard?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe("saving a monitor's webhook", () => {
  it("is refused (400, 'refused destination', nothing stored) for a private destination in any spelling or after DNS", async () => {
    for (const host of ["127.0.0.1", "127.1", "2130706433", "0x7f.1", "[::ffff:127.0.0.1]", "[::1]", "localhost", "169.254.169.254", "10.0.0.7", "[fd00::7]", "0.0.0.0", "does-not-resolve.invalid"]) {
      const url = `http://${host}:${port}/hooks/secret-token`;
      const response = await dashboard.api.call("/api/plants/RTM1/monitors", { method: "POST", cookie: admin, body: { ...body, notify: { webhookUrl: url } } });
      const answer = await response.json();
      expect([host, response.status, answer.code], host).toEqual([host, 400, "INVALID_INPUT"]);
      expect(answer.data).toEqual([{ field: "notify.webhookUrl", problem: "refused destination" }]);
      expect(JSON.stringify(answer)).not.toContain(String(port));
    }
    expect((await (await dashboard.api.call("/api/plants/RTM1/monitors", { cookie: admin })).json()).data).toEqual([]);
    expect(calls).toBe(0);
  });

  it("keeps a public destination (the address is judged, not called, at save)", async () => {
    const response = await dashboard.api.call("/api/plants/RTM1/monitors", { method: "POST", cookie: admin, body: { ...body, notify: { webhookUrl: "https://93.184.216.34/hooks/secret-token" } } });
    expect(response.status).toBe(201);
    expect(calls).toBe(0);
  });
});
