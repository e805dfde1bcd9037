/**
 * Live views: with auto-refresh on, a "last hour" view gets the running demo plant's new readings
 * without a reload (the server appends one per minute; the page asks every 10 s for what is new),
 * the choice is in the URL, and it is offered only for ranges that end "now".
 */
import { expect, test } from "./fixtures";

test.use({ role: "engineer" });

test("a last-hour view with auto-refresh shows the newest reading without a reload", async ({ page }) => {
  test.setTimeout(180_000);
  const query = 'States | where DeviceId == "RTM1-DEV-001" and Name == "Temperature" | project Timestamp, Value | order by Timestamp desc | take 1';
  const params = new URLSearchParams({ q: query, range: "1h", plants: "RTM1", view: "table", refresh: "10s" });
  await page.goto(`/plants/RTM1/telemetry?${params}`);
  const picker = page.getByLabel("Auto-refresh");
  await expect(picker).toHaveValue("10s");
  const newest = page.getByRole("table").getByRole("row").nth(1).getByRole("cell").first();
  await expect(newest).toContainText(/\d{4}-\d{2}-\d{2}/);
  const first = (await newest.textContent()) ?? "";
  await page.evaluate(() => ((window as unknown as { __notReloaded: boolean }).__notReloaded = true));

  // The next minute's reading arrives within about 70 s (one minute plus one refresh).
  await expect.poll(async () => (await newest.textContent()) ?? "", { timeout: 120_000, intervals: [2_000] }).not.toBe(first);
  expect(await page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded)).toBe(true);
  await expect(page).toHaveURL(/refresh=10s/);

  // Off removes it from the URL; an absolute range does not offer it.
  await picker.selectOption("off");
  await expect(page).not.toHaveURL(/refresh=/);
  await page.getByLabel("Time range").selectOption("custom");
  await page.getByRole("button", { name: "Apply range" }).click();
  await expect(page.getByLabel("Auto-refresh")).toHaveCount(0);
});

test("the asset page's telemetry follows the running plant with auto-refresh", async ({ page }) => {
  test.setTimeout(180_000);
  const end = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const lookup = await page.request.post("/api/telemetry/query", {
    data: {
      // The demo plant's readings name the asset; an edge node's (e2e/pipeline.spec.ts publishes for this device) may not.
      query: 'States | where DeviceId == "RTM1-DEV-001" | extend tag = tostring(MessageMetadata.topologyReference) | where isnotempty(tag) | take 1 | project tag',
      startTime: new Date(end.getTime() - 3_600_000).toISOString(),
      endTime: end.toISOString(),
      plantIds: ["RTM1"],
    },
  });
  expect(lookup.ok()).toBeTruthy();
  const tag = String(((await lookup.json()) as { data: { rows: unknown[][] } }).data.rows[0]![0]);
  expect(tag, "a demo reading of RTM1-DEV-001 names its asset").not.toBe("");

  await page.goto(`/plants/RTM1/planned?asset=${encodeURIComponent(tag)}&range=1h&refresh=10s`);
  await expect(page.getByLabel("Auto-refresh")).toHaveValue("10s");
  const curve = page.locator("path.series-line").first();
  await expect(curve).toBeVisible();
  const drawn = (await curve.getAttribute("d")) ?? "";
  await page.evaluate(() => ((window as unknown as { __notReloaded: boolean }).__notReloaded = true));
  // A new minute's sample moves the line (the window slides by a minute).
  await expect.poll(async () => (await curve.getAttribute("d")) ?? "", { timeout: 120_000, intervals: [2_000] }).not.toBe(drawn);
  expect(await page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded)).toBe(true);
});
