/**
 * Security headers on every JSON answer of both surfaces (success and error alike), and the
 * same-site check on state-changing `/api/` calls: a browser's request from another site is 403,
 * this site's own and non-browser clients pass. Real HTTP through the production Node adapter, on
 * the real embedded service.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => (await import("./testing/environment")).setTestEnvironment("security-headers", { DEMO_PASSWORD: "demo-password-for-tests" }));

import type { ServiceRuntime } from "@/lib/service/runtime";
import { startEmbeddedDashboard, validTask, type EmbeddedDashboard } from "./testing/dashboards";

let dashboard: EmbeddedDashboard;
let runtime: ServiceRuntime;
let apiUrl: string;
let serviceUrl: string;
let cookie: string;
let task: Record<string, unknown>;

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, "demo-password-for-tests");
  runtime = dashboard.runtime;
  apiUrl = dashboard.api.url;
  serviceUrl = dashboard.service.url;
  cookie = await dashboard.cookieFor("planner@plantdesk.demo");
  task = await validTask(runtime.maintenance, "Same site");
});

afterAll(() => dashboard.close());

function expectSecurityHeaders(response: Response, what: string) {
  expect(response.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(response.headers.get("x-frame-options"), what).toBe("DENY");
  expect(response.headers.get("referrer-policy"), what).toBe("same-origin");
  expect(response.headers.get("content-security-policy"), what).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
}

describe("security headers", () => {
  it("are on every answer of /api/ and of the service, errors included", async () => {
    const answers: [string, Promise<Response>][] = [
      ["/api/me 200", fetch(`${apiUrl}/api/me`, { headers: { cookie } })],
      ["/api/me 401", fetch(`${apiUrl}/api/me`)],
      ["/api/ 404", fetch(`${apiUrl}/api/nothing`, { headers: { cookie } })],
      ["/api/ 413", fetch(`${apiUrl}/api/plants/RTM1/tasks`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: "x".repeat(2 * 1024 * 1024) })],
      ["/api/ telemetry", fetch(`${apiUrl}/api/telemetry/query`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ query: "States | take 1", startTime: "2026-01-01T00:00:00Z", endTime: "2026-01-02T00:00:00Z", plantIds: ["RTM1"] }) })],
      ["discovery", fetch(`${serviceUrl}/.well-known/openid-configuration`)],
      ["openapi", fetch(`${serviceUrl}/openapi.json`)],
      ["service 401", fetch(`${serviceUrl}/maintenance/v1/plants/RTM1/jobs-done`)],
      ["service 405", fetch(`${serviceUrl}/oauth2/v2.0/token`)],
    ];
    for (const [what, answer] of answers) {
      const response = await answer;
      expectSecurityHeaders(response, what);
      await response.arrayBuffer();
    }
  });
});

describe("state-changing /api/ calls from another site", () => {
  const createTask = (headers: Record<string, string>) =>
    fetch(`${apiUrl}/api/plants/RTM1/tasks`, { method: "POST", headers: { cookie, "content-type": "application/json", ...headers }, body: JSON.stringify(task) });

  it("are refused (403) when the browser says they come from elsewhere", async () => {
    const before = (await runtime.maintenance.listTasks("RTM1", { page: 1, pageSize: 1 })).totalPages;
    const crossSite: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: apiUrl.replace("127.0.0.1", "127.0.0.2") },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site", origin: apiUrl },
    ];
    for (const headers of crossSite) {
      const response = await createTask(headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(await response.json()).toMatchObject({ code: "FORBIDDEN" });
    }
    const history = await fetch(`${apiUrl}/api/telemetry/history`, { method: "POST", headers: { cookie, "content-type": "application/json", origin: "https://evil.example" }, body: JSON.stringify({ query: "States | count" }) });
    expect(history.status).toBe(403);
    expect((await runtime.maintenance.listTasks("RTM1", { page: 1, pageSize: 1 })).totalPages).toBe(before);
  });

  it("pass from this site, and from clients that are not browsers", async () => {
    expect((await createTask({ origin: apiUrl, "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await createTask({})).status).toBe(200);
  });

  it("leave reads alone", async () => {
    expect((await fetch(`${apiUrl}/api/me`, { headers: { cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" } })).status).toBe(200);
  });
});
