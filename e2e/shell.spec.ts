/** The frame around every page: sign-in gate, landing, plant switcher, navigation, tablet layout. */
import { expect, expectAccessible, PLANTS_OF, saveScreenshot, test } from "./fixtures";

test.describe("signed out", () => {
  test("a page sends the visitor to sign-in and back after signing in", async ({ page }) => {
    await page.goto("/plants/RTM1/jobs?kind=CORRECTIVE");
    await expect(page).toHaveURL(/\/signin/);
    await page.getByLabel("E-mail").fill("planner@plantdesk.demo");
    await page.getByLabel("Password").fill(process.env.DEMO_PASSWORD ?? "e2e-demo-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/plants\/RTM1\/jobs\?kind=CORRECTIVE$/);
    await expect(page.getByRole("heading", { level: 1, name: "Job history" })).toBeVisible();
  });
});

test.describe("supervisor", () => {
  test.use({ role: "supervisor" });

  test("/ opens the first plant; the switcher lists only the user's plants; another plant is refused", async ({ page, api }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/plants\/RTM1$/);
    const options = page.getByRole("combobox", { name: "Plant" }).locator("option");
    await expect(options).toHaveText(PLANTS_OF.supervisor.map((id) => new RegExp(`\\(${id}\\)`)));

    await page.goto("/plants/HOU1/jobs");
    await expect(page.getByText("No access to this plant")).toBeVisible();
    const refused = await api.raw.get("/api/plants/HOU1/jobs-done");
    expect(refused.status()).toBe(403);
  });
});

test.describe("planner", () => {
  test.use({ role: "planner" });

  test("switching plant keeps the page; the navigation follows the role's permissions", async ({ page, api }) => {
    const me = await api.get<{ permissions: string[]; plants: Array<{ id: string }> }>("/api/me");
    expect(me.plants.map((plant) => plant.id).sort()).toEqual([...PLANTS_OF.planner].sort());
    await page.goto("/plants/RTM1/tasks");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Task board" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Telemetry" })).toHaveCount(me.permissions.includes("telemetry:query") ? 1 : 0);

    await page.getByRole("combobox", { name: "Plant" }).selectOption("HOU1");
    await expect(page).toHaveURL(/\/plants\/HOU1\/tasks$/);
    await expect(page.getByRole("heading", { level: 1, name: "Task board" })).toBeVisible();
    await expect(page.getByText(/tasks at plant HOU1/)).toBeVisible();
  });

  test("tablet width: the navigation folds behind a menu button", async ({ page }) => {
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.goto("/plants/RTM1");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Job history" })).not.toBeInViewport();
    await page.getByRole("button", { name: "Open navigation" }).click();
    await expect(nav.getByRole("link", { name: "Job history" })).toBeInViewport();
    await saveScreenshot(page, "shell-tablet-nav-open", { fullPage: false });
    await nav.getByRole("link", { name: "Job history" }).click();
    await expect(page).toHaveURL(/\/plants\/RTM1\/jobs$/);
    await expect(nav.getByRole("link", { name: "Job history" })).not.toBeInViewport();
    await expect(page.getByTestId("hours-chart")).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "no sideways scrolling of the page").toBeLessThanOrEqual(0);
    await saveScreenshot(page, "job-history-tablet");
    await expectAccessible(page);
  });
});
