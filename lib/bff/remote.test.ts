/**
 * Remote mode for real: a second service instance on its own port and database, with tokens its
 * operator issued; the dashboard configured against it through the environment only
 * (SERVICE_BASE_URL, PLANT_TOKENS as a file, …). Reads come from, and writes land in, the remote
 * service — never the dashboard's own database — and the dashboard opens no service database.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => (await import("./testing/environment")).setTestEnvironment("bff-remote", { NEXTAUTH_SECRET: "remote-mode-test-secret-0123456789abcdef" }));

import { getDashboardDb } from "@/lib/dashboard-store/database";
import { startRemoteDashboard, type RemoteDashboard } from "./testing/dashboards";

let dashboard: RemoteDashboard;
let remote: RemoteDashboard["remote"];
let api: RemoteDashboard["api"];
let cookie: string;

beforeAll(async () => {
  dashboard = await startRemoteDashboard({
    env,
    tokens: async (issue) => ({ RTM1: { token: await issue("RTM1"), name: "Rotterdam (remote)", customerId: "CUST-ACME" }, OUL1: await issue("OUL1") }),
    supervisor: { email: "sup@remote.test", plants: ["RTM1", "HOU1"] },
  });
  ({ remote, api, cookie } = dashboard);
});

afterAll(() => dashboard.close());

const get = (path: string) => api.call(path, { cookie });
const post = (path: string, body: unknown) => api.call(path, { method: "POST", body, cookie });

describe("remote mode", () => {
  it("serves the configured plants the user may open, named as PLANT_TOKENS says", async () => {
    const me = await (await get("/api/me")).json();
    expect(me.serviceMode).toBe("remote");
    // HOU1 is on the user's list but the dashboard holds no token for it; OUL1 is not on the list.
    expect(me.plants).toEqual([{ id: "RTM1", name: "Rotterdam (remote)", customerId: "CUST-ACME" }]);
    const hou = await get("/api/plants/HOU1/jobs-done");
    expect(hou.status).toBe(404);
  });

  it("reads from the remote service over HTTP with the plant's token", async () => {
    const before = remote.requests.length;
    const response = await get("/api/plants/RTM1/jobs-done?pageSize=3&page=2");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual(await remote.runtime.maintenance.listJobsDone("RTM1", { page: 2, pageSize: 3 }));
    const sent = remote.requests.slice(before);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /maintenance/v1/plants/RTM1/jobs-done"]);
    expect(String(sent[0]!.headers.authorization)).toMatch(/^Bearer pdm_/);
  });

  it("writes land in the remote service, once, and are audited locally", async () => {
    const store = remote.runtime.maintenance;
    const count = async () => (await store.listTasks("RTM1", { page: 1, pageSize: 1 })).totalPages;
    const remoteBefore = await count();
    const body = {
      taskTitle: "Remote task",
      activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0],
      priority: (await store.allowedLookupValues("RTM1", "priority"))[0],
      asset: { tagNumber: (await store.listAssets("RTM1", { page: 1, pageSize: 1 })).data[0]!.tagNumber },
    };
    const response = await post("/api/plants/RTM1/tasks", body);
    expect(response.status).toBe(200);
    const id = (await response.json()).data[0].id as string;
    expect(await count()).toBe(remoteBefore + 1);
    // Nothing of the embedded service was opened here.
    expect(fs.readdirSync(env.dataDir).filter((name) => name.startsWith("plantdesk.sqlite") || name.endsWith(".duckdb"))).toEqual([]);
    expect((await store.getTask("RTM1", id))?.status).toBe("NEED_APPROVAL");

    const moved = await post(`/api/plants/RTM1/tasks/${id}/transitions`, { to: "PENDING" });
    expect(moved.status).toBe(200);
    expect((await store.getTask("RTM1", id))?.status).toBe("PENDING");
    const again = await post(`/api/plants/RTM1/tasks/${id}/transitions`, { to: "PENDING" });
    expect([again.status, (await again.json()).code]).toEqual([412, "INVALID_TRANSITION"]);

    const audit = (await (await getDashboardDb()).all("SELECT action, target, outcome FROM audit_log WHERE user_email = @userEmail ORDER BY id", {
      userEmail: "sup@remote.test",
    }));
    expect(audit).toEqual([
      { action: "task.create", target: id, outcome: "SUCCESS" },
      { action: "task.transition", target: id, outcome: "SUCCESS" },
      { action: "task.transition", target: id, outcome: "INVALID_TRANSITION" },
    ]);
  });

  it("queries telemetry on the remote service with a token from its OAuth endpoint, fetched once", async () => {
    const before = remote.requests.length;
    const body = { query: "States | distinct PlantId", startTime: new Date(Date.now() - 3600_000).toISOString(), endTime: new Date().toISOString() };
    for (let run = 0; run < 3; run += 1) {
      const response = await post("/api/telemetry/query", body);
      expect(response.status).toBe(200);
      expect((await response.json()).data.rows).toEqual([["RTM1"]]);
    }
    expect(remote.requests.slice(before).map((r) => r.path)).toEqual([
      "/oauth2/v2.0/token",
      "/insights/v1/telemetry/query/table",
      "/insights/v1/telemetry/query/table",
      "/insights/v1/telemetry/query/table",
    ]);
  });

  it("reports a revoked plant token as the dashboard's problem (502), not the user's", async () => {
    for (const token of await remote.runtime.plantTokens.list()) await remote.runtime.plantTokens.revoke(token.id);
    const response = await get("/api/plants/RTM1/assets");
    expect([response.status, (await response.json()).code]).toEqual([502, "UPSTREAM_AUTH_FAILED"]);
  });
});
