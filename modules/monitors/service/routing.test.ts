/**
 * Contact points and routing over real HTTP on the embedded service (docs/api.md, "Contact points
 * and routing"), with a real SMTP server and a local webhook receiver: a critical firing reaches the
 * on-call e-mail list and a warning the shift's chat, never the other; two critical monitors' firings
 * within the grouping wait arrive as ONE message; a muted monitor records its firings and sends
 * nothing; refusals (roles, webhooks by non-admins, unknown contact points) write nothing.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  // A real SMTP server, started before the configuration is read so SMTP_URL can name its port.
  const { smtp, mails, url: smtpUrl } = await (await import("@/lib/bff/testing/smtp-sink")).startSmtpSink();
  const demoPassword = "demo-password-for-tests";
  const environment = (await import("@/lib/bff/testing/environment")).setTestEnvironment("routing", {
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
import { monitorDeps } from "@/modules/monitors/service";
import { flushNotifications } from "./routing";

const ENGINEER = "engineer@plantdesk.demo";
const PLANNER = "planner@plantdesk.demo";
const ADMIN = "admin@plantdesk.demo";

let dashboard: EmbeddedDashboard;
const cookies: Record<string, string> = {};
let template: TMonitorInputBody["task"];
let webhook: { url: string; bodies: { text: string }[]; close(): Promise<void> };

const twoDevicesAbove = (threshold: number) =>
  `States | where Name == "Temperature" | summarize MaxValue = max(todouble(Value)) by DeviceId | where MaxValue > ${threshold} | top 2 by DeviceId asc`;

function monitorBody(overrides: Partial<TMonitorInputBody> = {}): TMonitorInputBody {
  return { name: "Hot bearings", query: twoDevicesAbove(-1000), keyColumns: ["DeviceId"], every: "5m", lookback: "1h", task: template, enabled: true, ...overrides };
}

const call = (who: string, method: string, path: string, body?: unknown) => dashboard.api.call(path, { method, body, cookie: cookies[who] });

async function startWebhookReceiver() {
  const bodies: { text: string }[] = [];
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
  for (const who of [ENGINEER, PLANNER, ADMIN]) cookies[who] = await dashboard.cookieFor(who);
  const store = dashboard.runtime.maintenance;
  template = {
    taskTitle: "Check {DeviceId}: {MaxValue} °C",
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

describe("contact points and routing", () => {
  let onCall: number;
  let shiftChat: number;

  it("refuses planners, webhooks set by engineers, bad addresses and unknown contact points, and writes nothing", async () => {
    const planner = await call(PLANNER, "POST", "/api/plants/RTM1/contact-points", { name: "Mine", emails: ["a@plantdesk.test"] });
    expect(planner.status).toBe(403);
    const engineerHook = await call(ENGINEER, "POST", "/api/plants/RTM1/contact-points", { name: "Chat", webhookUrl: webhook.url });
    expect(engineerHook.status).toBe(403);
    const bad = await call(ENGINEER, "POST", "/api/plants/RTM1/contact-points", { name: "Bad", emails: ["not-an-address"] });
    expect([bad.status, (await bad.json()).data?.[0]?.field]).toEqual([400, "emails.0"]);
    const policy = await call(ENGINEER, "PUT", "/api/plants/RTM1/notification-policy", { rules: [{ severities: ["critical"], contactPointId: 99 }] });
    const refused = await policy.json();
    expect([policy.status, refused.code, refused.data[0].field]).toEqual([400, "INVALID_INPUT", "rules.0.contactPointId"]);
    const db = await getDashboardDb();
    expect(await db.all("SELECT id FROM contact_points")).toEqual([]);
    expect(await db.all("SELECT plant_id FROM notification_policies")).toEqual([]);
  });

  it("keeps contact points per plant; only admins set and see a webhook", async () => {
    const created = await call(ENGINEER, "POST", "/api/plants/RTM1/contact-points", { name: "On-call", emails: ["oncall@plantdesk.test", "lead@plantdesk.test"] });
    expect(created.status).toBe(201);
    onCall = (await created.json()).id;
    const chat = await call(ADMIN, "POST", "/api/plants/RTM1/contact-points", { name: "Shift chat", webhookUrl: webhook.url });
    expect(chat.status).toBe(201);
    shiftChat = (await chat.json()).id;
    const duplicate = await call(ENGINEER, "POST", "/api/plants/RTM1/contact-points", { name: "On-call" });
    expect(duplicate.status).toBe(400);

    const seenByEngineer = (await (await call(ENGINEER, "GET", "/api/plants/RTM1/contact-points")).json()).data;
    expect(seenByEngineer.map((point: { name: string }) => point.name)).toEqual(["On-call", "Shift chat"]);
    expect(seenByEngineer[1]).toMatchObject({ webhookConfigured: true });
    expect(seenByEngineer[1].webhookUrl).toBeUndefined();
    expect(JSON.stringify(seenByEngineer)).not.toContain("secret-token");
    const seenByAdmin = (await (await call(ADMIN, "GET", "/api/plants/RTM1/contact-points")).json()).data;
    expect(seenByAdmin[1].webhookUrl).toBe(webhook.url);
    // Another plant has none of them.
    const other = await call(ADMIN, "GET", "/api/plants/HOU1/contact-points");
    expect([other.status, (await other.json()).data]).toEqual([200, []]);
    // An engineer may rename the chat (its webhook is kept) but not point it elsewhere.
    const renamed = await call(ENGINEER, "PUT", `/api/plants/RTM1/contact-points/${shiftChat}`, { name: "Shift chat" });
    expect([renamed.status, (await renamed.json()).webhookConfigured]).toEqual([200, true]);
    expect((await call(ENGINEER, "PUT", `/api/plants/RTM1/contact-points/${shiftChat}`, { name: "Shift chat", webhookUrl: null })).status).toBe(403);
  });

  it("routes a critical firing to the on-call list and a warning to the chat, grouped into one message each; a muted monitor sends nothing", async () => {
    const saved = await call(ENGINEER, "PUT", "/api/plants/RTM1/notification-policy", {
      rules: [{ severities: ["critical"], contactPointId: onCall }],
      defaultContactPointId: shiftChat,
      groupSeconds: 30,
    });
    expect(saved.status).toBe(200);
    expect(await (await call(PLANNER, "GET", "/api/plants/RTM1/notification-policy")).json()).toEqual({
      rules: [{ severities: ["critical"], assetTags: [], contactPointId: onCall }],
      defaultContactPointId: shiftChat,
      groupSeconds: 30,
    });
    // A contact point the routing uses cannot go.
    expect((await call(ENGINEER, "DELETE", `/api/plants/RTM1/contact-points/${onCall}`)).status).toBe(400);

    const now = Date.now();
    const around = { kind: "once", from: new Date(now - 3_600_000).toISOString().replace(/\.\d+Z$/, "Z"), to: new Date(now + 3_600_000).toISOString().replace(/\.\d+Z$/, "Z") };
    const ids: Record<string, number> = {};
    for (const [name, severity, mutes] of [
      ["Bearings critical", "critical", []],
      ["Motors critical", "critical", []],
      ["Fans warning", "warning", []],
      ["Shutdown critical", "critical", [around]],
    ] as const) {
      const created = await call(ENGINEER, "POST", "/api/plants/RTM1/monitors", { ...monitorBody({ name }), severity, mutes });
      expect(created.status).toBe(201);
      ids[name] = (await created.json()).id;
      const run = await call(ENGINEER, "POST", `/api/plants/RTM1/monitors/${ids[name]}/run`);
      expect(run.status).toBe(200);
    }
    const db = await getDashboardDb();
    const deps = { db, notifier: (await monitorDeps()).notifier };
    // Within the grouping wait nothing goes; the muted monitor queued nothing at all.
    expect(await flushNotifications(deps, now)).toBe(0);
    expect(await db.all("SELECT DISTINCT monitor_id FROM notification_outbox ORDER BY monitor_id")).toEqual(
      [ids["Bearings critical"], ids["Motors critical"], ids["Fans warning"]].map((id) => ({ monitor_id: id })),
    );
    const muted = (await (await call(ENGINEER, "GET", `/api/plants/RTM1/monitors/${ids["Shutdown critical"]}/firings`)).json()).data;
    expect(muted).toHaveLength(2);

    expect(await flushNotifications(deps, Date.now() + 31_000)).toBe(2);
    await vi.waitFor(() => expect(env.mails).toHaveLength(1), { timeout: 10_000 });
    await vi.waitFor(() => expect(webhook.bodies).toHaveLength(1), { timeout: 10_000 });
    const mail = env.mails[0]!;
    expect(mail.to.sort()).toEqual(["lead@plantdesk.test", "oncall@plantdesk.test"]);
    expect(mail.body).toContain("Bearings critical");
    expect(mail.body).toContain("Motors critical");
    expect(mail.body).toContain("4 firing changes from 2 monitors");
    expect(mail.body).not.toContain("Fans warning");
    expect(mail.body).not.toContain("Shutdown critical");
    const chatText = webhook.bodies[0]!.text;
    expect(chatText).toContain("Fans warning");
    expect(chatText).toContain("Warning");
    expect(chatText).not.toContain("critical");

    // Sent once: a second flush sends nothing, and each contact point shows when it last sent.
    expect(await flushNotifications(deps, Date.now() + 62_000)).toBe(0);
    const points = (await (await call(ENGINEER, "GET", "/api/plants/RTM1/contact-points")).json()).data;
    expect(points.map((point: { lastSentAt: unknown; lastError: unknown }) => [typeof point.lastSentAt, point.lastError])).toEqual([
      ["string", null],
      ["string", null],
    ]);
    const audit = await db.all<{ action: string }>("SELECT action FROM audit_log WHERE action LIKE 'contact-point.%' OR action LIKE 'notification-policy.%' ORDER BY id");
    expect(audit.map((row) => row.action)).toContain("notification-policy.update");
  });
});
