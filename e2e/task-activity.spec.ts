/**
 * A task's activity log (issue 12, item 4): a supervisor approves a task with a remark and the
 * drawer's log shows who moved it, when (in the reader's language and time zone), from → to and
 * the remark, as the service keeps it; lookup codes read as their labels on the board, in the
 * drawer and on an asset's planned work and job history.
 */
import type { TAsset, TLookupValue, TPlannedJob, TTaskTransition } from "@/modules/maintenance/contract/maintenance";
import { expect, expectAccessibleInBothThemes, saveScreenshotsAtBothSizes, test } from "./fixtures";
import { allPages, type TJobDone, type TTask } from "./helpers";

const PLANT = "RTM1";
const ZONE = "Europe/Amsterdam";
const SUPERVISOR = "Sam Supervisor";

async function lookupLabels(request: import("@playwright/test").APIRequestContext) {
  const values = await allPages<TLookupValue>(request, `/api/plants/${PLANT}/lookup-values`);
  return (kind: TLookupValue["kind"], code: string) => values.find((entry) => entry.kind === kind && entry.value === code)!.label;
}

test.describe("supervisor, reading in Dutch in Amsterdam", () => {
  test.use({ role: "supervisor", locale: "nl-NL", timezoneId: ZONE });

  test("approves a task with a remark; the activity log shows who, when, from → to and the remark", async ({ page, api }) => {
    const label = await lookupLabels(api.raw);
    const [asset] = await allPages<TAsset>(api.raw, `/api/plants/${PLANT}/assets`);
    const title = `E2E activity ${Date.now()}`;
    const created = await api.raw.post(`/api/plants/${PLANT}/tasks`, {
      data: { taskTitle: title, activityKind: "PREVENTIVE", priority: "P1", assignedToRole: "MECH_TECH", asset: { tagNumber: asset!.tagNumber }, by: "Somebody Else" },
    });
    expect(created.ok()).toBeTruthy();
    const id = ((await created.json()) as { data: { id: string }[] }).data[0]!.id;

    await page.goto(`/plants/${PLANT}/tasks?task=${id}`);
    const drawer = page.getByRole("dialog", { name: title });
    const log = drawer.getByTestId("task-activity");
    const entries = log.getByTestId("activity-entry");
    // The creation, by the signed-in supervisor (the name the browser sent is not taken).
    await expect(entries).toHaveCount(1);
    await expect(entries.first()).toContainText("Created · Needs approval");
    await expect(entries.first()).toContainText(`by ${SUPERVISOR}`);

    // Labels, not codes, in the drawer and on the card.
    for (const text of [label("activityKind", "PREVENTIVE"), label("priority", "P1"), label("assignedToRole", "MECH_TECH")]) {
      await expect(drawer.getByText(text, { exact: true }).first()).toBeVisible();
    }
    for (const code of ["PREVENTIVE", "MECH_TECH"]) await expect(drawer.getByText(code, { exact: true })).toHaveCount(0);

    const remark = "Approved in the morning meeting: parts are on site";
    await drawer.getByLabel("Remark for the move (optional)").fill(remark);
    await drawer.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByText(`${id} moved to Pending.`)).toBeVisible();

    // The log is read again after the move: the approval is its last entry.
    await expect(entries).toHaveCount(2);
    const approval = entries.last();
    await expect(approval).toContainText("Needs approval");
    await expect(approval).toContainText("Pending");
    await expect(approval).toContainText(`by ${SUPERVISOR}`);
    await expect(approval).toContainText("supervisor@plantdesk.demo");
    await expect(approval.getByRole("blockquote")).toHaveText(`Remark: ${remark}`);

    // What the service kept, and the time as a Dutch reader in Amsterdam reads it.
    const history = (await api.get<{ data: TTaskTransition[] }>(`/api/plants/${PLANT}/tasks/${id}/transitions`)).data;
    expect(history.map(({ from, to, remark: kept, by, client }) => ({ from, to, remark: kept, by, client }))).toEqual([
      { from: null, to: "NEED_APPROVAL", remark: null, by: `${SUPERVISOR} <supervisor@plantdesk.demo>`, client: "dashboard" },
      { from: "NEED_APPROVAL", to: "PENDING", remark, by: `${SUPERVISOR} <supervisor@plantdesk.demo>`, client: "dashboard" },
    ]);
    const at = history[1]!.at;
    const time = approval.locator("time");
    await expect(time).toHaveAttribute("datetime", at);
    const part = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("nl-NL", { timeZone: ZONE, ...options }).format(Date.parse(at));
    const shown = await time.innerText();
    expect(shown).toContain(part({ hour: "2-digit", minute: "2-digit", hourCycle: "h23" }));
    expect(shown).toContain(part({ day: "numeric", month: "short" }));
    expect(shown).toContain(part({ year: "numeric" }));

    await saveScreenshotsAtBothSizes(page, "task-activity", { fullPage: false });
    await expectAccessibleInBothThemes(page);
  });

  test("the log says when it cannot be loaded, and loads on retry", async ({ page, api }) => {
    const [task] = await allPages<TTask>(api.raw, `/api/plants/${PLANT}/tasks?taskStatus=CLOSED`);
    await page.route(`**/api/plants/${PLANT}/tasks/${task!.id}/transitions*`, (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ status: "ERROR", code: "INTERNAL_ERROR", message: "The service failed.", data: [] }) }),
    );
    await page.goto(`/plants/${PLANT}/tasks?task=${task!.id}`);
    const drawer = page.getByRole("dialog", { name: task!.taskTitle });
    await expect(drawer.getByRole("alert")).toContainText("Could not load the activity");
    await page.unroute(`**/api/plants/${PLANT}/tasks/${task!.id}/transitions*`);
    await drawer.getByRole("button", { name: "Try again" }).click();
    await expect(drawer.getByTestId("activity-entry").first()).toContainText("Created · Needs approval");
    await expect(drawer.getByTestId("activity-entry").last()).toContainText("Closed");
  });
});

test.describe("planner", () => {
  test.use({ role: "planner" });

  test("the board's cards and an asset's planned work and job history show labels, not codes", async ({ page, api }) => {
    const label = await lookupLabels(api.raw);
    const tasks = await allPages<TTask>(api.raw, `/api/plants/${PLANT}/tasks?taskStatus=NEED_APPROVAL`);
    const task = tasks.find((candidate) => candidate.assignedToRole)!;
    await page.goto(`/plants/${PLANT}/tasks`);
    const card = page.getByTestId(`task-card-${task.id}`);
    await expect(card).toContainText(label("priority", task.priority));
    await expect(card).toContainText(label("assignedToRole", task.assignedToRole!));
    // The viewport only: a full-page shot of the board grows with its own 70vh columns.
    await saveScreenshotsAtBothSizes(page, "task-board-labels", { fullPage: false });
    // A label is searchable too.
    await page.getByLabel("Search").fill(label("assignedToRole", task.assignedToRole!).split(" ")[0]!);
    await expect(card).toBeVisible();

    const planned = await allPages<TPlannedJob>(api.raw, `/api/plants/${PLANT}/jobs-planned`);
    const done = await allPages<TJobDone>(api.raw, `/api/plants/${PLANT}/jobs-done`);
    const tag = planned.find((job) => done.some((entry) => entry.asset.tagNumber === job.asset.tagNumber))!.asset.tagNumber;
    await page.goto(`/plants/${PLANT}/planned?asset=${encodeURIComponent(tag)}`);
    const plannedList = page.getByTestId("planned-list");
    await expect(plannedList).toBeVisible();
    const kinds = new Set(planned.filter((job) => job.asset.tagNumber === tag).map((job) => job.activityKind));
    const listText = await plannedList.innerText();
    // Only jobs within the six-month horizon are listed: some kind of the asset's work shows, by its label.
    expect([...kinds].some((kind) => listText.includes(label("activityKind", kind)))).toBe(true);
    for (const kind of kinds) expect(listText).not.toMatch(new RegExp(`(^|\\s)${kind} ·`));
    const history = page.getByTestId("asset-history");
    await expect(history).toBeVisible();
    const historyText = await history.innerText();
    const doneKinds = new Set(done.filter((job) => job.asset.tagNumber === tag).map((job) => job.activityKind));
    expect([...doneKinds].some((kind) => historyText.includes(label("activityKind", kind)))).toBe(true);
    for (const kind of doneKinds) expect(historyText).not.toMatch(new RegExp(`(^|\\s)${kind} ·`));
    await saveScreenshotsAtBothSizes(page, "asset-planned-labels");
    await expectAccessibleInBothThemes(page);
  });
});
