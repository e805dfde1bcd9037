/**
 * The dashboard's `/api/` routes over real HTTP (the production server's router and Node adapter,
 * real session cookies from next-auth's own encoder) over the real embedded service on a temporary database:
 * 401 without a session, the role-by-route matrix, plant scoping, audit rows for writes, and no
 * credential in any response.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  const demoPassword = "demo-password-for-tests";
  return { ...(await import("./testing/environment")).setTestEnvironment("bff-test", { DEMO_PASSWORD: demoPassword }), demoPassword };
});

import { DEMO_USERS } from "@/lib/dashboard-store/demo-users";
import { ROLES, hasPermission, type Permission, type Role } from "@/lib/contract/roles";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { setUserDisabled, upsertUser } from "@/lib/dashboard-store/users";
import type { ServiceRuntime } from "@/lib/service/runtime";
import type { ApiServer } from "./testing/api-server";
import { startEmbeddedDashboard, type EmbeddedDashboard } from "./testing/dashboards";

interface RouteCase {
  name: string;
  method: string;
  /** `{plant}` is replaced by the plant under test. */
  path: string;
  permission: Permission;
  plantScoped: boolean;
  body?: () => unknown;
  params?: () => Record<string, string>;
}

let dashboard: EmbeddedDashboard;
let runtime: ServiceRuntime;
let api: ApiServer;
let secret: string;
const seen: string[] = [];
let fixture: { tag: string; activityKind: string; priority: string; partId: string; partUnit: string; taskIds: string[]; anyTaskId: string };

const cookieFor = (email: string, maxAge?: number) => dashboard.cookieFor(email, maxAge);

async function call(route: RouteCase, plant: string, cookie: string | null): Promise<Response> {
  let path = route.path.replace("{plant}", encodeURIComponent(plant));
  for (const [name, value] of Object.entries(route.params?.() ?? {})) path = path.replace(`{${name}}`, encodeURIComponent(value));
  const response = await api.call(path, { method: route.method, body: route.body?.(), cookie });
  const text = await response.clone().text();
  seen.push(text, JSON.stringify([...response.headers.entries()]));
  return response;
}

const ROUTES: RouteCase[] = [
  { name: "me", method: "GET", path: "/api/me", permission: "maintenance:read", plantScoped: false },
  { name: "jobs done", method: "GET", path: "/api/plants/{plant}/jobs-done?pageSize=5", permission: "maintenance:read", plantScoped: true },
  { name: "jobs planned", method: "GET", path: "/api/plants/{plant}/jobs-planned?pageSize=5", permission: "maintenance:read", plantScoped: true },
  { name: "assets", method: "GET", path: "/api/plants/{plant}/assets?pageSize=5", permission: "maintenance:read", plantScoped: true },
  { name: "tasks", method: "GET", path: "/api/plants/{plant}/tasks?pageSize=5", permission: "maintenance:read", plantScoped: true },
  { name: "one task", method: "GET", path: "/api/plants/{plant}/tasks/{taskId}", permission: "maintenance:read", plantScoped: true, params: () => ({ taskId: fixture.anyTaskId }) },
  { name: "task history", method: "GET", path: "/api/plants/{plant}/tasks/{taskId}/transitions", permission: "maintenance:read", plantScoped: true, params: () => ({ taskId: fixture.anyTaskId }) },
  { name: "lookup values", method: "GET", path: "/api/plants/{plant}/lookup-values", permission: "maintenance:read", plantScoped: true },
  { name: "parts", method: "GET", path: "/api/plants/{plant}/parts?pageSize=5", permission: "maintenance:read", plantScoped: true },
  { name: "stock levels", method: "GET", path: "/api/plants/{plant}/parts/{partId}/stock-levels", permission: "maintenance:read", plantScoped: true, params: () => ({ partId: fixture.partId }) },
  { name: "create task", method: "POST", path: "/api/plants/{plant}/tasks", permission: "tasks:create", plantScoped: true, body: () => ({ taskTitle: "Matrix task", activityKind: fixture.activityKind, priority: fixture.priority, asset: { tagNumber: fixture.tag } }) },
  { name: "transition task", method: "POST", path: "/api/plants/{plant}/tasks/{taskId}/transitions", permission: "tasks:transition", plantScoped: true, body: () => ({ to: "PENDING" }), params: () => ({ taskId: fixture.taskIds.pop()! }) },
  { name: "edit task", method: "PATCH", path: "/api/plants/{plant}/tasks/{taskId}", permission: "tasks:edit", plantScoped: true, body: () => ({ priority: fixture.priority }), params: () => ({ taskId: fixture.anyTaskId }) },
  { name: "people of a plant", method: "GET", path: "/api/plants/{plant}/people", permission: "maintenance:read", plantScoped: true },
  { name: "dashboards", method: "GET", path: "/api/plants/{plant}/dashboards", permission: "dashboards:read", plantScoped: true },
  { name: "update part reorder levels", method: "PATCH", path: "/api/plants/{plant}/parts/{partId}", permission: "parts:reorder", plantScoped: true, body: () => ({ reorderLevel: 3, reorderQuantity: 6 }), params: () => ({ partId: fixture.partId }) },
  { name: "submit stock level", method: "PUT", path: "/api/plants/{plant}/parts/{partId}/stock-level", permission: "stock:submit", plantScoped: true, body: () => ({ id: fixture.partId, quantity: 7, unit: fixture.partUnit, remark: "matrix", isShort: false }), params: () => ({ partId: fixture.partId }) },
  { name: "telemetry query", method: "POST", path: "/api/telemetry/query", permission: "telemetry:query", plantScoped: false, body: () => ({ query: "States | take 1", startTime: "2026-01-01T00:00:00.000Z", endTime: "2026-01-02T00:00:00.000Z", plantIds: ["RTM1"] }) },
  { name: "history", method: "GET", path: "/api/telemetry/history", permission: "telemetry:query", plantScoped: false },
  { name: "save history", method: "POST", path: "/api/telemetry/history", permission: "telemetry:query", plantScoped: false, body: () => ({ query: "States | count" }) },
  { name: "update history", method: "PATCH", path: "/api/telemetry/history", permission: "telemetry:query", plantScoped: false, body: () => ({ id: 999999, starred: true }) },
  { name: "audit", method: "GET", path: "/api/audit", permission: "audit:read", plantScoped: false },
  { name: "users", method: "GET", path: "/api/users", permission: "users:manage", plantScoped: false },
];

const emailOf = (role: Role) => `${role}@plantdesk.demo`;
/** A plant each demo user may not open (admins reach every plant). */
const FOREIGN_PLANT: Record<Role, string | null> = { planner: "OUL1", supervisor: "HOU1", engineer: "HOU1", admin: null };

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, env.demoPassword);
  ({ runtime, api, secret } = dashboard);
  const store = runtime.maintenance;
  const part = (await store.listParts("RTM1", { page: 1, pageSize: 1 })).data[0]!;
  const waiting = (await store.listTasks("RTM1", { page: 1, pageSize: 50, taskStatus: ["NEED_APPROVAL"] })).data;
  fixture = {
    tag: (await store.listAssets("RTM1", { page: 1, pageSize: 1 })).data[0]!.tagNumber,
    activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0]!,
    priority: (await store.allowedLookupValues("RTM1", "priority"))[0]!,
    partId: part.id,
    partUnit: part.unit,
    taskIds: waiting.map((task) => task.id),
    anyTaskId: waiting[0]!.id,
  };
});

afterAll(() => dashboard.close());

describe("without a session", () => {
  it.each(ROUTES.map((route) => [route.name, route] as const))("%s answers 401 with the error body", async (_, route) => {
    const response = await call(route, "RTM1", null);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ status: "ERROR", code: "UNAUTHORIZED", message: expect.any(String), data: [] });
  });

  it("refuses a tampered, an expired and a disabled user's cookie", async () => {
    const route = ROUTES[0]!;
    const good = await cookieFor(emailOf("planner"));
    expect((await call(route, "RTM1", good)).status).toBe(200);
    expect((await call(route, "RTM1", good.slice(0, -4) + "AAAA")).status).toBe(401);
    expect((await call(route, "RTM1", await cookieFor(emailOf("planner"), -60))).status).toBe(401);
    expect((await call(route, "RTM1", await cookieFor("nobody@plantdesk.demo"))).status).toBe(401);
    await upsertUser(await getDashboardDb(), { email: "gone@plantdesk.demo", role: "admin", plants: "*", password: "long-enough-1" });
    const gone = await cookieFor("gone@plantdesk.demo");
    expect((await call(route, "RTM1", gone)).status).toBe(200);
    await setUserDisabled(await getDashboardDb(), "gone@plantdesk.demo", true);
    expect((await call(route, "RTM1", gone)).status).toBe(401);
  });
});

describe("role-by-route matrix", () => {
  for (const role of ROLES) {
    for (const route of ROUTES) {
      const allowed = hasPermission(role, route.permission);
      it(`${role} ${allowed ? "may" : "may not"} use ${route.name}`, async () => {
        const response = await call(route, "RTM1", await cookieFor(emailOf(role)));
        if (allowed) {
          expect([401, 403]).not.toContain(response.status);
          // Everything succeeds, but updating a history entry that does not exist.
          if (route.name === "update history") expect(response.status).toBe(404);
          else expect(response.status).toBe(200);
        } else {
          expect(response.status).toBe(403);
          expect((await response.json()).code).toBe("FORBIDDEN");
        }
      });
    }
  }

  for (const role of ROLES) {
    const foreign = FOREIGN_PLANT[role];
    if (!foreign) continue;
    it(`${role} never reaches ${foreign}, which is not on their list (403 on every plant route)`, async () => {
      const cookie = await cookieFor(emailOf(role));
      for (const route of ROUTES.filter((candidate) => candidate.plantScoped)) {
        const response = await call(route, foreign, cookie);
        expect(response.status, route.name).toBe(403);
      }
      const query = ROUTES.find((route) => route.name === "telemetry query")!;
      const response = await call({ ...query, body: () => ({ ...(query.body!() as object), plantIds: [foreign] }) }, "RTM1", cookie);
      expect(response.status).toBe(403);
    });
  }

  it("lists only the user's plants in /api/me, with the role's permissions", async () => {
    for (const user of DEMO_USERS) {
      const body = (await (await call(ROUTES[0]!, "RTM1", await cookieFor(user.email))).json()) as { role: string; plants: { id: string }[]; permissions: string[] };
      expect(body.role).toBe(user.role);
      const ids = body.plants.map((plant) => plant.id).sort();
      expect(ids).toEqual(user.plants === "*" ? ["HOU1", "OUL1", "RTM1"] : [...user.plants].sort());
      expect(body.permissions.every((permission) => hasPermission(user.role, permission as Permission))).toBe(true);
    }
  });

  it("answers 400 for a malformed plant id and 404 for an unknown plant (admin)", async () => {
    const cookie = await cookieFor(emailOf("admin"));
    expect((await call(ROUTES[1]!, "bad id!", cookie)).status).toBe(400);
    const unknown = await call(ROUTES[1]!, "NOPE1", cookie);
    expect([unknown.status, (await unknown.json()).code]).toEqual([404, "PLANT_NOT_FOUND"]);
  });
});

describe("writes and the audit log", () => {
  it("validates a write with the shared schema before calling the service", async () => {
    const route = ROUTES.find((candidate) => candidate.name === "create task")!;
    const response = await call({ ...route, body: () => ({ taskTitle: "" }) }, "RTM1", await cookieFor(emailOf("planner")));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe("INVALID_INPUT");
    expect(body.data.map((problem: { field: string }) => problem.field)).toContain("taskTitle");
  });

  it("records who did what where, with the outcome, including refused writes; admins read it as JSON and CSV", async () => {
    const create = ROUTES.find((candidate) => candidate.name === "create task")!;
    const created = await (await call(create, "RTM1", await cookieFor(emailOf("supervisor")))).json();
    const newId = created.data[0].id as string;
    await call(ROUTES.find((candidate) => candidate.name === "transition task")!, "RTM1", await cookieFor(emailOf("engineer")));

    const admin = await cookieFor(emailOf("admin"));
    const audit = ROUTES.find((candidate) => candidate.name === "audit")!;
    const page = await (await call({ ...audit, path: "/api/audit?pageSize=1000" }, "RTM1", admin)).json();
    expect(page).toMatchObject({ page: 1, pageSize: 1000 });
    expect(page.data).toContainEqual(
      expect.objectContaining({ userEmail: "supervisor@plantdesk.demo", plantId: "RTM1", action: "task.create", target: newId, outcome: "SUCCESS", httpStatus: 200 }),
    );
    expect(page.data).toContainEqual(
      expect.objectContaining({ userEmail: "engineer@plantdesk.demo", plantId: "RTM1", action: "task.transition", outcome: "FORBIDDEN", httpStatus: 403 }),
    );
    expect(page.data.some((row: { action: string }) => row.action === "stock-level.submit")).toBe(true);

    const csv = await call({ ...audit, path: "/api/audit?format=csv&action=task.create" }, "RTM1", admin);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="plantdesk-audit-/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("Time (UTC),User,Plant,Action,Target,Outcome,HTTP status,Detail,Entry");
    expect(lines.slice(1).every((line) => line.includes(",Task created,"))).toBe(true);
    expect(lines.some((line) => line.includes(newId))).toBe(true);

    // The reader's zone: times with its offset; the filter's words refused in words.
    const amsterdam = await (await call({ ...audit, path: "/api/audit?format=csv&action=task.create&tz=Europe%2FAmsterdam&user=SUPERV" }, "RTM1", admin)).text();
    expect(amsterdam.split("\r\n")[0]).toMatch(/^Time \(Europe\/Amsterdam\),/);
    expect(amsterdam.split("\r\n")[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00,supervisor@plantdesk\.demo,/);
    const badZone = await call({ ...audit, path: "/api/audit?tz=Mars%2FOlympus" }, "RTM1", admin);
    expect(badZone.status).toBe(400);
    expect(await badZone.json()).toMatchObject({ code: "INVALID_INPUT", data: [expect.objectContaining({ field: "tz" })] });
  });

  it("keeps the signed-in user in the task's history as `by`, over any name the browser sends", async () => {
    const supervisor = await cookieFor(emailOf("supervisor"));
    const create = ROUTES.find((candidate) => candidate.name === "create task")!;
    const created = await (await call({ ...create, body: () => ({ ...(create.body!() as object), by: "Somebody Else" }) }, "RTM1", supervisor)).json();
    const taskId = created.data[0].id as string;
    const transition = ROUTES.find((candidate) => candidate.name === "transition task")!;
    const moved = await call({ ...transition, params: () => ({ taskId }), body: () => ({ to: "PENDING", remark: "Go ahead", by: "Somebody Else" }) }, "RTM1", supervisor);
    expect(moved.status).toBe(200);

    const history = ROUTES.find((candidate) => candidate.name === "task history")!;
    // Anyone who may read the plant reads the history; the same route refuses a foreign plant.
    const page = await (await call({ ...history, params: () => ({ taskId }) }, "RTM1", await cookieFor(emailOf("engineer")))).json();
    const by = "Sam Supervisor <supervisor@plantdesk.demo>";
    expect(page.data).toEqual([
      expect.objectContaining({ taskId, from: null, to: "NEED_APPROVAL", remark: null, by, client: "dashboard" }),
      expect.objectContaining({ taskId, from: "NEED_APPROVAL", to: "PENDING", remark: "Go ahead", by, client: "dashboard" }),
    ]);
    expect((await call({ ...history, params: () => ({ taskId }) }, "HOU1", supervisor)).status).toBe(403);
  });

  it("keeps each user's query history apart, with stars", async () => {
    const save = ROUTES.find((candidate) => candidate.name === "save history")!;
    const planner = await cookieFor(emailOf("planner"));
    const entry = await (await call({ ...save, body: () => ({ query: "States | take 5", plantIds: ["RTM1"] }) }, "RTM1", planner)).json();
    const update = ROUTES.find((candidate) => candidate.name === "update history")!;
    const starred = await (await call({ ...update, body: () => ({ id: entry.id, starred: true }) }, "RTM1", planner)).json();
    expect(starred).toMatchObject({ query: "States | take 5", starred: true, plantIds: ["RTM1"] });
    // Someone else's entry is not there for another user.
    const other = await call({ ...update, body: () => ({ id: entry.id, starred: false }) }, "RTM1", await cookieFor(emailOf("engineer")));
    expect(other.status).toBe(404);
    const history = ROUTES.find((candidate) => candidate.name === "history")!;
    const list = await (await call({ ...history, path: "/api/telemetry/history?starred=true" }, "RTM1", planner)).json();
    expect(list.data.map((item: { query: string }) => item.query)).toEqual(["States | take 5"]);
  });
});

describe("telemetry through the BFF", () => {
  const query = ROUTES.find((candidate) => candidate.name === "telemetry query")!;
  const range = () => ({ startTime: new Date(Date.now() - 6 * 3600_000).toISOString(), endTime: new Date().toISOString() });
  const run = async (role: Role, body: Record<string, unknown>) => call({ ...query, body: () => ({ ...range(), ...body }) }, "RTM1", await cookieFor(emailOf(role)));

  it("runs a query for the user's plants with the dashboard's own telemetry client, and times it", async () => {
    const response = await run("planner", { query: "States | summarize n = count() by PlantId | order by PlantId asc" });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get("x-query-duration-ms"))).toBeGreaterThanOrEqual(0);
    const body = await response.json();
    expect(body.data.columns.map((column: { name: string }) => column.name)).toEqual(["PlantId", "n"]);
    // Without plantIds: every plant of the user (RTM1, HOU1), never another plant of the customer.
    expect(body.data.rows.map((row: unknown[]) => row[0])).toEqual(["HOU1", "RTM1"]);
  });

  it("asks for plants of one customer when the user's plants span two", async () => {
    const response = await run("engineer", { query: "States | take 1" });
    expect(response.status).toBe(400);
    expect((await response.json()).data).toEqual([{ field: "plantIds", problem: "plants of more than one customer" }]);
    const oulu = await run("engineer", { query: "States | distinct PlantId", plantIds: ["OUL1"] });
    expect((await oulu.json()).data.rows).toEqual([["OUL1"]]);
  });

  it("passes the service's INVALID_QUERY through with line and column", async () => {
    const response = await run("admin", { query: "States | wher x", plantIds: ["RTM1"] });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe("INVALID_QUERY");
    expect(body.data[0]).toMatchObject({ line: 1, column: expect.any(Number) });
  });
});

describe("no credential leaves the server", () => {
  it("no response body or header of this suite holds a token, secret, password or hash", () => {
    const everything = seen.join("\n");
    expect(seen.length).toBeGreaterThan(100);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(env.demoPassword);
    expect(everything).not.toMatch(/pd[mt]_[A-Za-z0-9_-]{10}/);
    expect(everything).not.toMatch(/\$2[aby]\$\d\d\$/);
    expect(everything).not.toMatch(/Bearer\s+[A-Za-z0-9._-]{10}/);
  });

  it("embedded mode mints no plant token and no telemetry client: the dashboard calls the service in process", async () => {
    expect(await runtime.plantTokens.list()).toEqual([]);
    expect(await runtime.telemetry.clients.list()).toEqual([]);
  });
});
