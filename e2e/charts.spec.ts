/**
 * Charts as Grafana and Azure Data Explorer users read them (issue: "Charts"): one value axis per
 * unit, labelled with the unit from DataMetadata.Unit; legend entries that hide and show series;
 * zoom with an undo step; categorical results as column, bar and pie charts; `render` honoured;
 * raw records (`Events | take 20`) opened as a table.
 */
import type { Page } from "@playwright/test";
import { expect, expectAccessibleInBothThemes, saveScreenshotsAtBothSizes, test } from "./fixtures";
import type { QueryResponse } from "./helpers";

test.use({ role: "engineer" });

const PLANT = "RTM1";

function lastDay() {
  const end = Math.floor(Date.now() / 60_000) * 60_000;
  return { startTime: new Date(end - 86_400_000).toISOString(), endTime: new Date(end).toISOString() };
}

async function query(page: Page, text: string): Promise<QueryResponse> {
  const response = await page.request.post("/api/telemetry/query", { data: { query: text, ...lastDay(), plantIds: [PLANT] } });
  expect(response.ok(), text).toBeTruthy();
  return (await response.json()) as QueryResponse;
}

/** A machine whose devices report motor current, pressure and running state (three units). */
async function machineWithThreeUnits(page: Page): Promise<string> {
  const body = await query(page, "States | summarize by Asset = tostring(MessageMetadata.topologyReference), Name");
  const names = new Map<string, Set<string>>();
  for (const [asset, name] of body.data.rows as [string, string][]) names.set(asset, (names.get(asset) ?? new Set()).add(name));
  const asset = [...names].filter(([, set]) => ["MotorCurrent", "Pressure", "RunningState"].every((name) => set.has(name))).map(([tag]) => tag).sort()[0];
  expect(asset, "a machine with motor current, pressure and running state").toBeTruthy();
  return asset!;
}

function explorerUrl(text: string, extra: Record<string, string> = {}) {
  return `/plants/${PLANT}/telemetry?${new URLSearchParams({ q: text, range: "24h", plants: PLANT, ...extra })}`;
}

test("the asset page draws at most two axes, each naming its units, and the legend hides and shows a series", async ({ page }) => {
  const tag = await machineWithThreeUnits(page);
  await page.goto(`/plants/${PLANT}/planned?view=assets&asset=${tag}&range=24h&points=MotorCurrent,Pressure,RunningState`);
  const chart = page.getByTestId("time-series-chart");
  await expect(chart.locator("path.series-line")).toHaveCount(3);
  const axes = chart.locator(".recharts-yAxis");
  // Three units, two axes (issue 26): the second names both units drawn against it.
  await expect(axes).toHaveCount(2);
  const axisLabels = chart.locator(".recharts-label");
  await expect(axisLabels).toHaveText(["MotorCurrent (A)", "bar · on/off (0/1)"]);

  // Pressure gets its own scale: its axis ticks are around 6 bar, not 0–50 A.
  // (the one axis on the right; its tick labels carry the axis' orientation)
  const pressureTicks = chart.locator('text.recharts-cartesian-axis-tick-value[orientation="right"]');
  await expect(pressureTicks.first()).toBeVisible();
  const values = (await pressureTicks.allTextContents()).map((text) => Number(text.replace(",", ".")));
  expect(values.length).toBeGreaterThan(1);
  expect(Math.max(...values)).toBeLessThan(20);

  const legend = page.getByTestId("chart-legend");
  const pressure = legend.getByRole("button", { name: /^Pressure/ });
  await expect(pressure).toHaveAttribute("aria-pressed", "true");
  await pressure.click();
  await expect(pressure).toHaveAttribute("aria-pressed", "false");
  await expect(chart.locator("path.series-line")).toHaveCount(2);
  await expect(axes).toHaveCount(2);
  await expect(axisLabels).toHaveText(["MotorCurrent (A)", "RunningState (on/off (0/1))"]);
  await saveScreenshotsAtBothSizes(page, "charts-asset-units");
  await expectAccessibleInBothThemes(page);
  await pressure.click();
  await expect(chart.locator("path.series-line")).toHaveCount(3);

  // Zoom by dragging, then one step back.
  await chart.scrollIntoViewIfNeeded();
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(page).toHaveURL(/from=.*&to=/);
  await page.getByRole("button", { name: "Undo zoom" }).click();
  await expect(page).toHaveURL(/range=24h/);
  await expect(page).not.toHaveURL(/from=/);
});

test("the explorer labels axes with units; zoom steps back one at a time", async ({ page }) => {
  const pairs = await query(page, 'States | where Name in ("Pressure", "MotorCurrent") | summarize Points = dcount(Name) by DeviceId | where Points == 2 | order by DeviceId asc');
  const device = String(pairs.data.rows[0]![0]);
  const text = `States\n| where DeviceId == "${device}" and Name in ("Pressure", "MotorCurrent")\n| project Timestamp, Name, Value`;
  await page.goto(explorerUrl(text));
  const chart = page.getByTestId("time-series-chart");
  await expect(chart.locator("path.series-line")).toHaveCount(2);
  await expect(chart.locator(".recharts-label")).toHaveText(["MotorCurrent (A)", "Pressure (bar)"]);

  const zoomIn = async (from: number, to: number) => {
    await chart.scrollIntoViewIfNeeded();
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width * from, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * to, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
  };
  await zoomIn(0.3, 0.8);
  await expect(page).toHaveURL(/from=/);
  const first = new URL(page.url()).searchParams.get("from");
  await zoomIn(0.4, 0.6);
  await expect(page).not.toHaveURL(new RegExp(`from=${encodeURIComponent(first!)}`));
  await page.getByRole("button", { name: /^Undo zoom/ }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get("from")).toBe(first);
  await page.getByRole("button", { name: /^Undo zoom/ }).click();
  await expect(page).toHaveURL(/range=24h/);
  await expect(page.getByRole("button", { name: /^Undo zoom/ })).toBeDisabled();
});

test("categorical results are drawn as columns, bars or a pie, as render asks", async ({ page }) => {
  const base = "States\n| summarize count() by Name\n| top 5 by count_";
  await page.goto(explorerUrl(base));
  const chart = page.getByTestId("category-chart");
  await expect(chart).toHaveAttribute("data-kind", "column");
  await expect(chart.locator(".recharts-bar-rectangle")).toHaveCount(5);
  await expect(page.getByText("This result cannot be drawn")).toHaveCount(0);
  await saveScreenshotsAtBothSizes(page, "charts-explorer-columns");
  await expectAccessibleInBothThemes(page);

  await page.goto(explorerUrl(`${base}\n| render barchart`));
  await expect(page.getByTestId("category-chart")).toHaveAttribute("data-kind", "bar");
  await expect(page.getByTestId("query-status")).toContainText("render barchart");

  await page.goto(explorerUrl(`${base}\n| render piechart`));
  await expect(page.getByTestId("category-chart")).toHaveAttribute("data-kind", "pie");
  await expect(page.getByTestId("category-chart").locator(".recharts-pie-sector")).toHaveCount(5);
  await saveScreenshotsAtBothSizes(page, "charts-explorer-pie");
  await expectAccessibleInBothThemes(page);

  await page.goto(explorerUrl(`${base}\n| render table`));
  await expect(page.getByTestId("result-table").locator("tbody tr")).toHaveCount(5);
  await expect(page.getByTestId("category-chart")).toHaveCount(0);

  await page.goto(explorerUrl('States\n| where Name == "Temperature"\n| summarize avg(Value) by bin(Timestamp, 1h)\n| render timechart'));
  await expect(page.getByTestId("time-series-chart").locator("path.series-line")).toHaveCount(1);
  await expect(page.getByTestId("time-series-chart").locator(".recharts-label")).toHaveText("Temperature (°C)");

  await page.goto(explorerUrl('States\n| where Name == "Temperature"\n| summarize avg(Value) by bin(Timestamp, 1h)\n| render columnchart'));
  await expect(page.getByTestId("category-chart")).toHaveAttribute("data-kind", "column");
});

test("Events | take 20 opens as a table, and the person can still ask for a chart", async ({ page }) => {
  // The demo plant raises a few alarms a day: the last 7 days may hold fewer than 20 events.
  const end = Math.floor(Date.now() / 60_000) * 60_000;
  const week = { startTime: new Date(end - 7 * 86_400_000).toISOString(), endTime: new Date(end).toISOString() };
  const counted = await page.request.post("/api/telemetry/query", { data: { query: "Events | count", ...week, plantIds: [PLANT] } });
  expect(counted.ok()).toBeTruthy();
  const events = Number(((await counted.json()) as QueryResponse).data.rows[0]![0]);
  expect(events, "alarms in the demo plant's last week").toBeGreaterThan(0);
  await page.goto(explorerUrl("Events\n| take 20", { range: "7d" }));
  // The running demo may raise one more alarm between the count and the page's own query.
  const rows = page.getByTestId("result-table").locator("tbody tr");
  await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(Math.min(20, events));
  expect(await rows.count()).toBeLessThanOrEqual(20);
  await expect(page.getByTestId("view-reason")).toContainText("records");
  await expect(page.getByRole("button", { name: "table", exact: true })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "chart", exact: true }).click();
  await expect(page).toHaveURL(/view=chart/);
  await expect(page.getByText("This result cannot be drawn").or(page.getByTestId("time-series-chart"))).toBeVisible();
});
