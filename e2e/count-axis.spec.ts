/**
 * A column chart of whole numbers (alarms counted per severity) ticks in whole numbers: an axis of
 * 0 · 0,25 · 0,5 · 0,75 · 1 alarms reads as if a quarter alarm could happen.
 */
import { expect, expectAccessible, test } from "./fixtures";
import { fixedWindow } from "./helpers";

test.use({ role: "engineer", locale: "de-DE", timezoneId: "America/New_York" });

test("a column chart of counts has whole-number ticks only", async ({ page }) => {
  const query = 'datatable(Severity:string, Alarms:long)["High", 1, "Low", 1, "Medium", 1] | render columnchart';
  const { startTime, endTime } = fixedWindow();
  await page.goto(`/plants/RTM1/telemetry?${new URLSearchParams({ q: query, from: startTime, to: endTime, plants: "RTM1" })}`);
  await page.getByRole("button", { name: "Run query" }).click();
  const chart = page.getByTestId("category-chart");
  const ticks = chart.locator('text.recharts-cartesian-axis-tick-value[orientation="left"]');
  await expect(ticks.first()).toBeVisible();
  const labels = await ticks.allTextContents();
  expect(labels.length).toBeGreaterThan(1);
  expect(labels.filter((label) => /[.,]/.test(label)), `ticks ${labels.join(" | ")}`).toEqual([]);
  await expectAccessible(page);
});
