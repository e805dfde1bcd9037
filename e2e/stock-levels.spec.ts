/** Stock levels: find a part, record a count end to end, see the history; engineers only read. */
import { expect, expectAccessible, saveScreenshot, test } from "./fixtures";
import { allPages, type Page, type TPart } from "./helpers";

interface HistoryEntry {
  quantity: number;
  unit: string;
  remark: string | null;
  isShort: boolean;
  submittedAt: string;
}

test.describe("planner", () => {
  test.use({ role: "planner" });

  test("records a count: checked like the server, written, shown, kept in the history", async ({ page, api }) => {
    const parts = await allPages<TPart>(api.raw, "/api/plants/RTM1/parts?isShort=true");
    const part = parts[0]!;
    const historyBefore = await api.get<Page<HistoryEntry>>(`/api/plants/RTM1/parts/${part.id}/stock-levels?pageSize=1000`);

    await page.goto("/plants/RTM1/stock");
    await page.getByLabel("Find a part").fill(part.name);
    await expect(page).toHaveURL(/q=/);
    await page.getByTestId("part-list").getByRole("link", { name: new RegExp(part.id) }).click();
    await expect(page).toHaveURL(new RegExp(`part=${part.id}`));
    await expect(page.getByTestId("part-level")).toHaveText(part.quantity.toLocaleString("en"));
    await expect(page.getByRole("heading", { name: part.name })).toBeVisible();
    await expect(page.getByTestId("stock-chart").locator(".recharts-line-curve")).toBeVisible();

    // Refused before sending: a negative quantity.
    const form = page.getByRole("region", { name: "Record a count" });
    await form.getByLabel("Quantity").fill("-3");
    await form.getByRole("button", { name: "Save count" }).click();
    await expect(form.getByText("Enter a number of 0 or more.")).toBeVisible();

    // The unit is the part's own: shown, not offered as a choice the server would refuse.
    await expect(form.getByLabel("Unit")).toHaveValue(part.unit);
    await expect(form.getByLabel("Unit")).toHaveAttribute("readonly", "");

    // Accepted.
    const quantity = part.quantity + 17;
    await form.getByLabel("Quantity").fill(String(quantity));
    await form.getByLabel("Shortage").selectOption("no");
    await form.getByLabel("Remark").fill("Delivery received, counted by e2e");
    await form.getByRole("button", { name: "Save count" }).click();
    await expect(page.getByTestId("stock-outcome")).toContainText(`✓ ${quantity.toLocaleString("en-US")} ${part.unit} recorded`);
    await expect(page.getByTestId("part-level")).toHaveText(quantity.toLocaleString("en"));
    await expect(page.getByTestId("stock-history").locator("tr").first()).toContainText("Delivery received, counted by e2e");

    const after = (await allPages<TPart>(api.raw, "/api/plants/RTM1/parts")).find((entry) => entry.id === part.id)!;
    expect(after).toMatchObject({ quantity, isShort: false, remark: "Delivery received, counted by e2e" });
    const historyAfter = await api.get<Page<HistoryEntry>>(`/api/plants/RTM1/parts/${part.id}/stock-levels?pageSize=1000`);
    expect(historyAfter.data.length).toBe(historyBefore.data.length + 1);
    expect(historyAfter.data[0]).toMatchObject({ quantity, unit: part.unit, isShort: false });
    await saveScreenshot(page, "stock-levels");
    await expectAccessible(page);
  });

  test("short-only filter lists exactly the API's short parts", async ({ page, api }) => {
    const short = await allPages<TPart>(api.raw, "/api/plants/RTM1/parts?isShort=true");
    await page.goto("/plants/RTM1/stock");
    await page.getByLabel("Short parts only").check();
    await expect(page).toHaveURL(/short=1/);
    await expect(page.getByTestId("part-list").getByRole("link")).toHaveCount(short.length);
    await page.reload();
    await expect(page.getByLabel("Short parts only")).toBeChecked();
    await expect(page.getByTestId("part-list").getByRole("link")).toHaveCount(short.length);
  });
});

test.describe("supervisor", () => {
  test.use({ role: "supervisor" });

  test("sets a part's reorder level and quantity: checked in words, saved, on the To order list, audited", async ({ page, api }) => {
    const parts = await allPages<TPart>(api.raw, "/api/plants/RTM1/parts?isShort=false");
    const part = parts.find((entry) => entry.unit === "PCS" && entry.quantity >= 2 && entry.quantity < 500_000)!;
    await page.goto(`/plants/RTM1/stock?part=${part.id}`);
    const form = page.getByRole("region", { name: "Reorder levels" });
    await expect(form.getByLabel("Reorder level")).toHaveValue(String(part.reorderLevel));
    const level = form.getByLabel("Reorder level");
    // Refused in words before anything is sent: a fraction of a counted item, a non-number.
    await level.fill("2.5");
    await form.getByRole("button", { name: "Save reorder levels" }).click();
    await expect(form.getByText("Enter a whole number: PCS are counted in whole items.")).toBeVisible();
    await level.fill("lots");
    await form.getByRole("button", { name: "Save reorder levels" }).click();
    await expect(form.getByText("Enter a number for the reorder level, e.g. 4.")).toBeVisible();
    // Above the current level: the part becomes short, with the quantity to order.
    await level.fill(String(part.quantity + 1));
    await form.getByLabel("Reorder quantity").fill("25");
    await form.getByRole("button", { name: "Save reorder levels" }).click();
    await expect(page.getByTestId("reorder-outcome")).toHaveText(`✓ Reorder level ${(part.quantity + 1).toLocaleString("en")} PCS, order 25 PCS saved. ${part.name} is now below its reorder level.`);
    await expect(page.getByTestId("part-reorder-level")).toHaveText(`${(part.quantity + 1).toLocaleString("en")} PCS`);
    const saved = (await allPages<TPart>(api.raw, "/api/plants/RTM1/parts")).find((entry) => entry.id === part.id)!;
    expect(saved).toMatchObject({ reorderLevel: part.quantity + 1, reorderQuantity: 25, isShort: true, quantity: part.quantity, updatedAt: part.updatedAt });
    await saveScreenshot(page, "stock-reorder-levels");
    await expectAccessible(page);
    await page.goto("/plants/RTM1/stock");
    await expect(page.getByTestId(`to-order-${part.id}`)).toHaveText("25 PCS");
    // Back as it was.
    const restore = await api.raw.patch(`/api/plants/RTM1/parts/${part.id}`, { data: { reorderLevel: part.reorderLevel, reorderQuantity: part.reorderQuantity } });
    expect(restore.status()).toBe(200);
  });
});

test.describe("engineer", () => {
  test.use({ role: "engineer" });

  test("reads levels but has no count form, and the API refuses the write", async ({ page, api }) => {
    const part = (await allPages<TPart>(api.raw, "/api/plants/RTM1/parts"))[0]!;
    await page.goto(`/plants/RTM1/stock?part=${part.id}`);
    await expect(page.getByTestId("part-level")).toHaveText(part.quantity.toLocaleString("en"));
    await expect(page.getByRole("region", { name: "Record a count" })).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Reorder levels" })).toHaveCount(0);
    const refused = await api.raw.put(`/api/plants/RTM1/parts/${part.id}/stock-level`, { data: { id: part.id, quantity: 1, unit: part.unit } });
    expect(refused.status()).toBe(403);
    const reorder = await api.raw.patch(`/api/plants/RTM1/parts/${part.id}`, { data: { reorderLevel: 1 } });
    expect(reorder.status()).toBe(403);
  });
});
