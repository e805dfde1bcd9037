/**
 * The next-auth configuration behind an https URL with Entra ID and a generic OIDC provider
 * configured: secure cookies, the configured lifetime, the providers, identities matched by issuer
 * + subject (Entra: tid + oid) and never by e-mail, unknown identities waiting for access, and
 * server-side sessions that sign-out ends (the jwt callback then refuses to re-issue the cookie).
 * The whole OIDC flow against a real provider is e2e/oidc.spec.ts.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = vi.hoisted(() => {
  const dataDir = `${process.env.TMPDIR ?? "/tmp"}/pd-auth-options-${process.pid}-${Date.now()}`;
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    DEMO_TELEMETRY_DAYS: "1",
    NEXTAUTH_URL: "https://plantdesk.example.com",
    SESSION_MAX_AGE_HOURS: "2",
    SESSION_IDLE_MINUTES: "20",
    AZURE_AD_CLIENT_ID: "entra-client-id",
    AZURE_AD_CLIENT_SECRET: "entra-client-secret",
    AZURE_AD_TENANT_ID: "entra-tenant",
    OIDC_ISSUER: "https://sso.example.com/realms/plant/",
    OIDC_CLIENT_ID: "plantdesk",
    OIDC_CLIENT_SECRET: "oidc-secret",
    OIDC_NAME: "Keycloak",
  });
  delete process.env.AUTH_TRUST_HOST;
  return { dataDir };
});

import type { AuthOptions, User } from "next-auth";
import { closeDashboardDb, getDashboardDb } from "@/lib/dashboard-store/database";
import { getAuthOptions } from "./options";
import { sessionCookieName, userOfSession } from "./session";
import { findUser, setUserDisabled, upsertUser } from "../dashboard-store/users";

let options: AuthOptions;
beforeAll(async () => {
  options = await getAuthOptions();
  await upsertUser(await getDashboardDb(), { email: "eve@example.com", role: "engineer", plants: ["RTM1"] });
});

afterAll(async () => {
  await closeDashboardDb();
  fs.rmSync(env.dataDir, { recursive: true, force: true });
});

type SignIn = (provider: string, claims: Record<string, unknown>) => Promise<{ result: boolean | string; user: User }>;
const signIn: SignIn = async (provider, claims) => {
  const user: User = { id: String(claims.sub ?? "x"), email: (claims.email as string) ?? null };
  const result = await options.callbacks!.signIn!({ user, account: { provider, type: "oauth", providerAccountId: user.id }, profile: claims } as never);
  return { result, user };
};
// Entra: the UPN (preferred_username) is the tenant's own address.
const entra = (oid: string, email: string, tid = "tenant-a") => signIn("azure-ad", { sub: `pairwise-${oid}`, oid, tid, email, preferred_username: email, name: "Someone" });
const oidc = (sub: string, email: string, iss = "https://sso.example.com/realms/plant", verified: unknown = true) =>
  signIn("oidc", { iss, sub, email, ...(verified === "absent" ? {} : { email_verified: verified }), name: "Kim Keycloak" });

describe("auth options", () => {
  it("uses secure cookies, the configured lifetime, every provider, and leaves AUTH_TRUST_HOST alone", () => {
    expect(options.useSecureCookies).toBe(true);
    expect(sessionCookieName()).toBe("__Secure-next-auth.session-token");
    expect(options.session).toEqual({ strategy: "jwt", maxAge: 2 * 3600 });
    // next-auth applies a provider's own `options.id` over the factory's default id.
    const ids = options.providers.map((provider) => (provider as { options?: { id?: string } }).options?.id ?? provider.id);
    expect(ids.sort()).toEqual(["azure-ad", "credentials", "invitation", "oidc"]);
    const generic = options.providers.find((provider) => provider.id === "oidc") as unknown as Record<string, unknown>;
    expect(generic).toMatchObject({ name: "Keycloak", wellKnown: "https://sso.example.com/realms/plant/.well-known/openid-configuration", checks: ["pkce", "state", "nonce"], idToken: true });
    expect(process.env.AUTH_TRUST_HOST).toBeUndefined();
    expect(options.secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it("never matches an identity by e-mail: an Entra account with an existing user's address is refused", async () => {
    expect((await entra("oid-1", "eve@example.com")).result).toBe("/signin?error=EmailTaken");
    expect((await entra("oid-1", "EVE@example.com", "other-tenant")).result).toBe("/signin?error=EmailTaken");
  });

  it("gives a new identity a user with no plants, and finds it again by tid + oid after the e-mail changed", async () => {
    const first = await entra("oid-2", "new@example.com");
    expect(first.result).toBe(true);
    const created = (await findUser(await getDashboardDb(), "new@example.com"))!;
    // The least-privileged role while waiting (issue 35: it was engineer, who may write monitors).
    expect(created).toMatchObject({ role: "planner", plants: [], disabled: false });
    expect(first.user.id).toBe(String(created.id));
    // The same person after a rename of their address: still the same user.
    const again = await entra("oid-2", "renamed@example.com");
    expect(again.result).toBe(true);
    expect(again.user.id).toBe(String(created.id));
    // The same oid in another tenant is another person.
    expect((await entra("oid-2", "new@example.com", "tenant-b")).result).toBe("/signin?error=EmailTaken");
    await setUserDisabled(await getDashboardDb(), "new@example.com", true);
    expect((await entra("oid-2", "new@example.com")).result).toBe("/signin?error=AccountDisabled");
  });

  it("accepts the generic provider's identities of the configured issuer only", async () => {
    expect((await oidc("kc-1", "kim@example.com")).result).toBe(true);
    expect((await oidc("kc-1", "kim@example.com", "https://elsewhere.example.com")).result).toBe("/signin?error=IdentityInvalid");
    expect((await signIn("oidc", { iss: "https://sso.example.com/realms/plant", email: "x@example.com" })).result).toBe("/signin?error=IdentityInvalid");
  });

  it("refuses a new identity whose provider has not verified its e-mail, and creates no user (issue 35)", async () => {
    for (const verified of [false, "false", "absent"]) {
      expect((await oidc(`kc-unverified-${String(verified)}`, "future.colleague@example.com", undefined, verified)).result).toBe("/signin?error=EmailUnverified");
    }
    expect(await findUser(await getDashboardDb(), "future.colleague@example.com")).toBeNull();
    // Entra: an unverified-domain `email` does not count; the tenant's UPN does.
    const outsider = await signIn("azure-ad", { sub: "p-9", oid: "oid-9", tid: "tenant-a", email: "ceo@victim.example", preferred_username: "guest9@tenant-a.example", name: "Guest" });
    expect(outsider.result).toBe(true);
    expect(await findUser(await getDashboardDb(), "ceo@victim.example")).toBeNull();
    expect(await findUser(await getDashboardDb(), "guest9@tenant-a.example")).not.toBeNull();
    const vouched = await signIn("azure-ad", { sub: "p-10", oid: "oid-10", tid: "tenant-a", email: "ten@tenant-a.example", xms_edov: true, preferred_username: "x10@tenant-a.onmicrosoft.com", name: "Ten" });
    expect(vouched.result).toBe(true);
    expect(await findUser(await getDashboardDb(), "ten@tenant-a.example")).not.toBeNull();
  });

  it("opens a server-side session at sign-in that sign-out ends for good", async () => {
    const db = await getDashboardDb();
    const user = await upsertUser(db, { email: "sam@example.com", role: "planner", plants: ["RTM1"] });
    const jwt = options.callbacks!.jwt!;
    const token = await jwt({ token: {}, user: { id: String(user.id) }, account: { provider: "credentials", type: "credentials", providerAccountId: "x" } } as never);
    expect(token).toMatchObject({ email: "sam@example.com", sub: String(user.id) });
    const sid = token.sid as string;
    expect((await userOfSession(sid))?.email).toBe("sam@example.com");
    // /api/auth/session re-issues a live session …
    expect(await jwt({ token } as never)).toMatchObject({ sid });
    await options.events!.signOut!({ token, session: undefined as never });
    // … and not one that was signed out, nor is it accepted on any request.
    await expect(jwt({ token } as never)).rejects.toThrow("session ended");
    expect(await userOfSession(sid)).toBeNull();
    expect((await findUser(db, "sam@example.com"))?.lastSignInAt).not.toBeNull();
  });
});
