/**
 * The plant-wide planned work (issue: "Overdue work"): the overview's overdue figure lands on
 * exactly those jobs, the list puts overdue first and shows recurring jobs as their repeats, the
 * month calendar places each visit on its day, and every filter is in the URL.
 */
import type { TPlannedJob } from "@/modules/maintenance/contract/maintenance";
import { expect, expectAccessibleInBothThemes, saveScreenshotsAtBothSizes, test } from "./fixtures";
import { addDays, allPages, todayIso } from "./helpers";

test.use({ role: "planner" });

const PLANT = "RTM1";
const today = todayIso();

function table(page: import("@playwright/test").Page) {
  return page.getByRole("table", { name: "Planned work of the plant" });
}

test("the overview's overdue link lists exactly the overdue jobs, longest overdue first", async ({ page, api }) => {
  const overdue = await allPages<TPlannedJob>(api.raw, `/api/plants/${PLANT}/jobs-planned?endDate=${addDays(today, -1)}`);
  expect(overdue.length).toBeGreaterThan(0);
  const oldest = [...overdue].sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.jobTitle.localeCompare(b.jobTitle))[0]!;

  await page.goto(`/plants/${PLANT}`);
  await expect(page.getByTestId("stat-Overdue planned jobs")).toHaveText(overdue.length.toLocaleString("en"));
  await page.getByRole("link", { name: "Open planned work, overdue only" }).click();
  await expect(page).toHaveURL(/\/planned\?overdue=1$/);
  await expect(page.getByTestId("planned-list-summary")).toContainText(`${overdue.length} overdue`);
  const rows = table(page).locator("tbody tr");
  await expect(rows).toHaveCount(Math.min(overdue.length, 50));
  await expect(rows.first()).toContainText(oldest.id);
  for (const badge of await rows.locator("td:first-child").allInnerTexts()) expect(badge).toMatch(/Overdue \d+ d/);
  await expect(page.getByLabel("Overdue only")).toBeChecked();
  await saveScreenshotsAtBothSizes(page, "planned-overdue-list");
  await expectAccessibleInBothThemes(page);
});

test("the list shows a recurring job as its repeats, and the filters live in the URL", async ({ page, api }) => {
  const planned = await allPages<TPlannedJob>(api.raw, `/api/plants/${PLANT}/jobs-planned?startDate=${today}&endDate=${addDays(today, 29)}`);
  // A job repeating by days or weeks with at least one repeat in the coming 30 days.
  const stepOf = (job: TPlannedJob) => (job.recurrence?.unit === "DAY" ? job.recurrence.every : job.recurrence?.unit === "WEEK" ? 7 * job.recurrence.every : 0);
  const weekly = planned.find((job) => stepOf(job) > 0 && addDays(job.dueDate, stepOf(job)) <= addDays(today, 29))!;
  expect(weekly, "a job repeating within 30 days").toBeTruthy();
  const expected: string[] = [];
  for (let date = weekly.dueDate; date <= addDays(today, 29); date = addDays(date, stepOf(weekly))) expected.push(date);

  await page.goto(`/plants/${PLANT}/planned`);
  await expect(page.getByTestId("planned-views").getByRole("button", { name: "List" })).toHaveAttribute("aria-current", "page");
  const rows = table(page).locator("tbody tr");
  await expect(rows.first()).toBeVisible();
  // Overdue first: the first rows carry the overdue badge.
  await expect(rows.first().locator("td").first()).toContainText("Overdue");

  await page.getByLabel("Search").fill(weekly.id);
  await expect(page).toHaveURL(new RegExp(`q=${weekly.id}`));
  await expect(rows).toHaveCount(expected.length);
  await expect(rows.nth(1)).toContainText("repeat 1 of the job due");
  await page.getByLabel("Activity kind").selectOption(weekly.activityKind);
  await expect(page).toHaveURL(new RegExp(`kind=${weekly.activityKind}`));
  await page.reload();
  await expect(page.getByLabel("Activity kind")).toHaveValue(weekly.activityKind);
  await expect(rows).toHaveCount(expected.length);

  await rows.nth(1).click();
  const drawer = page.getByRole("dialog", { name: weekly.jobTitle });
  await expect(drawer).toContainText(/every (\d+ )?(day|week)/);
  await expect(drawer).toContainText("Repeat of");
  await expect(page).toHaveURL(new RegExp(`on=${expected[1]}`));
  await page.keyboard.press("Escape");

  // A period that runs backwards is one message, no rows.
  await page.getByLabel("To", { exact: true }).fill(addDays(today, 5));
  await expect(page).toHaveURL(/to=/);
  await page.getByLabel("From", { exact: true }).fill(addDays(today, 40));
  await expect(page.getByRole("main").getByRole("alert")).toContainText("is after the last day");
  await expect(table(page)).toHaveCount(0);
});

test("the month calendar puts each visit on its day and steps through months", async ({ page, api }) => {
  const [year, monthNumber] = today.split("-").map(Number) as [number, number];
  const monthEnd = new Date(Date.UTC(year, monthNumber, 0)).toISOString().slice(0, 10);
  const planned = await allPages<TPlannedJob>(api.raw, `/api/plants/${PLANT}/jobs-planned?startDate=${today}&endDate=${monthEnd}`);
  const single = planned.find((job) => !job.recurrence);

  await page.goto(`/plants/${PLANT}/planned?view=calendar`);
  const calendar = page.getByTestId("planned-calendar");
  await expect(calendar).toBeVisible();
  await expect(calendar.locator(`td[data-day="${today}"]`)).toBeVisible();
  if (single) {
    const cell = calendar.locator(`td[data-day="${single.dueDate}"]`);
    const count = Number((await cell.getAttribute("aria-label"))!.match(/: (\d+) planned/)![1]);
    expect(count).toBeGreaterThan(0);
    if (count <= 3) await expect(cell).toContainText(single.jobTitle.slice(0, 20));
    else await expect(cell.getByRole("link", { name: /more/ })).toHaveAttribute("href", new RegExp(`from=${single.dueDate}&to=${single.dueDate}`));
  }
  await saveScreenshotsAtBothSizes(page, "planned-calendar");
  await expectAccessibleInBothThemes(page);

  await page.getByRole("button", { name: "Next month" }).click();
  await expect(page).toHaveURL(/month=\d{4}-\d{2}/);
  const next = new URL(page.url()).searchParams.get("month")!;
  await expect(calendar.locator(`td[data-day="${next}-15"]`)).toBeVisible();
  await page.getByRole("button", { name: "This month" }).click();
  await expect(page).not.toHaveURL(/month=/);

  await page.getByRole("link", { name: "List the overdue jobs" }).click();
  await expect(page).toHaveURL(/view=list&overdue=1/);
  await expect(page.getByTestId("planned-list-summary")).toContainText("overdue");
});
