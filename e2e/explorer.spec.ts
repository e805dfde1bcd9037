/**
 * The telemetry explorer as Azure Data Explorer users know it (issue: "The explorer"): errors in
 * the results panel with line and column, a schema panel, a UTC/local switch, a copy-link button,
 * query tabs that survive a reload, and "Create task" from an alarm row.
 */
import { expect, expectAccessibleInBothThemes, saveScreenshotsAtBothSizes, test, VIEWPORTS } from "./fixtures";
import { fixedWindow, typeQuery, type TTask } from "./helpers";

test.use({ role: "planner", timezoneId: "Europe/Amsterdam", viewport: VIEWPORTS.desktop });

const PLANT = "RTM1";

function explorerUrl(query: string, extra: Record<string, string> = {}) {
  const { startTime, endTime } = fixedWindow();
  return `/plants/${PLANT}/telemetry?${new URLSearchParams({ q: query, from: startTime, to: endTime, plants: PLANT, ...extra })}`;
}

test("a rejected query is explained in the results panel, and its position puts the cursor there", async ({ page }) => {
  await page.goto(`/plants/${PLANT}/telemetry`);
  await typeQuery(page, "States\n| whre Name == 1\n| take 10");
  await page.keyboard.press("Shift+Enter");
  const problem = page.getByTestId("query-error");
  await expect(problem).toContainText("Line 2, column 3: Unknown operator 'whre'");
  await page.locator(".cm-content").click(); // the cursor elsewhere first
  await page.keyboard.press("ControlOrMeta+End");
  await problem.getByRole("button", { name: "Line 2, column 3" }).click();
  await expect(page.locator(".cm-activeLine")).toContainText("whre");
  await expect(page.locator(".cm-content")).toBeFocused();
  await saveScreenshotsAtBothSizes(page, "explorer-error");
  await expectAccessibleInBothThemes(page);
});

test("the schema panel lists tables, columns, data points with units and metadata keys; a name types itself", async ({ page }) => {
  await page.goto(`/plants/${PLANT}/telemetry`);
  const schema = page.getByTestId("schema-panel");
  await expect(schema.locator("summary").filter({ hasText: /^States/ })).toBeVisible();
  await expect(schema.locator("summary").filter({ hasText: /^Events/ })).toBeVisible();
  await expect(schema.getByRole("button", { name: /^Timestamp\s*datetime$/ })).toBeVisible();
  const pressure = schema.getByRole("button", { name: /^Pressure\s*bar$/ });
  await expect(pressure).toBeVisible();
  await schema.getByText("DataMetadata keys").click();
  await expect(schema.getByRole("button", { name: "DataMetadata.Unit", exact: true })).toBeVisible();
  await schema.getByText("MessageMetadata keys").click();
  await expect(schema.getByRole("button", { name: "MessageMetadata.topologyReference", exact: true })).toBeVisible();

  await typeQuery(page, "States\n| where Name == ");
  await pressure.click();
  await expect(page.locator(".cm-content")).toContainText('where Name == "Pressure"');
});

test("times switch between the reader's clock and UTC, remembered across a reload", async ({ page }) => {
  const query = "Events\n| project StartTime, Name, DeviceId\n| order by StartTime asc\n| take 5";
  const { startTime, endTime } = fixedWindow();
  const api = await page.request.post("/api/telemetry/query", { data: { query, startTime, endTime, plantIds: [PLANT] } });
  const first = String(((await api.json()) as { data: { rows: unknown[][] } }).data.rows[0]![0]);

  await page.goto(explorerUrl(query, { view: "table" }));
  const table = page.getByTestId("result-table");
  await expect(table.locator("thead")).toContainText("datetime · Europe/Amsterdam");
  const local = new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Amsterdam", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).format(Date.parse(first));
  await expect(table.locator("tbody tr").first().locator("td").nth(1)).toHaveText(`${local}.000`);

  await page.getByTestId("time-mode").getByRole("button", { name: "UTC" }).click();
  await expect(table.locator("thead")).toContainText("datetime · UTC");
  await expect(table.locator("tbody tr").first().locator("td").nth(1)).toHaveText(first.slice(0, 23).replace("T", " "));
  await expect(page.getByLabel("Time range")).toHaveValue("custom");
  await expect(page.getByLabel("From (UTC)")).toHaveValue(startTime.slice(0, 16));
  await page.reload();
  await expect(page.getByTestId("time-mode").getByRole("button", { name: "UTC" })).toHaveAttribute("aria-pressed", "true");
  await page.getByTestId("time-mode").getByRole("button", { name: "Local time" }).click();
  await expect(page.getByLabel("From (local time)")).toBeVisible();
});

test("copy link puts the page's address, query included, on the clipboard", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(explorerUrl("States\n| summarize count() by Name"));
  await expect(page.getByTestId("category-chart")).toBeVisible();
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByTestId("copy-status")).toHaveText("Link copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(page.url());
  expect(new URL(copied).searchParams.get("q")).toBe("States\n| summarize count() by Name");
});

test("query tabs keep their own queries and results, across a reload", async ({ page }) => {
  await page.goto(`/plants/${PLANT}/telemetry`);
  const tabs = page.getByTestId("query-tabs");
  await expect(tabs.getByRole("button", { name: /^States/ })).toHaveCount(1);
  await typeQuery(page, "Events\n| summarize Alarms = count() by Severity");
  await page.keyboard.press("Shift+Enter");
  await expect(page.getByTestId("query-status")).toContainText("rows");

  await page.getByRole("button", { name: "New query tab" }).click();
  await expect(tabs.locator("li")).toHaveCount(3); // two tabs and the + button
  await expect(page.getByText("Run a query to see results")).toBeVisible();
  await typeQuery(page, "States\n| summarize count() by Name");
  await page.keyboard.press("Shift+Enter");
  await expect(page.getByTestId("category-chart")).toBeVisible();
  await expect(page).toHaveURL(/tab=/);
  await saveScreenshotsAtBothSizes(page, "explorer-tabs-schema");
  await expectAccessibleInBothThemes(page);

  await page.reload();
  await expect(tabs.getByRole("button", { name: /^Events \| summarize Alarms/ })).toBeVisible();
  await expect(tabs.getByRole("button", { name: /^States \| summarize count/ })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("category-chart")).toBeVisible();

  await tabs.getByRole("button", { name: /^Events \| summarize Alarms/ }).click();
  await expect(page.locator(".cm-content")).toContainText("summarize Alarms = count() by Severity");
  await expect(page).toHaveURL(/Alarms/);
  await expect(page.getByTestId("query-status")).toContainText("rows");
  await tabs.getByRole("button", { name: /^Close tab States/ }).click();
  await expect(tabs.locator("li")).toHaveCount(2);
  await page.reload();
  await expect(tabs.locator("li")).toHaveCount(2);
});

test("an alarm row opens the create-task form with the device's asset, the alarm's day and its message", async ({ page, api }) => {
  const query = "Events\n| project StartTime, DeviceId, Name, Severity, Message\n| order by StartTime desc\n| take 10";
  const { startTime, endTime } = fixedWindow();
  const response = await page.request.post("/api/telemetry/query", { data: { query, startTime, endTime, plantIds: [PLANT] } });
  const [start, deviceId, , , message] = ((await response.json()) as { data: { rows: string[][] } }).data.rows[0]!;
  const asset = await page.request.post("/api/telemetry/query", {
    data: { query: `States | where DeviceId == "${deviceId}" | summarize by Asset = tostring(MessageMetadata.topologyReference)`, startTime, endTime, plantIds: [PLANT] },
  });
  const tag = String(((await asset.json()) as { data: { rows: string[][] } }).data.rows[0]![0]);

  await page.goto(explorerUrl(query));
  const table = page.getByTestId("result-table");
  await expect(table.locator("tbody tr")).toHaveCount(10);
  await table.locator("tbody tr").first().getByRole("link", { name: /^Create a task for alarm/ }).click();

  await expect(page).toHaveURL(/\/plants\/RTM1\/tasks\?.*new=1/);
  const form = page.getByRole("dialog", { name: "New task" });
  await expect(form.getByRole("combobox", { name: "Asset" })).toHaveValue(new RegExp(tag));
  await expect(form.getByLabel("Incident date")).toHaveValue(start!.slice(0, 10));
  await expect(form.getByLabel("Description")).toHaveValue(new RegExp(message!.replace(/[()]/g, "\\$&")));
  await expect(form.getByLabel("Title")).toHaveValue(/^Alarm /);
  await saveScreenshotsAtBothSizes(page, "explorer-alarm-task-form", { fullPage: false });
  await expectAccessibleInBothThemes(page);

  await form.getByLabel("Activity kind").selectOption("CORRECTIVE");
  await form.getByLabel("Priority").selectOption("P2");
  await form.getByRole("button", { name: "Create task" }).click();
  await expect(page).toHaveURL(/task=RTM1-T\d+/);
  const id = /task=([^&]+)/.exec(page.url())![1]!;
  const created = await api.get<TTask>(`/api/plants/RTM1/tasks/${id}`);
  expect(created).toMatchObject({ incidentDate: start!.slice(0, 10), asset: { tagNumber: tag } });
  expect(created.taskDescription).toContain(message);
  await expect(page).not.toHaveURL(/incident=/);
});

test("counts carry no unit on their own axis; a cancelled query says so instead of showing the last result (issue 26)", async ({ page }) => {
  const counted = 'States\n| where Name == "MotorCurrent"\n| summarize n = count(), p99 = percentile(Value, 99) by Name, bin(Timestamp, 1h)';
  await page.goto(explorerUrl(counted));
  const chart = page.getByTestId("time-series-chart");
  await expect(chart.locator("path.series-line")).toHaveCount(2);
  // Old main: "MotorCurrent · n (A)" — a count drawn against amperes.
  await expect(chart.locator(".recharts-label")).toHaveText(["count", "MotorCurrent (A)"]);
  const legend = page.getByTestId("chart-legend");
  await expect(legend.getByRole("button", { name: "MotorCurrent · n", exact: true })).toBeVisible();
  await expect(legend.getByRole("button", { name: "MotorCurrent · p99 (A)", exact: true })).toBeVisible();
  await saveScreenshotsAtBothSizes(page, "explorer-count-axis");
  await expectAccessibleInBothThemes(page);

  // The next run is held back at the network until cancelled, so Cancel always meets it running.
  let release: () => void = () => undefined;
  await page.route("**/api/telemetry/query", async (route) => {
    await new Promise<void>((resolve) => (release = resolve));
    await route.continue().catch(() => undefined);
  });
  await typeQuery(page, "States\n| take 5");
  await page.keyboard.press("Shift+Enter");
  await page.getByRole("button", { name: "Cancel" }).click();
  const cancelled = page.getByTestId("query-cancelled");
  await expect(cancelled).toContainText("cancelled");
  await expect(chart).toHaveCount(0);
  await expect(page.getByTestId("query-status")).toHaveText("");
  release();
  await page.unroute("**/api/telemetry/query");
  await expectAccessibleInBothThemes(page);
  await saveScreenshotsAtBothSizes(page, "explorer-cancelled");

  // Running it again shows its result.
  await page.getByRole("button", { name: "Run query" }).click();
  await expect(page.getByTestId("query-status")).toContainText("5 rows");
  await expect(cancelled).toHaveCount(0);
});

test("accepting a data point name inside quotes puts the cursor after the closing quote", async ({ page }) => {
  await page.goto(`/plants/${PLANT}/telemetry`);
  await typeQuery(page, 'States\n| where Name == ""');
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.type("Pres");
  await expect(page.getByRole("option", { name: /^Pressure/ })).toBeVisible();
  // CodeMirror ignores Enter for its first 75 ms after the list opens (interactionDelay), so a fast
  // typist's Enter is a new line; a person reads the list before accepting.
  await page.waitForTimeout(150);
  await page.keyboard.press("Enter");
  await page.keyboard.type(" | take 3");
  // Old main: 'Name == "Pressure | take 3"'.
  await expect(page.locator(".cm-content")).toContainText('where Name == "Pressure" | take 3');
});
