/**
 * The audit log page (issue: "Admins"): administrators filter by user, action, outcome and days
 * (kept in the URL) and export CSV; other roles see neither the page nor the API.
 */
import fs from "node:fs";
import { expect, expectAccessibleInBothThemes, parseCsv, saveScreenshotsAtBothSizes, test } from "./fixtures";
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

    // User: exact e-mail, applied with Enter.
    await page.getByLabel("User").fill("admin@plantdesk.demo");
    await page.getByLabel("User").press("Enter");
    await expect(page).toHaveURL(/user=admin%40plantdesk\.demo/);
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
    expect(header).toContain("action");
    expect(body.length).toBeGreaterThan(0);
    for (const row of body) {
      expect(row[header!.indexOf("action")]).toBe("task.transition");
      expect(row[header!.indexOf("outcome")]).toBe("INVALID_TRANSITION");
      expect(row[header!.indexOf("userEmail")]).toBe("admin@plantdesk.demo");
    }

    await page.getByLabel("From day").fill(addDays(todayIso(), 1));
    await expect(page.getByText("No entries")).toBeVisible();
    await page.getByLabel("To day").fill(todayIso());
    await expect(page.getByRole("main").getByRole("alert")).toContainText("is after the last day");
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
