/**
 * A plant's dashboards over real HTTP on the embedded service (docs/api.md, "Dashboards"): the demo
 * board is there on first look; the owner and admins edit, others read (docs/boards.md); a save must name its version
 * and an older one is refused with nothing written; unknown `$names` and bad or oversized files are
 * refused whole; export → import round-trips; every write is audited; plants are kept apart; and a
 * panel's query, variables substituted, runs through /api/telemetry/query on the user's budget.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  const demoPassword = "demo-password-for-tests";
  const environment = (await import("@/lib/bff/testing/environment")).setTestEnvironment("dashboards", { DEMO_PASSWORD: demoPassword, DEMO_LIVE: "0" });
  return { ...environment, demoPassword };
});

import { startEmbeddedDashboard, type EmbeddedDashboard } from "@/lib/bff/testing/dashboards";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { findUser } from "@/lib/dashboard-store/users";
import { dashboardForPage } from "./routes";
import { DASHBOARD_LIMITS, type TDashboard, type TDashboardDefinition } from "@/modules/boards/contract/boards";
import { binFor, substituteVariables } from "@/lib/kql/variables";

const ENGINEER = "engineer@plantdesk.demo";
const PLANNER = "planner@plantdesk.demo";
const SUPERVISOR = "supervisor@plantdesk.demo";
const ADMIN = "admin@plantdesk.demo";

let dashboard: EmbeddedDashboard;
const cookies: Record<string, string> = {};
const call = (who: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  dashboard.api.call(path, { method, body, cookie: who ? cookies[who] : null, headers });

const board = (overrides: Partial<TDashboardDefinition> = {}): TDashboardDefinition => ({
  title: "Line 2 pumps",
  description: "",
  range: "24h",
  refresh: "off",
  variables: [{ name: "device", label: "Device", kind: "device", default: null }],
  panels: [
    { id: "temp", title: "Temperature", query: 'States | where DeviceId == $device and Name == "Temperature" | summarize avg(todouble(Value)) by bin(Timestamp, $__bin)', chart: "line", unit: "°C", width: "half" },
  ],
  ...overrides,
});

const dashboardRows = async () => (await (await getDashboardDb()).all<{ id: number; version: number; title: string }>("SELECT id, version, title FROM dashboards ORDER BY id")).map((row) => ({ ...row, id: Number(row.id), version: Number(row.version) }));

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, env.demoPassword);
  for (const who of [ENGINEER, PLANNER, SUPERVISOR, ADMIN]) cookies[who] = await dashboard.cookieFor(who);
}, 120_000);

afterAll(async () => {
  await dashboard?.close();
  env.remove();
});

describe("dashboards", () => {
  it("answers 401 on every dashboard route without a session, and writes nothing", async () => {
    for (const [method, path] of [
      ["GET", "/api/plants/RTM1/dashboards"],
      ["POST", "/api/plants/RTM1/dashboards"],
      ["POST", "/api/plants/RTM1/dashboards/import"],
      ["GET", "/api/plants/RTM1/dashboards/1"],
      ["PUT", "/api/plants/RTM1/dashboards/1"],
      ["DELETE", "/api/plants/RTM1/dashboards/1"],
      ["GET", "/api/plants/RTM1/dashboards/1/export"],
    ] as const) {
      const response = await call(null, method, path, method === "GET" || method === "DELETE" ? undefined : board());
      expect([method, path, response.status, (await response.json()).code]).toEqual([method, path, 401, "UNAUTHORIZED"]);
    }
    expect(await dashboardRows()).toEqual([]);
  });

  it("shows the seeded Plant health board to every role of the plant, once", async () => {
    for (const who of [PLANNER, SUPERVISOR, ENGINEER, ADMIN, PLANNER]) {
      const list = await (await call(who, "GET", "/api/plants/RTM1/dashboards")).json();
      expect(list.data.map((item: { title: string }) => item.title)).toEqual(["Plant health"]);
    }
    expect((await dashboardRows()).filter((row) => row.title === "Plant health")).toHaveLength(1);
  });

  it("seeds panels whose queries all run on the demo data with their default variables", async () => {
    const [{ id }] = (await (await call(PLANNER, "GET", "/api/plants/RTM1/dashboards")).json()).data;
    const seeded: TDashboard = await (await call(PLANNER, "GET", `/api/plants/RTM1/dashboards/${id}`)).json();
    const range = { startTime: new Date(Date.now() - 86_400_000).toISOString(), endTime: new Date().toISOString(), plantIds: ["RTM1"] };
    const first = await (await call(PLANNER, "POST", "/api/telemetry/query", { query: "States | summarize by DeviceId | order by DeviceId asc | take 1", ...range })).json();
    for (const panel of seeded.definition.panels) {
      const substituted = substituteVariables(panel.query, { device: first.data.rows[0][0], point: "Temperature" }, binFor(86_400_000));
      if (!substituted.ok) throw new Error(substituted.problem.message);
      const response = await call(PLANNER, "POST", "/api/telemetry/query", { query: substituted.query, ...range });
      expect([panel.id, response.status]).toEqual([panel.id, 200]);
      // Open alarms come and go with the demo's clock: that panel may rightly be empty.
      if (panel.id !== "open-alarms") expect((await response.json()).data.rows.length, panel.id).toBeGreaterThan(0);
    }
  });

  let created: TDashboard;
  it("lets engineers and supervisors create; the owner and admins edit, the others read; the audit log has each write", async () => {
    const refused = await call(PLANNER, "POST", "/api/plants/RTM1/dashboards", board());
    expect([refused.status, (await refused.json()).code]).toEqual([403, "FORBIDDEN"]);

    const response = await call(ENGINEER, "POST", "/api/plants/RTM1/dashboards", board());
    expect(response.status).toBe(201);
    created = await response.json();
    expect(response.headers.get("etag")).toBe('"1"');
    expect(created).toMatchObject({ plantId: "RTM1", version: 1, createdBy: ENGINEER, owner: ENGINEER, canEdit: true, sharing: { visibility: "plant", role: null }, definition: board() });

    const read = await call(PLANNER, "GET", `/api/plants/RTM1/dashboards/${created.id}`);
    expect([read.status, read.headers.get("etag"), (await read.json()).canEdit]).toEqual([200, '"1"', false]);
    const plannerEdit = await call(PLANNER, "PUT", `/api/plants/RTM1/dashboards/${created.id}`, board({ title: "Planner's" }), { "if-match": '"1"' });
    expect(plannerEdit.status).toBe(403);
    // A supervisor writes boards, but this one is the engineer's: read-only for them.
    const supervisorEdit = await call(SUPERVISOR, "PUT", `/api/plants/RTM1/dashboards/${created.id}`, board({ title: "Supervisor's" }), { "if-match": '"1"' });
    expect([supervisorEdit.status, (await supervisorEdit.json()).message]).toEqual([403, `Only ${ENGINEER}, who owns "Line 2 pumps", and admins change it; you can read it.`]);

    const edit = await call(ADMIN, "PUT", `/api/plants/RTM1/dashboards/${created.id}`, board({ title: "Line 2 pumps (shift)" }), { "if-match": '"1"' });
    expect([edit.status, edit.headers.get("etag")]).toEqual([200, '"2"']);
    expect(await edit.json()).toMatchObject({ version: 2, updatedBy: ADMIN, owner: ENGINEER, definition: { title: "Line 2 pumps (shift)" } });

    const audit = await (await getDashboardDb()).all<{ action: string; outcome: string; user_email: string; target: string | null }>(
      "SELECT action, outcome, user_email, target FROM audit_log WHERE action LIKE 'dashboard.%' ORDER BY id",
    );
    expect(audit).toEqual([
      { action: "dashboard.create", outcome: "FORBIDDEN", user_email: PLANNER, target: null },
      { action: "dashboard.create", outcome: "SUCCESS", user_email: ENGINEER, target: String(created.id) },
      { action: "dashboard.update", outcome: "FORBIDDEN", user_email: PLANNER, target: null },
      { action: "dashboard.update", outcome: "FORBIDDEN", user_email: SUPERVISOR, target: String(created.id) },
      { action: "dashboard.update", outcome: "SUCCESS", user_email: ADMIN, target: String(created.id) },
    ]);
  });

  it("refuses a save from an old version (or none) with 412/400 and keeps the newer one whole", async () => {
    const before = await dashboardRows();
    const stale = await call(ENGINEER, "PUT", `/api/plants/RTM1/dashboards/${created.id}`, board({ title: "Engineer's stale edit", panels: [] }), { "if-match": '"1"' });
    const body = await stale.json();
    expect([stale.status, body.code, stale.headers.get("etag")]).toEqual([412, "EDIT_CONFLICT", '"2"']);
    expect(body.message).toContain(`${ADMIN} saved this dashboard after you opened it`);
    const unnamed = await call(ENGINEER, "PUT", `/api/plants/RTM1/dashboards/${created.id}`, board({ title: "No version" }));
    expect([unnamed.status, (await unnamed.json()).data]).toEqual([400, [{ field: "If-Match", problem: "required" }]]);
    expect(await dashboardRows()).toEqual(before);

    const staleDelete = await call(ENGINEER, "DELETE", `/api/plants/RTM1/dashboards/${created.id}`, undefined, { "if-match": '"1"' });
    expect(staleDelete.status).toBe(412);
    expect(await dashboardRows()).toEqual(before);
  });

  it("refuses a $name that is not a variable, and bad definitions, with the field and nothing written", async () => {
    const before = await dashboardRows();
    const unknown = await call(ENGINEER, "POST", "/api/plants/RTM1/dashboards", board({ variables: [] }));
    const unknownBody = await unknown.json();
    expect([unknown.status, unknownBody.code]).toEqual([400, "INVALID_INPUT"]);
    expect(unknownBody.message).toBe('Panel "Temperature": $device (line 1, column 28) is not a variable of this dashboard.');
    expect(unknownBody.data).toEqual([{ field: "panels.0.query", problem: "$device (line 1, column 28) is not a variable of this dashboard" }]);

    const twice = await call(ENGINEER, "POST", "/api/plants/RTM1/dashboards", board({ variables: [board().variables[0]!, board().variables[0]!] }));
    expect((await twice.json()).data).toContainEqual({ field: "variables.1.name", problem: "$device is named twice" });
    const chart = await call(ENGINEER, "POST", "/api/plants/RTM1/dashboards", { ...board(), panels: [{ ...board().panels[0], chart: "gauge" }] });
    expect(chart.status).toBe(400);
    const extra = await call(ENGINEER, "POST", "/api/plants/RTM1/dashboards", { ...board(), owner: "someone" });
    expect(extra.status).toBe(400);
    expect(await dashboardRows()).toEqual(before);
  });

  it("exports a board and imports the file as a new board; a bad or oversized file changes nothing", async () => {
    const exported = await call(PLANNER, "GET", `/api/plants/RTM1/dashboards/${created.id}/export`);
    expect(exported.headers.get("content-disposition")).toBe('attachment; filename="Line-2-pumps-shift.dashboard.json"');
    const file = await exported.json();
    expect(file).toMatchObject({ format: "plantdesk-dashboard", formatVersion: 1, dashboard: { title: "Line 2 pumps (shift)" } });

    const plannerImport = await call(PLANNER, "POST", "/api/plants/RTM1/dashboards/import", file);
    expect(plannerImport.status).toBe(403);

    const before = await dashboardRows();
    const wrongFormat = await call(ENGINEER, "POST", "/api/plants/RTM1/dashboards/import", { ...file, format: "grafana" });
    expect([wrongFormat.status, (await wrongFormat.json()).message]).toEqual([400, 'Invalid dashboard file: format: must be "plantdesk-dashboard"']);
    const badPanel = await call(ENGINEER, "POST", "/api/plants/RTM1/dashboards/import", { ...file, dashboard: { ...file.dashboard, panels: [{ id: "x" }] } });
    expect(badPanel.status).toBe(400);
    const huge = await call(ENGINEER, "POST", "/api/plants/RTM1/dashboards/import", { ...file, dashboard: { ...file.dashboard, description: "x".repeat(DASHBOARD_LIMITS.maxImportBytes) } });
    expect([huge.status, (await huge.json()).code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    const notJson = await dashboard.api.call("/api/plants/RTM1/dashboards/import", { method: "POST", cookie: cookies[ENGINEER], headers: { "content-type": "application/json" }, body: undefined });
    expect(notJson.status).toBe(400);
    expect(await dashboardRows()).toEqual(before);

    const imported = await call(SUPERVISOR, "POST", "/api/plants/RTM1/dashboards/import", file);
    expect(imported.status).toBe(201);
    const copy: TDashboard = await imported.json();
    expect(copy.id).not.toBe(created.id);
    expect(copy.definition).toEqual((await (await call(ENGINEER, "GET", `/api/plants/RTM1/dashboards/${created.id}`)).json()).definition);
  });

  it("keeps plants apart: a board of RTM1 is not found through another plant, and a plant off the user's list is refused", async () => {
    const elsewhere = await call(ADMIN, "GET", `/api/plants/HOU1/dashboards/${created.id}`);
    expect(elsewhere.status).toBe(404);
    const offList = await call(SUPERVISOR, "GET", "/api/plants/HOU1/dashboards");
    expect(offList.status).toBe(403);
  });

  it("gives a dashboard page its board with the API's checks: the plant, the user's plants, the id", async () => {
    const db = await getDashboardDb();
    const [planner, supervisor] = await Promise.all([findUser(db, PLANNER), findUser(db, SUPERVISOR)]);
    const viaApi = (await (await call(PLANNER, "GET", `/api/plants/RTM1/dashboards/${created.id}`)).json()) as TDashboard;
    expect(await dashboardForPage(planner!, "RTM1", String(created.id))).toEqual(viaApi);
    expect(await dashboardForPage(planner!, "HOU1", String(created.id))).toBeNull();
    expect(await dashboardForPage(supervisor!, "HOU1", String(created.id))).toBeNull();
    for (const id of ["0", "abc", "1e3", "9999999"]) expect(await dashboardForPage(planner!, "RTM1", id)).toBeNull();
  });

  it("runs a panel's query, its variable substituted as a literal, through the telemetry path", async () => {
    const range = { startTime: new Date(Date.now() - 86_400_000).toISOString(), endTime: new Date().toISOString() };
    const devices = await (await call(PLANNER, "POST", "/api/telemetry/query", { query: "States | summarize by DeviceId | order by DeviceId asc | take 1", ...range, plantIds: ["RTM1"] })).json();
    const device = devices.data.rows[0][0] as string;
    const substituted = substituteVariables(created.definition.panels[0]!.query, { device }, binFor(86_400_000));
    if (!substituted.ok) throw new Error(substituted.problem.message);
    const result = await (await call(PLANNER, "POST", "/api/telemetry/query", { query: substituted.query, ...range, plantIds: ["RTM1"] })).json();
    expect(result.data.rows.length).toBeGreaterThan(50);
    // A hostile "device" stays a value: no rows, no error, no other table.
    const hostile = substituteVariables(created.definition.panels[0]!.query, { device: '" or true | union Events //' }, "10m");
    if (!hostile.ok) throw new Error(hostile.problem.message);
    const none = await call(PLANNER, "POST", "/api/telemetry/query", { query: hostile.query, ...range, plantIds: ["RTM1"] });
    expect([none.status, (await none.json()).data.rows]).toEqual([200, []]);
  });

  it("deletes with the current version; the board is gone for everyone", async () => {
    const current = await (await call(ENGINEER, "GET", `/api/plants/RTM1/dashboards/${created.id}`)).json();
    const removed = await call(ENGINEER, "DELETE", `/api/plants/RTM1/dashboards/${created.id}`, undefined, { "if-match": `"${current.version}"` });
    expect([removed.status, await removed.json()]).toEqual([200, { id: created.id, deleted: true }]);
    expect((await call(PLANNER, "GET", `/api/plants/RTM1/dashboards/${created.id}`)).status).toBe(404);
  });
});
