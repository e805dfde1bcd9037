/**
 * Job history and the plant overview read in German: counts and hours in the reader's number
 * format ("3.211,8 h"), as dates already were (docs/architecture.md; user locale).
 */
import { expect, expectAccessible, test } from "./fixtures";

test.use({ role: "supervisor", locale: "de-DE", timezoneId: "America/New_York" });

test("the job history's totals and the overview's hours are in German number format", async ({ page }) => {
  await page.goto("/plants/RTM1/jobs?period=180");
  const summary = page.getByText(/ jobs · .* h$/);
  await expect(summary).toBeVisible();
  // German groups thousands with a point and marks decimals with a comma: "3.211,8 h", never "3,211.8 h".
  await expect(summary).toHaveText(/^\d{1,3}(\.\d{3})* jobs · \d{1,3}(\.\d{3})*(,\d)? h$/);
  await expectAccessible(page);

  await page.goto("/plants/RTM1");
  const hours = page.getByTestId("stat-Hours worked");
  await expect(hours).toHaveText(/ h$/);
  await expect(hours).toHaveText(/^\d{1,3}(\.\d{3})*(,\d)? h$/);
});
