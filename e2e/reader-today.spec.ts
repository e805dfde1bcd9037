/**
 * "Today" is the reader's day, not UTC's: in New York at 21:30 it is already tomorrow in UTC, and
 * a task due today is not overdue, job history ends today and a new task is created today — all in
 * New York's calendar (lib/client/format.ts useToday). The browser's clock is fixed to such an
 * evening; the service keeps real time, so nothing here depends on the seeded demo data.
 */
import { expect, test } from "./fixtures";
import { addDays, todayIso } from "./helpers";

const ZONE = "America/New_York";
const dayIn = (zone: string, at: number) => new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);

// 02:30 UTC of UTC's today is the previous evening in New York (21:30 EST, 22:30 EDT); UTC's day is
// the server's, so the first (server) render and the browser agree on UTC's day while hydrating.
const utcToday = todayIso();
const evening = Date.parse(`${utcToday}T02:30:00Z`);
const readerToday = addDays(utcToday, -1);

test.use({ role: "planner", timezoneId: ZONE });

test.beforeEach(async ({ page }) => {
  expect(dayIn(ZONE, evening), "the reader's day is the day before UTC's").toBe(readerToday);
  expect(dayIn("UTC", evening)).toBe(utcToday);
  await page.clock.setFixedTime(evening);
});

test("job history's period ends on the reader's today", async ({ page }) => {
  await page.goto("/plants/RTM1/jobs");
  await expect(page.getByLabel("To", { exact: true })).toHaveValue(readerToday);
  await expect(page.getByLabel("From", { exact: true })).toHaveValue(addDays(readerToday, -179));
  await expect(page.getByLabel("Period")).toHaveValue("180");
  // A preset picked from the list ends on the reader's today too.
  await page.getByLabel("Period").selectOption("30");
  await expect(page).toHaveURL(new RegExp(`from=${addDays(readerToday, -29)}&to=${readerToday}|to=${readerToday}.*from=${addDays(readerToday, -29)}`));
  await expect(page.getByLabel("To", { exact: true })).toHaveValue(readerToday);
});

test("a new task is created on the reader's today, and a task due today is not overdue", async ({ page, api }) => {
  // Opened from the URL: the form is rendered on the server first, with UTC's day.
  await page.goto("/plants/RTM1/tasks?new=1");
  const form = page.getByRole("dialog", { name: "New task" });
  await expect(form.getByLabel("Created")).toHaveValue(readerToday);

  const title = `E2E due today in New York ${Date.now()}`;
  await form.getByLabel("Title").fill(title);
  const asset = form.getByRole("combobox", { name: "Asset" });
  await asset.fill("RTM1-P-");
  await page.getByRole("listbox", { name: "Asset" }).getByRole("option").first().click();
  await form.getByLabel("Activity kind").selectOption("INSPECTION");
  await form.getByLabel("Priority").selectOption("P3");
  await form.getByLabel("Due date").fill(readerToday);
  await form.getByRole("button", { name: "Create task" }).click();
  await expect(page.getByText(/Task RTM1-T\d+ created/)).toBeVisible();
  await expect(page).toHaveURL(/task=RTM1-T\d+/);
  const id = /task=([^&]+)/.exec(page.url())![1]!;
  expect(await api.get(`/api/plants/RTM1/tasks/${id}`)).toMatchObject({ createdDate: readerToday, dueDate: readerToday });

  await page.goto(`/plants/RTM1/tasks?q=${encodeURIComponent(title)}`);
  const card = page.getByTestId(`task-card-${id}`);
  await expect(card).toContainText("Due ");
  await expect(card).not.toContainText("Overdue");
});
