/**
 * Shared Playwright fixtures: sign in as a demo role (`test.use({ role: "planner" })`), call the
 * dashboard's own API with the same session (`api`), check accessibility with axe, and save a
 * screenshot of a page under test-results/screenshots/.
 *
 * Sessions are made once per worker and role through next-auth's own endpoints (CSRF token, then
 * the credentials callback), so each test starts signed in without typing a password.
 */
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type APIRequestContext, type Locator, type Page, type PlaywrightWorkerArgs } from "@playwright/test";

export type Role = "planner" | "supervisor" | "engineer" | "admin";
type StorageState = Awaited<ReturnType<APIRequestContext["storageState"]>>;

export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? "e2e-demo-password";
const emailOf = (role: Role) => `${role}@plantdesk.demo`;

/** Demo users' plants (lib/auth/demo-users.ts). */
export const PLANTS_OF: Record<Role, string[]> = {
  planner: ["RTM1", "HOU1"],
  supervisor: ["RTM1"],
  engineer: ["RTM1", "OUL1"],
  admin: ["RTM1", "HOU1", "OUL1"],
};

/** Signs a request context in through next-auth's credentials callback: a demo role, or a user's own e-mail and password. */
export async function signInThroughApi(request: APIRequestContext, who: Role | { email: string; password: string }): Promise<void> {
  const { email, password } = typeof who === "string" ? { email: emailOf(who), password: DEMO_PASSWORD } : who;
  await credentialsCallback(request, "credentials", { email, password });
  const state = await request.storageState();
  expect(state.cookies.some((cookie) => cookie.name.endsWith("next-auth.session-token")), `signed in as ${email}`).toBeTruthy();
}

async function credentialsCallback(request: APIRequestContext, provider: string, fields: Record<string, string>): Promise<void> {
  const csrf = await request.get("/api/auth/csrf");
  expect(csrf.ok()).toBeTruthy();
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await request.post(`/api/auth/callback/${provider}`, { form: { ...fields, csrfToken, json: "true", callbackUrl: "/" }, maxRedirects: 0 });
  expect([200, 302]).toContain(response.status());
}

/**
 * A user of the test's own (an admin adds them, the invitation is accepted with a password), for
 * tests that end sessions: the demo roles' sessions are shared by every test of the worker.
 */
export async function userOfItsOwn(playwright: PlaywrightWorkerArgs["playwright"], baseURL: string | undefined, user: { name: string; role: Role; plants: string[] }): Promise<{ email: string; password: string }> {
  const email = `${user.name.toLowerCase().replace(/[^a-z]+/g, ".")}.${Date.now()}@plantdesk.test`;
  const password = `pw-${Date.now()}-own-user`;
  const admin = await playwright.request.newContext({ baseURL });
  await signInThroughApi(admin, "admin");
  const created = await admin.post("/api/users", { data: { email, name: user.name, role: user.role, plants: user.plants } });
  expect(created.ok(), await created.text()).toBeTruthy();
  const { invitation } = (await created.json()) as { invitation: { url: string } };
  await admin.dispose();
  const newcomer = await playwright.request.newContext({ baseURL });
  await credentialsCallback(newcomer, "invitation", { token: new URL(invitation.url).pathname.split("/").pop()!, password });
  // Accepting signed the newcomer in: end that session, so the user starts with none.
  const sessions = (await (await newcomer.get("/api/account/sessions")).json()) as { data: { handle: string; current: boolean }[] };
  const current = sessions.data.find((session) => session.current)!;
  expect((await newcomer.delete(`/api/account/sessions/${current.handle}`)).ok()).toBeTruthy();
  await newcomer.dispose();
  return { email, password };
}

interface Fixtures {
  /** Sign in as this demo role before the test (null: stay signed out). */
  role: Role | null;
  /** The dashboard's `/api/` with the test's session: GET returns parsed JSON, failing on non-2xx. */
  api: { get: <T>(path: string) => Promise<T>; raw: APIRequestContext };
}

interface WorkerFixtures {
  sessionFor: (role: Role) => Promise<StorageState>;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  role: [null, { option: true }],

  sessionFor: [
    async ({ playwright }, provide, workerInfo) => {
      const cache = new Map<Role, Promise<StorageState>>();
      const baseURL = workerInfo.project.use.baseURL;
      await provide((role) => {
        let state = cache.get(role);
        if (!state) {
          state = (async () => {
            const request = await playwright.request.newContext({ baseURL });
            await signInThroughApi(request, role);
            const result = await request.storageState();
            await request.dispose();
            return result;
          })();
          cache.set(role, state);
        }
        return state;
      });
    },
    { scope: "worker" },
  ],

  // Fixture callbacks name their second argument `provide`, not `use`: React's lint rules would
  // take `use(...)` for the React hook.
  storageState: async ({ role, sessionFor, storageState }, provide) => {
    await provide(role ? await sessionFor(role) : storageState);
  },

  // Every page leaves the app before its context is torn down: its background queries (refetches,
  // live refresh) cannot then hold up closing the context on a busy machine.
  page: async ({ page }, provide) => {
    await provide(page);
    await page.goto("about:blank").catch(() => undefined);
  },

  api: async ({ page }, provide) => {
    const raw = page.request;
    await provide({
      raw,
      async get<T>(path: string) {
        const response = await raw.get(path);
        expect(response.ok(), `GET ${path} → ${response.status()}`).toBeTruthy();
        return (await response.json()) as T;
      },
    });
  },
});

export { expect };

/** axe-core over the page (WCAG 2.x A/AA rules): no serious or critical violation allowed. */
export async function expectAccessible(page: Page, options: { exclude?: string[] } = {}): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  // Buttons fade their colours (transition-colors): judge the colours they settle on, not a frame
  // of the fade after a theme switch or a focus change (a mid-fade frame failed color-contrast once).
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  const results = await builder.analyze();
  const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  const report = serious.map((violation) => `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.nodes.slice(0, 3).map((node) => node.target.join(" ")).join("\n  ")}`);
  expect(report, "serious/critical accessibility violations").toEqual([]);
}

/**
 * A screenshot under test-results/screenshots/ (kept for people to look at): the whole page, or
 * just the viewport when something floats over it (a drawer, a menu).
 */
export async function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: options.fullPage ?? true });
}

/** Reads a download's text (CSV) and splits it into rows of cells (RFC 4180, as lib/client/csv writes it). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const input = text.replace(/^\uFEFF/, "");
  for (let index = 0; index < input.length; index += 1) {
    const char = input[index]!;
    if (quoted) {
      if (char === '"' && input[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(cell);
      cell = "";
    } else if (char === "\n") {
      row.push(cell.replace(/\r$/, ""));
      rows.push(row);
      row = [];
      cell = "";
    } else cell += char;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The two sizes every changed page is checked at: a laptop and a tablet held upright. */
export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  tablet: { width: 820, height: 1180 },
} as const;

/** Switches the theme the way the toggle does (class on <html>, remembered in localStorage). */
export async function setTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.evaluate((next) => {
    document.documentElement.classList.toggle("dark", next === "dark");
    document.documentElement.style.colorScheme = next;
    localStorage.setItem("plantdesk-theme", next);
  }, theme);
}

/** axe in the light and in the dark theme; leaves the page light. */
export async function expectAccessibleInBothThemes(page: Page, options: { exclude?: string[] } = {}): Promise<void> {
  await setTheme(page, "light");
  await expectAccessible(page, options);
  await setTheme(page, "dark");
  await expectAccessible(page, options);
  await setTheme(page, "light");
}

/**
 * Screenshots at 1440×900 and 820×1180 (`<name>-1440.png`, `<name>-820.png`), each after the layout
 * has settled at that size; the viewport is restored afterwards.
 */
export async function saveScreenshotsAtBothSizes(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const before = page.viewportSize();
  for (const size of [VIEWPORTS.desktop, VIEWPORTS.tablet]) {
    await page.setViewportSize(size);
    // Charts and the board's scroll cues re-measure on resize; a full-page shot starts at the top
    // (else the sticky header is pictured where the page was scrolled to).
    await page.waitForTimeout(400);
    if (options.fullPage ?? true) await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(page, `${name}-${size.width}`, options);
  }
  if (before) await page.setViewportSize(before);
}

/** Presses Tab until `target` has the focus (keyboard only), failing after `limit` presses. */
export async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  for (let index = 0; index < limit; index += 1) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

/**
 * The page at a desktop's, a tablet's and a phone's width (1366, 820, 390 px): never wider than the
 * window, and pictured at each (`<name>-<width>.png`); back to 1366 × 900 after.
 */
export async function atThreeWidths(page: Page, name: string): Promise<void> {
  for (const width of [1366, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}
