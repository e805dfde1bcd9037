/**
 * The audit log page (issue: "Admins"): administrators filter by user, action, outcome and days
 * (kept in the URL) and export CSV; other roles see neither the page nor the API.
 */
import fs from "node:fs";
import { expect, expectAccessibleInBothThemes, parseCsv, saveScreenshot, saveScreenshotsAtBothSizes, test } from "./fixtures";
import { allPages, todayIso, addDays, type Page, type TTask } from "./helpers";

interface AuditRecord {
  id: number;
  at: string;
  userEmail: string;
  action: string;
  target: string | null;
  outcome: string;
}

test.describe("admin", () => {
  test.use({ role: "admin" });

  test("reads, filters and exports the audit log; the filter lives in the URL", async ({ page, api }) => {
    // A refused move, so there is something specific to find.
    const waiting = await allPages<TTask>(api.raw, "/api/plants/RTM1/tasks?taskStatus=NEED_APPROVAL");
    const task = waiting[0]!;
    const refused = await api.raw.post(`/api/plants/RTM1/tasks/${task.id}/transitions`, { data: { to: "POSTPONED" } });
    expect(refused.status()).toBe(412);

    const newest = await api.get<Page<AuditRecord>>("/api/audit?page=1&pageSize=50");
    await page.goto("/audit");
    await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" })).toHaveAttribute("aria-current", "page");
    const rows = page.getByRole("table", { name: "Audit log entries" }).locator("tbody tr");
    await expect(rows).toHaveCount(Math.min(50, newest.data.length));
    await expect(rows.first()).toContainText(newest.data[0]!.userEmail);

    await page.getByLabel("Action").selectOption("task.transition");
    await page.getByLabel("Outcome").selectOption("INVALID_TRANSITION");
    await expect(page).toHaveURL(/action=task\.transition/);
    await expect(page).toHaveURL(/outcome=INVALID_TRANSITION/);
    await expect(rows.first()).toContainText(task.id);
    await expect(rows.first()).toContainText("Move not allowed (412)");
    const filtered = await api.get<Page<AuditRecord>>("/api/audit?action=task.transition&outcome=INVALID_TRANSITION&pageSize=1000");
    await expect(rows).toHaveCount(Math.min(50, filtered.data.length));

    // User: part of the name, any case, applied with Enter.
    await page.getByLabel("User").fill("ada ADM");
    await page.getByLabel("User").press("Enter");
    await expect(page).toHaveURL(/user=ada\+ADM/);
    await expect(rows.first()).toContainText(task.id);
    for (const text of await rows.locator("td:nth-child(2)").allInnerTexts()) expect(text).toBe("admin@plantdesk.demo");
    await saveScreenshotsAtBothSizes(page, "audit-log");
    await expectAccessibleInBothThemes(page);

    // Days: today has it; from tomorrow on, nothing.
    await page.getByLabel("From day").fill(todayIso());
    await expect(rows.first()).toContainText(task.id);
    await page.reload();
    await expect(page.getByLabel("Action")).toHaveValue("task.transition");
    await expect(rows.first()).toContainText(task.id);

    // CSV: the API's export of the same filter, every matching row.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("audit-csv").click()]);
    const csv = parseCsv(fs.readFileSync(await download.path(), "utf8"));
    const [header, ...body] = csv;
    expect(header).toEqual(["Time (UTC)", "User", "Plant", "Action", "Target", "Outcome", "HTTP status", "Detail", "Entry"]);
    expect(body.length).toBeGreaterThan(0);
    for (const row of body) {
      expect(row[header!.indexOf("Action")]).toBe("Task moved");
      expect(row[header!.indexOf("Outcome")]).toBe("Move not allowed (412)");
      expect(row[header!.indexOf("User")]).toBe("admin@plantdesk.demo");
      expect(row[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    }

    await page.getByLabel("From day").fill(addDays(todayIso(), 1));
    await expect(page.getByText("No entries")).toBeVisible();
    await page.getByLabel("To day").fill(todayIso());
    await expect(page.getByRole("main").getByRole("alert")).toContainText("is after the last day");
  });
});

/**
 * A reader far from UTC, in a zone chosen so that their today is not UTC's today at the hour the
 * test runs (Kiritimati is UTC+14, Pago Pago UTC-11): filtering by UTC days would miss what was
 * done a second ago.
 */
const FAR_ZONE = new Date().getUTCHours() >= 11 ? "Pacific/Kiritimati" : "Pacific/Pago_Pago";
const dayIn = (zone: string, at = new Date()) => new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);

test.describe("admin far from UTC", () => {
  test.use({ role: "admin", timezoneId: FAR_ZONE });

  test("filters by the reader's days and exports their local times, with words for codes", async ({ page, api }) => {
    const waiting = await allPages<TTask>(api.raw, "/api/plants/RTM1/tasks?taskStatus=NEED_APPROVAL");
    const task = waiting.at(-1)!;
    const refused = await api.raw.post(`/api/plants/RTM1/tasks/${task.id}/transitions`, { data: { to: "POSTPONED" } });
    expect(refused.status()).toBe(412);
    const localToday = dayIn(FAR_ZONE);
    expect(localToday, "the test needs a reader whose today is not UTC's").not.toBe(todayIso());

    await page.goto(`/audit?action=task.transition&outcome=INVALID_TRANSITION&user=${encodeURIComponent("ADMIN@plant")}`);
    await expect(page.getByText(`Times in ${FAR_ZONE}`)).toBeVisible();
    const rows = page.getByRole("table", { name: "Audit log entries" }).locator("tbody tr");
    await page.getByLabel("From day").fill(localToday);
    await page.getByLabel("To day").fill(localToday);
    await expect(rows.first()).toContainText(task.id);

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("audit-csv").click()]);
    const [header, ...body] = parseCsv(fs.readFileSync(await download.path(), "utf8"));
    expect(header![0]).toBe(`Time (${FAR_ZONE})`);
    const offset = FAR_ZONE === "Pacific/Kiritimati" ? "+14:00" : "-11:00";
    expect(body.length).toBeGreaterThan(0);
    for (const row of body) {
      expect(row[0]).toMatch(new RegExp(`^${localToday}T\\d{2}:\\d{2}:\\d{2}\\${offset}$`));
      expect(row[3]).toBe("Task moved");
    }
    expect(body.some((row) => row[4] === task.id)).toBe(true);

    // UTC's today is another day here: nothing done today falls in it.
    await page.getByLabel("From day").fill(todayIso());
    await page.getByLabel("To day").fill(todayIso());
    await expect(page.getByText("No entries")).toBeVisible();
    for (const width of [1440, 820, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scrolling at ${width}px`).toBe(true);
    }
    await saveScreenshot(page, "audit-log-far-zone-390");
  });
});

test.describe("planner", () => {
  test.use({ role: "planner" });

  test("has no audit log: not in the navigation, refused by the page and by the API", async ({ page, api }) => {
    await page.goto("/plants/RTM1");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Task board" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" })).toHaveCount(0);
    await page.goto("/audit");
    await expect(page.getByText("Administrators only")).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
    const response = await api.raw.get("/api/audit");
    expect(response.status()).toBe(403);
    const csv = await api.raw.get("/api/audit?format=csv");
    expect(csv.status()).toBe(403);
  });
});
