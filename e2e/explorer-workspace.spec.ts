/**
 * The explorer's workspace (issue 26): charts that never refuse a range (the server chooses the
 * resolution and says so; the full one on request), a table that keeps the row limit with words,
 * units beyond two axes as small multiples, tabs renamed with the keyboard, the query inspector
 * and the split view that compares two ranges — as an engineer and a supervisor, light and dark,
 * at 1440 and 820 px. Issue 20: anomaly charts mark anomalies, forecasts shade the future.
 */
import { expect, expectAccessibleInBothThemes, saveScreenshotsAtBothSizes, test, VIEWPORTS } from "./fixtures";
import { fixedWindow, typeQuery } from "./helpers";

const PLANT = "RTM1";

function explorerUrl(query: string, extra: Record<string, string> = {}) {
  const { startTime, endTime } = fixedWindow();
  return `/plants/${PLANT}/telemetry?${new URLSearchParams({ q: query, from: startTime, to: endTime, plants: PLANT, ...extra })}`;
}

/** The row count the status line shows, or 0 while a query runs (the line is empty then). */
async function rowsShown(page: import("@playwright/test").Page): Promise<number> {
  const match = ((await page.getByTestId("query-status").textContent()) ?? "").match(/^([\d,.\s]+) rows/);
  return match ? Number(match[1]!.replace(/\D/g, "")) : 0;
}

/** Whether the page scrolls sideways (it must not). */
const sideways = (page: import("@playwright/test").Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

test.describe("as an engineer", () => {
  test.use({ role: "engineer", viewport: VIEWPORTS.desktop });

  test("all devices at one minute come back as a chart at a coarser bin, labelled, with the full resolution on request", async ({ page }) => {
    const query = 'States\n| where Name == "Temperature"\n| summarize avg(todouble(Value)) by bin(Timestamp, 1m), DeviceId';
    await page.goto(explorerUrl(query));
    const note = page.getByTestId("resolution-note");
    await expect(note).toContainText(/1-min data shown at \d+ min/);
    await expect(page.getByTestId("time-series-chart").locator("path.series-line").first()).toBeVisible();
    await expect.poll(() => rowsShown(page)).toBeGreaterThan(0);
    const reducedRows = await rowsShown(page);
    await saveScreenshotsAtBothSizes(page, "explorer-reduced");
    await expectAccessibleInBothThemes(page);

    await note.getByRole("button", { name: /Show full resolution/ }).click();
    await expect(page).toHaveURL(/res=full/);
    await expect(note).toContainText("full resolution");
    // The status is empty while the query runs: wait for the new answer's count, not for the old one to go.
    await expect.poll(() => rowsShown(page)).toBeGreaterThan(reducedRows * 2);
    await note.getByRole("button", { name: "Fit to the screen" }).click();
    await expect(page).not.toHaveURL(/res=full/);
    await expect(note).toContainText(/1-min data shown at/);
  });

  test("raw samples of every device are reduced to each series' low and high per bin", async ({ page }) => {
    await page.goto(explorerUrl('States\n| where Name == "Temperature"\n| project Timestamp, DeviceId, Value'));
    await expect(page.getByTestId("resolution-note")).toContainText(/Samples shown as each series' low and high per \d+ min/);
    await expect(page.getByTestId("time-series-chart").locator("path.series-line").first()).toBeVisible();
  });

  test("a third unit and beyond are drawn as small multiples, never on an axis of another unit", async ({ page }) => {
    const query = 'States\n| where Name in ("Temperature", "Pressure", "MotorCurrent")\n| summarize avg(todouble(Value)) by bin(Timestamp, 1h), Name';
    await page.goto(explorerUrl(query));
    const multiples = page.getByTestId("small-multiples");
    await expect(multiples.getByTestId("time-series-chart")).toHaveCount(2);
    // Each chart's axes name one unit each: nothing reads "bar · A".
    for (const label of await multiples.locator(".recharts-label").allTextContents()) expect(label).not.toContain(" · ");
    await saveScreenshotsAtBothSizes(page, "explorer-small-multiples");
    await expectAccessibleInBothThemes(page);
  });

  test("tabs are renamed with the keyboard, and the name survives a reload", async ({ page }) => {
    await page.goto(`/plants/${PLANT}/telemetry`);
    const tabs = page.getByTestId("query-tabs");
    const tab = tabs.locator("li").first().getByRole("button").first();
    await tab.focus();
    await page.keyboard.press("F2");
    const field = tabs.getByRole("textbox", { name: "Tab name" });
    await expect(field).toBeFocused();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("Line 3 temperatures");
    await page.keyboard.press("Enter");
    await expect(tabs.getByRole("button", { name: "Line 3 temperatures", exact: true })).toBeFocused();
    // Escape keeps the old name.
    await page.keyboard.press("F2");
    await page.keyboard.type("discarded");
    await page.keyboard.press("Escape");
    await expect(tabs.getByRole("button", { name: "Line 3 temperatures", exact: true })).toBeFocused();
    // The rename button, reached with Tab, does the same.
    await page.keyboard.press("Tab");
    await expect(tabs.getByRole("button", { name: "Rename tab Line 3 temperatures" })).toBeFocused();
    await page.reload();
    await expect(tabs.getByRole("button", { name: "Line 3 temperatures", exact: true })).toHaveAttribute("aria-current", "page");
    await expectAccessibleInBothThemes(page);
  });

  test("the inspector, opened with the keyboard, shows rows scanned, cost and time per stage of the last run", async ({ page }) => {
    await page.goto(`/plants/${PLANT}/telemetry`);
    const toggle = page.getByRole("button", { name: "Inspector" });
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: "Hide inspector" })).toHaveAttribute("aria-expanded", "true");
    await typeQuery(page, 'States\n| where Name == "Temperature"\n| summarize n = count() by DeviceId');
    await page.keyboard.press("Shift+Enter");
    const inspector = page.getByTestId("query-inspector");
    await expect(inspector.getByTestId("inspector-scanned")).toHaveText(/^[\d,.\s]+$/);
    await expect(inspector.getByTestId("inspector-cost")).toContainText("units");
    const stages = inspector.getByTestId("inspector-stages").locator("tbody tr");
    await expect(stages).toHaveCount(5);
    for (const stage of ["Compile", "Queue", "Execute", "Serialize"]) await expect(inspector.getByRole("rowheader", { name: new RegExp(`^${stage}`) })).toBeVisible();
    await expect(inspector.getByTestId("inspector-stages")).not.toContainText("not reported");
    await saveScreenshotsAtBothSizes(page, "explorer-inspector");
    await expectAccessibleInBothThemes(page);
    await page.keyboard.press("Shift+Tab"); // still usable from the keyboard: focus moves, nothing traps it
  });

  test("split view compares the same query over a range a day earlier; its state is in the URL", async ({ page }) => {
    const end = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const from = new Date(end - 86_400_000).toISOString();
    const to = new Date(end).toISOString();
    const query = 'States\n| where Name == "Temperature"\n| summarize avg(todouble(Value)) by bin(Timestamp, 15m), DeviceId';
    await page.goto(`/plants/${PLANT}/telemetry?${new URLSearchParams({ q: query, from, to, plants: PLANT })}`);
    await expect(page.getByTestId("time-series-chart").first()).toBeVisible();
    await page.getByTestId("compare-select").selectOption("1d");
    await expect(page).toHaveURL(/compare=1d/);
    const split = page.getByTestId("split-view");
    const compare = page.getByTestId("compare-pane");
    await expect(compare.getByTestId("time-series-chart")).toBeVisible();
    await expect(compare).toContainText("1 day earlier");
    await expect(split.getByTestId("time-series-chart")).toHaveCount(2);
    // Side by side at 1440 px…
    const [left, right] = await Promise.all([split.locator("section").first().boundingBox(), compare.boundingBox()]);
    expect(right!.x).toBeGreaterThan(left!.x + left!.width - 1);
    await saveScreenshotsAtBothSizes(page, "explorer-split-view");
    await expectAccessibleInBothThemes(page);
    // …stacked at 820 px, without sideways scrolling; a reload keeps it.
    await page.setViewportSize(VIEWPORTS.tablet);
    await page.reload();
    await expect(compare.getByTestId("time-series-chart")).toBeVisible();
    const [top, below] = await Promise.all([split.locator("section").first().boundingBox(), compare.boundingBox()]);
    expect(below!.y).toBeGreaterThan(top!.y + top!.height - 1);
    expect(await sideways(page)).toBe(false);
  });
});

test.describe("function documentation", () => {
  test.use({ role: "engineer", viewport: VIEWPORTS.desktop });

  test("completion and hover show a function's signature and what it does", async ({ page }) => {
    await page.goto(`/plants/${PLANT}/telemetry`);
    await typeQuery(page, "States\n| extend x = todoub");
    const option = page.getByRole("option", { name: /todouble/ });
    await expect(option).toBeVisible();
    await expect(option).toContainText("todouble(x): real");
    await expect(page.locator(".cm-completionInfo")).toHaveText("converts to a real number (null if it cannot)");
    await page.keyboard.press("Escape");
    await typeQuery(page, "States\n| summarize avg(todouble(Value))");
    await page.locator(".cm-content").getByText("avg", { exact: true }).hover();
    const hover = page.locator(".cm-kql-hover");
    await expect(hover).toContainText("avg(x): real");
    await expect(hover.locator(".cm-kql-hover-description")).toHaveText("the mean of the values");
  });
});

test.describe("series analysis (issue 20)", () => {
  test.use({ role: "engineer", viewport: VIEWPORTS.desktop });

  test("render anomalychart draws each series with its anomalies marked; flags and scores are not lines", async ({ page }) => {
    const analysis =
      'States\n| where Name == "Temperature"\n| make-series y = avg(todouble(Value)) default = 0 on Timestamp step 15m by DeviceId\n| extend (flag, score, baseline) = series_decompose_anomalies(y)';
    const { startTime, endTime } = fixedWindow();
    const count = async (query: string) => {
      const api = await page.request.post("/api/telemetry/query", { data: { query, startTime, endTime, plantIds: [PLANT] } });
      const body = (await api.json()) as { data: { columns: { name: string }[]; rows: unknown[][] } };
      const at = (name: string) => body.data.columns.findIndex((column) => column.name === name);
      return body.data.rows.map((row) => ({ device: String(row[at("DeviceId")]), flagged: (row[at("flag")] as number[]).filter((flag) => flag !== 0).length }));
    };
    // Three devices the analysis flags (the demo plant's faults), drawn together.
    const devices = (await count(analysis)).filter((row) => row.flagged > 0).slice(0, 3);
    expect(devices.length, "the demo data has anomalies to mark").toBeGreaterThan(0);
    const query = `${analysis}\n| where DeviceId in (${devices.map((row) => JSON.stringify(row.device)).join(", ")})\n| render anomalychart`;
    const flagged = (await count(query)).reduce((sum, row) => sum + row.flagged, 0);

    await page.goto(explorerUrl(query));
    const chart = page.getByTestId("time-series-chart");
    await expect(chart.locator(".recharts-reference-dot")).toHaveCount(flagged);
    await expect(chart).toHaveAttribute("aria-label", new RegExp(`${flagged} anomal(y|ies) marked`));
    const legend = page.getByTestId("chart-legend");
    await expect(legend.getByRole("button", { name: /· y$/ })).toHaveCount(devices.length);
    await expect(legend.getByRole("button", { name: /· (flag|score)$/ })).toHaveCount(0);
    await saveScreenshotsAtBothSizes(page, "explorer-anomalychart");
    await expectAccessibleInBothThemes(page);
  });

  test("a forecast's future is shaded, and the time axis runs to its end", async ({ page }) => {
    const { startTime, endTime } = fixedWindow();
    const end = new Date(Date.parse(endTime) + 12 * 3_600_000).toISOString();
    const query = `States\n| where Name == "Temperature" and DeviceId == "RTM1-DEV-001"\n| make-series y = avg(todouble(Value)) on Timestamp from datetime(${startTime}) to datetime(${end}) step 1h\n| extend forecast = series_decompose_forecast(y, 12)\n| project Timestamp, y, forecast\n| render timechart`;
    await page.goto(explorerUrl(query));
    const chart = page.getByTestId("time-series-chart");
    await expect(chart.locator(".recharts-reference-area")).toHaveCount(1);
    await expect(chart.locator("text", { hasText: "Forecast" })).toHaveCount(1);
    await expect(chart).toHaveAttribute("aria-label", /Forecast shaded from/);
    await saveScreenshotsAtBothSizes(page, "explorer-forecast");
    await expectAccessibleInBothThemes(page);
  });
});

test.describe("as a supervisor", () => {
  test.use({ role: "supervisor", viewport: VIEWPORTS.tablet });

  test("a table keeps the row limit and says what to do; as a chart the same rows are drawn", async ({ page }) => {
    await page.goto(explorerUrl("States\n| project Timestamp, DeviceId, Name, Value", { view: "table" }));
    const limit = page.getByTestId("row-limit");
    await expect(limit).toContainText("Too many rows for a table");
    await expect(limit).toContainText("500,000");
    expect(await sideways(page)).toBe(false);
    await saveScreenshotsAtBothSizes(page, "explorer-row-limit");
    await expectAccessibleInBothThemes(page);
    await limit.getByRole("button", { name: "Show as a chart" }).click();
    await expect(page.getByTestId("resolution-note")).toContainText(/Samples shown as each series' low and high/, { timeout: 90_000 });
    await expect(page.getByTestId("time-series-chart").locator("path.series-line").first()).toBeVisible({ timeout: 90_000 });
    expect(await sideways(page)).toBe(false);
  });
});
