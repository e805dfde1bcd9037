/**
 * A user's day starts and ends here: a deep link while signed out leads to sign-in and back; a
 * wrong password is refused with a readable message; the session cookie is httpOnly with the
 * configured lifetime; signing out ends the session for pages and for the API alike.
 */
import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD } from "./fixtures";

test("deep link → sign-in → back to the page; wrong password refused; sign-out ends the session", async ({ page, context }) => {
  await page.goto("/plants/RTM1/jobs?pageSize=25");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fplants%2FRTM1%2Fjobs%3FpageSize%3D25$/);
  await expect(page.getByRole("heading", { name: "Sign in to Plantdesk" })).toBeVisible();

  await page.getByLabel("E-mail").fill("planner@plantdesk.demo");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText(/e-mail or password is not right/);
  expect((await context.cookies()).some((cookie) => cookie.name.endsWith("next-auth.session-token"))).toBe(false);

  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/plants\/RTM1\/jobs\?pageSize=25$/);

  const session = (await context.cookies()).find((cookie) => cookie.name === "next-auth.session-token")!;
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false, path: "/" });
  // SESSION_MAX_AGE_HOURS defaults to 8.
  expect(Math.abs(session.expires - (Date.now() / 1000 + 8 * 3600))).toBeLessThan(120);
  const me = await page.request.get("/api/me");
  expect((await me.json()).email).toBe("planner@plantdesk.demo");

  await page.getByRole("button", { name: /Pia Planner/ }).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  expect((await page.request.get("/api/me")).status()).toBe(401);
  await page.goto("/plants/RTM1");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fplants%2FRTM1$/);
});

test("a callbackUrl to another site is not followed", async ({ page }) => {
  // Another origin on loopback: were the redirect followed, no traffic would leave the machine.
  await page.goto(`/signin?callbackUrl=${encodeURIComponent("http://127.0.0.2:9/stolen")}`);
  await page.getByLabel("E-mail").fill("engineer@plantdesk.demo");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => url.pathname !== "/signin");
  expect(new URL(page.url()).host).toBe(new URL(test.info().project.use.baseURL!).host);
  // Close the page so its background queries (the overview's alarms, which may wait out a 429 late
  // in a full run) do not hold up closing the browser context. Not goto("about:blank"): the page
  // may still be moving on to the user's plant, and that navigation would interrupt it.
  await page.close();
});
