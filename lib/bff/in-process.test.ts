/**
 * The API called in process from a page's server component (lib/bff/in-process.ts) answers exactly
 * what the browser's HTTP request would (a POST with its body, a GET with its query), and keeps
 * every check: no session → 401, a POST made on the reader's behalf by another site's page → 403,
 * a plant off the reader's list → 403.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  const demoPassword = "demo-password-for-tests";
  return { ...(await import("./testing/environment")).setTestEnvironment("bff-in-process-test", { DEMO_PASSWORD: demoPassword, DEMO_LIVE: "0" }), demoPassword };
});

import { startEmbeddedDashboard, type EmbeddedDashboard } from "./testing/dashboards";
import { callApiInProcess } from "./in-process";

let dashboard: EmbeddedDashboard;
let cookie: string;
const endTime = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
const body = {
  query: 'States | where Name == "Temperature" | summarize n = count() by DeviceId | order by DeviceId asc',
  startTime: new Date(endTime.getTime() - 6 * 3_600_000).toISOString(),
  endTime: endTime.toISOString(),
  plantIds: ["RTM1"],
};

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, env.demoPassword);
  cookie = await dashboard.cookieFor("engineer@plantdesk.demo");
}, 120_000);
afterAll(async () => {
  await dashboard?.close();
  env.remove();
});

const rows = (text: string) => (JSON.parse(text) as { data: { rows: unknown[][] } }).data.rows;

describe("the API in process", () => {
  it("answers a telemetry query with the rows the browser's request gets", async () => {
    const early = await callApiInProcess({ method: "POST", path: "/api/telemetry/query", body, headers: { cookie, host: "localhost", "sec-fetch-site": "none" } });
    expect(early.status).toBe(200);
    const viaHttp = await dashboard.api.call("/api/telemetry/query", { method: "POST", body, cookie });
    expect(rows(early.text)).toEqual(rows(await viaHttp.text()));
    expect(rows(early.text).length).toBeGreaterThan(0);
  });

  it("keeps the route's checks: the session, the same-site rule, the role", async () => {
    expect((await callApiInProcess({ method: "POST", path: "/api/telemetry/query", body, headers: {} })).status).toBe(401);
    const crossSite = await callApiInProcess({ method: "POST", path: "/api/telemetry/query", body, headers: { cookie, "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    const otherPlant = await callApiInProcess({ method: "POST", path: "/api/telemetry/query", body: { ...body, plantIds: ["NOPE1"] }, headers: { cookie } });
    expect(otherPlant.status).toBe(403);
  });

  it("reads a listing page with its query parameters, as the task board's page does; a plant off the list is refused", async () => {
    const query = { page: "2", pageSize: "5" };
    const early = await callApiInProcess({ method: "GET", path: "/api/plants/RTM1/tasks", query, headers: { cookie } });
    expect(early.status).toBe(200);
    const viaHttp = await dashboard.api.call(`/api/plants/RTM1/tasks?${new URLSearchParams(query)}`, { cookie });
    expect(JSON.parse(early.text)).toEqual(await viaHttp.json());
    expect(JSON.parse(early.text)).toMatchObject({ page: 2, pageSize: 5 });
    expect((await callApiInProcess({ method: "GET", path: "/api/plants/HOU1/tasks", query, headers: { cookie } })).status).toBe(403);
  });
});
