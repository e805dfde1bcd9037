/** A planner's morning: the plant overview, its figures checked against the API, and its links. */
import { expect, expectAccessible, saveScreenshot, test } from "./fixtures";
import { addDays, allPages, countOf, formatHours, todayIso, type TJobDone } from "./helpers";

test.use({ role: "planner" });

const OPEN = ["NEED_APPROVAL", "PENDING", "POSTPONEMENT_NEED_APPROVAL", "POSTPONED", "NEED_CONFIRMATION", "NOT_CLOSED"];

test("the overview's figures are the API's, and each links to its filtered list", async ({ page, api }) => {
  const today = todayIso();
  const from = addDays(today, -29);
  const jobs = await allPages<TJobDone>(api.raw, `/api/plants/RTM1/jobs-done?startDate=${from}&endDate=${today}`);
  const hours = jobs.reduce((sum, job) => sum + Number(job.totalTimeUsedInHours), 0);
  const overdue = await countOf(api.raw, `/api/plants/RTM1/jobs-planned?endDate=${addDays(today, -1)}`);
  const short = await countOf(api.raw, "/api/plants/RTM1/parts?isShort=true");

  await page.goto("/plants/RTM1");
  await expect(page.getByRole("heading", { level: 1, name: "Rotterdam Chemicals" })).toBeVisible();
  await expect(page.getByTestId("stat-Jobs done")).toHaveText(jobs.length.toLocaleString("en"));
  expect(jobs.length).toBeGreaterThan(20);
  await expect(page.getByTestId("stat-Hours worked")).toHaveText(formatHours(hours));
  await expect(page.getByTestId("stat-Overdue planned jobs")).toHaveText(overdue.toLocaleString("en"));
  await expect(page.getByTestId("stat-Parts short")).toHaveText(short.toLocaleString("en"));
  for (const status of OPEN) {
    const count = await countOf(api.raw, `/api/plants/RTM1/tasks?taskStatus=${status}`);
    await expect(page.getByTestId(`open-${status}`), status).toHaveText(String(count));
  }
  await expect(page.getByTestId("active-alarms").or(page.getByRole("heading", { name: "Active alarms" })).first()).toBeVisible();
  await saveScreenshot(page, "overview");
  await expectAccessible(page);

  // Parts short → the stock page, already filtered to short parts, listing as many.
  await page.getByRole("link", { name: "Open stock levels, short parts only" }).click();
  await expect(page).toHaveURL(/\/plants\/RTM1\/stock\?short=1$/);
  await expect(page.getByTestId("part-list").getByRole("link")).toHaveCount(short);

  // Jobs done → job history over the same 30 days, with the same number of jobs.
  await page.goBack();
  await page.getByRole("link", { name: "Open job history for the last 30 days" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/plants/RTM1/jobs\\?from=${from}&to=${today}$`));
  await expect(page.getByTestId("job-summary")).toContainText(`${jobs.length.toLocaleString("en")} jobs`);

  // A status row → the task board filtered to that status.
  await page.goto("/plants/RTM1");
  await page.getByRole("link", { name: /^Pending/ }).first().click();
  await expect(page).toHaveURL(/\/plants\/RTM1\/tasks\?status=PENDING$/);
  await expect(page.getByRole("region", { name: /^Pending/ })).toBeVisible();
  await expect(page.getByRole("region", { name: /^Needs approval/ })).toHaveCount(0);
});

test("dark theme: toggled, remembered across a reload, and still accessible", async ({ page }) => {
  await page.goto("/plants/RTM1");
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect(page.getByTestId("open-PENDING")).not.toBeEmpty();
  await saveScreenshot(page, "overview-dark");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Switch to light theme" }).click();
  await expect(page.locator("html")).not.toHaveClass(/dark/);
});
