/**
 * Sign-in under attack, in the browser: a callbackUrl that a browser would read as another host
 * (`/\t/…`, `%0A`, `%0D`, backslashes) leaves the user on this site after signing in; someone
 * who keeps typing wrong passwords is told when to try again instead of "wrong password"; and a
 * guesser at one address never locks the real user, at another address, out.
 */
import http from "node:http";
import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD } from "./fixtures";

// Another origin on loopback: were a redirect followed, no traffic would leave the machine.
const ELSEWHERE = "127.0.0.2:9";

test("a callbackUrl that a browser would read as another host is not followed", async ({ page, context }) => {
  const origin = new URL(test.info().project.use.baseURL!).host;
  const attacks = [
    `/\t/${ELSEWHERE}/stolen`,
    `/\n/${ELSEWHERE}/stolen`,
    `/\r/${ELSEWHERE}/stolen`,
    `/\\${ELSEWHERE}/stolen`,
    `\\/${ELSEWHERE}/stolen`,
    `/\\/${ELSEWHERE}/stolen`,
    `//${ELSEWHERE}/stolen`,
    `http://${ELSEWHERE}/stolen`,
  ];
  for (const attack of attacks) {
    // Off the app first: a signed-in page whose session vanishes sends itself to sign-in, which
    // would cut the next navigation short.
    await page.goto("about:blank");
    await context.clearCookies();
    // encodeURIComponent: the tab, CR and LF travel as %09, %0D and %0A, as in a crafted link.
    await page.goto(`/signin?callbackUrl=${encodeURIComponent(attack)}`);
    await page.getByLabel("E-mail").fill("engineer@plantdesk.demo");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname !== "/signin", { waitUntil: "commit" });
    expect(new URL(page.url()).host, JSON.stringify(attack)).toBe(origin);
    await expect(page.getByRole("heading").first()).toBeVisible();
  }
  // A path of this site is still where the user lands.
  await page.goto("about:blank");
  await context.clearCookies();
  await page.goto(`/signin?callbackUrl=${encodeURIComponent("/plants/RTM1/jobs?pageSize=25")}`);
  await page.getByLabel("E-mail").fill("engineer@plantdesk.demo");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/plants\/RTM1\/jobs\?pageSize=25$/);
  await page.goto("about:blank");
});

test("someone who keeps typing wrong passwords is told how long to wait", async ({ page }) => {
  await page.goto("/signin");
  // An address no demo test signs in with: its throttling holds up no one else.
  await page.getByLabel("E-mail").fill("forgetful@plantdesk.demo");
  const alert = page.locator("form").getByRole("alert");
  // A few wrong passwords are just wrong; then each further one must wait (1 s, 2 s, …), and the
  // page says so. Attempts go on until it does, since a slow attempt may outlast a short wait.
  const seen: string[] = [];
  for (let i = 1; i <= 12 && !seen.at(-1)?.startsWith("Too many"); i++) {
    await page.getByLabel("Password").fill(`wrong-password-${i}`);
    const answered = page.waitForResponse((response) => response.url().includes("/api/auth/callback/credentials"));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await answered;
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeEnabled();
    seen.push((await alert.textContent()) ?? "");
  }
  expect(seen.slice(0, 5)).toEqual(Array(5).fill("The e-mail or password is not right, or the account is disabled."));
  expect(seen.at(-1)).toMatch(/^Too many sign-in attempts for this account from here\. Please try again in \d+ seconds?\.$/);
});

/** A wrong-password attempt from another loopback address (127.0.0.2), as a guesser elsewhere would send it. */
function guessFrom(localAddress: string, origin: string, email: string, password: string): Promise<string> {
  const post = (pathname: string, body: string, cookie: string) =>
    new Promise<{ body: string; cookies: string[] }>((resolve, reject) => {
      const url = new URL(pathname, origin);
      const request = http.request(
        { host: "127.0.0.1", port: url.port, path: url.pathname, method: body ? "POST" : "GET", localAddress, headers: { cookie, host: url.host, ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) } },
        (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk.toString()));
          response.on("end", () => resolve({ body: text, cookies: (response.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]!) }));
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  return (async () => {
    const csrf = await post("/api/auth/csrf", "", "");
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
    const form = new URLSearchParams({ csrfToken, email, password, json: "true" }).toString();
    const answer = await post("/api/auth/callback/credentials", form, csrf.cookies.join("; "));
    return answer.body;
  })();
}

test("a lockout attempt from one address does not keep the real user at another address out", async ({ page }) => {
  const origin = test.info().project.use.baseURL!;
  // Someone at 127.0.0.2 hammers the supervisor's account until that address is made to wait.
  const answers: string[] = [];
  for (let i = 0; i < 12 && !answers.at(-1)?.includes("TooManyAttempts"); i++) answers.push(await guessFrom("127.0.0.2", origin, "supervisor@plantdesk.demo", `guess-${i}`));
  expect(answers.at(-1)).toContain("TooManyAttempts");
  // The supervisor, in the browser at 127.0.0.1, signs in with the right password at once.
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill("supervisor@plantdesk.demo");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => url.pathname !== "/signin");
  expect((await (await page.request.get("/api/me")).json()).email).toBe("supervisor@plantdesk.demo");
  // The real user's success did not forgive the guesser: its next guesses still meet growing waits.
  // (Sent together, so a slow password check cannot outlast the wait the first one sets.)
  const more = await Promise.all(["guess-again", "guess-once-more"].map((guess) => guessFrom("127.0.0.2", origin, "supervisor@plantdesk.demo", guess)));
  expect(more.some((answer) => answer.includes("TooManyAttempts"))).toBe(true);
  await page.goto("about:blank");
});
