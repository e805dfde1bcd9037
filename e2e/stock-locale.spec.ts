/**
 * Stock levels as counted at the Rotterdam plant (issue: "Stock levels"): numbers in the reader's
 * language (decimal comma), a plausibility question for a tenfold jump, a correction that names the
 * count it corrects, exponents refused, and the plant's short parts with their last count.
 */
import { expect, expectAccessible, expectAccessibleInBothThemes, saveScreenshot, saveScreenshotsAtBothSizes, test } from "./fixtures";
import { allPages, type Page, type TPart } from "./helpers";

interface HistoryEntry {
  quantity: number;
  unit: string;
  remark: string | null;
  submittedAt: string;
}

test.use({ role: "planner", locale: "nl-NL", timezoneId: "Europe/Amsterdam" });

const nl = (value: number) => value.toLocaleString("nl-NL", { maximumFractionDigits: 3 });

test("a Dutch planner types a decimal comma, is asked about a tenfold jump, and corrects a wrong count", async ({ page, api }) => {
  const parts = await allPages<TPart>(api.raw, "/api/plants/RTM1/parts?isShort=false");
  // A part measured in decimals (KG, L, M…): counted items (PCS…) take whole numbers only.
  const part = parts.filter((entry) => !["PCS", "SET", "BOX", "PAIR", "ROLL"].includes(entry.unit) && entry.quantity >= 2 && entry.quantity < 1000)[1]!;
  await page.goto(`/plants/RTM1/stock?part=${part.id}`);
  const form = page.getByRole("region", { name: "Record a count" });
  await expect(page.getByTestId("part-level")).toHaveText(nl(part.quantity));

  // "1e9" is not a count.
  await form.getByLabel("Quantity").fill("1e9");
  await form.getByRole("button", { name: "Save count" }).click();
  await expect(form.getByText("Enter a plain number, such as 12,5")).toBeVisible();

  // A decimal comma is a decimal mark here.
  const small = Math.max(1, Math.round(part.quantity)) + 0.5;
  await form.getByLabel("Quantity").fill(nl(small));
  await form.getByRole("button", { name: "Save count" }).click();
  await expect(page.getByTestId("stock-outcome")).toContainText(`✓ ${nl(small)} ${part.unit} recorded`);
  await expect(page.getByTestId("part-level")).toHaveText(nl(small));

  // A billion is more than ten times that: asked first, saved only when confirmed.
  await form.getByLabel("Quantity").fill("1.000.000.000");
  await form.getByRole("button", { name: "Save count" }).click();
  const doubt = page.getByTestId("stock-plausibility");
  await expect(doubt).toContainText(`1.000.000.000 ${part.unit} is more than ten times the count of`);
  let history = await api.get<Page<HistoryEntry>>(`/api/plants/RTM1/parts/${part.id}/stock-levels?pageSize=5`);
  expect(history.data[0]!.quantity).toBe(small);
  await saveScreenshotsAtBothSizes(page, "stock-plausibility");
  await expectAccessibleInBothThemes(page);
  await doubt.getByRole("button", { name: "Save anyway" }).click();
  await expect(page.getByTestId("part-level")).toHaveText("1.000.000.000");
  // The axis shortens the billion instead of clipping it.
  const ticks = page.getByTestId("stock-chart").locator('text.recharts-cartesian-axis-tick-value[orientation="left"]');
  await expect.poll(async () => (await ticks.allTextContents()).join(" | ")).toMatch(/\d\s?mld\./);
  expect((await ticks.allTextContents()).join(" ")).not.toMatch(/000000/);
  history = await api.get<Page<HistoryEntry>>(`/api/plants/RTM1/parts/${part.id}/stock-levels?pageSize=5`);
  const wrong = history.data[0]!;
  expect(wrong.quantity).toBe(1e9);

  // Correct it: a new level whose remark names the count it corrects.
  const rows = page.getByTestId("stock-history").locator("tr");
  await rows.first().getByRole("button", { name: /^Correct the count of/ }).click();
  const correction = page.getByRole("region", { name: "Correct a count" });
  await correction.getByLabel("Correct quantity").fill(nl(small));
  await correction.getByLabel("Why it was wrong").fill("nine zeros too many");
  await correction.getByRole("button", { name: "Save correction" }).click();
  await expect(page.getByTestId("stock-outcome")).toContainText(`✓ ${nl(small)} ${part.unit} recorded`);
  await expect(page.getByTestId("part-level")).toHaveText(nl(small));
  await expect(rows.first()).toContainText("Corrects the count of");
  await expect(rows.nth(1)).toHaveAttribute("data-corrected", "true");
  await expect(rows.nth(1)).toContainText("Corrected");
  history = await api.get<Page<HistoryEntry>>(`/api/plants/RTM1/parts/${part.id}/stock-levels?pageSize=5`);
  expect(history.data[0]).toMatchObject({ quantity: small, remark: `Correction of the count of ${wrong.submittedAt} (1000000000 ${part.unit}): nine zeros too many` });
  await saveScreenshotsAtBothSizes(page, "stock-correction");
  await expectAccessibleInBothThemes(page);
});

test("cancelling a correction throws its draft away: starting it again begins empty", async ({ page, api }) => {
  const parts = await allPages<TPart>(api.raw, "/api/plants/RTM1/parts?isShort=false");
  const part = parts.filter((entry) => !["PCS", "SET", "BOX", "PAIR", "ROLL"].includes(entry.unit))[2]!;
  // A count to correct, whatever the part's history held.
  const counted = await api.raw.put(`/api/plants/RTM1/parts/${part.id}/stock-level`, { data: { id: part.id, quantity: 3, unit: part.unit, remark: "e2e cancel", isShort: false } });
  expect(counted.ok()).toBeTruthy();
  await page.goto(`/plants/RTM1/stock?part=${part.id}`);
  const rows = page.getByTestId("stock-history").locator("tr");
  await expect(rows.first()).toContainText("e2e cancel");
  const correction = page.getByRole("region", { name: "Correct a count" });
  const drafts = () => page.evaluate((prefix) => Object.keys(sessionStorage).filter((key) => key.startsWith(prefix)), `plantdesk:stock-count:RTM1:${part.id}:`);

  await rows.first().getByRole("button", { name: /^Correct the count of/ }).click();
  await correction.getByLabel("Correct quantity").fill(nl(2.5));
  await correction.getByLabel("Why it was wrong").fill("typed, then thought better of it");
  // What is typed is kept for an expired session…
  await expect.poll(drafts).toHaveLength(1);
  await correction.getByRole("button", { name: "Cancel correction" }).click();
  await expect(page.getByRole("region", { name: "Record a count" })).toBeVisible();
  // …and cancelling discards it, so the same correction starts empty, with no "draft is back".
  expect(await drafts()).toEqual([]);
  await rows.first().getByRole("button", { name: /^Correct the count of/ }).click();
  await expect(correction.getByLabel("Correct quantity")).toHaveValue("");
  await expect(correction.getByLabel("Why it was wrong")).toHaveValue("");
  await expect(correction.getByTestId("form-draft")).toHaveCount(0);
  await expectAccessible(page);
  for (const width of [1440, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(correction.getByLabel("Correct quantity")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scrolling at ${width}px`).toBe(true);
    await saveScreenshot(page, `stock-correction-again-${width}`, { fullPage: false });
  }
});

test("the plant's short parts are listed with their last count", async ({ page, api }) => {
  const short = await allPages<TPart>(api.raw, "/api/plants/RTM1/parts?isShort=true");
  await page.goto("/plants/RTM1/stock?short=1");
  const table = page.getByTestId("short-parts");
  await expect(table.locator("tbody tr")).toHaveCount(short.length);
  const first = [...short].sort((a, b) => a.name.localeCompare(b.name))[0]!;
  await expect(table.locator("tbody tr").first()).toContainText(first.name);
  await expect(table.locator("tbody tr").first()).toContainText(`${nl(first.quantity)} ${first.unit}`);
  await saveScreenshotsAtBothSizes(page, "stock-short-parts");
  await expectAccessibleInBothThemes(page);
  await table.getByRole("link", { name: first.name }).click();
  await expect(page).toHaveURL(new RegExp(`part=${first.id}`));
  await expect(page.getByTestId("part-level")).toHaveText(nl(first.quantity));
});

test.describe("a part counted in whole items, in German", () => {
  test.use({ locale: "de-DE", timezoneId: "America/New_York" });

  test("the quantity's hint gives a whole example and the phone offers digits, so the hint never suggests what the check refuses", async ({ page, api }) => {
    const parts = await allPages<TPart>(api.raw, "/api/plants/RTM1/parts?isShort=false");
    const part = parts.find((entry) => entry.unit === "PCS")!;
    await page.goto(`/plants/RTM1/stock?part=${part.id}`);
    const form = page.getByRole("region", { name: "Record a count" });
    const quantity = form.getByLabel("Quantity");
    await expect(form.getByText("Whole items, for example 12", { exact: true })).toBeVisible();
    await expect(form.getByText("For example 12,5")).toHaveCount(0);
    await expect(quantity).toHaveAttribute("inputmode", "numeric");

    await quantity.fill("2,5");
    await form.getByRole("button", { name: "Save count" }).click();
    await expect(form.getByText("Enter a whole number: PCS are counted in whole items.")).toBeVisible();
    await quantity.fill("1e3");
    await form.getByRole("button", { name: "Save count" }).click();
    await expect(form.getByText(/Enter a plain number, such as 12;/)).toBeVisible();
    await expectAccessible(page);
  });
});
