/**
 * The close-out form read in German (issue 25, "Close-out"): its hint and its refusal give the
 * example the same way, with the decimal comma the reader types.
 */
import { expect, expectAccessible, test } from "./fixtures";
import { allPages, type TTask } from "./helpers";

test.use({ role: "supervisor", locale: "de-DE", timezoneId: "America/New_York" });

test("hours left empty are refused with the example in the reader's language", async ({ page, api }) => {
  // Nothing is written: the form's own check refuses before any request.
  const waiting = (await allPages<TTask>(api.raw, "/api/plants/RTM1/tasks?taskStatus=PENDING"))[0]!;
  await page.goto(`/plants/RTM1/tasks?task=${waiting.id}`);
  const drawer = page.getByRole("dialog", { name: waiting.taskTitle });
  const closeOut = drawer.locator("form[data-close-out]");
  await expect(closeOut.getByText("For example 2,5", { exact: true })).toBeVisible();
  await closeOut.getByRole("button", { name: "Close out" }).click();
  await expect(closeOut.getByText("Enter the hours worked, e.g. 2,5.", { exact: true })).toBeVisible();
  await expect(closeOut.getByText(/e\.g\. 2\.5/)).toHaveCount(0);
  await expectAccessible(page);
});
