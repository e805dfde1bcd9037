/** Job history as a planner: the service's pages, filters, sorting, the drawer, the URL and CSV. */
import fs from "node:fs";
import { expect, expectAccessible, expectAccessibleInBothThemes, parseCsv, saveScreenshot, saveScreenshotsAtBothSizes, test } from "./fixtures";
import { addDays, allPages, todayIso, type Page, type TJobDone } from "./helpers";

test.use({ role: "planner" });

const today = todayIso();
const from = addDays(today, -179); // the page's default period: the last 180 days
const range = `/api/plants/RTM1/jobs-done?startDate=${from}&endDate=${today}`;

function table(page: import("@playwright/test").Page) {
  return page.getByRole("table", { name: "Jobs done at plant RTM1" });
}

test("rows and pages are the service's, and the URL brings a view back", async ({ page, api }) => {
  const page1 = await api.get<Page<TJobDone>>(`${range}&page=1&pageSize=50`);
  const page2 = await api.get<Page<TJobDone>>(`${range}&page=2&pageSize=50`);
  await page.goto("/plants/RTM1/jobs");
  const rows = table(page).locator("tbody tr");
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText(page1.data[0]!.id);
  await expect(rows.first()).toContainText(page1.data[0]!.jobTitle);
  await expect(rows.last()).toContainText(page1.data[49]!.id);
  await expect(page.getByText(`Page 1 of ${page1.totalPages}`)).toBeVisible();
  await expect(page.getByTestId("hours-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await saveScreenshot(page, "job-history");
  await saveScreenshotsAtBothSizes(page, "job-history");
  await expectAccessibleInBothThemes(page);

  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(rows.first()).toContainText(page2.data[0]!.id);
  await page.reload();
  await expect(rows.first()).toContainText(page2.data[0]!.id);
  await expect(page.getByText(`Page 2 of ${page2.totalPages}`)).toBeVisible();
});

test("CSV holds every page of the filtered range, exactly as the API returns it", async ({ page, api }) => {
  const all = await allPages<TJobDone>(api.raw, range);
  expect(all.length).toBeGreaterThan(50); // more than one page of the table
  await page.goto("/plants/RTM1/jobs");
  await expect(table(page).locator("tbody tr")).toHaveCount(50);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toBe(`jobs-done-RTM1-${from}-to-${today}.csv`);
  const csv = parseCsv(fs.readFileSync(await download.path(), "utf8"));
  const [header, ...body] = csv;
  // Headed by the titles people read in the table, not the API's field names.
  expect(header!.slice(0, 12)).toEqual(["Done", "Job", "Job id", "Activity", "Department", "Asset", "Carried out by", "Hours", "People", "Work order", "Due", "Final"]);
  for (const title of await table(page).locator("thead th").allInnerTexts()) expect(header).toContain(title.trim());
  expect(header!.some((cell) => /^[a-z]+[A-Z.]/.test(cell)), "no camelCase field names").toBe(false);
  const column = (name: string) => header!.indexOf(name);
  expect(body.map((row) => row[column("Job id")])).toEqual(all.map((job) => job.id));
  const kinds = await api.get<Page<{ value: string; label: string }>>("/api/plants/RTM1/lookup-values?kind=activityKind");
  const labelOf = new Map(kinds.data.map((entry) => [entry.value, entry.label]));
  for (const [index, job] of all.entries()) {
    const row = body[index]!;
    expect(row[column("Done")]).toBe(job.doneDate);
    expect(row[column("Hours")]).toBe(job.totalTimeUsedInHours);
    expect(row[column("Activity")]).toBe(labelOf.get(job.activityKind));
    expect(row[column("Work order")]).toBe(job.workOrder.id);
    expect(row[column("User name")]).toBe(job.carriedOutByUser.username);
  }
});

test("an invalid period shows one clear message and no stale rows, chart or “Loading…”", async ({ page }) => {
  await page.goto("/plants/RTM1/jobs");
  await expect(table(page).locator("tbody tr")).toHaveCount(50);
  await expect(page.getByTestId("job-summary")).toBeVisible();

  // From after To, typed into the form.
  await page.getByLabel("From", { exact: true }).fill(addDays(today, 3));
  // (Next's route announcer is an alert too, outside <main>.)
  const problem = page.getByRole("main").getByRole("alert");
  await expect(problem).toHaveCount(1);
  await expect(problem).toContainText("The start date");
  await expect(problem).toContainText("is after the end date");
  await expect(page).toHaveURL(new RegExp(`from=${addDays(today, 3)}`));
  await expect(table(page)).toHaveCount(0);
  await expect(page.getByTestId("hours-chart")).toHaveCount(0);
  await expect(page.getByText("Loading…")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Download CSV" })).toHaveCount(0);
  await expect(page.getByLabel("From", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await saveScreenshotsAtBothSizes(page, "job-history-invalid-period");
  await expectAccessibleInBothThemes(page);

  // A date that is not one, from a hand-edited link: named, not silently replaced.
  await page.goto("/plants/RTM1/jobs?from=2026-02-30");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(/“2026-02-30” is not a date/);
  await expect(table(page)).toHaveCount(0);

  // One click back to a period that works.
  await page.getByRole("button", { name: "Back to the last 180 days" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
  await expect(table(page).locator("tbody tr")).toHaveCount(50);
});

test("activity kind, sorting and the detail drawer", async ({ page, api }) => {
  const all = await allPages<TJobDone>(api.raw, range);
  const kinds = await api.get<Page<{ value: string; label: string }>>("/api/plants/RTM1/lookup-values?kind=activityKind");
  const kind = kinds.data.find((entry) => all.some((job) => job.activityKind === entry.value))!;
  const ofKind = all.filter((job) => job.activityKind === kind.value);

  await page.goto("/plants/RTM1/jobs");
  await page.getByLabel("Activity kind", { exact: true }).selectOption(kind.value);
  await expect(page).toHaveURL(new RegExp(`kind=${kind.value}`));
  await expect(page.getByTestId("job-summary")).toContainText(`${ofKind.length.toLocaleString("en")} jobs`);
  const rows = table(page).locator("tbody tr");
  await expect(rows.first()).toContainText(ofKind[0]!.id);
  for (const cell of await rows.locator("td:nth-child(3)").allInnerTexts()) expect(cell).toBe(kind.label);

  // Sort by hours over the whole filtered range (not just the page): longest first, then shortest.
  const byHours = [...ofKind].sort((a, b) => Number(a.totalTimeUsedInHours) - Number(b.totalTimeUsedInHours));
  const longestHours = Number(byHours[byHours.length - 1]!.totalTimeUsedInHours);
  await table(page).getByRole("button", { name: "Hours" }).click();
  await expect(page).toHaveURL(/sort=hours\.desc/);
  await expect(rows.first().locator("td").nth(6)).toHaveText(`${longestHours.toLocaleString("en", { maximumFractionDigits: 1 })} h`);
  await table(page).getByRole("button", { name: "Hours" }).click();
  await expect(page).toHaveURL(/sort=hours\.asc/);
  const shortest = byHours[0]!;
  await expect(rows.first()).toContainText(shortest.id);

  // The drawer: work order, parts, who, hours — and it is in the URL too.
  await rows.first().click();
  const drawer = page.getByRole("dialog", { name: shortest.jobTitle });
  await expect(drawer).toBeVisible();
  await expect(drawer).toContainText(shortest.workOrder.id);
  await expect(drawer).toContainText(`${shortest.carriedOutByUser.firstname} ${shortest.carriedOutByUser.lastname}`);
  await expect(drawer).toContainText(`Parts used (${shortest.partsUsed.length})`);
  await expect(page).toHaveURL(new RegExp(`job=${shortest.id}`));
  await saveScreenshot(page, "job-history-drawer", { fullPage: false });
  await expectAccessible(page);
  const url = page.url();
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(page).not.toHaveURL(/job=/);

  // The shared link opens the same view: filter, order and drawer.
  await page.goto(url);
  await expect(page.getByRole("dialog", { name: shortest.jobTitle })).toBeVisible();
  await expect(page.getByLabel("Activity kind", { exact: true })).toHaveValue(kind.value);
});

test("an asset filter is the service's asset filter", async ({ page, api }) => {
  const all = await allPages<TJobDone>(api.raw, range);
  const tag = all[0]!.asset.tagNumber;
  // The page asks for the asset's jobs with its components' (a pump's seal and motor jobs).
  const ofAsset = await allPages<TJobDone>(api.raw, `${range}&assetTagNumber=${encodeURIComponent(tag)}&includeComponents=true`);
  await page.goto("/plants/RTM1/jobs");
  const picker = page.getByRole("combobox", { name: "Asset" });
  await picker.fill(tag);
  await page.getByRole("option", { name: new RegExp(`^${tag} — `) }).click();
  await expect(page).toHaveURL(new RegExp(`asset=${encodeURIComponent(tag)}`));
  await expect(page.getByTestId("job-summary")).toContainText(`${ofAsset.length.toLocaleString("en")} jobs`);
  await expect(table(page).locator("tbody tr")).toHaveCount(Math.min(ofAsset.length, 50));
});

test("keyboard only: the rows are one tab stop, arrows move, Enter opens, the pager is a few Tabs on", async ({ page, api }) => {
  const page1 = await api.get<Page<TJobDone>>(`${range}&page=1&pageSize=50`);
  await page.goto("/plants/RTM1/jobs");
  const rows = table(page).locator("tbody tr");
  await expect(rows).toHaveCount(50);
  // Exactly one row is in the tab order.
  expect(await rows.evaluateAll((all) => all.filter((row) => row.getAttribute("tabindex") === "0").length)).toBe(1);
  const focusedText = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText ?? "");
  const focusedIsRow = () => page.evaluate(() => document.activeElement?.tagName === "TR");
  await table(page).getByRole("button", { name: "Hours" }).focus();
  for (let tab = 0; tab < 15 && !(await focusedIsRow()); tab += 1) await page.keyboard.press("Tab");
  expect(await focusedText()).toContain(page1.data[0]!.id);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  expect(await focusedText()).toContain(page1.data[2]!.id);
  await page.keyboard.press("End");
  expect(await focusedText()).toContain(page1.data[49]!.id);
  await page.keyboard.press("ArrowUp");
  expect(await focusedText()).toContain(page1.data[48]!.id);
  // From the rows, the pager: a few Tabs, not fifty.
  let tabs = 0;
  for (; tabs < 6 && !(await page.evaluate(() => Boolean(document.activeElement?.closest("nav[aria-label=Pages]")))); tabs += 1) await page.keyboard.press("Tab");
  expect(tabs, "Tabs from the rows to the pager").toBeLessThanOrEqual(3);
  // Back into the table: the row last visited holds the stop; Enter opens it, Escape closes.
  await page.keyboard.press("Shift+Tab");
  for (let back = 0; back < 4 && !(await focusedIsRow()); back += 1) await page.keyboard.press("Shift+Tab");
  expect(await focusedText()).toContain(page1.data[48]!.id);
  await page.keyboard.press("Enter");
  const drawer = page.getByRole("dialog", { name: page1.data[48]!.jobTitle });
  await expect(drawer).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expectAccessible(page);
});
