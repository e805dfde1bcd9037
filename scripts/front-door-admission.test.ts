/**
 * The fair front door (scripts/front-door.ts, lib/platform/http/admission.ts; docs/architecture.md,
 * "A fair front door") over real HTTP on the real embedded service and `/api/` router. Next is a
 * stand-in that holds every page until the test lets it go, as a slow page render would; the
 * service holds one plant token's requests the same way. So a full pool is a state the test sees,
 * never a timing.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => (await import("../lib/bff/testing/environment")).setTestEnvironment("front-door-admission", { DEMO_PASSWORD: "demo-password-for-tests" }));

import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { startEmbeddedDashboard, type EmbeddedDashboard } from "../lib/bff/testing/dashboards";
import { apiHandler } from "../lib/bff/routes";
import { getDashboardDb } from "../lib/dashboard-store/database";
import { issueMetricsToken } from "../lib/dashboard-store/metrics-token";
import { nodeListener } from "../lib/platform/http/node-adapter";
import { createFrontDoor, type FrontDoorOptions } from "./front-door";

let dashboard: EmbeddedDashboard;
let url: string;
let server: http.Server;

/** Pages wait here until `openPages()`; a sign-in callback sets a session cookie, as next-auth does. */
let pagesOpen: () => void = () => undefined;
let pagesGate = Promise.resolve();
const closePages = () => (pagesGate = new Promise((resolve) => (pagesOpen = resolve)));
const nextStandIn: FrontDoorOptions["next"] = (req, res) => {
  void pagesGate.then(() => {
    if (req.url?.startsWith("/api/auth/callback/")) {
      res.writeHead(200, { "set-cookie": "next-auth.session-token=issued-by-sign-in; Path=/; HttpOnly", "content-type": "application/json" });
      return void res.end(JSON.stringify({ url: "http://localhost/" }));
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<p>page</p>");
  });
};

/** The flooding plant token's requests wait here until `openFlood()`; every other request goes straight through. */
let floodToken = "";
let floodOpen: () => void = () => undefined;
let floodGate = Promise.resolve();
const closeFlood = () => (floodGate = new Promise((resolve) => (floodOpen = resolve)));

let metricsToken = "";
const LIMITS = { anonymous: { concurrent: 2, queue: 3 }, principal: { concurrent: 2, queue: 3 }, assets: { concurrent: 4, queue: 8 }, queueWaitMs: 60_000 };

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, "demo-password-for-tests");
  const service = nodeListener(dashboard.runtime.handle, "http://127.0.0.1");
  server = http.createServer(
    createFrontDoor({
      service: (req, res) => {
        if (floodToken && req.headers.authorization === `Bearer ${floodToken}`) void floodGate.then(() => service(req, res));
        else service(req, res);
      },
      api: nodeListener(apiHandler, "http://127.0.0.1"),
      next: nextStandIn,
      readiness: async () => [],
      metricsAllowed: async (headers) => headers.authorization === `Bearer ${metricsToken}`,
      trustProxy: false,
      jsonLogs: false,
      admission: LIMITS,
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  metricsToken = await issueMetricsToken(await getDashboardDb());
});
afterAll(async () => {
  pagesOpen();
  floodOpen();
  server.closeAllConnections();
  server.close();
  await dashboard.close();
});

/** Sends without waiting: the answer's status, headers and body when it comes. */
function send(path: string, init: RequestInit = {}) {
  return fetch(`${url}${path}`, { redirect: "manual", ...init }).then(async (response) => ({ status: response.status, headers: response.headers, text: await response.text() }));
}

/** Polls until `check` holds: the requests sent have reached the front door's decision (no fixed sleep). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 1200; tries += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the front door did not reach the expected state");
}

/** How many of `requests` have been answered so far. */
function answeredOf(requests: Promise<unknown>[]): () => number {
  let answered = 0;
  for (const request of requests) void request.then(() => (answered += 1));
  return () => answered;
}

/** The anonymous pool's places in use and waiting, from /metrics. */
async function anonymousPool(): Promise<{ running: number; waiting: number }> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
  const value = (state: string) => Number(new RegExp(`plantdesk_admission_in_use\\{pool="anonymous",state="${state}"\\} (\\d+)`).exec(text)?.[1] ?? -1);
  return { running: value("running"), waiting: value("waiting") };
}

/** The anonymous pool is full: 2 running (held by the page stand-in) and 3 waiting. */
const poolFull = () => until(async () => {
  const pool = await anonymousPool();
  return pool.running === 2 && pool.waiting === 3;
});

describe("anonymous clients share one small pool", () => {
  it("a flood of anonymous requests is held or refused 429 with Retry-After and the error body; a signed-in user and a plant token are served meanwhile", async () => {
    const cookie = await dashboard.cookieFor("planner@plantdesk.demo");
    const plantToken = (await dashboard.runtime.plantTokens.issue("RTM1")).token;
    // The credentials are accepted once by their routes; from then on each has a pool of its own.
    expect((await send("/api/me", { headers: { cookie } })).status).toBe(200);
    expect((await send("/maintenance/v1/plants/RTM1/jobs-done", { headers: { authorization: `Bearer ${plantToken}` } })).status).toBe(200);

    closePages();
    // Half sign-in pages (held by the stand-in while admitted), half /api/ calls without a session.
    const paths = Array.from({ length: 300 }, (_, i) => (i % 2 ? "/signin" : "/api/me"));
    const flood = paths.map((path) => send(path, { headers: { accept: path === "/signin" ? "text/html" : "application/json" } }));
    const answered = answeredOf(flood);
    // Every request has had its decision: all but the 2 held and 3 waiting are answered.
    await until(() => answered() >= 295);
    // While the anonymous pool is full (2 held by the page stand-in or done, 3 waiting), the others are served.
    const mine = await send("/api/plants/RTM1/tasks", { headers: { cookie } });
    expect(mine.status).toBe(200);
    const theirs = await send("/maintenance/v1/plants/RTM1/jobs-done", { headers: { authorization: `Bearer ${plantToken}` } });
    expect(theirs.status).toBe(200);

    pagesOpen();
    const answers = await Promise.all(flood);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(250);
    answers.forEach((answer, i) => {
      if (answer.status !== 429) {
        // What was admitted was answered by its route.
        expect(answer.status).toBe(paths[i] === "/signin" ? 200 : 401);
        return;
      }
      expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
      if (paths[i] === "/api/me") expect(JSON.parse(answer.text)).toMatchObject({ status: "ERROR", code: "RATE_LIMITED" });
      else expect(answer.text).toContain("Plantdesk is busy");
    });
  });

  it("an invented token or cookie buys no pool of its own: it counts as anonymous until a route accepts it", async () => {
    closePages();
    const held = Array.from({ length: 5 }, () => send("/signin", { headers: { accept: "text/html" } }));
    await poolFull();
    const invented = await send("/maintenance/v1/plants/RTM1/jobs-done", { headers: { authorization: "Bearer pdm_invented-for-this-request" } });
    expect(invented.status).toBe(429);
    const forged = await send("/api/me", { headers: { cookie: "next-auth.session-token=forged" } });
    expect(forged.status).toBe(429);
    pagesOpen();
    expect((await Promise.all(held)).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it("sign-in keeps its page flow: a refused sign-in post gets what next-auth's signIn() reads, a page a short page that reloads", async () => {
    closePages();
    const held = Array.from({ length: 5 }, () => send("/signin", { headers: { accept: "text/html" } }));
    await poolFull();
    const signIn = await send("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=planner%40plantdesk.demo&password=x&json=true",
    });
    expect(signIn.status).toBe(429);
    expect(signIn.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(new URL((JSON.parse(signIn.text) as { url: string }).url).searchParams.get("error")).toBe("SignInBusy");
    const page = await send("/signin", { headers: { accept: "text/html" } });
    expect(page.status).toBe(429);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.text).toContain('http-equiv="refresh"');
    // The operator's endpoints never wait behind anyone.
    expect((await send("/healthz")).status).toBe(200);
    pagesOpen();
    await Promise.all(held);
  });

  it("the session cookie a sign-in has just set gets its own pool at once", async () => {
    const signedIn = await send("/api/auth/callback/credentials", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "json=true" });
    expect(signedIn.status).toBe(200);
    closePages();
    const held = Array.from({ length: 5 }, () => send("/signin", { headers: { accept: "text/html" } }));
    await poolFull();
    // A page with the new cookie is admitted (it waits for the stand-in like any page, not for a place).
    const mine = send("/plants", { headers: { accept: "text/html", cookie: "next-auth.session-token=issued-by-sign-in" } });
    const someoneElse = await send("/plants", { headers: { accept: "text/html", cookie: "next-auth.session-token=someone-elses" } });
    expect(someoneElse.status).toBe(429);
    pagesOpen();
    expect((await mine).status).toBe(200);
    await Promise.all(held);
  });
});

describe("each principal has its own pool", () => {
  it("one plant token's flood is held or refused; another token, a signed-in user and anonymous clients are served", async () => {
    floodToken = (await dashboard.runtime.plantTokens.issue("RTM1")).token;
    const otherToken = (await dashboard.runtime.plantTokens.issue("RTM1")).token;
    const cookie = await dashboard.cookieFor("engineer@plantdesk.demo");
    const path = "/maintenance/v1/plants/RTM1/jobs-done";
    for (const headers of [{ authorization: `Bearer ${floodToken}` }, { authorization: `Bearer ${otherToken}` }]) expect((await send(path, { headers })).status).toBe(200);
    expect((await send("/api/me", { headers: { cookie } })).status).toBe(200);

    closeFlood();
    const flood = Array.from({ length: 100 }, () => send(path, { headers: { authorization: `Bearer ${floodToken}` } }));
    const answered = answeredOf(flood);
    await until(() => answered() >= 95);
    expect((await send(path, { headers: { authorization: `Bearer ${otherToken}` } })).status).toBe(200);
    expect((await send("/api/me", { headers: { cookie } })).status).toBe(200);
    expect((await send("/api/me")).status).toBe(401);
    floodOpen();
    const answers = await Promise.all(flood);
    const refused = answers.filter((answer) => answer.status === 429);
    // 2 running and 3 waiting were served; the other 95 were refused at once.
    expect(refused.length).toBe(95);
    expect(answers.filter((answer) => answer.status === 200).length).toBe(5);
    expect(JSON.parse(refused[0]!.text)).toMatchObject({ status: "ERROR", code: "RATE_LIMITED" });

    // Refusals are counted per pool kind in /metrics.
    const families = parsePrometheusTextFormat(await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text());
    const refusedFamily = families.find((family) => family.name === "plantdesk_admission_refused_total")!;
    const byPool = Object.fromEntries(refusedFamily.metrics.map((metric) => [metric.labels?.pool, Number((metric as { value: string }).value)]));
    expect(byPool.principal).toBeGreaterThanOrEqual(95);
    expect(byPool.anonymous).toBeGreaterThanOrEqual(250);
    expect(families.find((family) => family.name === "plantdesk_admission_in_use")).toBeDefined();
  });

  it("a token a route refused (revoked) loses its pool and counts as anonymous again", async () => {
    const issued = await dashboard.runtime.plantTokens.issue("RTM1");
    const path = "/maintenance/v1/plants/RTM1/jobs-done";
    const headers = { authorization: `Bearer ${issued.token}` };
    expect((await send(path, { headers })).status).toBe(200);
    await dashboard.runtime.plantTokens.revoke(issued.id);
    expect((await send(path, { headers })).status).toBe(401);
    closePages();
    const held = Array.from({ length: 5 }, () => send("/signin", { headers: { accept: "text/html" } }));
    await poolFull();
    expect((await send(path, { headers })).status).toBe(429);
    pagesOpen();
    await Promise.all(held);
  });

  it("a page without a session cookie is sent to sign-in by the front door itself, even while the anonymous pool is full", async () => {
    closePages();
    const held = Array.from({ length: 5 }, () => send("/signin", { headers: { accept: "text/html" } }));
    await poolFull();
    const page = await send("/plants/RTM1/tasks?view=board", { headers: { accept: "text/html" } });
    expect([page.status, page.headers.get("location")]).toEqual([307, "/signin?callbackUrl=%2Fplants%2FRTM1%2Ftasks%3Fview%3Dboard"]);
    expect((await send("/")).headers.get("location")).toBe("/signin");
    // A public page, a page with a session cookie, and a sign-in post take their place in the pool like any request.
    expect((await send("/invite/some-token", { headers: { accept: "text/html" } })).status).toBe(429);
    expect((await send("/plants", { headers: { accept: "text/html", cookie: "next-auth.session-token=not-yet-accepted" } })).status).toBe(429);
    pagesOpen();
    expect((await Promise.all(held)).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
  });
});
