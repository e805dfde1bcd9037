/**
 * The Monitors page in Chromium: an engineer starts from a template, previews it, is told in words
 * what is wrong with a bad schedule, creates it, runs it and follows a firing to its task; a
 * planner reads the same monitor without any way to change it. axe on each view.
 */
import { expect, expectAccessible, saveScreenshot, test } from "./fixtures";

const NAME = `E2E hot devices ${Date.now()}`;

test.describe("engineer", () => {
  test.use({ role: "engineer" });

  test("creates a monitor from a template, previews, runs it and reaches the task it opened", async ({ page }) => {
    await page.goto("/plants/RTM1/monitors");
    await expect(page.getByRole("heading", { name: "Monitors", level: 1 })).toBeVisible();
    await page.getByRole("link", { name: "New monitor" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/monitor=new/);
    await expect(page.getByTestId("kql-editor")).toBeVisible();
    await expectAccessible(page);

    // A template fills the query; the preview replays it over the last 24 hours.
    await page.getByLabel("Start from a template").selectOption("rate");
    await expect(page.getByLabel("Name")).toHaveValue("Temperature changing fast");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByTestId("preview-chart")).toContainText("replayed evaluations");

    // Bad input: refused by the server, shown at the field in words.
    await page.getByLabel("Runs every").fill("30s");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await expect(page.getByText("must be at least 1m").first()).toBeVisible();

    // A threshold every device passes, on the three first devices.
    await page.getByLabel("Start from a template").selectOption("threshold");
    await page.getByLabel("Runs every").fill("5m");
    const editor = page.getByTestId("kql-editor").locator(".cm-content");
    await editor.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.insertText('States | where Name == "Temperature" | summarize MaxValue = round(max(todouble(Value)), 2) by DeviceId | where MaxValue > -1000 | top 3 by DeviceId asc');
    await page.getByLabel("Name").fill(NAME);
    await page.getByLabel("Title").fill("{DeviceId}: temperature {MaxValue} °C");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await expect(page).toHaveURL(/monitor=\d+/);
    await expect(page.getByTestId("monitor-list")).toContainText(NAME);

    await page.getByRole("button", { name: "Run now" }).click();
    await expect(page.getByText(/3 opened/)).toBeVisible();
    const history = page.getByTestId("firing-history");
    await expect(history.getByRole("link")).toHaveCount(3);
    await expectAccessible(page);
    await saveScreenshot(page, "monitors-engineer");

    // The task knows which monitor opened it and links back.
    await history.getByRole("link").first().click();
    await expect(page).toHaveURL(/\/tasks\?task=/);
    const origin = page.getByTestId("task-monitor-origin");
    await expect(origin).toContainText(NAME);
    await expect(origin.getByRole("link", { name: "Its query in the explorer" })).toHaveAttribute("href", /\/telemetry\?q=/);
  });
});

test.describe("planner", () => {
  test.use({ role: "planner" });

  test("reads monitors and their firings, with nothing to change", async ({ page }) => {
    await page.goto("/plants/RTM1/monitors");
    await expect(page.getByRole("heading", { name: "Monitors", level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: "New monitor" })).toHaveCount(0);
    const first = page.getByTestId("monitor-list").getByRole("link").first();
    await first.click();
    await expect(page.getByRole("link", { name: "Open query in explorer" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Run now" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Edit" })).toHaveCount(0);
    await expectAccessible(page);
    await saveScreenshot(page, "monitors-planner");
  });
});
