/**
 * Single sign-on with any OpenID Connect provider, in Chromium, against a real one: panva's
 * oidc-provider (OpenID certified), started here on a free port, with Plantdesk started as
 * `npm start` runs it (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_NAME set; discovery
 * does the rest). It shows:
 *   - the first sign-in of an unknown identity lands on "waiting for access"; once an admin grants
 *     plants the same person (matched by issuer + subject) works in the dashboard;
 *   - sign-out ends the session on the server: the session cookie, copied before, is refused
 *     afterwards by the API and by `/api/auth/session` (which does not re-issue it);
 *   - an ID token for another audience, correctly signed by the provider, is refused;
 *   - an authorization code replayed (its callback URL opened again) makes no session.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { request as apiRequest, type APIRequestContext, type Page } from "@playwright/test";
import { decodeJwt, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import Provider from "oidc-provider";
import { expect, expectAccessible, saveScreenshot, test } from "./fixtures";
import { freePort } from "../lib/testing/free-port";

const root = path.resolve(import.meta.dirname, "..");
const distDir = path.join(root, process.env.NEXT_DIST_DIR ?? ".next");
const PASSWORD = "oidc-spec-password";
const CLIENT_ID = "plantdesk";
const CLIENT_SECRET = "a-client-secret-of-the-test-provider";

let app: ChildProcess;
let provider: http.Server;
let appURL = "";
let issuer = "";
let dataDir = "";
let log = "";
/** Switched on by the wrong-audience test: the provider's ID tokens then name another client. */
const tamper = { wrongAudience: false };


async function startProvider(port: number, redirectUri: string): Promise<http.Server> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: "test-signing-key", alg: "RS256", use: "sig" };
  const oidc = new Provider(issuer, {
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [redirectUri], grant_types: ["authorization_code"], response_types: ["code"] }],
    jwks: { keys: [jwk] },
    cookies: { keys: ["oidc-spec-cookie-key"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The scopes' claims in the ID token itself, as Keycloak, Okta and Entra ID put them there.
    conformIdTokenClaims: false,
    // Any login name is an account: kim → kim@keycloak.test, "Kim Keycloak".
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: `${id}@keycloak.test`, email_verified: true, name: `${id[0]!.toUpperCase()}${id.slice(1)} Keycloak` }),
      };
    },
  });
  const key = await importJWK(jwk, "RS256");
  // The provider's own ID token, signed again with its own key, naming another audience.
  oidc.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (tamper.wrongAudience && ctx.path === "/token" && body?.id_token) {
      const claims = decodeJwt(body.id_token);
      body.id_token = await new SignJWT({ ...claims, aud: "another-client" }).setProtectedHeader({ alg: "RS256", kid: jwk.kid }).sign(key);
    }
  });
  const server = http.createServer(oidc.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  expect(fs.existsSync(path.join(distDir, "BUILD_ID")), `a production build in ${distDir}`).toBe(true);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-oidc-"));
  const [appPort, providerPort] = [await freePort(), await freePort()];
  appURL = `http://localhost:${appPort}`;
  issuer = `http://127.0.0.1:${providerPort}`;
  provider = await startProvider(providerPort, `${appURL}/api/auth/callback/oidc`);
  app = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/start.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(appPort),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DEMO_PASSWORD: PASSWORD,
      DEMO_TELEMETRY_DAYS: "1",
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_NAME: "Test SSO",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  app.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  app.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  for (let tries = 0; ; tries += 1) {
    if (await fetch(`${appURL}/signin`).then((r) => r.ok, () => false)) break;
    if (tries > 900 || app.exitCode !== null) throw new Error(`server did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

test.afterAll(async () => {
  app?.kill("SIGTERM");
  await new Promise((resolve) => (app?.exitCode !== null ? resolve(null) : app.once("exit", resolve)));
  await new Promise((resolve) => provider?.close(resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Through the provider's own login and consent pages, as a person would; with a session at the
 * provider already (a second sign-in), it sends the browser straight back.
 */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.goto(`${appURL}/signin`);
  await page.getByRole("button", { name: "Sign in with Test SSO" }).click();
  await page.waitForURL((url) => url.origin === issuer || (url.origin === appURL && url.pathname !== "/signin"));
  if (new URL(page.url()).origin === issuer) {
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    // Consent is asked once per account and client.
    const consent = page.getByRole("button", { name: "Continue" });
    await expect.poll(async () => new URL(page.url()).origin === appURL || (await consent.isVisible().catch(() => false)), { timeout: 30_000 }).toBe(true);
    if (new URL(page.url()).origin === issuer) await consent.click();
  }
  await page.waitForURL((url) => url.origin === appURL);
}

async function adminApi(): Promise<APIRequestContext> {
  const context = await apiRequest.newContext({ baseURL: appURL });
  const { csrfToken } = (await (await context.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await context.post("/api/auth/callback/credentials", { form: { csrfToken, email: "admin@plantdesk.demo", password: PASSWORD, json: "true" }, maxRedirects: 0 });
  expect((await context.get("/api/me")).ok()).toBe(true);
  return context;
}

const sessionCookieOf = async (page: Page) => (await page.context().cookies()).find((cookie) => cookie.name === "next-auth.session-token");

test("first SSO sign-in waits for access; after the admin's grant the same identity works; sign-out ends the session and a copied cookie with it", async ({ page }) => {
  await signInAtProvider(page, "kim");
  await expect(page.getByRole("heading", { name: "Waiting for access" })).toBeVisible();
  await expect(page.getByText("kim@keycloak.test")).toBeVisible();
  await expectAccessible(page);
  await saveScreenshot(page, "oidc-waiting-for-access");

  // The admin grants a role and a plant (the Users page's API).
  const admin = await adminApi();
  const users = (await (await admin.get("/api/users")).json()) as { data: { id: number; email: string; identities: number; plants: unknown }[] };
  const kim = users.data.find((user) => user.email === "kim@keycloak.test")!;
  expect(kim).toMatchObject({ identities: 1, plants: [] });
  const granted = await admin.patch(`/api/users/${kim.id}`, { data: { role: "planner", plants: ["RTM1"] } });
  expect(granted.status()).toBe(200);
  await admin.dispose();

  await page.getByRole("button", { name: "Check again" }).click();
  await expect(page.getByRole("button", { name: /Kim Keycloak/ })).toBeVisible();
  const me = (await (await page.request.get(`${appURL}/api/me`)).json()) as { email: string; role: string };
  expect(me).toMatchObject({ email: "kim@keycloak.test", role: "planner" });

  // A copy of the session cookie works while the session lives …
  const cookie = (await sessionCookieOf(page))!;
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  const thief = await apiRequest.newContext({ baseURL: appURL, extraHTTPHeaders: { cookie: `${cookie.name}=${cookie.value}` } });
  expect((await thief.get("/api/me")).status()).toBe(200);

  await page.getByRole("button", { name: /Kim Keycloak/ }).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);

  // … and not after sign-out: the API refuses it, and next-auth's session endpoint neither
  // answers a user nor re-issues the cookie.
  expect((await thief.get("/api/me")).status()).toBe(401);
  const session = await thief.get("/api/auth/session");
  expect(await session.json()).toEqual({});
  const reissued = session.headersArray().filter((header) => header.name.toLowerCase() === "set-cookie" && /next-auth\.session-token=[^;]/.test(header.value));
  expect(reissued).toEqual([]);
  expect((await thief.get("/plants/RTM1", { maxRedirects: 0 })).status()).toBe(307);
  await thief.dispose();

  // Signing in again finds the same user by issuer + subject: straight into the dashboard.
  await signInAtProvider(page, "kim");
  await expect(page.getByRole("button", { name: /Kim Keycloak/ })).toBeVisible();
});

test("an ID token for another audience is refused, though the provider signed it", async ({ page }) => {
  tamper.wrongAudience = true;
  try {
    await signInAtProvider(page, "lee");
    await expect(page).toHaveURL(/\/signin\?(.*&)?error=/);
    await expect(page.locator("form").getByRole("alert")).toHaveText(/Single sign-on did not complete/);
    expect(await sessionCookieOf(page)).toBeUndefined();
    expect((await page.request.get(`${appURL}/api/me`)).status()).toBe(401);
  } finally {
    tamper.wrongAudience = false;
  }
  // No user was made for the refused identity.
  const admin = await adminApi();
  const users = (await (await admin.get("/api/users")).json()) as { data: { email: string }[] };
  expect(users.data.map((user) => user.email)).not.toContain("lee@keycloak.test");
  await admin.dispose();
});

test("a replayed authorization code makes no session", async ({ page, context }) => {
  let callback: string | null = null;
  page.on("request", (request) => {
    if (request.url().startsWith(`${appURL}/api/auth/callback/oidc?`)) callback ??= request.url();
  });
  await signInAtProvider(page, "max");
  await expect(page.getByRole("heading", { name: "Waiting for access" })).toBeVisible();
  expect(callback).toContain("code=");
  // Signed out, the code is replayed in the same browser, and in a fresh one.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto(callback!);
  await expect(page).toHaveURL(/\/signin\?(.*&)?error=/);
  expect(await sessionCookieOf(page)).toBeUndefined();
  await context.clearCookies();
  await page.goto(callback!);
  await expect(page).toHaveURL(/\/signin\?(.*&)?error=/);
  expect(await sessionCookieOf(page)).toBeUndefined();
  expect((await page.request.get(`${appURL}/api/me`)).status()).toBe(401);
});
