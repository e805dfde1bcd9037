/**
 * The console against a service that has only the specification's interface (docs/api.md §3: no
 * extensions): a real service on its own port and database, behind a filter that answers every
 * extension path as an unknown route (404, as such a service would) and leaves the extension members
 * out of task records; and the dashboard started as the README starts it (`scripts/start.ts`) in
 * remote mode against it, on its own port and data directory. The console must degrade, never
 * crash: assignee, edits, "My work" and the close-out hidden; moves and the parts list explained in
 * words; the pages still as wide as the window and axe clean.
 *
 * Playwright's own `npm start` server is not used here. Ports: E2E_SPEC_ONLY_PORT (dashboard, default
 * E2E_PORT + 11) and the next one (service); E2E_PORT + 1 and + 2 are e2e/alerting.spec.ts' SMTP
 * server and webhook receiver, which may run at the same time (the two lanes of playwright.config.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { humanizeCode } from "@/modules/maintenance/client/maintenance";
import { MAINTENANCE_OPERATIONS } from "@/modules/maintenance/contract/maintenance";
import { openDashboardSql } from "@/lib/dashboard-store/database";
import { upsertUser } from "@/lib/dashboard-store/users";
import type { ServiceResponse } from "@/lib/platform/http/types";
import { startServiceServer, type RunningService } from "@/lib/upstream/testing/servers";
import { expectAccessible, saveScreenshot } from "./fixtures";

const root = path.resolve(import.meta.dirname, "..");
const dashboardPort = Number(process.env.E2E_SPEC_ONLY_PORT ?? Number(process.env.E2E_PORT ?? 3200) + 11);
const servicePort = dashboardPort + 1;
const baseURL = `http://127.0.0.1:${dashboardPort}`;
const USER = { email: "sue@spec-only.test", name: "Sue Spec", password: "spec-only-password-1" };

/** `METHOD /maintenance/v1/plants/{id}/…` patterns of the extensions (the operations table marks them). */
const EXTENSIONS = Object.values(MAINTENANCE_OPERATIONS)
  .filter((operation) => "extension" in operation && operation.extension)
  .map((operation) => ({ method: operation.method, pattern: new RegExp(`^/maintenance/v1/plants/[^/]+${operation.path.replace(/\{\w+\}/g, "[^/]+")}$`) }));
const TASK_EXTENSION_MEMBERS = ["assignee", "proposedDueDate", "updatedAt"];

function isExtension(method: string, pathname: string): boolean {
  return EXTENSIONS.some((extension) => extension.method === method && extension.pattern.test(pathname));
}

/** The task list as the specification's service answers it: no extension members, so no ETag of the full one. */
function specTasks(answer: ServiceResponse): ServiceResponse {
  const text = typeof answer.body === "string" ? answer.body : Buffer.concat((answer.body ?? []).map((part) => Buffer.from(part))).toString();
  if (answer.status !== 200) return answer;
  const page = JSON.parse(text) as { data: Record<string, unknown>[] };
  for (const task of page.data) for (const member of TASK_EXTENSION_MEMBERS) delete task[member];
  const headers = Object.fromEntries(Object.entries(answer.headers ?? {}).filter(([name]) => name.toLowerCase() !== "etag"));
  return { ...answer, headers, body: JSON.stringify(page) };
}

let service: RunningService;
let dashboard: ChildProcess;
let dataDir: string;
let log = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  service = await startServiceServer(
    async (request, _index, forward) => {
      const pathname = request.path.split("?")[0]!;
      if (isExtension(request.method, pathname)) {
        return { status: 404, body: JSON.stringify({ status: "ERROR", code: "NOT_FOUND", message: `No route ${request.method} ${pathname}.`, data: [] }) };
      }
      const answer = await forward();
      return request.method === "GET" && /\/tasks$/.test(pathname) ? specTasks(answer) : answer;
    },
    {},
    servicePort,
  );
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-spec-only-"));
  const tokens = path.join(dataDir, "plant-tokens.json");
  fs.writeFileSync(tokens, JSON.stringify({ RTM1: { token: (await service.runtime.plantTokens.issue("RTM1")).token, name: "Rotterdam (spec only)", customerId: "CUST-ACME" } }), { mode: 0o600 });
  const client = await service.runtime.telemetry.clients.create("CUST-ACME");
  const db = await openDashboardSql({ dataDir });
  await upsertUser(db, { email: USER.email, name: USER.name, role: "supervisor", plants: ["RTM1"], password: USER.password });
  await db.close();
  dashboard = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/start.ts"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(dashboardPort),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SERVICE_BASE_URL: service.url,
      SERVICE_AUTH_URL: service.url,
      PLANT_TOKENS: tokens,
      TELEMETRY_CLIENT_ID: client.client_id,
      TELEMETRY_CLIENT_SECRET: client.client_secret,
      TELEMETRY_SCOPE: client.scope,
      NEXTAUTH_SECRET: "spec-only-e2e-session-secret-0123456789",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  dashboard.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  dashboard.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  for (let waited = 0; ; waited += 500) {
    if (dashboard.exitCode !== null) throw new Error(`the dashboard stopped:\n${log}`);
    const ready = await fetch(`${baseURL}/signin`).then((response) => response.ok, () => false);
    if (ready) break;
    if (waited > 200_000) throw new Error(`the dashboard did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (dashboard && dashboard.exitCode === null) {
    const exited = new Promise((resolve) => dashboard.once("exit", resolve));
    process.kill(-dashboard.pid!, "SIGTERM");
    await exited;
  }
  await service?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test("the console degrades against a service without the extensions: hidden or explained, never a crash", async ({ browser }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const crashes: string[] = [];
  page.on("pageerror", (error) => crashes.push(error.message));

  // Signed in through next-auth's own endpoints (the page's form is covered by sign-in.spec.ts).
  const { csrfToken } = (await (await context.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const signedIn = await context.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: USER.email, password: USER.password, json: "true", callbackUrl: "/" },
    maxRedirects: 0,
  });
  expect([200, 302]).toContain(signedIn.status());

  // The board: the spec's tasks, without "My work" (no assignees to filter by).
  await page.goto("/plants/RTM1/tasks");
  const card = page.locator('[data-testid^="task-card-"]').first();
  await expect(card).toBeVisible();
  await expect(page.getByTestId("my-work")).toHaveCount(0);
  const taskId = (await card.getAttribute("data-testid"))!.replace("task-card-", "");
  const asServed = (await (await context.request.get(`/api/plants/RTM1/tasks?pageSize=1000`)).json()) as { data: Record<string, unknown>[] };
  expect(asServed.data.length).toBeGreaterThan(0);
  expect(asServed.data.every((task) => !("assignee" in task) && !("updatedAt" in task))).toBe(true);

  // A task's drawer: no assignee, no edit, no close-out; its history explained as not kept.
  await card.click();
  const drawer = page.getByRole("dialog");
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId("task-assignee-select")).toHaveCount(0);
  await expect(drawer.getByRole("button", { name: "Edit task" })).toHaveCount(0);
  await expect(drawer.locator("[data-close-out]")).toHaveCount(0);
  // The activity kind in words, though this service has no lookup values to name it (issue 25).
  const served = asServed.data.find((entry) => entry.id === taskId)!;
  const kind = drawer.locator("dt", { hasText: /^Activity kind$/ }).locator("xpath=following-sibling::dd[1]");
  expect(String(served.activityKind)).toMatch(/^[A-Z]{4,}(_[A-Z]+)*$/);
  await expect(kind).toHaveText(humanizeCode(String(served.activityKind)));
  await expect(kind).not.toHaveText(String(served.activityKind));
  await saveScreenshot(page, "spec-only-task-drawer", { fullPage: false });
  await expectAccessible(page);
  // A move is an extension too: refused in words, not a raw code.
  const move = drawer.getByRole("contentinfo").or(drawer).getByRole("button", { name: /Approve|Report done|Resume|Back to pending|Confirm and close|Approve postponement/ }).first();
  if (await move.count()) {
    await move.click();
    await expect(drawer.getByTestId("drawer-notice")).toContainText("does not offer task transitions");
    await expect(drawer.getByTestId("drawer-notice")).not.toContainText("FEATURE_UNAVAILABLE");
  }
  await page.keyboard.press("Escape");
  expect(service.requests.some((request) => request.method === "PATCH" || request.path.endsWith("/close-out"))).toBe(false);

  // The stock page: the parts list is an extension; the page says so.
  await page.goto("/plants/RTM1/stock");
  await expect(page.getByRole("main")).toContainText("does not offer the parts list");
  // …and does not claim that nothing is short.
  await expect(page.getByRole("region", { name: /To order/ })).toContainText("Not available");
  await expect(page.getByRole("main")).not.toContainText("0 parts are below");
  await saveScreenshot(page, "spec-only-stock");
  await expectAccessible(page);

  // Pages that need only the spec work as ever; none is wider than the window.
  for (const [route, visible] of [["/plants/RTM1/jobs", page.getByRole("table", { name: /Jobs done/ })], ["/plants/RTM1/planned", page.getByRole("heading", { name: "Planned work" })]] as const) {
    await page.goto(route);
    await expect(visible).toBeVisible();
  }
  for (const width of [1440, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/plants/RTM1/tasks?task=${encodeURIComponent(taskId)}`);
    await expect(page.getByRole("dialog")).toBeVisible();
    await expect(page.getByRole("dialog").locator("dt", { hasText: /^Activity kind$/ })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scrolling at ${width}px`).toBe(true);
    await saveScreenshot(page, `spec-only-task-drawer-${width}`, { fullPage: false });
  }
  expect(crashes, "uncaught errors in the page").toEqual([]);
  await context.close();
});
