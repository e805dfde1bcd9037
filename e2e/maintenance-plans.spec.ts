/**
 * Maintenance plans, checklists and the reliability record in Chromium (issue 34), each role in its
 * own browser context: a planner makes a calendar plan with a checklist using the keyboard, is told
 * in words what is wrong with bad input and bad meter KQL, runs the plan and follows the task it
 * opened; a supervisor approves that task and closes it out, refused in words while a required item
 * is open, warned of an out-of-range reading, then reaches the job record with its checklist,
 * codes and follow-up task; an engineer reads plans without editing controls and the reliability
 * page with its CSV. axe in both themes, no sideways scroll at 1440, 820 and 390 px.
 */
import type { Browser, Page as BrowserPage } from "@playwright/test";
import { expect, expectAccessibleInBothThemes, parseCsv, saveScreenshotsAtBothSizes, test, type Role } from "./fixtures";
import type { TJobDone, TTask } from "./helpers";

const PLANT = "RTM1";
const TITLE = `E2E oil check ${Date.now()}`;

async function pageAs(browser: Browser, sessionFor: (role: Role) => Promise<unknown>, role: Role): Promise<BrowserPage> {
  const context = await browser.newContext({ storageState: (await sessionFor(role)) as never, viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

async function expectNoSidewaysScroll(page: BrowserPage): Promise<void> {
  const before = page.viewportSize();
  for (const width of [1440, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `page wider than ${width} px`).toBeLessThanOrEqual(0);
  }
  if (before) await page.setViewportSize(before);
}

test("planner makes a plan with a checklist → runs it → supervisor closes out its task with the checklist → job record", async ({ browser, sessionFor }) => {
  // Three roles, two pages each checked by axe in two themes and pictured at two sizes.
  test.setTimeout(360_000);
  const planner = await pageAs(browser, sessionFor, "planner");
  await planner.goto(`/plants/${PLANT}/plans`);
  await expect(planner.getByRole("heading", { name: "Maintenance plans", level: 1 })).toBeVisible();
  await planner.getByRole("link", { name: "New plan" }).focus();
  await planner.keyboard.press("Enter");
  await expect(planner).toHaveURL(/plan=new/);
  const editor = planner.getByRole("region", { name: "New maintenance plan" });

  // Bad input: the server's refusals, at their fields, in words; nothing is created.
  await editor.getByLabel("Estimated hours").fill("zero");
  await editor.getByRole("button", { name: "Create plan" }).click();
  await expect(editor.getByRole("alert")).toBeVisible();
  await expect(editor.getByText("must not be empty").first()).toBeVisible();

  // Bad meter KQL: refused with its line and column.
  await editor.getByLabel("By a meter (running hours, cycles, tonnes)").check();
  await expect(editor.getByTestId("kql-editor")).toBeVisible();
  await editor.getByTestId("kql-editor").locator(".cm-content").click();
  await planner.keyboard.press("ControlOrMeta+a");
  await planner.keyboard.insertText("States\n| where Value >\n| summarize max(Value)");
  await editor.getByLabel("Title").fill(TITLE);
  await editor.getByLabel("Estimated hours").fill("1.5");
  const assets = (await (await planner.request.get(`/api/plants/${PLANT}/assets?pageSize=50`)).json()) as { data: { tagNumber: string; parentTagNumber: string | null }[] };
  // A leaf (a component or a machine without any): its jobs count in no other asset's list but its parents'.
  const parents = new Set(assets.data.map((asset) => asset.parentTagNumber));
  const tag = assets.data.find((asset) => asset.parentTagNumber !== null && !parents.has(asset.tagNumber))!.tagNumber;
  const picker = editor.getByRole("combobox", { name: "Asset" });
  await picker.fill(tag);
  await planner.getByRole("option", { name: new RegExp(`^${tag} — `) }).click();
  await editor.getByRole("button", { name: "Create plan" }).click();
  await expect(editor.getByText(/^Meter query: .*line 3, column/)).toBeVisible();

  // A calendar plan instead: weekly from today, opened seven days ahead, with two checklist items.
  await editor.getByLabel("By the calendar").check();
  await editor.getByLabel("Every", { exact: true }).fill("1");
  await editor.getByLabel("Unit", { exact: true }).selectOption("WEEK");
  await editor.getByRole("button", { name: "Add item" }).click();
  await editor.getByLabel("Item 1", { exact: true }).fill("Guards back in place");
  await editor.getByRole("button", { name: "Add item" }).click();
  await editor.getByLabel("Item 2", { exact: true }).fill("Oil pressure");
  await editor.getByTestId("checklist-row").nth(1).getByLabel("Kind").selectOption("READING");
  await editor.getByTestId("checklist-row").nth(1).getByLabel("Unit").fill("bar");
  await editor.getByTestId("checklist-row").nth(1).getByLabel("Min").fill("2");
  await editor.getByTestId("checklist-row").nth(1).getByLabel("Max").fill("5");
  await expectAccessibleInBothThemes(planner);
  await editor.getByRole("button", { name: "Create plan" }).click();
  await expect(planner.getByTestId("plan-list")).toContainText(TITLE);
  await planner.getByTestId("plan-list").getByRole("link", { name: new RegExp(TITLE) }).click();
  await expect(planner).toHaveURL(/plan=[^&n][^&]*/);
  await expect(planner.getByTestId("plan-checklist")).toContainText("Oil pressure");

  const planId = new URL(planner.url()).searchParams.get("plan")!;
  const tasksOfPlan = async () =>
    ((await (await planner.request.get(`/api/plants/${PLANT}/tasks?pageSize=1000&taskStatus=NEED_APPROVAL`)).json()) as { data: TTask[] }).data
      .filter((entry) => entry.planId === planId)
      .sort((a, b) => (a.dueDate ?? "").localeCompare(b.dueDate ?? ""));
  // Run now opens what is due within the lead time (the scheduler's tick may have been first).
  await planner.getByRole("button", { name: "Run now" }).click();
  const outcome = planner.getByTestId("plan-run-outcome");
  await expect(outcome).toContainText(/Opened|already open/);
  const opened = await tasksOfPlan();
  expect(opened.length).toBeGreaterThan(0);
  const taskId = opened[0]!.id;
  // Once per occurrence: a second run opens nothing.
  await planner.getByRole("button", { name: "Run now" }).click();
  await expect(outcome).toContainText("already open");
  expect((await tasksOfPlan()).length).toBe(opened.length);
  await expectAccessibleInBothThemes(planner);
  await saveScreenshotsAtBothSizes(planner, "plans-planner");
  await expectNoSidewaysScroll(planner);

  // The workload: weeks with this plan's occurrences, state in the URL.
  await planner.getByRole("button", { name: "Workload" }).click();
  await expect(planner).toHaveURL(/view=workload/);
  await expect(planner.getByTestId("workload-weeks")).toContainText(TITLE);
  await planner.getByLabel("Crew hours a week").fill("1");
  await planner.getByLabel("Crew hours a week").press("Enter");
  await expect(planner).toHaveURL(/crew=1/);
  await expect(planner.getByText("Overloaded").first()).toBeVisible();
  await expectAccessibleInBothThemes(planner);
  await saveScreenshotsAtBothSizes(planner, "plans-workload");
  await expectNoSidewaysScroll(planner);

  // The supervisor approves the task and closes it out with the checklist.
  const supervisor = await pageAs(browser, sessionFor, "supervisor");
  const task = (await (await supervisor.request.get(`/api/plants/${PLANT}/tasks/${taskId}`)).json()) as TTask;
  expect(task.checklist?.map((item) => item.text)).toEqual(["Guards back in place", "Oil pressure"]);
  await supervisor.goto(`/plants/${PLANT}/tasks?task=${taskId}`);
  const drawer = supervisor.getByRole("dialog", { name: TITLE });
  await expect(drawer.getByTestId("task-links")).toContainText("Opened by maintenance plan");
  await drawer.getByRole("button", { name: "Approve" }).click();
  const closeOut = drawer.locator("[data-close-out]");
  await expect(closeOut.getByTestId("close-out-checklist")).toBeVisible();
  await closeOut.getByLabel("Hours worked").fill("1.5");
  await closeOut.getByRole("button", { name: "Close out" }).click();
  await expect(closeOut.getByText("“Guards back in place” is required: tick it when done.")).toBeVisible();
  await expect(closeOut.getByText("“Oil pressure” is required: enter the reading.")).toBeVisible();
  await closeOut.getByLabel("Guards back in place").check();
  await closeOut.getByLabel("Oil pressure (required)").fill("7.5");
  await expect(closeOut.getByTestId("checklist-out-of-range")).toContainText("Out of range");
  await closeOut.getByLabel("Failure", { exact: true }).selectOption({ index: 1 });
  await expectAccessibleInBothThemes(supervisor);
  await saveScreenshotsAtBothSizes(supervisor, "plans-close-out-checklist", { fullPage: false });
  await closeOut.getByRole("button", { name: "Close out" }).click();
  await expect(drawer.getByTestId("drawer-notice")).toContainText(`${taskId} closed out`);

  // The closed task links to its job record, which shows the checklist, the codes and the follow-up.
  await drawer.getByRole("link", { name: "Its job record" }).click();
  await expect(supervisor).toHaveURL(new RegExp(`/jobs\\?.*task=${taskId}`));
  const jobDrawer = supervisor.getByRole("dialog", { name: TITLE });
  await expect(jobDrawer.getByTestId("job-checklist")).toContainText("7.5 bar — out of range");
  await expect(jobDrawer.getByTestId("job-checklist").getByRole("link", { name: /follow-up/ })).toBeVisible();
  await expect(jobDrawer.getByRole("region", { name: "Failure and repair" })).toBeVisible();
  const jobs = (await (await supervisor.request.get(`/api/plants/${PLANT}/jobs-done?assetTagNumber=${encodeURIComponent(tag)}&pageSize=1000`)).json()) as { data: TJobDone[] };
  expect(jobs.data.find((job) => job.taskId === taskId)?.checklist?.find((item) => item.text === "Oil pressure")).toMatchObject({ reading: 7.5, outOfRange: true });
  await expectAccessibleInBothThemes(supervisor);

  // Job history filters by failure and shows the codes under the job.
  await supervisor.goto(`/plants/${PLANT}/jobs?failure=any`);
  await expect(supervisor.getByTestId("job-codes").first()).toContainText("Failure:");

  // The supervisor reads plans but cannot change them.
  await supervisor.goto(`/plants/${PLANT}/plans?q=${encodeURIComponent(TITLE)}`);
  await expect(supervisor.getByTestId("plan-list")).toContainText(TITLE);
  await expect(supervisor.getByRole("link", { name: "New plan" })).toHaveCount(0);
  await supervisor.getByTestId("plan-list").getByRole("link").first().click();
  await expect(supervisor.getByRole("button", { name: "Run now" })).toHaveCount(0);
  await expect(supervisor.getByRole("button", { name: "Edit" })).toHaveCount(0);
  // …and the server refuses it too.
  const refused = await supervisor.request.post(`/api/plants/${PLANT}/maintenance-plans/${task.planId}/run`, { data: {} });
  expect(refused.status()).toBe(403);
  await planner.context().close();
  await supervisor.context().close();
});

test.describe("engineer", () => {
  test.use({ role: "engineer" });

  test("reads plans without editing controls and the reliability record with its CSV", async ({ page }) => {
    await page.goto(`/plants/${PLANT}/plans`);
    await expect(page.getByRole("heading", { name: "Maintenance plans", level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: "New plan" })).toHaveCount(0);
    await page.goto(`/plants/${PLANT}/plans?plan=new`);
    await expect(page.getByRole("region", { name: "New maintenance plan" })).toHaveCount(0);
    await expectAccessibleInBothThemes(page);

    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
    await page.goto(`/plants/${PLANT}/reliability?from=${from}&to=${to}`);
    await expect(page.getByRole("heading", { name: "Reliability", level: 1 })).toBeVisible();
    const figures = page.getByTestId("reliability-figures");
    await expect(figures).toContainText("MTBF");
    const record = (await (await page.request.get(`/api/plants/${PLANT}/reliability?startDate=${from}&endDate=${to}`)).json()) as { plant: { failures: number } };
    await expect(figures).toContainText(record.plant.failures.toLocaleString("en"));
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download CSV" }).click();
    const rows = parseCsv(await (await (await download).createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8")));
    expect(rows[0]).toContain("MTBF hours");
    expect(rows[1]![0]).toBe("plant");
    expect(Number(rows[1]![5])).toBe(record.plant.failures);

    // Bad input: a window that runs backwards is said in words, nothing is asked.
    await page.goto(`/plants/${PLANT}/reliability?from=${to}&to=${from}`);
    await expect(page.getByText("The first day must not be after the last.")).toBeVisible();
    await page.goto(`/plants/${PLANT}/reliability?from=${from}&to=${to}`);
    await expect(figures).toBeVisible();
    await expectAccessibleInBothThemes(page);
    await saveScreenshotsAtBothSizes(page, "reliability-engineer");
    await expectNoSidewaysScroll(page);
  });
});
