/**
 * Alerting over real HTTP on the embedded service (docs/api.md, "Monitors"): a monitor's severity
 * and mute windows. A muted monitor records its firings but opens no task and sends nothing (a real
 * SMTP server and a local webhook receiver hear nothing); once the window is gone, the next run
 * opens the work of what still holds and sends one message that names the severity. Bad windows
 * are refused naming the field, and nothing is written.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  // A real SMTP server, started before the configuration is read so SMTP_URL can name its port.
  const { smtp, mails, url: smtpUrl } = await (await import("@/lib/bff/testing/smtp-sink")).startSmtpSink();
  const demoPassword = "demo-password-for-tests";
  const environment = (await import("@/lib/bff/testing/environment")).setTestEnvironment("alerting", {
    DEMO_PASSWORD: demoPassword,
    DEMO_LIVE: "0",
    SMTP_URL: smtpUrl,
    SMTP_FROM: "Plantdesk <alerts@plantdesk.test>",
    // The webhook receiver listens on loopback: the operator's permission for private destinations.
    WEBHOOK_ALLOW_PRIVATE: "1",
    // The test's recipients are outside the demo users' domain (plantdesk.demo): allowed by the operator.
    NOTIFY_EMAIL_DOMAINS: "plantdesk.test",
  });
  return { ...environment, demoPassword, smtp, mails };
});

import { startEmbeddedDashboard, type EmbeddedDashboard } from "@/lib/bff/testing/dashboards";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import type { TMonitorInputBody } from "@/modules/monitors/contract/monitors";

const ENGINEER = "engineer@plantdesk.demo";
const PLANNER = "planner@plantdesk.demo";
const SUPERVISOR = "supervisor@plantdesk.demo";
const ADMIN = "admin@plantdesk.demo";

let dashboard: EmbeddedDashboard;
const cookies: Record<string, string> = {};
let template: TMonitorInputBody["task"];
let webhook: { url: string; bodies: unknown[]; close(): Promise<void> };

/** Two RTM1 temperature devices whose maximum is above `threshold` (every one is above −1000). */
const twoDevicesAbove = (threshold: number) =>
  `States | where Name == "Temperature" | summarize MaxValue = max(todouble(Value)) by DeviceId | where MaxValue > ${threshold} | top 2 by DeviceId asc`;

function monitorBody(overrides: Partial<TMonitorInputBody> = {}): TMonitorInputBody {
  return {
    name: "Hot bearings",
    query: twoDevicesAbove(-1000),
    keyColumns: ["DeviceId"],
    every: "5m",
    lookback: "1h",
    task: template,
    enabled: true,
    ...overrides,
  };
}

const call = (who: string, method: string, path: string, body?: unknown) => dashboard.api.call(path, { method, body, cookie: cookies[who] });

async function startWebhookReceiver() {
  const bodies: unknown[] = [];
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => {
      bodies.push(JSON.parse(text));
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/secret-token`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, env.demoPassword);
  for (const who of [ENGINEER, PLANNER, SUPERVISOR, ADMIN]) cookies[who] = await dashboard.cookieFor(who);
  const store = dashboard.runtime.maintenance;
  template = {
    taskTitle: "Check {DeviceId}: {MaxValue} °C",
    taskDescription: "Maximum temperature {MaxValue} in the last hour.",
    activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0]!,
    priority: (await store.allowedLookupValues("RTM1", "priority"))[0]!,
    assignedToRole: (await store.allowedLookupValues("RTM1", "assignedToRole"))[0]!,
    dueInDays: 3,
  };
  webhook = await startWebhookReceiver();
}, 120_000);

afterAll(async () => {
  await dashboard?.close();
  await webhook?.close();
  await new Promise<void>((resolve) => env.smtp.close(() => resolve()));
});

describe("alerting", () => {
  let monitorId: number;
  const now = Date.now();
  const around = { kind: "once" as const, from: new Date(now - 3_600_000).toISOString().replace(/\.\d+Z$/, "Z"), to: new Date(now + 3_600_000).toISOString().replace(/\.\d+Z$/, "Z"), reason: "planned shutdown" };

  it("refuses a bad mute window or severity, naming the field, and writes nothing", async () => {
    for (const [mutes, field] of [
      [[{ kind: "weekly", days: ["sun"], start: "22:00", minutes: 60, timeZone: "Mars/Olympus" }], "mutes.0.timeZone"],
      [[{ kind: "weekly", days: [], start: "22:00", minutes: 60, timeZone: "UTC" }], "mutes.0.days"],
      [[{ kind: "weekly", days: ["sun"], start: "25:00", minutes: 60, timeZone: "UTC" }], "mutes.0.start"],
      [[{ kind: "once", from: around.to, to: around.from }], "mutes.0.to"],
    ] as const) {
      const response = await call(ENGINEER, "POST", "/api/plants/RTM1/monitors", { ...monitorBody(), mutes });
      const body = await response.json();
      expect([response.status, body.code]).toEqual([400, "INVALID_INPUT"]);
      expect(JSON.stringify(body.data)).toContain(field);
    }
    const severity = await call(ENGINEER, "POST", "/api/plants/RTM1/monitors", { ...monitorBody(), severity: "disaster" });
    expect(severity.status).toBe(400);
    expect(await (await getDashboardDb()).all("SELECT id FROM monitors")).toEqual([]);
  });

  it("a muted monitor records its firings, opens nothing and sends nothing; without the window it opens and sends once", async () => {
    const created = await call(ADMIN, "POST", "/api/plants/RTM1/monitors", {
      ...monitorBody({ notify: { emails: ["ops@plantdesk.test"], webhookUrl: webhook.url } }),
      severity: "critical",
      mutes: [around, { kind: "weekly", days: ["sun"], start: "06:00", minutes: 480, timeZone: "Europe/Amsterdam" }],
    });
    expect(created.status).toBe(201);
    const monitor = await created.json();
    monitorId = monitor.id;
    expect(monitor).toMatchObject({ severity: "critical", mutedNow: true, mutes: [around, { kind: "weekly" }] });

    const run = await call(ENGINEER, "POST", `/api/plants/RTM1/monitors/${monitorId}/run`);
    expect(run.status).toBe(200);
    const evaluation = await run.json();
    expect(evaluation.muted).toBe(true);
    expect(evaluation.firings.map((firing: { state: string; taskId: unknown }) => [firing.state, firing.taskId])).toEqual([
      ["muted", null],
      ["muted", null],
    ]);
    const firings = (await (await call(ENGINEER, "GET", `/api/plants/RTM1/monitors/${monitorId}/firings`)).json()).data;
    expect(firings).toHaveLength(2);
    expect(firings.every((firing: { taskId: unknown; resolvedAt: unknown }) => firing.taskId === null && firing.resolvedAt === null)).toBe(true);
    // A second muted run records nothing new.
    await call(ENGINEER, "POST", `/api/plants/RTM1/monitors/${monitorId}/run`);
    expect((await (await call(ENGINEER, "GET", `/api/plants/RTM1/monitors/${monitorId}/firings`)).json()).data).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(env.mails).toHaveLength(0);
    expect(webhook.bodies).toHaveLength(0);
    const shown = await (await call(ENGINEER, "GET", `/api/plants/RTM1/monitors/${monitorId}`)).json();
    expect(shown.state).not.toBe("failing");

    // The window is removed: the firings that still hold get their tasks, and one message goes out.
    const unmuted = await call(ADMIN, "PUT", `/api/plants/RTM1/monitors/${monitorId}`, { ...monitorBody({ notify: { emails: ["ops@plantdesk.test"] } }), severity: "critical", mutes: [] });
    expect(unmuted.status).toBe(200);
    expect((await unmuted.json()).mutedNow).toBe(false);
    const opened = await (await call(ENGINEER, "POST", `/api/plants/RTM1/monitors/${monitorId}/run`)).json();
    expect(opened.muted).toBeUndefined();
    expect(opened.firings.map((firing: { state: string }) => firing.state)).toEqual(["opened", "opened"]);
    expect((await (await call(ENGINEER, "GET", `/api/plants/RTM1/monitors/${monitorId}/firings`)).json()).data).toHaveLength(2);
    await vi.waitFor(() => expect(env.mails).toHaveLength(1), { timeout: 10_000 });
    expect(env.mails[0]!.body).toContain("Critical");
    await vi.waitFor(() => expect(webhook.bodies).toHaveLength(1), { timeout: 10_000 });
    expect(JSON.stringify(webhook.bodies[0])).toContain("Critical");
  });
});
