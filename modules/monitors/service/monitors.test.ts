/**
 * Condition monitoring over real HTTP on the embedded service (docs/api.md, "Monitors"): a monitor's
 * firings open tasks (asset from the device's topologyReference), dedupe while the task is open,
 * resolve when the key goes; preview; refusals (roles, bad KQL, a missing key column, too many
 * evaluations, webhooks by non-admins); audit rows; e-mail received by a real SMTP server and a
 * webhook received by a local HTTP server, one message per evaluation.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  // A real SMTP server, started before the configuration is read so SMTP_URL can name its port.
  const { smtp, mails, url: smtpUrl } = await (await import("@/lib/bff/testing/smtp-sink")).startSmtpSink();
  const demoPassword = "demo-password-for-tests";
  const environment = (await import("@/lib/bff/testing/environment")).setTestEnvironment("monitors", {
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

describe("monitors", () => {
  let monitorId: number;

  it("answers 401 on every monitor route without a session, and changes nothing", async () => {
    for (const [method, path] of [
      ["GET", "/api/plants/RTM1/monitors"],
      ["POST", "/api/plants/RTM1/monitors"],
      ["POST", "/api/plants/RTM1/monitors/preview"],
      ["GET", "/api/plants/RTM1/monitors/1"],
      ["PUT", "/api/plants/RTM1/monitors/1"],
      ["DELETE", "/api/plants/RTM1/monitors/1"],
      ["POST", "/api/plants/RTM1/monitors/1/run"],
      ["GET", "/api/plants/RTM1/monitors/1/firings"],
      ["GET", "/api/plants/RTM1/monitor-firings?taskId=RTM1-T000001"],
    ] as const) {
      const response = await dashboard.api.call(path, { method, body: method === "GET" || method === "DELETE" ? undefined : monitorBody() });
      expect([method, path, response.status, (await response.json()).code]).toEqual([method, path, 401, "UNAUTHORIZED"]);
    }
    expect(await (await getDashboardDb()).all("SELECT id FROM monitors")).toEqual([]);
  });

  it("refuses bad KQL with line and column, and a key column the result lacks", async () => {
    const bad = await call(ENGINEER, "POST", "/api/plants/RTM1/monitors", monitorBody({ query: "States\n| where Nme == 1" }));
    const badBody = await bad.json();
    expect([bad.status, badBody.code]).toEqual([400, "INVALID_QUERY"]);
    expect(badBody.data[0]).toMatchObject({ line: 2, column: expect.any(Number) });

    const missing = await call(ENGINEER, "POST", "/api/plants/RTM1/monitors", monitorBody({ keyColumns: ["AssetTag"] }));
    const missingBody = await missing.json();
    expect([missing.status, missingBody.code]).toEqual([400, "INVALID_INPUT"]);
    expect(missingBody.message).toContain("AssetTag");

    const slow = await call(ENGINEER, "POST", "/api/plants/RTM1/monitors", monitorBody({ every: "30s" }));
    expect(slow.status).toBe(400);
    const placeholder = await call(ENGINEER, "POST", "/api/plants/RTM1/monitors", monitorBody({ task: { ...template, taskTitle: "Check {Nope}" } }));
    expect((await placeholder.json()).data).toContainEqual({ field: "task.taskTitle", problem: "{Nope} is not a column of the result" });
    expect((await (await call(ENGINEER, "GET", "/api/plants/RTM1/monitors")).json()).data).toEqual([]);
  });

  it("lets engineers and admins write, planners and supervisors read, and only admins set a webhook", async () => {
    for (const who of [PLANNER, SUPERVISOR]) {
      const refused = await call(who, "POST", "/api/plants/RTM1/monitors", monitorBody());
      expect([refused.status, (await refused.json()).code]).toEqual([403, "FORBIDDEN"]);
    }
    const hooked = await call(ENGINEER, "POST", "/api/plants/RTM1/monitors", monitorBody({ notify: { webhookUrl: webhook.url } }));
    expect(hooked.status).toBe(403);
    // The engineer's plants are RTM1 and OUL1.
    expect((await call(ENGINEER, "POST", "/api/plants/HOU1/monitors", monitorBody())).status).toBe(403);

    const created = await call(ENGINEER, "POST", "/api/plants/RTM1/monitors", monitorBody({ notify: { emails: ["ops@plantdesk.test"] } }));
    expect(created.status).toBe(201);
    const monitor = await created.json();
    monitorId = monitor.id;
    expect(monitor).toMatchObject({ plantId: "RTM1", state: "ok", enabled: true, lastRunAt: null, notify: { emails: ["ops@plantdesk.test"], webhookConfigured: false } });
    expect(Date.parse(monitor.nextRunAt) % 300_000).toBe(0);

    const withHook = await call(ADMIN, "PUT", `/api/plants/RTM1/monitors/${monitorId}`, monitorBody({ notify: { emails: ["ops@plantdesk.test"], webhookUrl: webhook.url } }));
    expect(withHook.status).toBe(200);
    expect((await withHook.json()).notify.webhookUrl).toBe(webhook.url);

    for (const who of [PLANNER, SUPERVISOR, ENGINEER]) {
      const seen = await call(who, "GET", `/api/plants/RTM1/monitors/${monitorId}`);
      expect(seen.status).toBe(200);
      const body = await seen.json();
      expect(body.notify).toEqual({ emails: ["ops@plantdesk.test"], webhookConfigured: true });
      expect(JSON.stringify(body)).not.toContain("secret-token");
    }
    for (const who of [PLANNER, SUPERVISOR]) {
      expect((await call(who, "PUT", `/api/plants/RTM1/monitors/${monitorId}`, monitorBody())).status).toBe(403);
      expect((await call(who, "DELETE", `/api/plants/RTM1/monitors/${monitorId}`)).status).toBe(403);
      expect((await call(who, "POST", `/api/plants/RTM1/monitors/${monitorId}/run`)).status).toBe(403);
    }
    // The engineer may change the rest and keeps the admin's webhook by leaving it out.
    const renamed = await call(ENGINEER, "PUT", `/api/plants/RTM1/monitors/${monitorId}`, monitorBody({ name: "Hot devices", notify: { emails: ["ops@plantdesk.test"] } }));
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).notify.webhookConfigured).toBe(true);
    expect((await call(ENGINEER, "GET", "/api/plants/RTM1/monitors/999999")).status).toBe(404);
  });

  it("opens one task per new key, for the asset the device measures, and tells e-mail and the webhook once", async () => {
    const run = await call(ENGINEER, "POST", `/api/plants/RTM1/monitors/${monitorId}/run`);
    expect(run.status).toBe(200);
    const body = await run.json();
    expect(body.firings).toHaveLength(2);
    expect(body.firings.map((firing: { state: string }) => firing.state)).toEqual(["opened", "opened"]);
    for (const firing of body.firings as { key: { DeviceId: string }; taskId: string }[]) {
      const task = await dashboard.runtime.maintenance.getTask("RTM1", firing.taskId);
      expect(task?.taskTitle).toMatch(new RegExp(`^Check ${firing.key.DeviceId}: -?\\d`));
      expect(task?.taskDescription).toContain(`/plants/RTM1/monitors?monitor=${monitorId}`);
      expect(task?.status).toBe("NEED_APPROVAL");
      // The device's asset: its MessageMetadata.topologyReference.
      const telemetry = await dashboard.runtime.telemetry.query(
        { customerId: "CUST-ACME", budgetKey: "test" },
        { query: `States | where DeviceId == "${firing.key.DeviceId}" | take 1 | project Ref = tostring(MessageMetadata.topologyReference)`, startTime: new Date(Date.now() - 86_400_000).toISOString(), endTime: new Date().toISOString(), plantIds: ["RTM1"] },
      );
      const reference = JSON.parse(Buffer.concat(telemetry.body as Uint8Array[]).toString("utf8")).data.rows[0][0];
      expect(task?.asset.tagNumber).toBe(reference);
    }
    await vi.waitFor(() => expect(env.mails).toHaveLength(1));
    expect(env.mails[0]!.to).toEqual(["ops@plantdesk.test"]);
    expect(env.mails[0]!.body).toContain("2 opened");
    expect(webhook.bodies).toHaveLength(1);
    expect((webhook.bodies[0] as { text: string }).text).toContain('Monitor "Hot devices" on RTM1: 2 opened');
  });

  it("dedupes while the task is open: a second run opens nothing and sends nothing", async () => {
    const tasksBefore = (await dashboard.runtime.maintenance.listTasks("RTM1", { page: 1, pageSize: 1 })).totalPages;
    const body = await (await call(ENGINEER, "POST", `/api/plants/RTM1/monitors/${monitorId}/run`)).json();
    expect(body.firings.map((firing: { state: string }) => firing.state)).toEqual(["open", "open"]);
    expect((await dashboard.runtime.maintenance.listTasks("RTM1", { page: 1, pageSize: 1 })).totalPages).toBe(tasksBefore);
    expect(env.mails).toHaveLength(1);
    expect(webhook.bodies).toHaveLength(1);
    const monitor = await (await call(PLANNER, "GET", `/api/plants/RTM1/monitors/${monitorId}`)).json();
    expect(monitor).toMatchObject({ state: "firing", openFirings: 2, lastError: null });
  });

  it("resolves a key that is no longer returned, keeps the history, and leaves the task", async () => {
    // Only the first device stays above: a threshold between the two devices' maxima.
    const firings = (await (await call(PLANNER, "GET", `/api/plants/RTM1/monitors/${monitorId}/firings`)).json()).data as { key: { DeviceId: string }; taskId: string }[];
    expect(firings).toHaveLength(2);
    const keep = [...firings].sort((a, b) => (a.key.DeviceId < b.key.DeviceId ? -1 : 1))[0]!;
    const onlyFirst = `States | where Name == "Temperature" | summarize MaxValue = max(todouble(Value)) by DeviceId | where DeviceId == "${keep.key.DeviceId}"`;
    expect((await call(ENGINEER, "PUT", `/api/plants/RTM1/monitors/${monitorId}`, monitorBody({ name: "Hot devices", query: onlyFirst, notify: { emails: ["ops@plantdesk.test"] } }))).status).toBe(200);
    const body = await (await call(ENGINEER, "POST", `/api/plants/RTM1/monitors/${monitorId}/run`)).json();
    const states = Object.fromEntries((body.firings as { key: { DeviceId: string }; state: string }[]).map((firing) => [firing.key.DeviceId, firing.state]));
    const other = firings.find((firing) => firing !== keep)!;
    expect(states).toEqual({ [keep.key.DeviceId]: "open", [other.key.DeviceId]: "resolved" });
    const history = (await (await call(SUPERVISOR, "GET", `/api/plants/RTM1/monitors/${monitorId}/firings`)).json()).data as { key: { DeviceId: string }; resolvedAt: string | null; openedAt: string; taskId: string }[];
    expect(history.find((firing) => firing.key.DeviceId === other.key.DeviceId)).toMatchObject({ resolvedAt: expect.any(String), taskId: other.taskId });
    expect(history.find((firing) => firing.key.DeviceId === keep.key.DeviceId)?.resolvedAt).toBeNull();
    expect((await dashboard.runtime.maintenance.getTask("RTM1", other.taskId))?.status).toBe("NEED_APPROVAL");
    await vi.waitFor(() => expect(env.mails).toHaveLength(2));
    expect(env.mails[1]!.body).toContain("1 resolved");
    expect((webhook.bodies[1] as { text: string }).text).toContain("1 resolved");

    // The asset page and a task's drawer find the firing by asset and by task.
    const task = await dashboard.runtime.maintenance.getTask("RTM1", keep.taskId);
    const byAsset = await (await call(PLANNER, "GET", `/api/plants/RTM1/monitor-firings?assetTagNumber=${task!.asset.tagNumber}`)).json();
    expect(byAsset.data.map((firing: { taskId: string }) => firing.taskId)).toContain(keep.taskId);
    const byTask = await (await call(PLANNER, "GET", `/api/plants/RTM1/monitor-firings?taskId=${keep.taskId}`)).json();
    expect(byTask.data).toEqual([expect.objectContaining({ monitorId, monitorName: "Hot devices", taskId: keep.taskId })]);
  });

  it("opens a new task for a key whose task was closed while it held", async () => {
    const [firing] = (await (await call(PLANNER, "GET", `/api/plants/RTM1/monitors/${monitorId}/firings`)).json()).data.filter((item: { resolvedAt: string | null }) => item.resolvedAt === null);
    const closed = await call(ADMIN, "POST", `/api/plants/RTM1/tasks/${firing.taskId}/transitions`, { to: "CLOSED" });
    expect(closed.status).toBe(200);
    const body = await (await call(ENGINEER, "POST", `/api/plants/RTM1/monitors/${monitorId}/run`)).json();
    expect(body.firings).toEqual([{ key: firing.key, state: "opened", taskId: expect.not.stringMatching(`^${firing.taskId}$`), assetTagNumber: firing.assetTagNumber }]);
  });

  it("previews the monitor over a past window, opening nothing; more than 200 evaluations is refused", async () => {
    const tasksBefore = (await dashboard.runtime.maintenance.listTasks("RTM1", { page: 1, pageSize: 1 })).totalPages;
    const to = new Date(Math.floor(Date.now() / 600_000) * 600_000);
    const from = new Date(to.getTime() - 2 * 3600_000);
    const preview = await call(PLANNER, "POST", "/api/plants/RTM1/monitors/preview", { query: twoDevicesAbove(-1000), keyColumns: ["DeviceId"], every: "10m", lookback: "1h", from: from.toISOString(), to: to.toISOString() });
    expect(preview.status).toBe(200);
    const body = await preview.json();
    expect(body.evaluations).toBe(12);
    expect(body.times.at(-1)).toBe(to.toISOString());
    expect(body.firings.filter((firing: { at: string }) => firing.at === to.toISOString())).toHaveLength(2);
    expect(body.firings.filter((firing: { new: boolean }) => firing.new)).toHaveLength(2);
    expect((await dashboard.runtime.maintenance.listTasks("RTM1", { page: 1, pageSize: 1 })).totalPages).toBe(tasksBefore);

    const tooMany = await call(PLANNER, "POST", "/api/plants/RTM1/monitors/preview", { query: twoDevicesAbove(-1000), keyColumns: ["DeviceId"], every: "1m", lookback: "1h", from: new Date(to.getTime() - 7 * 86_400_000).toISOString(), to: to.toISOString() });
    const refusal = await tooMany.json();
    expect([tooMany.status, refusal.code]).toEqual([400, "INVALID_INPUT"]);
    expect(refusal.message).toContain("at most 200 evaluations");
    const badQuery = await call(PLANNER, "POST", "/api/plants/RTM1/monitors/preview", { query: "States | summarize by", keyColumns: ["DeviceId"], every: "10m", lookback: "1h", from: from.toISOString(), to: to.toISOString() });
    expect((await badQuery.json()).code).toBe("INVALID_QUERY");
  });

  it("records every change in the audit log and deletes a monitor, keeping its firings", async () => {
    expect((await call(ENGINEER, "DELETE", `/api/plants/RTM1/monitors/${monitorId}`)).status).toBe(200);
    expect((await call(ENGINEER, "GET", `/api/plants/RTM1/monitors/${monitorId}`)).status).toBe(404);
    expect((await call(ENGINEER, "DELETE", `/api/plants/RTM1/monitors/${monitorId}`)).status).toBe(404);
    const audit = await (await getDashboardDb()).all<{ user_email: string; action: string; target: string | null; outcome: string }>(
      "SELECT user_email, action, target, outcome FROM audit_log WHERE action LIKE 'monitor.%' AND action NOT LIKE 'monitor.recipient-%' ORDER BY id",
    );
    const id = String(monitorId);
    expect(audit.filter((row) => row.outcome === "SUCCESS").map((row) => [row.user_email, row.action, row.target])).toEqual([
      [ENGINEER, "monitor.create", id],
      [ADMIN, "monitor.update", id],
      [ENGINEER, "monitor.update", id],
      [ENGINEER, "monitor.run", id],
      [ENGINEER, "monitor.run", id],
      [ENGINEER, "monitor.update", id],
      [ENGINEER, "monitor.run", id],
      [ENGINEER, "monitor.run", id],
      [ENGINEER, "monitor.delete", id],
    ]);
    // Recipient changes have rows of their own (recipients.test.ts): the address added at create, gone with the monitor.
    const recipients = await (await getDashboardDb()).all<{ action: string }>("SELECT action FROM audit_log WHERE action LIKE 'monitor.recipient-%' AND target = @id ORDER BY id", { id });
    expect(recipients.map((row) => row.action)).toEqual(["monitor.recipient-add", "monitor.recipient-remove"]);
    expect(audit.filter((row) => row.outcome === "FORBIDDEN").length).toBeGreaterThanOrEqual(4);
    expect(audit.some((row) => row.outcome === "INVALID_QUERY")).toBe(true);
    const rows = await (await getDashboardDb()).all("SELECT id FROM monitor_firings WHERE monitor_id = @monitorId", { monitorId });
    expect(rows.length).toBeGreaterThanOrEqual(3);
  });
});
