/**
 * Who a monitor may e-mail (issue 35 #3), over real HTTP on the embedded dashboard with a real SMTP
 * server (npm `smtp-server`) and NOTIFY_EMAIL_DOMAINS unset (default: the domains of the plant's
 * users, here plantdesk.demo). Before the fix any engineer could save 20 outside addresses per
 * monitor and `…/run` mailed them at once; recipient changes left no audit row.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  const { smtp, mails, url: smtpUrl } = await (await import("@/lib/bff/testing/smtp-sink")).startSmtpSink();
  const environment = (await import("@/lib/bff/testing/environment")).setTestEnvironment("monitor-recipients", {
    DEMO_PASSWORD: "demo-password-for-tests",
    DEMO_LIVE: "0",
    SMTP_URL: smtpUrl,
    SMTP_FROM: "Plantdesk <alerts@plantdesk.demo>",
  });
  return { ...environment, smtp, mails };
});

import { startEmbeddedDashboard, type EmbeddedDashboard } from "@/lib/bff/testing/dashboards";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import type { TMonitorInputBody } from "@/modules/monitors/contract/monitors";

const ENGINEER = "engineer@plantdesk.demo";
let dashboard: EmbeddedDashboard;
let cookie: string;
let body: TMonitorInputBody;
const call = (method: string, path: string, payload?: unknown) => dashboard.api.call(path, { method, body: payload, cookie });

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, "demo-password-for-tests");
  cookie = await dashboard.cookieFor(ENGINEER);
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
}, 120_000);

afterAll(async () => {
  await dashboard?.close();
  await new Promise<void>((resolve) => env.smtp.close(() => resolve()));
});

const auditRows = async (target: string) =>
  (await (await getDashboardDb()).all<{ action: string; user_email: string; detail: string }>(
    "SELECT action, user_email, detail FROM audit_log WHERE action LIKE 'monitor.recipient-%' AND target = @target ORDER BY id",
    { target },
  )).map((row) => [row.action, row.user_email, JSON.parse(row.detail).email]);

describe("monitor e-mail recipients", () => {
  it("refuses an outside address at save: 400 INVALID_INPUT naming it, nothing stored, no audit row", async () => {
    const response = await call("POST", "/api/plants/RTM1/monitors", { ...body, notify: { emails: ["planner@plantdesk.demo", "victim@outside.example"] } });
    const answer = await response.json();
    expect([response.status, answer.code]).toEqual([400, "INVALID_INPUT"]);
    expect(answer.message).toContain("victim@outside.example");
    expect(answer.message).toContain("plantdesk.demo");
    expect(answer.data).toEqual([{ field: "notify.emails", problem: "victim@outside.example is not a user of the plant nor in an allowed domain" }]);
    expect((await (await call("GET", "/api/plants/RTM1/monitors")).json()).data).toEqual([]);
    expect((await (await getDashboardDb()).all("SELECT id FROM audit_log WHERE action LIKE 'monitor.recipient-%'"))).toEqual([]);
  });

  it("takes the plant's users and addresses of their domains, and audits each recipient added and removed", async () => {
    const created = await call("POST", "/api/plants/RTM1/monitors", { ...body, notify: { emails: ["planner@plantdesk.demo", "night-shift@plantdesk.demo"] } });
    expect(created.status).toBe(201);
    const id = String((await created.json()).id);
    expect(await auditRows(id)).toEqual([
      ["monitor.recipient-add", ENGINEER, "planner@plantdesk.demo"],
      ["monitor.recipient-add", ENGINEER, "night-shift@plantdesk.demo"],
    ]);
    const changed = await call("PUT", `/api/plants/RTM1/monitors/${id}`, { ...body, notify: { emails: ["night-shift@plantdesk.demo", "supervisor@plantdesk.demo"] } });
    expect(changed.status).toBe(200);
    // Saving again without a change adds no row.
    expect((await call("PUT", `/api/plants/RTM1/monitors/${id}`, { ...body, notify: { emails: ["night-shift@plantdesk.demo", "supervisor@plantdesk.demo"] } })).status).toBe(200);
    expect((await auditRows(id)).slice(2)).toEqual([
      ["monitor.recipient-add", ENGINEER, "supervisor@plantdesk.demo"],
      ["monitor.recipient-remove", ENGINEER, "planner@plantdesk.demo"],
    ]);
    // A refused change leaves the stored list and the log as they were.
    expect((await call("PUT", `/api/plants/RTM1/monitors/${id}`, { ...body, notify: { emails: ["x@outside.example"] } })).status).toBe(400);
    expect((await (await call("GET", `/api/plants/RTM1/monitors/${id}`)).json()).notify.emails).toEqual(["night-shift@plantdesk.demo", "supervisor@plantdesk.demo"]);
    expect(await auditRows(id)).toHaveLength(4);
  });

  it("holds for the plant's contact points too: an outside address is refused at save, naming it", async () => {
    const refused = await call("POST", "/api/plants/RTM1/contact-points", { name: "Outside", emails: ["oncall@plantdesk.demo", "victim@outside.example"] });
    const answer = await refused.json();
    expect([refused.status, answer.code]).toEqual([400, "INVALID_INPUT"]);
    expect(answer.data).toEqual([{ field: "emails", problem: "victim@outside.example is not a user of the plant nor in an allowed domain" }]);
    expect((await call("POST", "/api/plants/RTM1/contact-points", { name: "On call", emails: ["oncall@plantdesk.demo"] })).status).toBe(201);
  });

  it("checks again at send: an outside address stored before the rule is not mailed, and the monitor says so", async () => {
    const created = await call("POST", "/api/plants/RTM1/monitors", { ...body, name: "Older monitor", notify: { emails: ["planner@plantdesk.demo"] } });
    const id = (await created.json()).id as number;
    // As a monitor saved before the rule existed would hold it.
    await (await getDashboardDb()).run("UPDATE monitors SET emails = @emails WHERE id = @id", { emails: JSON.stringify(["planner@plantdesk.demo", "victim@outside.example"]), id });
    env.mails.length = 0;
    const run = await call("POST", `/api/plants/RTM1/monitors/${id}/run`);
    expect(run.status).toBe(200);
    expect((await run.json()).firings.length).toBeGreaterThan(0);
    await vi.waitFor(() => expect(env.mails.length).toBe(1), { timeout: 10_000 });
    expect(env.mails[0]!.to).toEqual(["planner@plantdesk.demo"]);
    const monitor = await (await call("GET", `/api/plants/RTM1/monitors/${id}`)).json();
    expect(monitor.lastNotifyError).toContain("not sent to victim@outside.example");
  }, 60_000);
});
