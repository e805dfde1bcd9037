/**
 * The notification centre in Chromium (docs/api.md, "Notifications"): an engineer's work request
 * makes the supervisor's bell count it (its accessible name carries the count); the Notifications
 * page lists it with a link to the task, "Unread only" is in the URL, and "Mark all read" clears
 * the bell. Keyboard only, axe clean in both themes, no sideways scroll at 1440/820/390 px. And the
 * shell: on a long board the side column's background reaches the bottom of the page.
 */
import type { Page } from "@playwright/test";
import { expect, expectAccessibleInBothThemes, saveScreenshotsAtBothSizes, test } from "./fixtures";

async function noSidewaysScroll(page: Page) {
  for (const width of [1440, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(200);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test.describe("supervisor", () => {
  test.use({ role: "supervisor" });

  test("the bell counts a work request and clears when all are read", async ({ page, api, playwright, sessionFor, baseURL }) => {
    // Start from nothing unread (other specs may have raised requests on this server).
    expect((await api.raw.post("/api/notifications/read", { data: { all: true } })).ok()).toBeTruthy();
    await page.goto("/plants/RTM1");
    const bell = page.getByRole("link", { name: /^Notifications, / });
    await expect(bell).toHaveAccessibleName("Notifications, none unread");

    // An engineer raises a work request; it waits for this supervisor's approval.
    const engineer = await playwright.request.newContext({ baseURL, storageState: await sessionFor("engineer") });
    const asset = ((await (await engineer.get("/api/plants/RTM1/assets?pageSize=1")).json()) as { data: { tagNumber: string }[] }).data[0]!.tagNumber;
    const value = async (kind: string) => ((await (await engineer.get(`/api/plants/RTM1/lookup-values?kind=${kind}`)).json()) as { data: { value: string }[] }).data[0]!.value;
    const created = await engineer.post("/api/plants/RTM1/tasks", { data: { taskTitle: "Leaking valve at line 2", activityKind: await value("activityKind"), priority: await value("priority"), asset: { tagNumber: asset } } });
    expect(created.ok(), await created.text()).toBeTruthy();
    const taskId = ((await created.json()) as { data: { id: string }[] }).data[0]!.id;
    await engineer.dispose();

    // The bell polls every 30 s; a reload asks at once.
    await page.reload();
    await expect(bell).toHaveAccessibleName("Notifications, 1 unread");

    // Keyboard only: reach the bell with Tab and follow it.
    await page.keyboard.press("Tab"); // skip link
    for (let index = 0; index < 12; index += 1) {
      if (await bell.evaluate((element) => element === document.activeElement)) break;
      await page.keyboard.press("Tab");
    }
    await expect(bell).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
    const link = page.getByRole("link", { name: /Approval needed: .*Leaking valve at line 2/ });
    await expect(link).toHaveAttribute("href", `/plants/RTM1/tasks?task=${taskId}`);
    await expect(page.getByText("1 unread")).toBeVisible();

    await page.getByRole("button", { name: "Unread only" }).click();
    await expect(page).toHaveURL(/\?show=unread$/);
    await expect(link).toBeVisible();
    await expectAccessibleInBothThemes(page);
    await saveScreenshotsAtBothSizes(page, "notifications-unread");
    await noSidewaysScroll(page);

    await page.getByRole("button", { name: "Mark all read" }).click();
    await expect(bell).toHaveAccessibleName("Notifications, none unread");
    await expect(page.getByText("Nothing unread")).toBeVisible();
    await page.getByRole("button", { name: "All", exact: true }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(link).toBeVisible();

    // Preferences: turn approvals off and the choice is kept.
    await page.getByRole("checkbox", { name: "Approvals waiting for me" }).uncheck();
    await page.getByRole("button", { name: "Save preferences" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("checkbox", { name: "Approvals waiting for me" })).not.toBeChecked();
    await expectAccessibleInBothThemes(page);
    await saveScreenshotsAtBothSizes(page, "notifications-all");
    await page.getByRole("checkbox", { name: "Approvals waiting for me" }).check();
    await page.getByRole("button", { name: "Save preferences" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
  });

  test("on a long board the side column's background reaches the bottom", async ({ page, api }) => {
    const boards = await api.get<{ data: { id: number | string }[] }>("/api/plants/RTM1/dashboards");
    await page.setViewportSize({ width: 1440, height: 700 });
    await page.goto(`/plants/RTM1/dashboards/${boards.data[0]!.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForTimeout(1500);
    const { pageHeight, columnBottom, viewport } = await page.evaluate(() => {
      const column = document.getElementById("side-nav")!.parentElement!;
      return { pageHeight: document.documentElement.scrollHeight, columnBottom: column.getBoundingClientRect().bottom + window.scrollY, viewport: window.innerHeight };
    });
    expect(pageHeight, "the board is longer than the window").toBeGreaterThan(viewport);
    expect(columnBottom).toBeGreaterThanOrEqual(pageHeight - 1);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.screenshot({ path: test.info().outputPath("long-board-bottom-1440.png") });
  });
});
