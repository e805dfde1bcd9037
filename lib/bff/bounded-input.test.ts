/**
 * Every input bounded, on both surfaces — the dashboard's `/api/` and the service's own paths —
 * over real HTTP through the production Node adapter, on the real embedded service: an oversized
 * body is 413 however it is sent (and creates nothing), a body that does not arrive in time is
 * 408 and its connection closed, a deeply nested body is 400 (never 500), and a user's query
 * history stays bounded, starred entries included.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => (await import("./testing/environment")).setTestEnvironment("bounded-input", { DEMO_PASSWORD: "demo-password-for-tests" }));

import { STARRED_LIMIT } from "@/lib/dashboard-store/query-history";
import { BODY_READ_TIMEOUT_MS } from "@/lib/platform/http/node-adapter";
import { MAX_BODY_BYTES } from "@/lib/platform/http/types";
import type { ServiceRuntime } from "@/lib/service/runtime";
import { apiHandler } from "./routes";
import { startApiServer } from "./testing/api-server";
import { startEmbeddedDashboard, validTask as validTaskOf, type EmbeddedDashboard } from "./testing/dashboards";

interface Surface {
  name: string;
  url: string;
  path: string;
  headers: () => Record<string, string>;
}

let dashboard: EmbeddedDashboard;
let runtime: ServiceRuntime;
let surfaces: Surface[];
let plannerCookie: string;
let plantToken: string;
let validTask: Record<string, unknown>;

const taskCount = async () => (await runtime.maintenance.listTasks("RTM1", { page: 1, pageSize: 1 })).totalPages;

/** A raw request, so that the body can be sent exactly as a client would (declared or chunked, whole or slow). */
function send(url: string, path: string, headers: Record<string, string>, body: Buffer, declareLength: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}${path}`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", ...(declareLength ? { "content-length": String(body.length) } : { "transfer-encoding": "chunked" }) },
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    request.on("error", reject);
    // In pieces, as a network would deliver them.
    for (let offset = 0; offset < body.length; offset += 256 * 1024) request.write(body.subarray(offset, offset + 256 * 1024));
    request.end();
  });
}

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, "demo-password-for-tests");
  runtime = dashboard.runtime;
  plannerCookie = await dashboard.cookieFor("planner@plantdesk.demo");
  plantToken = (await runtime.plantTokens.issue("RTM1")).token;
  validTask = await validTaskOf(runtime.maintenance, "Bounded");
  surfaces = [
    { name: "/api/", url: dashboard.api.url, path: "/api/plants/RTM1/tasks", headers: () => ({ cookie: plannerCookie }) },
    { name: "service", url: dashboard.service.url, path: "/maintenance/v1/plants/RTM1/tasks", headers: () => ({ authorization: `Bearer ${plantToken}` }) },
  ];
});

afterAll(() => dashboard.close());

describe("body size", () => {
  it("a valid task followed by 2 MiB of spaces is 413 on both surfaces, declared or chunked, and creates nothing", async () => {
    const body = Buffer.concat([Buffer.from(JSON.stringify(validTask)), Buffer.alloc(2 * 1024 * 1024, " ")]);
    const before = await taskCount();
    for (const surface of surfaces) {
      for (const declared of [true, false]) {
        const res = await send(surface.url, surface.path, surface.headers(), body, declared);
        expect(res.status, `${surface.name} ${declared ? "declared" : "chunked"}: ${res.body.slice(0, 200)}`).toBe(413);
        expect(JSON.parse(res.body)).toMatchObject({ status: "ERROR", code: "PAYLOAD_TOO_LARGE" });
      }
    }
    expect(await taskCount()).toBe(before);
    // The same task without the padding is created: the limit, not the task, was refused.
    const res = await send(surfaces[0]!.url, surfaces[0]!.path, surfaces[0]!.headers(), Buffer.from(JSON.stringify(validTask)), true);
    expect(res.status).toBe(200);
  });

  it("10 MB is 413 on both surfaces, not 400", async () => {
    const body = Buffer.alloc(10 * 1000 * 1000, "x");
    for (const surface of surfaces) {
      for (const declared of [true, false]) {
        const res = await send(surface.url, surface.path, surface.headers(), body, declared);
        expect(res.status, `${surface.name} ${declared ? "declared" : "chunked"}`).toBe(413);
      }
    }
  });

  it("exactly the limit is read (and judged as JSON)", async () => {
    const body = Buffer.concat([Buffer.from(JSON.stringify(validTask)), Buffer.alloc(MAX_BODY_BYTES - JSON.stringify(validTask).length, " ")]);
    expect(body.length).toBe(MAX_BODY_BYTES);
    const res = await send(surfaces[1]!.url, surfaces[1]!.path, surfaces[1]!.headers(), body, true);
    expect(res.status).toBe(200);
  });
});

describe("body read time", () => {
  it("answers a body that stalls with 408 and closes the connection (10 s in production)", async () => {
    expect(BODY_READ_TIMEOUT_MS).toBe(10_000);
    const slow = await startApiServer(apiHandler, { bodyTimeoutMs: 300 });
    const url = new URL(slow.url);
    const socket = net.connect(Number(url.port), url.hostname);
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write(`POST /api/plants/RTM1/tasks HTTP/1.1\r\nHost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"taskTitle":`);
    await closed;
    await slow.close();
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(received).toContain('"code":"REQUEST_TIMEOUT"');
  });
});

describe("JSON nesting", () => {
  it("a task nested 100,000 deep is 400 INVALID_INPUT on both surfaces, never 500", async () => {
    const deep = Buffer.from(`{"taskTitle":"x","asset":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    for (const surface of surfaces) {
      for (const key of [undefined, "deep-1"]) {
        const headers = { ...surface.headers(), ...(key ? { "idempotency-key": `${key}-${surface.name.length}` } : {}) };
        const res = await send(surface.url, surface.path, headers, deep, true);
        expect(res.status, `${surface.name}: ${res.body.slice(0, 200)}`).toBe(400);
        expect(JSON.parse(res.body)).toMatchObject({ code: "INVALID_INPUT" });
      }
    }
  });

  it("keeps accepting ordinary nesting", async () => {
    const res = await send(surfaces[1]!.url, surfaces[1]!.path, surfaces[1]!.headers(), Buffer.from(JSON.stringify({ ...validTask, extra: [[[[{ a: [1] }]]]] })), true);
    expect(res.status).toBe(200);
  });
});

describe("query history", () => {
  it(`keeps at most ${STARRED_LIMIT} starred entries per user`, async () => {
    const history = (body: unknown, method = "POST") =>
      fetch(`${surfaces[0]!.url}/api/telemetry/history`, { method, headers: { cookie: plannerCookie, "content-type": "application/json" }, body: JSON.stringify(body) });
    for (let i = 0; i < STARRED_LIMIT; i++) expect((await history({ query: `States | take ${i + 1}`, starred: true })).status).toBe(200);
    const over = await history({ query: "States | take 1000", starred: true });
    expect(over.status).toBe(400);
    expect((await over.json()).message).toMatch(/unstar one first/);
    // Recording it unstarred is fine; starring it is not, until one is unstarred.
    const entry = await (await history({ query: "States | take 1000" })).json();
    expect((await history({ id: entry.id, starred: true }, "PATCH")).status).toBe(400);
    const first = (await (await fetch(`${surfaces[0]!.url}/api/telemetry/history?starred=true`, { headers: { cookie: plannerCookie } })).json()).data[0];
    expect((await history({ id: first.id, starred: false }, "PATCH")).status).toBe(200);
    expect((await history({ id: entry.id, starred: true }, "PATCH")).status).toBe(200);
    // Re-running a starred query is not a new star.
    expect((await history({ query: "States | take 1000", starred: true })).status).toBe(200);
  });
});
