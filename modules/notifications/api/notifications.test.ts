/* eslint-disable @typescript-eslint/no-explicit-any -- JSON records are read freely in assertions */
/**
 * The notification centre over real HTTP with real session cookies (docs/api.md, "Notifications"):
 * an engineer's work request tells the plant's supervisor and admin (not the engineer); the
 * approval tells the engineer; an assignment tells the assignee; a monitor that opens work tells
 * the plant's people. The bell's summary is revalidated by ETag (304 until something changes);
 * mark-read clears it; a kind turned off is not stored; each user keeps at most 200.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  const demoPassword = "demo-password-for-tests";
  return { ...(await import("@/lib/bff/testing/environment")).setTestEnvironment("notifications", { DEMO_PASSWORD: demoPassword, DEMO_LIVE: "0" }), demoPassword };
});

import { getDashboardDb } from "@/lib/dashboard-store/database";
import { startEmbeddedDashboard, type EmbeddedDashboard } from "@/lib/bff/testing/dashboards";
import { addNotification } from "@/modules/notifications/store/notifications";

let dashboard: EmbeddedDashboard;
let fixture: { tag: string; activityKind: string; priority: string; assignedToRole: string };
const cookies: Record<string, string> = {};

async function call(who: string, method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  const response = await dashboard.api.call(path, { method, body, cookie: cookies[who]!, headers });
  return { status: response.status, etag: response.headers.get("etag"), body: response.status === 304 ? null : ((await response.json()) as any) };
}

const unread = async (who: string) => (await call(who, "GET", "/api/notifications/summary")).body.unread as number;
const titles = async (who: string) => (await call(who, "GET", "/api/notifications")).body.data.map((item: any) => `${item.kind}: ${item.title}`) as string[];

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, env.demoPassword);
  const store = dashboard.runtime.maintenance;
  fixture = {
    tag: (await store.listAssets("RTM1", { page: 1, pageSize: 1 })).data[0]!.tagNumber,
    activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0]!,
    priority: (await store.allowedLookupValues("RTM1", "priority"))[0]!,
    assignedToRole: (await store.allowedLookupValues("RTM1", "assignedToRole"))[0]!,
  };
  for (const role of ["planner", "supervisor", "engineer", "admin"]) cookies[role] = await dashboard.cookieFor(`${role}@plantdesk.demo`);
}, 120_000);

afterAll(() => dashboard?.close());

describe("notification centre", () => {
  let taskId: string;

  it("a work request tells the approvers, not the asker; the bell's summary answers 304 until it changes", async () => {
    const before = await call("supervisor", "GET", "/api/notifications/summary");
    expect([before.status, before.body]).toEqual([200, { unread: 0, latestId: null }]);
    const again = await call("supervisor", "GET", "/api/notifications/summary", undefined, { "if-none-match": before.etag! });
    expect(again.status).toBe(304);

    const raised = await call("engineer", "POST", "/api/plants/RTM1/tasks", { taskTitle: "Noisy gearbox", activityKind: fixture.activityKind, priority: fixture.priority, asset: { tagNumber: fixture.tag } });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    taskId = raised.body.data[0].id;

    expect((await call("supervisor", "GET", "/api/notifications/summary", undefined, { "if-none-match": before.etag! })).status).toBe(200);
    expect(await unread("supervisor")).toBe(1);
    expect(await unread("admin")).toBe(1);
    expect(await unread("engineer")).toBe(0);
    expect(await unread("planner")).toBe(0); // planners do not approve
    const [item] = (await call("supervisor", "GET", "/api/notifications")).body.data;
    expect(item).toMatchObject({ kind: "approval", plantId: "RTM1", link: `/plants/RTM1/tasks?task=${taskId}`, readAt: null });
    expect(item.title).toContain("Noisy gearbox");
  });

  it("the decision tells the asker, an assignment tells the assignee", async () => {
    expect((await call("supervisor", "POST", `/api/plants/RTM1/tasks/${taskId}/transitions`, { to: "PENDING" })).status).toBe(200);
    expect(await titles("engineer")).toEqual([`decision: Your request ${taskId} was approved by supervisor@plantdesk.demo`]);
    expect((await call("planner", "PATCH", `/api/plants/RTM1/tasks/${taskId}`, { assignee: { username: "engineer@plantdesk.demo" } })).status).toBe(200);
    expect((await titles("engineer"))[0]).toBe(`assigned: planner@plantdesk.demo assigned task ${taskId} to you`);
    // Assigning oneself tells nobody.
    expect((await call("planner", "PATCH", `/api/plants/RTM1/tasks/${taskId}`, { assignee: { username: "planner@plantdesk.demo" } })).status).toBe(200);
    expect(await unread("planner")).toBe(0);
  });

  it("marks read by id or all, only the user's own, and refuses a bad body", async () => {
    const mine = (await call("engineer", "GET", "/api/notifications")).body.data;
    const others = (await call("supervisor", "GET", "/api/notifications")).body.data;
    const refused = await call("engineer", "POST", "/api/notifications/read", { ids: [], all: true });
    expect([refused.status, refused.body.code]).toEqual([400, "INVALID_INPUT"]);
    // Another user's id changes nothing of theirs.
    expect((await call("engineer", "POST", "/api/notifications/read", { ids: [others[0].id] })).body).toMatchObject({ changed: 0, unread: 2 });
    expect((await call("engineer", "POST", "/api/notifications/read", { ids: [mine[0].id] })).body).toMatchObject({ changed: 1, unread: 1 });
    expect((await call("engineer", "GET", "/api/notifications?show=unread")).body.data).toHaveLength(1);
    expect((await call("engineer", "POST", "/api/notifications/read", { all: true })).body).toMatchObject({ changed: 1, unread: 0 });
    expect(await unread("supervisor")).toBe(1);
  });

  it("stores no kind the user turned off", async () => {
    expect((await call("supervisor", "GET", "/api/notifications/preferences")).body).toEqual({ kinds: ["firing", "assigned", "approval", "decision"] });
    expect((await call("supervisor", "PUT", "/api/notifications/preferences", { kinds: ["bogus"] })).status).toBe(400);
    expect((await call("supervisor", "PUT", "/api/notifications/preferences", { kinds: ["firing", "decision"] })).body).toEqual({ kinds: ["firing", "decision"] });
    const raised = await call("engineer", "POST", "/api/plants/RTM1/tasks", { taskTitle: "Second request", activityKind: fixture.activityKind, priority: fixture.priority, asset: { tagNumber: fixture.tag } });
    expect(raised.status).toBe(200);
    expect(await unread("supervisor")).toBe(1);
    expect(await unread("admin")).toBe(2);
  });

  it("a monitor that opens work tells the plant's people", async () => {
    const created = await call("engineer", "POST", "/api/plants/RTM1/monitors", {
      name: "Hot devices",
      query: `States | where Name == "Temperature" | summarize MaxValue = max(todouble(Value)) by DeviceId | top 1 by DeviceId asc`,
      keyColumns: ["DeviceId"],
      every: "5m",
      lookback: "1h",
      task: { taskTitle: "Check {DeviceId}", activityKind: fixture.activityKind, priority: fixture.priority, assignedToRole: fixture.assignedToRole, dueInDays: 1 },
      enabled: true,
      severity: "critical",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await call("engineer", "POST", `/api/plants/RTM1/monitors/${created.body.id}/run`)).status).toBe(200);
    expect((await titles("planner"))[0]).toBe('firing: Critical: monitor "Hot devices" opened 1 task on RTM1');
    const [firing] = (await call("planner", "GET", "/api/notifications")).body.data;
    expect(firing.link).toBe(`/plants/RTM1/monitors?monitor=${created.body.id}`);
  });

  it("keeps at most 200 per user, the newest", async () => {
    const db = await getDashboardDb();
    const now = Date.now();
    for (let index = 0; index < 205; index += 1) await addNotification(db, "planner@plantdesk.demo", { kind: "firing", plantId: "RTM1", title: `n${index}`, link: "/" }, now);
    const kept = (await call("planner", "GET", "/api/notifications")).body.data;
    expect(kept).toHaveLength(200);
    expect([kept[0].title, kept[199].title]).toEqual(["n204", "n5"]);
  });
});
