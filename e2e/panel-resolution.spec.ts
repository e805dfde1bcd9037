/**
 * Dashboard panels resolve like the explorer (docs/api.md, "Dashboards"; docs/explorer.md): a board
 * of raw samples of every device — the query that failed with "more than 500,000 rows" over 30 days
 * — draws over 30 and over 365 days, each line/column panel having sent its plot's width; "Show full
 * resolution" is per panel and goes back by keyboard; an unnamed count is titled "Count", never
 * `count_`. Each role reads the board at 1366, 820 and 390 px, with axe and no sideways scroll.
 */
import type { Page, Request } from "@playwright/test";
import { expect, expectAccessible, saveScreenshot, test, type Role } from "./fixtures";

const RAW_QUERY = "States\n| where Name == $point\n| project Timestamp, DeviceId, Value";

const BOARD = {
  title: `E2E resolution board ${Date.now()}`,
  description: "Raw samples of every device",
  range: "30d",
  refresh: "off",
  variables: [{ name: "point", label: "Data point", kind: "dataPoint", default: "Temperature" }],
  panels: [
    { id: "raw", title: "Every device, raw samples", query: RAW_QUERY, chart: "line", unit: "", width: "full" },
    { id: "hourly", title: "Hourly samples", query: "States\n| where Name == $point\n| summarize count() by bin(Timestamp, 1m)", chart: "column", unit: "", width: "half" },
    { id: "count", title: "Samples", query: "States | where Timestamp > $__from and Timestamp <= $__to | summarize count()", chart: "stat", unit: "", width: "half" },
  ],
};

let boardId = 0;

async function panelRequests(page: Page, run: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const bodies: Record<string, unknown>[] = [];
  const listener = (request: Request) => {
    if (request.url().endsWith("/api/telemetry/query") && request.method() === "POST") bodies.push(request.postDataJSON() as Record<string, unknown>);
  };
  page.on("request", listener);
  await run();
  page.off("request", listener);
  return bodies;
}

async function expectDrawn(page: Page): Promise<void> {
  const raw = page.getByRole("article", { name: "Every device, raw samples" });
  await expect(raw.getByTestId("time-series-chart")).toBeVisible();
  await expect(raw.getByRole("alert")).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Hourly samples" }).getByTestId("category-chart")).toBeVisible();
  const stat = page.getByRole("article", { name: "Samples", exact: true }).getByTestId("panel-stat");
  await expect(stat).toContainText("Count");
  await expect(stat).not.toContainText("count_");
}

test.describe("engineer", () => {
  test.use({ role: "engineer" });

  test("a 30-day and a 365-day board of every device's raw samples draw, each chart sending its width", async ({ page }) => {
    const created = await page.request.post("/api/plants/RTM1/dashboards", { data: BOARD });
    expect(created.status()).toBe(201);
    boardId = ((await created.json()) as { id: number }).id;

    for (const range of ["30d", "365d"]) {
      const bodies = await panelRequests(page, async () => {
        await page.goto(`/plants/RTM1/dashboards/${boardId}?range=${range}`);
        await expectDrawn(page);
      });
      // The first view may come with the server's answers (asked at the same width); a query from the page sends its width.
      for (const body of bodies) {
        if (String(body.query).includes("project Timestamp, DeviceId, Value")) expect(body.resolution).toMatchObject({ width: expect.any(Number) });
        if (String(body.query).includes("summarize count()\n") || String(body.query).endsWith("summarize count()")) expect(body.resolution).toBeUndefined();
      }
      await saveScreenshot(page, `panel-resolution-${range}`);
    }

    // The server brought the raw samples within the width: the same request as the panel's answers with meta.resolution.
    const end = Math.floor(Date.now() / 1000) * 1000;
    const answer = await page.request.post("/api/telemetry/query", {
      data: { query: RAW_QUERY.replace("$point", '"Temperature"'), startTime: new Date(end - 365 * 86_400_000).toISOString(), endTime: new Date(end).toISOString(), plantIds: ["RTM1"], resolution: { width: 1600 } },
    });
    expect(answer.status()).toBe(200);
    const body = (await answer.json()) as { data: { rows: unknown[] }; meta: { resolution: { method: string } | null } };
    expect(body.data.rows.length).toBeGreaterThan(0);
    if (body.meta.resolution) expect(body.meta.resolution.method).toBe("minmax");
  });

  test("full resolution is per panel, for its query, and returns by keyboard", async ({ page }) => {
    test.skip(boardId === 0, "needs the board of the test before");
    await page.goto(`/plants/RTM1/dashboards/${boardId}?range=24h`);
    const raw = page.getByRole("article", { name: "Every device, raw samples" });
    await expect(raw.getByTestId("time-series-chart")).toBeVisible();
    const full = raw.getByRole("button", { name: /Show full resolution/ });
    if ((await full.count()) === 0) test.skip(true, "the demo's rows fit this width: nothing to reduce");
    await full.focus();
    await page.keyboard.press("Enter");
    await expect(raw.getByTestId("resolution-note")).toContainText("full resolution");
    // Another data point is another query: back to the automatic resolution.
    await page.getByLabel("Data point").selectOption({ index: 1 });
    await expect(raw.getByTestId("resolution-note")).not.toContainText("Every point the query returns is drawn");
  });
});

for (const role of ["planner", "supervisor", "engineer", "admin"] as Role[]) {
  test.describe(role, () => {
    test.use({ role });
    test(`reads the 30-day board at 1366, 820 and 390 px, axe-clean, without sideways scroll`, async ({ page }) => {
      test.skip(boardId === 0, "needs the board of the engineer's test");
      for (const width of [1366, 820, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/plants/RTM1/dashboards/${boardId}`);
        await expectDrawn(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, "sideways scroll").toBeLessThanOrEqual(0);
        await expectAccessible(page);
        // Keyboard only: Tab reaches the board's range picker.
        await page.keyboard.press("Tab");
        await expect(page.locator(":focus")).toBeVisible();
        await saveScreenshot(page, `panel-resolution-${role}-${width}`);
      }
    });
  });
}
