/**
 * The administrators' Users page, in Chromium: an admin adds a user with the keyboard (bad input
 * first: refused in words, nothing added), hands over the invitation link, and the new user opens
 * it, sets a password and is signed in; later signs in with that password; the link works once.
 * The admin changes the user's plants, signs them out everywhere and disables them — each takes
 * effect on the user's next request — and every change is in the audit log. Axe-clean, and
 * without sideways scrolling at 1440, 820 and 390 px.
 */
import { expect, expectAccessible, saveScreenshot, signInThroughApi, test } from "./fixtures";

test.use({ role: "admin" });

test("an admin adds a user in the page, who opens the invitation link, sets a password and signs in", async ({ page, browser, api }) => {
  const email = `new.planner.${Date.now()}@plantdesk.test`;
  await page.goto("/users");
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
  await expect(page.getByText("admin@plantdesk.demo")).toBeVisible();
  await expectAccessible(page);

  // Bad input, keyboard only: nothing typed → said in words; a malformed address → the server's words.
  const form = page.getByRole("form", { name: "Add a user" });
  await form.getByLabel("E-mail").focus();
  await page.keyboard.press("Enter");
  await expect(form.getByRole("alert")).toHaveText("Enter the new user's e-mail address.");
  await page.keyboard.type("not-an-address");
  await page.keyboard.press("Tab"); // name
  await page.keyboard.press("Tab"); // role
  await page.keyboard.press("Tab"); // every plant
  await page.keyboard.press("Tab"); // first plant
  await page.keyboard.press("Space");
  await page.keyboard.press("Enter");
  // The server's own words (the form waits for its answer before it takes another submission).
  await expect(form.getByRole("alert")).toContainText("must be an e-mail address");
  expect(((await api.get<{ data: { email: string }[] }>("/api/users")).data).map((user) => user.email)).not.toContain("not-an-address");

  await form.getByLabel("E-mail").fill(email);
  await form.getByLabel("Name").fill("Nia Newcomer");
  await form.getByLabel("Name").press("Enter");
  const link = page.getByTestId("invitation-url");
  await expect(link).toBeVisible();
  const url = new URL((await link.textContent())!.trim());
  expect(url.pathname).toMatch(/^\/invite\/[A-Za-z0-9_-]{43}$/);
  await saveScreenshot(page, "users-invitation-shown");

  // The new user, in their own browser: the link, a password, and they are in.
  const theirs = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const newcomer = await theirs.newPage();
  await newcomer.goto(url.pathname);
  await expect(newcomer.getByRole("heading", { name: "Welcome to Plantdesk" })).toBeVisible();
  await expectAccessible(newcomer);
  await newcomer.getByLabel("New password").fill("short");
  await newcomer.getByLabel("Repeat the password").fill("short");
  await newcomer.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(newcomer.locator("form").getByRole("alert")).toHaveText("Choose a password of at least 8 characters.");
  await newcomer.getByLabel("New password").fill("a-good-new-password");
  await newcomer.getByLabel("Repeat the password").fill("a-good-new-password");
  await newcomer.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(newcomer.getByRole("button", { name: /Nia Newcomer/ })).toBeVisible();
  const me = (await (await newcomer.request.get("/api/me")).json()) as { email: string; role: string; plants: { id: string }[] };
  expect(me).toMatchObject({ email, role: "planner" });
  expect(me.plants).toHaveLength(1);

  // The link worked once.
  const again = await browser.newPage();
  await again.goto(`${test.info().project.use.baseURL}${url.pathname}`);
  await expect(again.locator("main").getByRole("alert")).toContainText("not valid any more");
  await again.close();

  // Signed out, they sign in with the password they chose.
  await newcomer.getByRole("button", { name: /Nia Newcomer/ }).click();
  await newcomer.getByRole("button", { name: "Sign out" }).click();
  await expect(newcomer).toHaveURL(/\/signin/);
  await newcomer.getByLabel("E-mail").fill(email);
  await newcomer.getByLabel("Password").fill("a-good-new-password");
  await newcomer.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(newcomer.getByRole("button", { name: /Nia Newcomer/ })).toBeVisible();

  // The admin sees the sign-in, changes the plants, signs the user out everywhere, disables them.
  await page.reload();
  const row = page.getByRole("listitem").filter({ hasText: email });
  await expect(row).toContainText("1 open session");
  await expect(row).not.toContainText("Last sign-in: never");
  await row.getByRole("button", { name: "Change role or plants" }).click();
  await expect(page).toHaveURL(/edit=\d+/);
  await row.getByLabel("Every plant, also those added later").check();
  await row.getByRole("button", { name: "Save changes" }).click();
  await expect(row).toContainText("Plants: every plant");
  await row.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(row).toContainText("Signed out of 1 session(s).");
  expect((await newcomer.request.get("/api/me")).status()).toBe(401);
  await row.getByRole("button", { name: "Disable" }).click();
  await expect(row).toContainText("Disabled");
  await newcomer.goto("/signin");
  await newcomer.getByLabel("E-mail").fill(email);
  await newcomer.getByLabel("Password").fill("a-good-new-password");
  await newcomer.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(newcomer.locator("form").getByRole("alert")).toContainText("not right, or the account is disabled");
  await theirs.close();

  // Every change is in the audit log, by the admin.
  const audit = await api.get<{ data: { action: string; target: string | null; userEmail: string }[] }>(`/api/audit?user=admin%40plantdesk.demo&pageSize=50`);
  const mine = audit.data.filter((entry) => entry.target === email).map((entry) => entry.action);
  expect(mine).toEqual(expect.arrayContaining(["user.add", "user.update", "user.end-sessions", "user.disable"]));

  for (const width of [1440, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scrolling at ${width}px`).toBe(true);
    await saveScreenshot(page, `users-${width}`);
  }
  await expectAccessible(page);
});

test("the Users page and its API are for administrators only", async ({ browser }) => {
  const planner = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  await signInThroughApi(planner.request, "planner");
  const page = await planner.newPage();
  await page.goto("/users");
  await expect(page.getByText("Administrators only")).toBeVisible();
  expect((await planner.request.get("/api/users")).status()).toBe(403);
  expect((await planner.request.post("/api/users", { data: { email: "x@y.z", role: "admin", plants: "*" } })).status()).toBe(403);
  await planner.close();
});
