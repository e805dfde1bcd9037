/**
 * An engineer's day in the telemetry explorer: write KQL with completion, run it from the
 * keyboard, read the chart and the table, zoom, export CSV (the rows the API returns), find the
 * query again in the history, star it, and share the link. A bad query is marked in the editor.
 */
import { readFile } from "node:fs/promises";
import { expect, expectAccessible, parseCsv, saveScreenshot, test } from "./fixtures";
import { fixedWindow, typeQuery, type QueryResponse } from "./helpers";
import type { Page } from "@playwright/test";

test.use({ role: "engineer" });

const PLANT = "RTM1";

async function firstDevice(page: Page): Promise<string> {
  const response = await page.request.post("/api/telemetry/query", {
    data: { query: 'States | where Name == "Temperature" | distinct DeviceId | order by DeviceId asc | take 1', ...fixedWindow(), plantIds: [PLANT] },
  });
  expect(response.ok()).toBeTruthy();
  const body = (await response.json()) as QueryResponse;
  return String(body.data.rows[0]![0]);
}

test("run a query with the keyboard, read the chart and the table, and share the link", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`/plants/${PLANT}/telemetry`);
  await expect(page.getByRole("heading", { level: 1, name: "Telemetry explorer" })).toBeVisible();
  await expect(page.getByText("Run a query to see results")).toBeVisible();
  const device = await firstDevice(page);

  // Completion offers tables at the start and columns after `where`.
  await typeQuery(page, "Sta");
  await page.keyboard.press("Control+Space");
  await expect(page.getByRole("option", { name: /States/ })).toBeVisible();
  await page.keyboard.press("Escape");

  await typeQuery(page, `States\n| where DeviceId == "${device}" and Name == "Temperature"\n| project Timestamp, Name, Value`);
  await page.keyboard.press("Shift+Enter");
  await expect(page).toHaveURL(/q=States/);
  await expect(page.getByTestId("query-status")).toContainText(/\d[\d,]* rows · \d[\d,]* ms/);
  const curve = page.locator("path.series-line").first();
  await expect(curve).toBeVisible();
  expect((await curve.getAttribute("d"))?.length ?? 0).toBeGreaterThan(500);
  await expectAccessible(page);
  await saveScreenshot(page, "telemetry-chart");

  // The table is a view of the same result; the choice is part of the link.
  await page.getByRole("button", { name: "table", exact: true }).click();
  await expect(page).toHaveURL(/view=table/);
  await expect(page.getByTestId("result-table").locator("tbody tr")).toHaveCount(100);
  await expect(page.getByTestId("result-table").locator("thead")).toContainText("Timestamp");
  await saveScreenshot(page, "telemetry-table");

  // Reloading the link shows the same query, range and view, and runs it again.
  await page.reload();
  await expect(page.locator(".cm-content")).toContainText(`DeviceId == "${device}"`);
  await expect(page.getByRole("button", { name: "table", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("result-table").locator("tbody tr").first()).toBeVisible();
  await expect(page.getByLabel("Time range")).toHaveValue("24h");
});

test("Ctrl+Enter runs too; dragging across the chart narrows the range in the URL", async ({ page }) => {
  const device = await firstDevice(page);
  const { startTime, endTime } = fixedWindow();
  const query = `States | where DeviceId == "${device}" and Name == "Temperature"`;
  await page.goto(`/plants/${PLANT}/telemetry?from=${startTime}&to=${endTime}&plants=${PLANT}&view=chart`);
  await typeQuery(page, query);
  await page.keyboard.press("Control+Enter");
  const chart = page.getByTestId("time-series-chart");
  await expect(chart.locator("path.series-line").first()).toBeVisible();

  // The mouse only reaches what is on screen.
  await chart.scrollIntoViewIfNeeded();
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(page).not.toHaveURL(new RegExp(`from=${encodeURIComponent(startTime)}`));
  const params = new URL(page.url()).searchParams;
  const span = Date.parse(params.get("to")!) - Date.parse(params.get("from")!);
  expect(span).toBeLessThan((Date.parse(endTime) - Date.parse(startTime)) * 0.4);
  expect(Date.parse(params.get("from")!)).toBeGreaterThan(Date.parse(startTime));
  await expect(chart.locator("path.series-line").first()).toBeVisible();
});

test("the CSV holds exactly the rows the API returns", async ({ page }) => {
  const device = await firstDevice(page);
  const window_ = fixedWindow();
  const query = `States\n| where DeviceId == "${device}"\n| project Timestamp, Name, Value, DataMetadata\n| order by Timestamp asc, Name asc\n| take 500`;
  const api = await page.request.post("/api/telemetry/query", { data: { query, ...window_, plantIds: [PLANT] } });
  const expected = (await api.json()) as QueryResponse;

  const params = new URLSearchParams({ q: query, from: window_.startTime, to: window_.endTime, plants: PLANT, view: "table" });
  await page.goto(`/plants/${PLANT}/telemetry?${params}`);
  await expect(page.getByTestId("query-status")).toContainText(`${expected.data.rows.length} rows`);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const csv = parseCsv(await readFile((await (await download).path())!, "utf8"));
  expect(csv[0]).toEqual(expected.data.columns.map((c) => c.name));
  const cells = (row: unknown[]) => row.map((cell) => (cell === null ? "" : typeof cell === "object" ? JSON.stringify(cell) : String(cell)));
  expect(csv.slice(1)).toEqual(expected.data.rows.map(cells));
});

test("a bad query is marked in the editor and explained after running", async ({ page }) => {
  await page.goto(`/plants/${PLANT}/telemetry`);
  await typeQuery(page, "States\n| where Nme == 1\n| take 10");
  // Live mark from lib/kql's analysis, before anything is sent.
  await expect(page.locator(".cm-lintRange-error").first()).toBeVisible();
  await page.keyboard.press("ControlOrMeta+Enter");
  const problem = page.getByTestId("query-error");
  await expect(problem).toContainText(/Line 2, column \d+/);
  await expect(problem).toContainText(/Nme/);
  await expectAccessible(page);
  await saveScreenshot(page, "telemetry-error");
});

test("history keeps runs; a star keeps a query on top across reloads", async ({ page }) => {
  await page.goto(`/plants/${PLANT}/telemetry`);
  const marker = `// history check ${Date.now()}`;
  await typeQuery(page, `${marker}\nEvents\n| summarize Alarms = count() by Severity`);
  await page.keyboard.press("Shift+Enter");
  await expect(page.getByTestId("query-status")).toContainText("rows");
  const entry = page.getByTestId("query-history").getByRole("listitem").filter({ hasText: marker.slice(3) });
  await expect(entry).toHaveCount(1);
  await entry.getByRole("button", { name: "Star query" }).click();
  await expect(entry.getByRole("button", { name: "Unstar query" })).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  const first = page.getByTestId("query-history").getByRole("listitem").first();
  await expect(first).toContainText(marker.slice(3));
  await expect(first.getByRole("button", { name: "Unstar query" })).toBeVisible();
  await saveScreenshot(page, "telemetry-history");
});

test("tablet width: editor, results and history stay usable", async ({ page }) => {
  await page.setViewportSize({ width: 820, height: 1180 });
  const params = new URLSearchParams({ q: 'Events\n| summarize Alarms = count() by Severity', range: "7d", plants: PLANT, view: "table" });
  await page.goto(`/plants/${PLANT}/telemetry?${params}`);
  await expect(page.getByTestId("result-table").locator("tbody tr").first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await saveScreenshot(page, "telemetry-tablet");
});

test("dark theme: highlighted KQL, chart and table keep their contrast", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  const params = new URLSearchParams({ q: 'States\n| where Name == "Temperature"\n| summarize avg(Value) by bin(Timestamp, 1h), DeviceId\n| take 200', range: "24h", plants: PLANT, view: "chart" });
  await page.goto(`/plants/${PLANT}/telemetry?${params}`);
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect(page.locator("path.series-line").first()).toBeVisible();
  await expectAccessible(page);
  await saveScreenshot(page, "telemetry-dark");
});
