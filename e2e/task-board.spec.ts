/**
 * The task board: counts from the API; a planner creates a task end to end but cannot move one
 * (buttons hidden, API refuses); a supervisor approves a task, and a move or an assignment the
 * server refuses as out of date is explained in words.
 */
import { expect, expectAccessible, saveScreenshot, test } from "./fixtures";
import { addDays, allPages, countOf, todayIso, type TTask } from "./helpers";

const STATUSES = ["NEED_APPROVAL", "PENDING", "POSTPONEMENT_NEED_APPROVAL", "POSTPONED", "NEED_CONFIRMATION", "NOT_CLOSED", "CLOSED"];

test.describe("planner", () => {
  test.use({ role: "planner" });

  test("column counts are the API's; search and status filter live in the URL", async ({ page, api }) => {
    await page.goto("/plants/RTM1/tasks");
    for (const status of STATUSES) {
      const count = await countOf(api.raw, `/api/plants/RTM1/tasks?taskStatus=${status}`);
      await expect(page.getByTestId(`count-${status}`), status).toHaveText(`${count} tasks`);
    }
    await saveScreenshot(page, "task-board");
    await expectAccessible(page);

    const tasks = await allPages<TTask>(api.raw, "/api/plants/RTM1/tasks?taskStatus=PENDING");
    const target = tasks[0]!;
    await page.getByRole("button", { name: "Pending", exact: true }).click();
    await expect(page).toHaveURL(/status=PENDING/);
    await page.getByLabel("Search").fill(target.id);
    await expect(page).toHaveURL(new RegExp(`q=${target.id}`));
    await expect(page.getByTestId("count-PENDING")).toHaveText("1 tasks");
    await expect(page.getByRole("region", { name: /^Needs approval/ })).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId(`task-card-${target.id}`)).toBeVisible();
    await expect(page.getByTestId("count-PENDING")).toHaveText("1 tasks");
  });

  test("the first cards are in the page's HTML, read as the signed-in user: none from a plant not on their list", async ({ page, api }) => {
    const waiting = await allPages<TTask>(api.raw, "/api/plants/RTM1/tasks?taskStatus=NEED_APPROVAL");
    // The page as the server sends it, before any script runs (app/…/tasks/page.tsx).
    const html = await (await page.request.get("/plants/RTM1/tasks")).text();
    expect(html).toContain(`data-testid="task-card-${waiting[0]!.id}"`);
    // The planner may not open OUL1: its page, read the same way, holds no task of it.
    const refused = await (await page.request.get("/plants/OUL1/tasks")).text();
    expect(refused).toContain("No access to this plant");
    expect(refused).not.toContain("OUL1-T");
  });

  test("creates a task end to end; moving tasks is hidden and refused", async ({ page, api }) => {
    const before = await countOf(api.raw, "/api/plants/RTM1/tasks?taskStatus=NEED_APPROVAL");
    await page.goto("/plants/RTM1/tasks");
    await page.getByRole("link", { name: "New task" }).click();
    const form = page.getByRole("dialog", { name: "New task" });
    await expect(form).toBeVisible();

    // The form checks what the server checks, before sending anything.
    await form.getByRole("button", { name: "Create task" }).click();
    await expect(form.getByText("Give the task a title.")).toBeVisible();
    await expect(form.getByText("Choose the asset.")).toBeVisible();
    await expect(form.getByLabel("Title")).toBeFocused();

    const title = `E2E seal leak ${Date.now()}`;
    await form.getByLabel("Title").fill(title);
    await form.getByLabel("Description").fill("Drips at the pump's mechanical seal.");
    const asset = form.getByRole("combobox", { name: "Asset" });
    await asset.fill("RTM1-P-");
    const option = page.getByRole("listbox", { name: "Asset" }).getByRole("option").first();
    const optionText = await option.innerText();
    const tag = optionText.split(" — ")[0]!.trim();
    await option.click();
    await form.getByLabel("Activity kind").selectOption("CORRECTIVE");
    await form.getByLabel("Priority").selectOption("P2");
    await form.getByLabel("Assigned to role").selectOption("MECH_TECH");
    await form.getByLabel("Due date").fill(addDays(todayIso(), -2));
    await form.getByRole("button", { name: "Create task" }).click();
    await expect(form.getByText("The due date cannot be before the created date.")).toBeVisible();
    await form.getByLabel("Due date").fill(addDays(todayIso(), 7));
    await saveScreenshot(page, "task-create-form", { fullPage: false });
    await expectAccessible(page);
    await form.getByRole("button", { name: "Create task" }).click();

    // The new task opens, waiting for approval, and the API has it with what was entered.
    await expect(page.getByText(/Task RTM1-T\d+ created/)).toBeVisible();
    await expect(page).toHaveURL(/task=RTM1-T\d+/);
    const id = /task=([^&]+)/.exec(page.url())![1]!;
    const created = await api.get<TTask>(`/api/plants/RTM1/tasks/${id}`);
    expect(created).toMatchObject({
      taskTitle: title,
      status: "NEED_APPROVAL",
      activityKind: "CORRECTIVE",
      priority: "P2",
      assignedToRole: "MECH_TECH",
      dueDate: addDays(todayIso(), 7),
      createdDate: todayIso(),
      asset: { tagNumber: tag },
    });
    await expect(page.getByTestId("count-NEED_APPROVAL")).toHaveText(`${before + 1} tasks`);
    const drawer = page.getByRole("dialog", { name: title });
    await expect(drawer).toBeVisible();

    // A planner may not move it: no move buttons, no drag, and the API says 403.
    await expect(drawer.getByRole("button", { name: "Approve" })).toHaveCount(0);
    await expect(drawer.getByText("Only supervisors can move tasks between statuses.")).toBeVisible();
    await expect(page.getByTestId(`task-card-${id}`)).toHaveAttribute("data-movable", "false");
    const refused = await api.raw.post(`/api/plants/RTM1/tasks/${id}/transitions`, { data: { to: "PENDING" } });
    expect(refused.status()).toBe(403);
    expect((await api.get<TTask>(`/api/plants/RTM1/tasks/${id}`)).status).toBe("NEED_APPROVAL");
  });
});

test.describe("supervisor", () => {
  test.use({ role: "supervisor" });

  test("approves a task with the drawer's button; the card moves and the API agrees", async ({ page, api }) => {
    const waiting = await allPages<TTask>(api.raw, "/api/plants/RTM1/tasks?taskStatus=NEED_APPROVAL");
    const task = waiting[waiting.length - 1]!;
    const pendingBefore = await countOf(api.raw, "/api/plants/RTM1/tasks?taskStatus=PENDING");
    await page.goto(`/plants/RTM1/tasks?task=${task.id}`);
    const drawer = page.getByRole("dialog", { name: task.taskTitle });
    await expect(drawer.getByRole("button", { name: "Approve" })).toBeVisible();
    await expect(drawer.getByRole("button", { name: "Reject and close" })).toBeVisible();
    await saveScreenshot(page, "task-drawer-supervisor", { fullPage: false });
    await drawer.getByLabel("Remark for the move (optional)").fill("Approved in the morning meeting");
    await drawer.getByRole("button", { name: "Approve" }).click();

    await expect(page.getByText(`${task.id} moved to Pending.`)).toBeVisible();
    await expect(drawer.getByRole("button", { name: "Report done" })).toBeVisible();
    await expect(page.getByTestId("count-PENDING")).toHaveText(`${pendingBefore + 1} tasks`);
    expect((await api.get<TTask>(`/api/plants/RTM1/tasks/${task.id}`)).status).toBe("PENDING");
  });

  test("drags a card to a column that accepts it", async ({ page, api }) => {
    const postponed = await allPages<TTask>(api.raw, "/api/plants/RTM1/tasks?taskStatus=POSTPONED");
    const task = postponed[0]!;
    await page.goto("/plants/RTM1/tasks");
    await page.getByTestId(`task-card-${task.id}`).dragTo(page.getByRole("region", { name: /^Pending/ }));
    await expect(page.getByText(`${task.id} moved to Pending.`)).toBeVisible();
    expect((await api.get<TTask>(`/api/plants/RTM1/tasks/${task.id}`)).status).toBe("PENDING");
  });

  test("an assignment made on a task someone changed meanwhile is refused in words and the card refreshed", async ({ page, api }) => {
    const pending = await allPages<TTask>(api.raw, "/api/plants/RTM1/tasks?taskStatus=PENDING");
    const task = pending.find((entry) => entry.assignee === null) ?? pending[0]!;
    // The board's poll must not see the other change before the select is used: its reads answer
    // the list as it was until the assignment is sent (the order of a real race, made certain).
    const before = await (await api.raw.get("/api/plants/RTM1/tasks?page=1&pageSize=1000")).text();
    let frozen = true;
    await page.route(/\/api\/plants\/RTM1\/tasks\?/, (route) => (frozen && route.request().method() === "GET" ? route.fulfill({ contentType: "application/json", body: before }) : route.continue()));
    await page.route(/\/api\/plants\/RTM1\/tasks\/[^/?]+$/, (route) => {
      if (route.request().method() === "PATCH") frozen = false;
      return route.continue();
    });
    await page.goto(`/plants/RTM1/tasks?task=${task.id}`);
    const drawer = page.getByRole("dialog", { name: task.taskTitle });
    const select = drawer.getByLabel("Assignee");
    await expect(select).toBeEnabled();
    // Someone else assigns it to the planner meanwhile.
    const elsewhere = await api.raw.patch(`/api/plants/RTM1/tasks/${task.id}`, { data: { assignee: { username: "planner@plantdesk.demo", firstname: "", lastname: "" } } });
    expect(elsewhere.ok()).toBeTruthy();
    await select.selectOption("supervisor@plantdesk.demo");
    // Said in words, the other person's choice kept and shown.
    const notice = drawer.getByTestId("drawer-notice");
    await expect(notice).toContainText(`Someone else changed ${task.id} after it was shown here, so it was not assigned to Sam Supervisor`);
    await expect(notice).toContainText("It is assigned to Pia Planner now.");
    await expect(notice).not.toContainText("TASK_CHANGED");
    await expect(select).toHaveValue("planner@plantdesk.demo");
    expect((await api.get<TTask>(`/api/plants/RTM1/tasks/${task.id}`)).assignee?.username).toBe("planner@plantdesk.demo");
    await expectAccessible(page);
    for (const width of [1440, 820, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(notice).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scrolling at ${width}px`).toBe(true);
      await saveScreenshot(page, `task-assign-stale-${width}`, { fullPage: false });
    }
  });

  test("a move the server refuses is rolled back and explained", async ({ page, api }) => {
    const waiting = await allPages<TTask>(api.raw, "/api/plants/RTM1/tasks?taskStatus=NEED_APPROVAL");
    const task = waiting[0]!;
    await page.goto(`/plants/RTM1/tasks?task=${task.id}`);
    const drawer = page.getByRole("dialog", { name: task.taskTitle });
    await expect(drawer.getByRole("button", { name: "Approve" })).toBeVisible();
    // Someone else closes the task meanwhile: the page's "Approve" is now out of date.
    const elsewhere = await api.raw.post(`/api/plants/RTM1/tasks/${task.id}/transitions`, { data: { to: "CLOSED", remark: "closed elsewhere" } });
    expect(elsewhere.ok()).toBeTruthy();
    await drawer.getByRole("button", { name: "Approve" }).click();
    // Said in words: what changed, not a status code.
    await expect(drawer.getByTestId("drawer-notice")).toHaveText(`${task.id} was already moved to Closed by someone else, so it was not moved to Pending. The card now shows it as it is.`);
    // Rolled back, then re-read: the task shows what the server says, Closed, with no moves left.
    await expect(drawer.getByText("Closed", { exact: true }).first()).toBeVisible();
    await expect(drawer.getByRole("button", { name: "Approve" })).toHaveCount(0);
    await expect(page.getByRole("region", { name: /^Pending/ }).getByTestId(`task-card-${task.id}`)).toHaveCount(0);
    expect((await api.get<TTask>(`/api/plants/RTM1/tasks/${task.id}`)).status).toBe("CLOSED");
  });
});
