/**
 * What leaves the server, checked on the production build with a server of this spec's own (so its
 * whole log can be read): every page redirects to sign-in without a session, every `/api/` route
 * answers 401, and no token, client secret, password, session key or password hash appears in any
 * page, any `/api/` response body or header, the built client bundle (`<distDir>/static`), or the
 * server's log of the run. Pages and routes are taken from the build's manifest, so a new one is
 * covered without editing this file.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, request as apiRequest, test, type APIRequestContext } from "@playwright/test";
import { apiRouteTable } from "@/lib/contract/api";
import { freePort } from "../lib/testing/free-port";

const root = path.resolve(import.meta.dirname, "..");
const distDir = path.join(root, process.env.NEXT_DIST_DIR ?? ".next");
const PASSWORD = "security-spec-password";
const ROLES = ["planner", "supervisor", "engineer", "admin"] as const;

let server: ChildProcess;
let baseURL = "";
let dataDir = "";
let log = "";
/** Every page and API answer of the run, bodies and headers. */
const seen: string[] = [];


/** Route paths of the build: `/(group)/plants/[plantId]/jobs/page` → `/plants/RTM1/jobs`. */
function builtRoutes(kind: "page" | "route"): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, "server", "app-paths-manifest.json"), "utf8")) as Record<string, string>;
  return Object.keys(manifest)
    .filter((key) => key.endsWith(`/${kind}`))
    .map((key) =>
      key
        .slice(0, -kind.length - 1)
        .replace(/\/\([^)]+\)/g, "")
        .replace("[plantId]", "RTM1")
        .replace(/\[\.\.\.\w+\]/g, "x/y")
        .replace(/\[\w+\]/g, "X1") || "/",
    );
}

function sessionSecret(): string {
  const db = new Database(path.join(dataDir, "dashboard.sqlite"), { readonly: true });
  try {
    return (db.prepare("SELECT value FROM dashboard_settings WHERE key = 'session_secret'").get() as { value: string }).value;
  } finally {
    db.close();
  }
}

type Headers = { name: string; value: string }[];

async function record(response: { text(): Promise<string>; headersArray(): Headers | Promise<Headers> }) {
  try {
    seen.push(JSON.stringify(await response.headersArray()), await response.text());
  } catch {
    // a response the browser dropped (navigation, redirect): nothing to read
  }
}

async function signedIn(role: (typeof ROLES)[number]): Promise<APIRequestContext> {
  const context = await apiRequest.newContext({ baseURL });
  const { csrfToken } = (await (await context.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const response = await context.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: `${role}@plantdesk.demo`, password: PASSWORD, json: "true" },
    maxRedirects: 0,
  });
  await record(response);
  return context;
}

/** Credentials of this run that must never be seen outside the server. */
function forbiddenStrings(): string[] {
  return [PASSWORD, sessionSecret()];
}
const FORBIDDEN_PATTERNS = [/pd[mt]_[A-Za-z0-9_-]{16}/, /\$2[aby]\$\d\d\$/, /Bearer\s+[A-Za-z0-9._~+/-]{16}/, /client_secret=/];

function expectClean(text: string, where: string) {
  for (const secret of forbiddenStrings()) expect(text.includes(secret), `${where} contains a credential`).toBe(false);
  for (const pattern of FORBIDDEN_PATTERNS) expect(text, where).not.toMatch(pattern);
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  expect(fs.existsSync(path.join(distDir, "BUILD_ID")), `a production build in ${distDir}`).toBe(true);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-security-"));
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  // What `npm start` runs (scripts/start.ts: the build is current, so it only serves).
  server = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/start.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, DEMO_PASSWORD: PASSWORD, DEMO_TELEMETRY_DAYS: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  server.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  for (let tries = 0; ; tries += 1) {
    const ok = await fetch(`${baseURL}/signin`).then((r) => r.ok, () => false);
    if (ok) break;
    if (tries > 900 || server.exitCode !== null) throw new Error(`server did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

test.afterAll(async () => {
  server?.kill("SIGTERM");
  await new Promise((resolve) => server?.once("exit", resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("every page sends a visitor without a session to sign-in", async () => {
  // Public: sign-in itself, the invitation page (a new user has no session yet: the link's token is
  // the credential), Next's error pages, and the service's API reference (like /openapi.json).
  const pages = builtRoutes("page").filter((page) => !["/signin", "/_not-found", "/_global-error"].includes(page) && !page.startsWith("/docs/") && !page.startsWith("/invite/"));
  expect(pages.length).toBeGreaterThan(3);
  const context = await apiRequest.newContext({ baseURL });
  for (const page of pages) {
    const response = await context.get(page, { maxRedirects: 0 });
    expect(response.status(), page).toBe(307);
    const location = new URL(response.headers().location!, baseURL);
    expect(location.pathname, page).toBe("/signin");
    expect(location.searchParams.get("callbackUrl") ?? "/", page).toBe(page);
  }
  // A forged cookie passes the proxy's quick look but not the layout's check.
  const forged = await context.get("/plants/RTM1", { maxRedirects: 0, headers: { cookie: "next-auth.session-token=forged" } });
  expect([forged.status(), new URL(forged.headers().location ?? "/", baseURL).pathname]).toEqual([307, "/signin"]);
});

test("every /api/ route answers 401 without a session", async () => {
  // The /api/ table itself, with sample values in its path parameters.
  const routes = [...new Set(apiRouteTable().map((route) => route.path.replace("{plantId}", "RTM1").replace(/\{\w+\}/g, "X1")))];
  expect(routes.length).toBeGreaterThan(10);
  const context = await apiRequest.newContext({ baseURL });
  for (const route of routes) {
    const statuses: number[] = [];
    // DELETE too: some routes have no other method (ending a session, /api/account/sessions/{handle}).
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      const response = await context.fetch(route, { method, data: method === "GET" || method === "DELETE" ? undefined : {}, maxRedirects: 0 });
      statuses.push(response.status());
      if (response.status() === 401) expect((await response.json()).code, route).toBe("UNAUTHORIZED");
    }
    // Each method the route has says 401; the others are 405 from the router.
    expect(statuses.every((status) => status === 401 || status === 405), `${route}: ${statuses.join(",")}`).toBe(true);
    expect(statuses, route).toContain(401);
  }
});

test("signed in as each role: pages and API answers hold no credential", async ({ browser }) => {
  test.setTimeout(180_000);
  for (const role of ROLES) {
    const api = await signedIn(role);
    const browserContext = await browser.newContext({ baseURL, storageState: await api.storageState() });
    const page = await browserContext.newPage();
    page.on("response", (response) => {
      if (new URL(response.url()).origin === baseURL) void record(response);
    });
    for (const path of ["/plants/RTM1", "/plants/RTM1/jobs", "/plants/RTM1/telemetry"]) {
      const response = await page.goto(path);
      expect(response?.status(), `${role} ${path}`).toBeLessThan(500);
      // Long enough for the page's own /api/ calls to come back (recorded by the listener above).
      await page.waitForTimeout(1_500);
      // A page may still be moving on (the home page forwards to a plant): read it once it settles.
      await page.waitForLoadState("load");
      seen.push(await page.content().catch(async () => (await page.waitForTimeout(1_500), page.content())));
    }
    for (const apiPath of ["/api/me", "/api/plants/RTM1/jobs-done?pageSize=20", "/api/plants/RTM1/tasks?pageSize=20", "/api/plants/RTM1/parts", "/api/telemetry/history", "/api/audit"]) {
      await record(await api.get(apiPath));
    }
    await record(await api.get("/api/auth/session"));
    await browserContext.close();
    await api.dispose();
  }
  const everything = seen.join("\n");
  expect(everything).toContain("plantdesk.demo"); // the scan saw real answers
  expectClean(everything, "pages and API answers");
});

test("the built client bundle holds no credential and no server-only code", () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(path.join(distDir, "static"));
  expect(files.length).toBeGreaterThan(5);
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    expectClean(text, file);
    // Markers of server modules: the users table, the token store, the remote upstream client
    // (its error codes are the contract's and may appear; its log lines may not).
    expect(text, file).not.toMatch(/password_hash|token_hash|refused the dashboard's credentials/);
  }
});

test("the server's log of this run holds no credential", () => {
  expect(log).toContain("is running at");
  expectClean(log, "server log");
});
