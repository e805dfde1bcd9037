/* eslint-disable @typescript-eslint/no-explicit-any -- JSON records are read freely in assertions */
/**
 * Work from request to record through `/api/` over real HTTP with real session cookies: anyone
 * with access to a plant raises a work request, a supervisor approves, a planner assigns it to a
 * user of the plant (the dashboard, not the browser, names that person), and the assignee closes
 * it out — others may not, except supervisors. Refusals keep their status and code.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  const demoPassword = "demo-password-for-tests";
  return { ...(await import("./testing/environment")).setTestEnvironment("bff-work", { DEMO_PASSWORD: demoPassword }), demoPassword };
});

import { getDashboardDb } from "@/lib/dashboard-store/database";
import { queryAudit } from "@/lib/dashboard-store/audit";
import { upsertUser } from "@/lib/dashboard-store/users";
import { startEmbeddedDashboard, type EmbeddedDashboard } from "./testing/dashboards";

let dashboard: EmbeddedDashboard;
let fixture: { tag: string; activityKind: string; priority: string; partId: string };
const cookies: Record<string, string> = {};

async function call(who: string, method: string, path: string, body?: unknown) {
  const response = await dashboard.api.call(`/api/plants/RTM1${path}`, { method, body, cookie: cookies[who]! });
  return { status: response.status, body: (await response.json()) as any };
}

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, env.demoPassword);
  const store = dashboard.runtime.maintenance;
  const parts = (await store.listParts("RTM1", { page: 1, pageSize: 1000 })).data;
  fixture = {
    tag: (await store.listAssets("RTM1", { page: 1, pageSize: 1 })).data[0]!.tagNumber,
    activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0]!,
    priority: (await store.allowedLookupValues("RTM1", "priority"))[0]!,
    partId: parts.find((part) => part.unit === "PCS" && part.quantity >= 5)!.id,
  };
  await upsertUser(await getDashboardDb(), { email: "elsewhere@plantdesk.demo", name: "Else Where", role: "planner", plants: ["HOU1"], password: "long-enough-1" });
  for (const role of ["planner", "supervisor", "engineer", "admin"]) cookies[role] = await dashboard.cookieFor(`${role}@plantdesk.demo`);
});

afterAll(() => dashboard.close());

describe("work requests and close-out through /api/", () => {
  it("an engineer raises a task, a supervisor approves, a planner assigns, the assignee closes it out", async () => {
    const raised = await call("engineer", "POST", "/tasks", { taskTitle: "Alarm: high vibration", activityKind: fixture.activityKind, priority: fixture.priority, asset: { tagNumber: fixture.tag } });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    const id = raised.body.data[0].id as string;
    expect((await call("engineer", "GET", `/tasks/${id}`)).body).toMatchObject({ status: "NEED_APPROVAL" });
    // Approval stays with supervisors.
    const selfApproved = await call("engineer", "POST", `/tasks/${id}/transitions`, { to: "PENDING" });
    expect(selfApproved).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
    expect((await call("supervisor", "POST", `/tasks/${id}/transitions`, { to: "PENDING" })).status).toBe(200);

    // The assignee is a user of the plant, named as this dashboard knows them.
    expect((await call("planner", "PATCH", `/tasks/${id}`, { assignee: { username: "nobody@plantdesk.demo" } })).body.code).toBe("INVALID_INPUT");
    expect((await call("planner", "PATCH", `/tasks/${id}`, { assignee: { username: "elsewhere@plantdesk.demo" } })).status).toBe(400);
    expect((await call("engineer", "PATCH", `/tasks/${id}`, { assignee: { username: "engineer@plantdesk.demo" } })).status).toBe(403);
    const assigned = await call("planner", "PATCH", `/tasks/${id}`, { assignee: { username: "engineer@plantdesk.demo", firstname: "Mallory", lastname: "X" } });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect((await call("planner", "GET", `/tasks/${id}`)).body.assignee).toEqual({ username: "engineer@plantdesk.demo", firstname: "Eli", lastname: "Engineer" });
    const mine = await call("engineer", "GET", `/tasks?assignee=engineer%40plantdesk.demo`);
    expect(mine.body.data.map((task: any) => task.id)).toContain(id);

    // Only the assignee (or a supervisor) closes it out.
    const body = { hoursWorked: 1.5, personCount: 1, partsUsed: [{ partId: fixture.partId, quantity: 2 }], note: "Bearing replaced" };
    const byPlanner = await call("planner", "POST", `/tasks/${id}/close-out`, body);
    expect(byPlanner).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
    expect((await call("planner", "GET", `/tasks/${id}`)).body.status).toBe("PENDING");
    const closed = await call("engineer", "POST", `/tasks/${id}/close-out`, body);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const job = (await call("planner", "GET", `/jobs-done?pageSize=1000&assetTagNumber=${fixture.tag}`)).body.data.find((j: any) => j.taskId === id);
    expect(job).toMatchObject({ totalTimeUsedInHours: "1.5", carriedOutByUser: { username: "engineer@plantdesk.demo", firstname: "Eli", lastname: "Engineer" } });
    const history = (await call("planner", "GET", `/parts/${fixture.partId}/stock-levels?pageSize=1`)).body.data[0];
    expect(history.countedBy).toBe("Eli Engineer <engineer@plantdesk.demo>");

    const audit = await queryAudit(await getDashboardDb(), { action: "task.close-out" }, 1, 10);
    expect(audit.data.map((row: any) => `${row.userEmail} ${row.outcome}`)).toEqual(expect.arrayContaining(["engineer@plantdesk.demo SUCCESS", "planner@plantdesk.demo FORBIDDEN"]));
  });

  it("a supervisor closes out a task assigned to someone else; a stale close-out says what changed", async () => {
    const raised = await call("planner", "POST", "/tasks", { taskTitle: "Replace filter", activityKind: fixture.activityKind, priority: fixture.priority, asset: { tagNumber: fixture.tag } });
    const id = raised.body.data[0].id as string;
    await call("planner", "PATCH", `/tasks/${id}`, { assignee: { username: "planner@plantdesk.demo" } });
    const body = { hoursWorked: "0.5", personCount: 1 };
    expect((await call("supervisor", "POST", `/tasks/${id}/close-out`, body)).status).toBe(200);
    const again = await call("planner", "POST", `/tasks/${id}/close-out`, body);
    expect(again.status).toBe(412);
    expect(again.body).toMatchObject({ code: "INVALID_TRANSITION", data: [{ from: "CLOSED" }] });
    expect(again.body.message).toContain("CLOSED");
  });

  it("answers a repeated read with 304 while nothing changed (the board's polling)", async () => {
    const first = await dashboard.api.call("/api/plants/RTM1/tasks?pageSize=1000", { method: "GET", cookie: cookies.planner! });
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"/);
    const again = await dashboard.api.call("/api/plants/RTM1/tasks?pageSize=1000", { method: "GET", cookie: cookies.planner!, headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    await call("planner", "POST", "/tasks", { taskTitle: "Changes the list", activityKind: fixture.activityKind, priority: fixture.priority, asset: { tagNumber: fixture.tag } });
    const changed = await dashboard.api.call("/api/plants/RTM1/tasks?pageSize=1000", { method: "GET", cookie: cookies.planner!, headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
  });

  it("lists the people of a plant without any secret", async () => {
    const people = await call("engineer", "GET", "/people");
    expect(people.status).toBe(200);
    const names = people.body.data.map((p: any) => p.username);
    expect(names).toEqual(expect.arrayContaining(["planner@plantdesk.demo", "supervisor@plantdesk.demo", "engineer@plantdesk.demo", "admin@plantdesk.demo"]));
    expect(names).not.toContain("elsewhere@plantdesk.demo");
    expect(JSON.stringify(people.body)).not.toMatch(/password|hash/i);
  });
});
