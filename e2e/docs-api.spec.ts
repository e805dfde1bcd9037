/**
 * The public API reference (/docs/api) at 1366, 820 and 390 px, light and dark: no sideways scroll
 * (long paths and codes break inside the page) and axe-clean; reached by keyboard from its first link.
 */
import { expect, expectAccessibleInBothThemes, saveScreenshot, test } from "./fixtures";

for (const width of [1366, 820, 390]) {
  test(`/docs/api at ${width} px: no sideways scroll, axe-clean`, async ({ page }) => {
    // The whole reference is one page of thousands of elements: axe's two passes over it took more
    // than the default 2 minutes at a load average of 25 on the shared 2-core machine.
    test.setTimeout(600_000);
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/docs/api");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, "sideways scroll").toBeLessThanOrEqual(0);
    await expectAccessibleInBothThemes(page);
    await page.keyboard.press("Tab");
    await expect(page.locator(":focus")).toBeVisible();
    await saveScreenshot(page, `docs-api-${width}`, { fullPage: false });
  });
}
