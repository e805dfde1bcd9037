/**
 * Security headers as the browser meets them: every page carries a nonce-based CSP that Chromium
 * enforces without a single violation while the page loads and works (charts, the editor), framing
 * is refused, MIME sniffing is off, and the referrer stays on this site. `/api/` answers carry
 * their own strict policy, and next-auth cannot be made to name another host through
 * X-Forwarded-Host.
 */
import type { Page, Response } from "@playwright/test";
import { expect, signInThroughApi, test } from "./fixtures";

test.use({ role: "admin" });

const PAGES = ["/", "/plants/RTM1", "/plants/RTM1/jobs", "/plants/RTM1/planned", "/plants/RTM1/tasks", "/plants/RTM1/stock", "/plants/RTM1/telemetry", "/docs/api"];

/** CSP violations as the page itself reports them, and as Chromium logs them. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const logged: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) logged.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return async () => [...logged, ...(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp))];
}

function expectPageHeaders(response: Response | null, what: string) {
  const headers = response!.headers();
  const policy = headers["content-security-policy"] ?? "";
  expect(policy, what).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  expect(policy, what).toContain("frame-ancestors 'none'");
  expect(policy, what).not.toContain("'unsafe-eval'");
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["x-frame-options"], what).toBe("DENY");
  expect(headers["referrer-policy"], what).toBe("same-origin");
}

test("every page loads and works under its CSP without a violation", async ({ page }) => {
  test.setTimeout(180_000);
  const violations = await watchViolations(page);
  const nonces = new Set<string>();
  for (const path of PAGES) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    expectPageHeaders(response, path);
    nonces.add(/'nonce-([^']+)'/.exec(response!.headers()["content-security-policy"]!)![1]!);
    await expect(page.locator("h1").first()).toBeVisible();
    // Hydrated: React's scripts ran (they carry the nonce) and the theme script did too.
    await expect(page.locator("html")).toHaveAttribute("style", /color-scheme/);
    expect(await violations(), path).toEqual([]);
  }
  // A fresh nonce per response.
  expect(nonces.size).toBe(PAGES.length);

  // The explorer at work: the editor injects its styles, the chart draws.
  await page.goto("/plants/RTM1/telemetry");
  await page.locator(".cm-content").click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText('States | where Name == "Temperature" | summarize avg(Value) by bin(Timestamp, 1h)');
  await page.keyboard.press("Shift+Enter");
  await expect(page.getByTestId("query-status")).toContainText(/\d[\d,]* rows/);
  await expect(page.locator("path.series-line").first()).toBeVisible();
  expect(await violations()).toEqual([]);
});

test("the sign-in page has the same headers, and a framed page is refused", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = await watchViolations(page);
  const response = await page.goto("/signin");
  expectPageHeaders(response, "/signin");
  await expect(page.getByRole("heading", { name: "Sign in to Plantdesk" })).toBeVisible();
  expect(await violations()).toEqual([]);
  // Framed by a page of another origin (about:blank here): frame-ancestors 'none' keeps it empty.
  await page.setContent(`<iframe id="f" src="${new URL("/signin", page.url()).href}"></iframe>`);
  await page.waitForTimeout(1500);
  const framed = page.frames().find((frame) => frame !== page.mainFrame());
  // Chromium may put its own error page (with a heading of its own) in the frame: what must not be
  // there is the sign-in page itself.
  expect(await framed?.getByText("Sign in to Plantdesk").count().catch(() => 0)).toBe(0);
  await context.close();
});

test("assets and API answers carry their headers; next-auth ignores X-Forwarded-Host", async ({ page, api, playwright }) => {
  await page.goto("/plants/RTM1");
  const script = await page.locator("script[src]").first().getAttribute("src");
  const asset = await api.raw.get(script!);
  expect(asset.headers()["x-content-type-options"]).toBe("nosniff");
  const me = await api.raw.get("/api/me");
  expect(me.headers()["content-security-policy"]).toMatch(/default-src 'none'/);
  expect(me.headers()["x-content-type-options"]).toBe("nosniff");

  const providers = await api.raw.get("/api/auth/providers", { headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } });
  const text = await providers.text();
  expect(text).toContain("/api/auth/callback/credentials");
  expect(text).not.toContain("evil.example");
  // Signing out ends the session on the server: a session of its own, not the worker's shared admin one.
  const own = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await signInThroughApi(own, "admin");
  const csrf = await own.get("/api/auth/csrf", { headers: { "x-forwarded-host": "evil.example" } });
  expect(csrf.ok()).toBeTruthy();
  const signOut = await own.post("/api/auth/signout", {
    headers: { "x-forwarded-host": "evil.example" },
    form: { csrfToken: ((await csrf.json()) as { csrfToken: string }).csrfToken, callbackUrl: "/signin", json: "true" },
    maxRedirects: 0,
  });
  expect(await signOut.text()).not.toContain("evil.example");
  await own.dispose();
});
