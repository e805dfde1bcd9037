/**
 * The operator's endpoints at the front door (scripts/front-door.ts), over real HTTP on the real
 * embedded service and `/api/` router; a stand-in answers for Next as its sign-in redirect does
 * (a page without a session is sent to /signin), which is what /healthz and /metrics got before.
 * Prometheus' text format is read back with parse-prometheus-text-format.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => (await import("../lib/bff/testing/environment")).setTestEnvironment("front-door", { DEMO_PASSWORD: "demo-password-for-tests" }));

import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { parseConfig } from "../lib/config";
import { startEmbeddedDashboard, type EmbeddedDashboard } from "../lib/bff/testing/dashboards";
import { apiHandler } from "../lib/bff/routes";
import { getDashboardDb } from "../lib/dashboard-store/database";
import { issueMetricsToken } from "../lib/dashboard-store/metrics-token";
import { nodeListener } from "../lib/platform/http/node-adapter";
import { createServiceRuntime } from "../lib/service/runtime";
import { freePort } from "../lib/testing/free-port";
import { createFrontDoor, type FrontDoorOptions } from "./front-door";
import { operatorProbes } from "./operator-probes";

let dashboard: EmbeddedDashboard;
let url: string;
const servers: http.Server[] = [];

/** What Next does with a page request without a session: a redirect to the sign-in page. */
const nextStandIn: FrontDoorOptions["next"] = (_req, res) => {
  res.writeHead(307, { location: "/signin" });
  res.end();
};

async function serve(options: Partial<FrontDoorOptions> & Pick<FrontDoorOptions, "readiness" | "metricsAllowed">): Promise<string> {
  const server = http.createServer(
    createFrontDoor({
      service: nodeListener(dashboard.runtime.handle, "http://127.0.0.1"),
      api: nodeListener(apiHandler, "http://127.0.0.1"),
      next: nextStandIn,
      trustProxy: false,
      jsonLogs: false,
      ...options,
    }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, "demo-password-for-tests");
  url = await serve(await operatorProbes(dashboard.runtime));
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await dashboard.close();
});

describe("GET /healthz and /readyz", () => {
  it("answer without a session, never with the sign-in redirect", async () => {
    const health = await fetch(`${url}/healthz`, { redirect: "manual" });
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${url}/readyz`, { redirect: "manual" });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", checks: [{ name: "service database", ok: true }, { name: "dashboard database", ok: true }] });
    // A page still goes to Next (here its sign-in redirect).
    expect((await fetch(`${url}/plants`, { redirect: "manual" })).status).toBe(307);
  });

  it("/readyz is 503 when a store it needs cannot be reached (Redis on a port nobody listens on)", async () => {
    const deadRedis = `redis://127.0.0.1:${await freePort()}`;
    const runtime = await createServiceRuntime(parseConfig({ NODE_ENV: "test", DATA_DIR: `${env.dataDir}-redis`, DEMO_TELEMETRY_DAYS: "1", REDIS_URL: deadRedis, REDIS_KEY_PREFIX: `pd-ready-${process.pid}:` }));
    try {
      const downUrl = await serve({ readiness: () => runtime.readiness(), metricsAllowed: async () => false });
      const ready = await fetch(`${downUrl}/readyz`);
      expect(ready.status).toBe(503);
      const body = await ready.json();
      expect(body).toEqual({ status: "not ready", checks: [{ name: "service database", ok: true }, { name: "shared state", ok: false }] });
      // No address, port or error text of what failed.
      expect(JSON.stringify(body)).not.toContain("127.0.0.1");
    } finally {
      await runtime.close();
    }
  });
});

describe("GET /metrics", () => {
  it("is 401 JSON without the token or an admin session (never a redirect), also for an engineer", async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: "Bearer wrong-token" }, { cookie: await dashboard.cookieFor("engineer@plantdesk.demo") }, { accept: "text/html" }];
    for (const headers of attempts) {
      const response = await fetch(`${url}/metrics`, { headers, redirect: "manual" });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(await response.json()).toMatchObject({ status: "ERROR", code: "UNAUTHORIZED" });
    }
  });

  it("gives Prometheus' text format for the ops token and for an admin, with per-route counts and durations", async () => {
    const token = await issueMetricsToken(await getDashboardDb());
    const cookie = await dashboard.cookieFor("planner@plantdesk.demo");
    expect((await fetch(`${url}/api/me`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${url}/api/plants/RTM1/tasks`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${url}/maintenance/v1/plants/RTM1/jobs-done`)).status).toBe(401);
    const queried = await fetch(`${url}/api/telemetry/query`, {
      method: "POST",
      headers: { cookie: await dashboard.cookieFor("engineer@plantdesk.demo"), "content-type": "application/json" },
      body: JSON.stringify({ query: "States | take 1", startTime: "2026-01-01T00:00:00Z", endTime: "2026-01-02T00:00:00Z", plantIds: ["RTM1"] }),
    });
    await queried.arrayBuffer();

    const readers: Record<string, string>[] = [{ authorization: `Bearer ${token}` }, { cookie: await dashboard.cookieFor("admin@plantdesk.demo") }];
    for (const headers of readers) {
      const response = await fetch(`${url}/metrics`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const families = parsePrometheusTextFormat(await response.text());
      const family = (name: string) => families.find((f) => f.name === name);
      const requests = family("plantdesk_http_requests_total")!;
      expect(requests.type).toBe("COUNTER");
      const labelsOf = requests.metrics.map((metric) => metric.labels ?? {});
      expect(labelsOf).toContainEqual({ surface: "api", route: "/api/plants/{plantId}/tasks", method: "GET", status: "200" });
      expect(labelsOf).toContainEqual({ surface: "service", route: "/maintenance/v1/plants/{plantId}/jobs-done", method: "GET", status: "401" });
      // Never the raw path (a client could grow the series without end).
      expect(labelsOf.some((labels) => labels.route?.includes("RTM1"))).toBe(false);
      expect(family("plantdesk_http_request_duration_seconds")!.type).toBe("HISTOGRAM");
      expect(family("plantdesk_telemetry_queries_total")!.metrics.length).toBeGreaterThan(0);
      expect(family("plantdesk_telemetry_query_cost_total")).toBeDefined();
      expect(family("plantdesk_telemetry_queries_in_flight")).toBeDefined();
      expect(family("plantdesk_monitor_lag_seconds")).toBeDefined();
    }
    // A new token replaces the old one.
    await issueMetricsToken(await getDashboardDb());
    expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });
});

describe("request ids, HSTS", () => {
  it("every answer carries a fresh x-request-id; a client cannot choose it without a trusted proxy", async () => {
    const first = await fetch(`${url}/healthz`, { headers: { "x-request-id": "chosen-by-the-client" } });
    const second = await fetch(`${url}/api/me`);
    const third = await fetch(`${url}/plants`, { redirect: "manual" });
    const ids = [first, second, third].map((response) => response.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it("with LOG_FORMAT=json, one JSON access line per request carries the answer's request id", async () => {
    const logged = await serve({ jsonLogs: true, readiness: async () => [], metricsAllowed: async () => false });
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    let requestId: string | null;
    try {
      const response = await fetch(`${logged}/api/plants/RTM1/tasks`);
      requestId = response.headers.get("x-request-id");
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      write.mockRestore();
    }
    const entries = lines.flatMap((line) => line.trim().split("\n")).filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toContainEqual(expect.objectContaining({ level: "info", msg: "request", requestId, method: "GET", route: "/api/plants/{plantId}/tasks", status: "401" }));
  });

  it("HSTS only for a request that came over TLS: through a trusted proxy's X-Forwarded-Proto, never a client's own", async () => {
    const plain = await fetch(`${url}/healthz`, { headers: { "x-forwarded-proto": "https" } });
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    const proxied = await serve({ trustProxy: true, readiness: async () => [], metricsAllowed: async () => false });
    const overTls = await fetch(`${proxied}/api/me`, { headers: { "x-forwarded-proto": "https", "x-request-id": "proxy-request-0001" } });
    expect(overTls.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(overTls.headers.get("x-request-id")).toBe("proxy-request-0001");
    const overHttp = await fetch(`${proxied}/api/me`, { headers: { "x-forwarded-proto": "http" } });
    expect(overHttp.headers.get("strict-transport-security")).toBeNull();
  });
});
