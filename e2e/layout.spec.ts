/**
 * Layout as people meet it (issue: "Layout"): long unbroken titles wrap inside their card and the
 * drawer, the job table fits a 1440 px screen, every column of the task board can be reached (with a
 * visible cue), cards can be dragged with a finger as well as a mouse, the browser finds its icon,
 * and the asset page says where it looked for devices.
 */
import { expect, expectAccessibleInBothThemes, saveScreenshotsAtBothSizes, test, VIEWPORTS } from "./fixtures";
import { addDays, allPages, todayIso, type TTask } from "./helpers";
import type { TAsset } from "@/modules/maintenance/contract/maintenance";
import type { Locator, Page } from "@playwright/test";

/**
 * A board column is wholly on screen from side to side. Columns scroll inside the board and may be
 * taller than the window, so an area ratio (toBeInViewport) would measure the page's height instead.
 */
async function expectColumnInView(page: Page, column: Locator): Promise<void> {
  await expect
    .poll(async () => {
      const box = await column.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= page.viewportSize()!.width;
    })
    .toBe(true);
}

test("/favicon.ico is an icon, for signed-out visitors too", async ({ request }) => {
  const response = await request.get("/favicon.ico");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("image/");
  const bytes = await response.body();
  // ICO header: reserved 0, type 1 (icon), then the number of images.
  expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2)]).toEqual([0, 1]);
  expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
});

test.describe("planner", () => {
  test.use({ role: "planner", viewport: VIEWPORTS.desktop });

  test("the job table fits 1440 px: no sideways scroll, headers on one line, pager on one line", async ({ page }) => {
    await page.goto("/plants/RTM1/jobs");
    const table = page.getByRole("table", { name: "Jobs done at plant RTM1" });
    await expect(table.locator("tbody tr")).toHaveCount(50);
    const wrapper = table.locator("xpath=..");
    const overflow = await wrapper.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow, "the table needs no sideways scrolling").toBeLessThanOrEqual(0);
    await expect(table.getByRole("columnheader", { name: /Work order/ })).toBeInViewport({ ratio: 1 });

    // Every header sits on the same line (the right-aligned Hours header used to ride higher).
    const tops = await table.locator("thead th").evaluateAll((cells) => cells.map((cell) => Math.round((cell.firstElementChild ?? cell).getBoundingClientRect().top)));
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(1);
    const hours = await table.getByRole("columnheader", { name: /Hours/ }).boundingBox();
    const firstHours = await table.locator("tbody tr").first().locator("td").nth(6).boundingBox();
    // Right-aligned header over right-aligned numbers: their right edges line up.
    expect(Math.abs(hours!.x + hours!.width - (firstHours!.x + firstHours!.width))).toBeLessThanOrEqual(1);

    // The label's text is laid out on one line (it used to break into three beside a full-width select).
    const lines = await page.getByText("Rows per page").evaluate((label) => {
      const range = document.createRange();
      range.selectNodeContents(label.firstChild!);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines, "“Rows per page” stays on one line").toBe(1);
    await saveScreenshotsAtBothSizes(page, "layout-job-history");
    await expectAccessibleInBothThemes(page);
  });

  test("a long unbroken title wraps inside its card and inside the drawer", async ({ page, api }) => {
    const assets = await allPages<TAsset>(api.raw, "/api/plants/RTM1/assets");
    const title = `Check${"VibrationSpectrum".repeat(9)}End`;
    const created = await api.raw.post("/api/plants/RTM1/tasks", {
      data: { taskTitle: title, activityKind: "INSPECTION", priority: "P3", asset: { tagNumber: assets[0]!.tagNumber }, dueDate: addDays(todayIso(), 5) },
    });
    expect(created.ok()).toBeTruthy();
    const id = ((await created.json()) as { data: Array<{ id: string }> }).data[0]!.id;

    await page.goto(`/plants/RTM1/tasks?q=${id}`);
    const card = page.getByTestId(`task-card-${id}`);
    await expect(card).toBeVisible();
    const cardOverflow = await card.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(cardOverflow, "the card's text stays inside it").toBeLessThanOrEqual(0);

    await card.click();
    const drawer = page.getByRole("dialog", { name: title });
    await expect(drawer).toBeVisible();
    const heading = await drawer.getByRole("heading", { level: 2, name: title }).boundingBox();
    const close = await drawer.getByRole("button", { name: "Close" }).boundingBox();
    expect(heading!.x + heading!.width, "the title ends before the close button").toBeLessThanOrEqual(close!.x);
    const dialogBox = await drawer.boundingBox();
    expect(heading!.x + heading!.width).toBeLessThanOrEqual(dialogBox!.x + dialogBox!.width);
    await saveScreenshotsAtBothSizes(page, "layout-long-title-drawer", { fullPage: false });
    await expectAccessibleInBothThemes(page);
  });

  test("the asset page says where it looked for devices when an asset has none", async ({ page, api }) => {
    const assets = await allPages<TAsset>(api.raw, "/api/plants/RTM1/assets");
    // Areas and lines carry no devices: telemetry is recorded per machine.
    const area = assets.find((asset) => asset.assetType === "AREA") ?? assets.find((asset) => !asset.parentTagNumber)!;
    await page.goto(`/plants/RTM1/planned?view=assets&asset=${area.tagNumber}&range=7d`);
    const empty = page.getByText(/No device reported data with topology reference/);
    await expect(empty).toBeVisible();
    await expect(empty).toContainText("in the last 24 hours of this range (");
    await expect(empty).not.toContainText("last day of this range");
    await page.getByLabel("Time range").selectOption("1h");
    await expect(page.getByText(/No device reported data with topology reference/)).toContainText("in this range.");
  });
});

test.describe("supervisor", () => {
  test.use({ role: "supervisor" });

  for (const size of [VIEWPORTS.desktop, VIEWPORTS.tablet]) {
    test(`all seven columns are reachable at ${size.width} px, with a visible cue`, async ({ page }) => {
      await page.setViewportSize(size);
      await page.goto("/plants/RTM1/tasks");
      await expect(page.getByTestId("count-CLOSED")).not.toHaveText("…");
      const hint = page.getByTestId("board-scroll-hint");
      await expect(hint).toContainText(/Showing \d of 7 columns/);
      const closed = page.getByRole("region", { name: /^Closed/ });
      await expect(closed).not.toBeInViewport({ ratio: 0.5 });
      const right = page.getByTestId("board-scroll-right");
      await expect(right).toBeVisible();
      await saveScreenshotsAtBothSizes(page, `layout-task-board-${size.width}`, { fullPage: false });
      await page.setViewportSize(size);
      // The arrow button steps column by column until the last one is in view.
      for (let step = 0; step < 7 && (await right.isVisible()); step += 1) {
        await right.click();
        await page.waitForTimeout(350);
      }
      await expectColumnInView(page, closed);
      await expect(page.getByTestId("board-scroll-left")).toBeVisible();
      await expectAccessibleInBothThemes(page);

      // The strip takes focus; the keyboard scrolls it back.
      await page.getByRole("region", { name: "Task board, 7 columns" }).focus();
      await page.keyboard.press("Home");
      await expect(page.getByTestId("board-scroll-left")).toBeHidden();
      await expectColumnInView(page, page.getByRole("region", { name: /^Needs approval/ }));
    });
  }
});

test.describe("supervisor on a touch screen", () => {
  test.use({ role: "supervisor", hasTouch: true, viewport: VIEWPORTS.tablet });

  test("a long press lifts a card and a finger drags it to a column that accepts it", async ({ page, api }) => {
    const postponed = await allPages<TTask>(api.raw, "/api/plants/RTM1/tasks?taskStatus=POSTPONED");
    const task = postponed[0]!;
    await page.goto(`/plants/RTM1/tasks?status=PENDING,POSTPONED&q=${task.id}`);
    const card = page.getByTestId(`task-card-${task.id}`);
    await expect(card).toHaveAttribute("data-movable", "true");
    const from = (await card.boundingBox())!;
    const to = (await page.getByRole("region", { name: /^Pending/ }).boundingBox())!;
    const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
    const end = { x: to.x + to.width / 2, y: to.y + 60 };

    // Real touch input through the browser (Chromium turns it into touch pointer events).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: start.x, y: start.y }] });
    await page.waitForTimeout(600);
    for (let step = 1; step <= 12; step += 1) {
      const x = start.x + ((end.x - start.x) * step) / 12;
      const y = start.y + ((end.y - start.y) * step) / 12;
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y }] });
      await page.waitForTimeout(30);
    }
    await expect(page.getByRole("region", { name: /^Pending/ })).toHaveAttribute("data-drop", "allowed");
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });

    await expect(page.getByText(`${task.id} moved to Pending.`)).toBeVisible();
    expect((await api.get<TTask>(`/api/plants/RTM1/tasks/${task.id}`)).status).toBe("PENDING");
    // A drag is not a tap: the task's drawer did not open.
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });
});
