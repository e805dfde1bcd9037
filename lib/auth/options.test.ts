/**
 * The next-auth configuration behind an https URL with Entra ID configured: secure cookies, the
 * configured lifetime, the Azure AD provider, and Entra accounts mapped to existing enabled users
 * only. Credentials sign-in checks the password hash and audits every attempt.
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
    AZURE_AD_CLIENT_ID: "entra-client-id",
    AZURE_AD_CLIENT_SECRET: "entra-client-secret",
    AZURE_AD_TENANT_ID: "entra-tenant",
  });
  return { dataDir };
});

import type { AuthOptions } from "next-auth";
import { closeDashboardDb, getDashboardDb } from "@/lib/dashboard/database";
import { getAuthOptions } from "./options";
import { sessionCookieName } from "./session";
import { setUserDisabled, upsertUser } from "../dashboard/users";

let options: AuthOptions;
beforeAll(async () => {
  options = await getAuthOptions();
  await upsertUser(await getDashboardDb(), { email: "eve@example.com", role: "engineer", plants: ["RTM1"] });
  await upsertUser(await getDashboardDb(), { email: "off@example.com", role: "admin", plants: "*", password: "long-enough-1" });
  await setUserDisabled(await getDashboardDb(), "off@example.com", true);
});

afterAll(async () => {
  await closeDashboardDb();
  fs.rmSync(env.dataDir, { recursive: true, force: true });
});

describe("auth options", () => {
  it("uses secure cookies, JWT sessions of the configured lifetime and the Entra ID provider", () => {
    expect(options.useSecureCookies).toBe(true);
    expect(sessionCookieName()).toBe("__Secure-next-auth.session-token");
    expect(options.session).toEqual({ strategy: "jwt", maxAge: 2 * 3600 });
    expect(options.providers.map((provider) => provider.id).sort()).toEqual(["azure-ad", "credentials"]);
    expect(options.secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(options.pages?.signIn).toBe("/signin");
  });

  it("lets an Entra account in only as an existing, enabled user", async () => {
    const signIn = options.callbacks!.signIn!;
    const entra = (email: string) => signIn({ user: { id: "x", email }, account: { provider: "azure-ad", type: "oauth", providerAccountId: "x" } } as never);
    expect(await entra("eve@example.com")).toBe(true);
    expect(await entra("EVE@example.com")).toBe(true);
    expect(await entra("off@example.com")).toBe(false);
    expect(await entra("stranger@example.com")).toBe(false);
  });

  it("checks credentials against the hash and audits every attempt", async () => {
    const credentials = options.providers.find((provider) => provider.id === "credentials") as unknown as {
      options: { authorize: (credentials: Record<string, string>) => Promise<unknown> };
    };
    await upsertUser(await getDashboardDb(), { email: "pat@example.com", role: "planner", plants: ["RTM1"], password: "right-password" });
    expect(await credentials.options.authorize({ email: "pat@example.com", password: "wrong-password" })).toBeNull();
    expect(await credentials.options.authorize({ email: " Pat@Example.com ", password: "right-password" })).toMatchObject({ email: "pat@example.com" });
    const rows = (await (await getDashboardDb()).all("SELECT outcome FROM audit_log WHERE user_email = 'pat@example.com' AND action = 'auth.sign-in' ORDER BY id"));
    expect(rows).toEqual([{ outcome: "INVALID_CREDENTIALS" }, { outcome: "SUCCESS" }]);
  });
});
