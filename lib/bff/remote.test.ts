/**
 * Remote mode for real: a second service instance on its own port and database, with tokens its
 * operator issued; the dashboard configured against it through the environment only
 * (SERVICE_BASE_URL, PLANT_TOKENS as a file, …). Reads come from, and writes land in, the remote
 * service — never the dashboard's own database.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { encode } from "next-auth/jwt";

const env = vi.hoisted(() => {
  const dataDir = `${process.env.TMPDIR ?? "/tmp"}/pd-bff-remote-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = dataDir;
  process.env.DEMO_TELEMETRY_DAYS = "1";
  process.env.NEXTAUTH_SECRET = "remote-mode-test-secret-0123456789abcdef";
  return { dataDir };
});

import { upsertUser } from "@/lib/auth/users";
import { getServiceRuntime, type ServiceRuntime } from "@/lib/service/runtime";
import { startServiceServer, type RunningService } from "@/lib/upstream/testing/servers";
import * as routes from "./routes";

let remote: RunningService;
let local: ServiceRuntime;
let cookie: string;
const tokenFile = path.join(os.tmpdir(), `pd-plant-tokens-${process.pid}.json`);

beforeAll(async () => {
  remote = await startServiceServer();
  const rtm = remote.runtime.plantTokens.issue("RTM1").token;
  const oul = remote.runtime.plantTokens.issue("OUL1").token;
  const telemetryClient = remote.runtime.telemetry.clients.create("CUST-ACME");
  fs.writeFileSync(tokenFile, JSON.stringify({ RTM1: { token: rtm, name: "Rotterdam (remote)", customerId: "CUST-ACME" }, OUL1: oul }));
  Object.assign(process.env, {
    SERVICE_BASE_URL: remote.url,
    SERVICE_AUTH_URL: remote.url,
    PLANT_TOKENS: tokenFile,
    TELEMETRY_CLIENT_ID: telemetryClient.client_id,
    TELEMETRY_CLIENT_SECRET: telemetryClient.client_secret,
    TELEMETRY_SCOPE: telemetryClient.scope,
  });
  local = await getServiceRuntime();
  upsertUser(local.db, { email: "sup@remote.test", role: "supervisor", plants: ["RTM1", "HOU1"], password: "long-enough-1" });
  cookie = `next-auth.session-token=${await encode({ token: { email: "sup@remote.test" }, secret: process.env.NEXTAUTH_SECRET!, maxAge: 600 })}`;
});

afterAll(async () => {
  await remote.close();
  await local.close();
  fs.rmSync(env.dataDir, { recursive: true, force: true });
  fs.rmSync(tokenFile, { force: true });
});

function request(url: string, init: RequestInit = {}) {
  return new Request(`http://localhost${url}`, { ...init, headers: { cookie, ...(init.body ? { "content-type": "application/json" } : {}) } });
}
const params = (values: Record<string, string>) => ({ params: Promise.resolve(values) });

describe("remote mode", () => {
  it("serves the configured plants the user may open, named as PLANT_TOKENS says", async () => {
    const me = await (await routes.me(request("/api/me"))).json();
    expect(me.serviceMode).toBe("remote");
    // HOU1 is on the user's list but the dashboard holds no token for it; OUL1 is not on the list.
    expect(me.plants).toEqual([{ id: "RTM1", name: "Rotterdam (remote)", customerId: "CUST-ACME" }]);
    const hou = await routes.jobsDone(request("/api/plants/HOU1/jobs-done"), params({ plantId: "HOU1" }));
    expect(hou.status).toBe(404);
  });

  it("reads from the remote service over HTTP with the plant's token", async () => {
    const before = remote.requests.length;
    const response = await routes.jobsDone(request("/api/plants/RTM1/jobs-done?pageSize=3&page=2"), params({ plantId: "RTM1" }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual(remote.runtime.maintenance.listJobsDone("RTM1", { page: 2, pageSize: 3 }));
    const sent = remote.requests.slice(before);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /maintenance/v1/plants/RTM1/jobs-done"]);
    expect(String(sent[0]!.headers.authorization)).toMatch(/^Bearer pdm_/);
  });

  it("writes land in the remote service, once, and are audited locally", async () => {
    const store = remote.runtime.maintenance;
    const count = () => store.listTasks("RTM1", { page: 1, pageSize: 1 }).totalPages;
    const localCount = () => local.maintenance.listTasks("RTM1", { page: 1, pageSize: 1 }).totalPages;
    const [remoteBefore, localBefore] = [count(), localCount()];
    const body = {
      taskTitle: "Remote task",
      activityKind: store.allowedLookupValues("RTM1", "activityKind")[0],
      priority: store.allowedLookupValues("RTM1", "priority")[0],
      asset: { tagNumber: store.listAssets("RTM1", { page: 1, pageSize: 1 }).data[0]!.tagNumber },
    };
    const response = await routes.createTask(request("/api/plants/RTM1/tasks", { method: "POST", body: JSON.stringify(body) }), params({ plantId: "RTM1" }));
    expect(response.status).toBe(200);
    const id = (await response.json()).data[0].id as string;
    expect([count(), localCount()]).toEqual([remoteBefore + 1, localBefore]);
    expect(store.getTask("RTM1", id)?.status).toBe("NEED_APPROVAL");

    const moved = await routes.transitionTask(
      request(`/api/plants/RTM1/tasks/${id}/transitions`, { method: "POST", body: JSON.stringify({ to: "PENDING" }) }),
      params({ plantId: "RTM1", taskId: id }),
    );
    expect(moved.status).toBe(200);
    expect(store.getTask("RTM1", id)?.status).toBe("PENDING");
    const again = await routes.transitionTask(
      request(`/api/plants/RTM1/tasks/${id}/transitions`, { method: "POST", body: JSON.stringify({ to: "PENDING" }) }),
      params({ plantId: "RTM1", taskId: id }),
    );
    expect([again.status, (await again.json()).code]).toEqual([412, "INVALID_TRANSITION"]);

    const audit = local.db.prepare("SELECT action, target, outcome FROM audit_log WHERE user_email = ? ORDER BY id").all("sup@remote.test");
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
      const response = await routes.telemetryQuery(request("/api/telemetry/query", { method: "POST", body: JSON.stringify(body) }), params({}));
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
    for (const token of remote.runtime.plantTokens.list()) remote.runtime.plantTokens.revoke(token.id);
    const response = await routes.assets(request("/api/plants/RTM1/assets"), params({ plantId: "RTM1" }));
    expect([response.status, (await response.json()).code]).toEqual([502, "UPSTREAM_AUTH_FAILED"]);
  });
});
