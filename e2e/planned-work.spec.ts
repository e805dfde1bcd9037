/**
 * A planner's look at one machine: find it in the asset tree by serial number with the keyboard,
 * see its planned jobs (the count the API gives), its job history, and its telemetry drawn with the
 * jobs and alarms around it; the link survives a reload.
 */
import type { Page as ApiPage } from "@/lib/client/api";
import type { TAsset, TJobDone, TPlannedJob } from "@/modules/maintenance/contract/maintenance";
import { expect, expectAccessible, saveScreenshot, test } from "./fixtures";

test.use({ role: "planner" });

const PLANT = "RTM1";
const DAY_MS = 86_400_000;

async function allPages<T>(get: <R>(path: string) => Promise<R>, path: string): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const body = await get<ApiPage<T>>(`${path}${path.includes("?") ? "&" : "?"}page=${page}&pageSize=1000`);
    rows.push(...body.data);
    if (page >= body.totalPages) return rows;
  }
}

/** The machine with the most planned work: a leaf-ish asset whose devices report telemetry. */
async function busiestMachine(get: <R>(path: string) => Promise<R>) {
  const horizon = new Date(Date.now() + 183 * DAY_MS).toISOString().slice(0, 10);
  const [assets, planned] = await Promise.all([
    allPages<TAsset>(get, `/api/plants/${PLANT}/assets`),
    allPages<TPlannedJob>(get, `/api/plants/${PLANT}/jobs-planned?endDate=${horizon}`),
  ]);
  const counts = new Map<string, number>();
  for (const job of planned) counts.set(job.asset.tagNumber, (counts.get(job.asset.tagNumber) ?? 0) + 1);
  const parents = new Set(assets.map((a) => a.parentTagNumber));
  // Machines have a parent (a line) and children (components); telemetry is recorded per machine.
  const machines = assets.filter((a) => a.parentTagNumber && parents.has(a.tagNumber) && a.serialNumber);
  machines.sort((a, b) => (counts.get(b.tagNumber) ?? 0) - (counts.get(a.tagNumber) ?? 0) || a.tagNumber.localeCompare(b.tagNumber));
  const machine = machines[0]!;
  return { machine, plannedCount: counts.get(machine.tagNumber) ?? 0, assets };
}

test("a planner finds a machine by serial number and sees its planned jobs and history", async ({ page, api }) => {
  test.setTimeout(120_000);
  const { machine, plannedCount, assets } = await busiestMachine(api.get);
  const history = await api.get<ApiPage<TJobDone>>(`/api/plants/${PLANT}/jobs-done?assetTagNumber=${machine.tagNumber}&pageSize=10`);

  await page.goto(`/plants/${PLANT}/planned?view=assets`);
  await expect(page.getByRole("heading", { level: 1, name: "Planned work" })).toBeVisible();
  const tree = page.getByRole("tree", { name: "Assets" });
  const roots = assets.filter((a) => !a.parentTagNumber || !assets.some((p) => p.tagNumber === a.parentTagNumber));
  await expect(tree.locator('[role="treeitem"][aria-level="1"]')).toHaveCount(roots.length);

  // Search by serial number: only the path to the machine stays; the machine is the last row.
  await page.getByLabel(/Search assets/).fill(machine.serialNumber!);
  await expect(tree.getByRole("treeitem").last()).toHaveAttribute("data-tag", machine.tagNumber);
  await tree.getByRole("treeitem").first().focus();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`asset=${machine.tagNumber}`));
  await expect(page.getByRole("heading", { level: 2, name: new RegExp(machine.tagNumber) })).toBeVisible();

  await expect(page.getByTestId("planned-summary")).toContainText(`${plannedCount} planned job`);
  await expect(page.getByTestId("planned-list").getByRole("listitem")).toHaveCount(plannedCount);
  if (history.data.length > 0) {
    await expect(page.getByTestId("asset-history").getByRole("listitem")).toHaveCount(history.data.length);
    await expect(page.getByTestId("asset-history")).toContainText(history.data[0]!.jobTitle);
  }

  // The link is the state: a reload shows the same asset.
  await page.reload();
  await expect(tree.locator(`[data-tag="${machine.tagNumber}"]`)).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("planned-summary")).toContainText(`${plannedCount} planned job`);

  await expectAccessible(page);
  await saveScreenshot(page, "planned-work");
});

test("the asset tree is a keyboard tree: arrows move, Left and Right close and open", async ({ page }) => {
  await page.goto(`/plants/${PLANT}/planned?view=assets`);
  const tree = page.getByRole("tree", { name: "Assets" });
  const first = tree.getByRole("treeitem").first();
  await expect(first).toHaveAttribute("aria-expanded", "true");
  await first.focus();
  await page.keyboard.press("ArrowLeft");
  await expect(first).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.press("ArrowRight");
  await expect(first).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("ArrowDown");
  const second = tree.getByRole("treeitem").nth(1);
  await expect(second).toBeFocused();
  await expect(second).toHaveAttribute("aria-level", "2");
  await page.keyboard.press("ArrowLeft"); // to the parent when closed
  await expect(first).toBeFocused();
});

test("a machine's telemetry is drawn with its work and alarms on one time axis", async ({ page, api }) => {
  test.setTimeout(120_000);
  const { machine } = await busiestMachine(api.get);
  await page.goto(`/plants/${PLANT}/planned?view=assets&asset=${machine.tagNumber}&range=24h`);
  const points = page.getByTestId("data-points").getByRole("checkbox");
  await expect(points.first()).toBeChecked();
  const curve = page.locator("path.series-line").first();
  await expect(curve).toBeVisible();
  expect((await curve.getAttribute("d"))?.length ?? 0).toBeGreaterThan(200);

  // Another range is another link.
  await page.getByLabel("Time range").selectOption("7d");
  await expect(page).toHaveURL(/range=7d/);
  await expect(page.locator("path.series-line").first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Time range")).toHaveValue("7d");

  await expectAccessible(page);
  await saveScreenshot(page, "planned-work-telemetry");
});

test("tablet width: the tree stacks above the details and nothing overflows", async ({ page, api }) => {
  const { machine } = await busiestMachine(api.get);
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.goto(`/plants/${PLANT}/planned?asset=${machine.tagNumber}`);
  await expect(page.getByTestId("planned-summary")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await saveScreenshot(page, "planned-work-tablet");
});
