/**
 * Limits the server applies before any route, on a server of this spec's own started as `npm start`
 * starts it (low limits, so the tests reach them):
 *  - one spelling of every path: however `/api/auth/callback/credentials` is written (`..`, `%2e%2e`,
 *    `//`, `\`, `%61`), a sign-in POST without Content-Length is 411 and one of 2 MB is 413 — never
 *    next-auth's 302;
 *  - the dashboard's `/api/` calls per user per minute (429 RATE_LIMITED + Retry-After), shown on
 *    the page in words;
 *  - the token endpoint per client id and per client address (429 in OAuth's error body);
 *  - a remote upstream on plain http:// to another machine is named in one line at start, without
 *    a secret.
 * That these limits hold across instances (Redis) is e2e/cluster.spec.ts's.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, request as apiRequest, test } from "@playwright/test";
import { chromiumPath } from "../scripts/chromium-path";
import { freePort } from "../lib/testing/free-port";

const root = path.resolve(import.meta.dirname, "..");
const distDir = path.join(root, process.env.NEXT_DIST_DIR ?? ".next");
const PASSWORD = "server-limits-password";
const API_LIMIT = 25;
const TOKEN_PER_CLIENT = 3;
const TOKEN_PER_ADDRESS = 8;

interface Server {
  process: ChildProcess;
  url: string;
  log: () => string;
  dataDir: string;
}
const started: Server[] = [];


/** `tsx scripts/start.ts` (what `npm start` runs; the build is current, so it only serves), ready when /signin answers. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-server-limits-"));
  const port = await freePort();
  let log = "";
  const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/start.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, DEMO_TELEMETRY_DAYS: "1", DEMO_LIVE: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const server = { process: child, url: `http://127.0.0.1:${port}`, log: () => log, dataDir };
  started.push(server);
  for (let tries = 0; ; tries += 1) {
    if (await fetch(`${server.url}/signin`).then((r) => r.ok, () => false)) return server;
    if (tries > 900 || child.exitCode !== null) throw new Error(`server did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * A request written byte for byte on a socket: no client library may tidy the path. `body` of
 * `{ declared }` bytes is sent with that Content-Length; without it the request is chunked.
 */
function rawRequest(url: string, target: string, options: { declared?: number; extraHeaders?: string[] } = {}): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = "";
    let failure: Error | null = null;
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    // A server that answers early and closes makes the rest of the upload fail (EPIPE, ECONNRESET):
    // what counts is the answer read before the socket closed.
    socket.on("error", (error) => (failure = error));
    socket.on("close", () => {
      if (!received && failure) return reject(failure);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0), text: received });
    });
    const head = [
      `POST ${target} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      "Content-Type: application/x-www-form-urlencoded",
      "Connection: close",
      ...(options.declared === undefined ? ["Transfer-Encoding: chunked"] : [`Content-Length: ${options.declared}`]),
      ...(options.extraHeaders ?? []),
    ];
    socket.write(head.join("\r\n") + "\r\n\r\n");
    if (options.declared === undefined) socket.write("5\r\nemail\r\n0\r\n\r\n");
    else {
      // The body in pieces, as a network delivers it; the server may answer and close before the end.
      const piece = Buffer.alloc(64 * 1024, "a");
      let sent = 0;
      const pump = () => {
        while (sent < options.declared! && !socket.destroyed) {
          const size = Math.min(piece.length, options.declared! - sent);
          sent += size;
          if (!socket.write(piece.subarray(0, size))) return void socket.once("drain", pump);
        }
      };
      pump();
    }
  });
}

const SIGN_IN = "/api/auth/callback/credentials";
/** Spellings of the sign-in path that resolve to it. */
const SPELLINGS = [
  SIGN_IN,
  "/x/../api/auth/callback/credentials",
  "/%2e%2e/api/auth/callback/credentials",
  "/x/%2E%2e/api/auth/callback/credentials",
  "/x/.%2e/api/auth/callback/credentials",
  "//api/auth/callback/credentials",
  "/api//auth/callback/credentials",
  "/api/auth/./callback/credentials",
  "/api/%61uth/callback/credentials",
  "/api/auth/callback/%63redentials?x=1",
  "/x\\..\\api/auth/callback/credentials",
];

let server: Server;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  expect(fs.existsSync(path.join(distDir, "BUILD_ID")), `a production build in ${distDir}`).toBe(true);
  server = await startServer({
    DEMO_PASSWORD: PASSWORD,
    DASHBOARD_RATE_LIMIT_PER_MINUTE: String(API_LIMIT),
    TOKEN_RATE_LIMIT_PER_CLIENT_PER_MINUTE: String(TOKEN_PER_CLIENT),
    TOKEN_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: String(TOKEN_PER_ADDRESS),
  });
});

test.afterAll(async () => {
  for (const { process: child, dataDir } of started) {
    // The process group: tsx runs the server in a child of its own.
    if (child.exitCode === null) {
      process.kill(-child.pid!, "SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a sign-in POST needs a Content-Length and a small body, however its path is spelled", async () => {
  for (const spelling of SPELLINGS) {
    const unsized = await rawRequest(server.url, spelling);
    expect(unsized.status, `${spelling} without Content-Length: ${unsized.text.slice(0, 200)}`).toBe(411);
    expect(unsized.text).toContain('"code":"LENGTH_REQUIRED"');
    const large = await rawRequest(server.url, spelling, { declared: 2 * 1024 * 1024 });
    expect(large.status, `${spelling} with 2 MB: ${large.text.slice(0, 200)}`).toBe(413);
    expect(large.text).toContain('"code":"PAYLOAD_TOO_LARGE"');
  }
  // The spellings reach next-auth as its own path: its CSRF endpoint answers through one of them.
  const csrf = await fetch(`${server.url}/x/%2e%2e/api/auth/csrf`);
  expect(csrf.status).toBe(200);
  expect(await csrf.json()).toHaveProperty("csrfToken");
});

async function signedIn(role: string) {
  const context = await apiRequest.newContext({ baseURL: server.url });
  const { csrfToken } = (await (await context.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const response = await context.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: `${role}@plantdesk.demo`, password: PASSWORD, json: "true" },
    maxRedirects: 0,
  });
  expect([200, 302]).toContain(response.status());
  return context;
}

test("a user's /api/ calls are limited per minute: 429 with Retry-After, in words on the page; others go on", async ({ playwright }) => {
  const planner = await signedIn("planner");
  const statuses: number[] = [];
  for (let i = 0; i < API_LIMIT; i++) statuses.push((await planner.get("/api/plants/RTM1/jobs-done?pageSize=1")).status());
  expect(statuses).toEqual(Array(API_LIMIT).fill(200));
  const refused = await planner.get("/api/plants/RTM1/jobs-done?pageSize=1");
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
  const body = await refused.json();
  expect(body).toMatchObject({ status: "ERROR", code: "RATE_LIMITED", data: [] });
  expect(body.message).toMatch(/^Too many requests from your account .*Wait \d+ seconds?, then try again\.$/);
  // Another user is not held up.
  const supervisor = await signedIn("supervisor");
  expect((await supervisor.get("/api/plants/RTM1/jobs-done?pageSize=1")).status()).toBe(200);

  // The planner's page says so in words.
  const browser = await playwright.chromium.launch({
    executablePath: chromiumPath(),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const context = await browser.newContext({ baseURL: server.url, storageState: await planner.storageState() });
  const page = await context.newPage();
  await page.goto("/plants/RTM1/jobs");
  await expect(page.getByText(/Too many requests from your account/).first()).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/api-rate-limited.png", fullPage: true });
  await browser.close();
  await Promise.all([planner.dispose(), supervisor.dispose()]);
});

test("the token endpoint is throttled per client id and per address, in OAuth's error body", async () => {
  const ask = (clientId: string) =>
    fetch(`${server.url}/oauth2/v2.0/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: "not-the-secret", scope: "api://plant-telemetry/.default" }),
    });
  for (let i = 0; i < TOKEN_PER_CLIENT; i++) expect((await ask("guessed-client")).status).toBe(401);
  const refused = await ask("guessed-client");
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  const body = await refused.json();
  expect(body).toEqual({ error: "temporarily_unavailable", error_description: expect.stringMatching(/^Too many token requests for this client from this address; retry in \d+ s\./) });
  expect(JSON.stringify(body)).not.toContain("not-the-secret");

  // Other client ids from the same address, until the address's own limit (the refusal above counted too).
  const statuses: number[] = [];
  for (let i = 0; i < TOKEN_PER_ADDRESS; i++) statuses.push((await ask(`other-client-${i}`)).status);
  expect(statuses.filter((status) => status === 401)).toHaveLength(TOKEN_PER_ADDRESS - TOKEN_PER_CLIENT - 1);
  const byAddress = await ask("yet-another-client");
  expect(byAddress.status).toBe(429);
  expect((await byAddress.json()).error_description).toMatch(/from this address/);
});

test("a remote upstream on plain http:// to another machine is named at start, in one line without secrets", async () => {
  const secret = "remote-client-secret-value";
  const plantToken = "remote-plant-token-value";
  const remote = await startServer({
    SERVICE_BASE_URL: "http://service.example.invalid:8080/base",
    SERVICE_AUTH_URL: "https://login.example.invalid",
    PLANT_TOKENS: JSON.stringify({ RTM1: plantToken }),
    TELEMETRY_CLIENT_ID: "remote-client",
    TELEMETRY_CLIENT_SECRET: secret,
    TELEMETRY_SCOPE: "api://plant-telemetry/.default",
    NEXTAUTH_SECRET: "a-session-secret-of-at-least-32-characters",
  });
  const lines = remote.log().split("\n").filter((line) => /plain http:\/\//.test(line));
  expect(lines).toEqual([
    "Warning: SERVICE_BASE_URL uses plain http:// to service.example.invalid, which is not this machine: tokens and the telemetry client secret cross the network unencrypted. Use https://.",
  ]);
  for (const value of [secret, plantToken, "a-session-secret-of-at-least-32-characters"]) expect(remote.log()).not.toContain(value);
  // The embedded server of this spec talks to nobody over http: it printed no such line.
  expect(server.log()).not.toMatch(/plain http:\/\//);
});
