/**
 * The Sessions page in Chromium (docs/api.md, "Sessions"; issue 35), with two real sign-ins of one
 * user through next-auth: this browser (the sign-in page, keyboard only) and a second client with a
 * phone's User-Agent (next-auth's form post). Keyboard only: the user menu leads to the page; it
 * lists both, this one marked, with browser, address and times; ending the other one makes the
 * other client's next request unauthenticated (401, and its pages go to sign-in) while this one
 * goes on; "Sign out everywhere else" ends a third; ending this one signs this browser out.
 * axe clean in both themes; screenshots and no sideways scroll at 1366, 820 and 390 px.
 */
import type { APIRequestContext } from "@playwright/test";
import { atThreeWidths, expect, expectAccessibleInBothThemes, signInThroughApi, tabTo, test, userOfItsOwn } from "./fixtures";

const PHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

const status = async (client: APIRequestContext, path: string) => (await client.get(path, { maxRedirects: 0 })).status();

test("a user sees their sessions and ends one, the others, and their own", async ({ page, playwright, baseURL }) => {
  // Two sign-ins, axe twice in two themes and six screenshots on a machine shared by several builds.
  test.setTimeout(360_000);
  // A user of its own: ending "everywhere else" must not end the sessions other tests of this worker share.
  const me = await userOfItsOwn(playwright, baseURL, { name: "Sam Sessions", role: "engineer", plants: ["RTM1"] });
  // This browser signs in on the sign-in page, keyboard only.
  await page.goto("/signin");
  await page.getByLabel("E-mail").focus();
  await page.keyboard.type(me.email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(me.password);
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => url.pathname !== "/signin");

  // A second client of the same user: a phone, signed in through next-auth's form post.
  const phone = await playwright.request.newContext({ baseURL, userAgent: PHONE_UA });
  await signInThroughApi(phone, me);
  expect(await status(phone, "/api/me")).toBe(200);


  // The user menu → Sessions, keyboard only.
  await page.goto("/plants/RTM1");
  const menu = page.getByRole("button", { name: /Sam Sessions/ });
  await tabTo(page, menu);
  await page.keyboard.press("Enter");
  const link = page.getByRole("link", { name: "Sessions", exact: true });
  await tabTo(page, link, 10);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/account\/sessions$/);
  await expect(page.getByRole("heading", { level: 1, name: "Sessions" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "2 open sessions" })).toBeVisible();
  const mine = page.getByRole("listitem").filter({ hasText: "This session" });
  // Playwright's "Desktop Chrome" device names Chrome on Windows.
  await expect(mine).toContainText("Chrome on Windows");
  await expect(mine).toContainText("with password");
  const phoneRow = page.getByRole("listitem").filter({ hasText: "Safari on iPhone" });
  await expect(phoneRow).toContainText(PHONE_UA);
  await expect(phoneRow).not.toContainText("This session");
  await expectAccessibleInBothThemes(page);
  await atThreeWidths(page, "sessions-two");

  // End the phone's session: its next request is not signed in any more; this one goes on.
  const endPhone = phoneRow.getByRole("button", { name: /^End session: Safari on iPhone/ });
  await tabTo(page, endPhone);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Ended the session of Safari on iPhone.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "1 open session" })).toBeVisible();
  expect(await status(phone, "/api/me")).toBe(401);
  expect(await status(phone, "/plants/RTM1")).toBe(307);
  expect((await page.request.get("/api/me")).status()).toBe(200);
  await phone.dispose();

  // A third sign-in, then "Sign out everywhere else".
  const tablet = await playwright.request.newContext({ baseURL });
  await signInThroughApi(tablet, me);
  await page.reload();
  await expect(page.getByRole("heading", { name: "2 open sessions" })).toBeVisible();
  const everywhere = page.getByRole("button", { name: "Sign out everywhere else" });
  await tabTo(page, everywhere);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Signed out everywhere else: 1 session ended.")).toBeVisible();
  await expect(everywhere).toBeDisabled();
  expect(await status(tablet, "/api/me")).toBe(401);
  await tablet.dispose();
  await expectAccessibleInBothThemes(page);
  await atThreeWidths(page, "sessions-one");

  // Ending this browser's own session signs it out.
  const own = page.getByRole("button", { name: "Sign out of this session" });
  await tabTo(page, own);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/signin/);
  expect((await page.request.get("/api/me")).status()).toBe(401);
});
