/**
 * A provider that keeps the e-mail out of the ID token (OIDC Core's default for scope claims, and
 * panva's oidc-provider's, `conformIdTokenClaims`) answers it at userinfo: the sign-in reads it
 * there, for the ID token's own subject, and still requires `email_verified`. Against a real
 * oidc-provider in this process: a real access token (its own Grant and AccessToken models), its
 * real userinfo endpoint, read through the openid-client next-auth uses.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  const { default: Provider } = await import("oidc-provider");
  const http = await import("node:http");
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as import("node:net").AddressInfo).port}`;
  const accounts: Record<string, Record<string, unknown>> = {
    kim: { sub: "kim", email: "kim@sso.example", email_verified: true, name: "Kim" },
    mallory: { sub: "mallory", email: "new.hire@sso.example", email_verified: false, name: "Mallory" },
  };
  const provider = new Provider(issuer, {
    clients: [{ client_id: "plantdesk", client_secret: "a-client-secret", redirect_uris: ["http://127.0.0.1/cb"], grant_types: ["authorization_code"], response_types: ["code"] }],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    async findAccount(_ctx: unknown, id: string) {
      return { accountId: id, claims: async () => accounts[id]! };
    },
  } as never);
  server.on("request", provider.callback());
  const dataDir = `${process.env.TMPDIR ?? "/tmp"}/pd-oidc-userinfo-${process.pid}-${Date.now()}`;
  Object.assign(process.env, { DATA_DIR: dataDir, OIDC_ISSUER: issuer, OIDC_CLIENT_ID: "plantdesk", OIDC_CLIENT_SECRET: "a-client-secret" });
  return { server, provider, issuer, dataDir };
});

import type { AuthOptions, User } from "next-auth";
import { createRequire } from "node:module";
import path from "node:path";
import { closeDashboardDb, getDashboardDb } from "@/lib/dashboard-store/database";
import { findUser } from "@/lib/dashboard-store/users";
import { getAuthOptions } from "./options";

let options: AuthOptions;
type Client = { userinfo(token: string): Promise<Record<string, unknown>> };
/** The openid-client next-auth itself loads (its own v5, not the project's v6). */
const { Issuer } = createRequire(path.join(process.cwd(), "node_modules/next-auth/index.js"))("openid-client") as {
  Issuer: { discover(url: string): Promise<{ Client: new (metadata: Record<string, string>) => Client }> };
};
let client: Client;

beforeAll(async () => {
  options = await getAuthOptions();
  client = new (await Issuer.discover(env.issuer)).Client({ client_id: "plantdesk", client_secret: "a-client-secret" });
});

afterAll(async () => {
  await closeDashboardDb();
  env.server.close();
  fs.rmSync(env.dataDir, { recursive: true, force: true });
});

/** A real access token of the provider for `accountId`, with the openid, email and profile scopes granted. */
async function accessTokenFor(accountId: string): Promise<string> {
  const { Grant, AccessToken, Client: ClientModel } = env.provider as unknown as {
    Grant: new (init: Record<string, unknown>) => { addOIDCScope(scope: string): void; save(): Promise<string> };
    AccessToken: new (init: Record<string, unknown>) => { save(): Promise<string> };
    Client: { find(id: string): Promise<unknown> };
  };
  const grant = new Grant({ accountId, clientId: "plantdesk" });
  grant.addOIDCScope("openid email profile");
  const grantId = await grant.save();
  return new AccessToken({ accountId, grantId, client: await ClientModel.find("plantdesk"), scope: "openid email profile" }).save();
}

/** The sign-in as next-auth runs it: the provider's userinfo step on the ID token's claims (no e-mail in them), then the signIn callback. */
async function signInWithIdToken(sub: string, accessToken: string): Promise<boolean | string> {
  const provider = options.providers.find((p) => p.id === "oidc") as unknown as { options?: { userinfo?: unknown }; userinfo?: unknown };
  const userinfo = (provider.options?.userinfo ?? provider.userinfo) as { request(context: unknown): Promise<Record<string, unknown>> };
  const idTokenClaims = { iss: env.issuer, sub, aud: "plantdesk" };
  const profile = await userinfo.request({ tokens: { claims: () => idTokenClaims, access_token: accessToken }, client, provider });
  const user: User = { id: sub, email: (profile.email as string) ?? null };
  return options.callbacks!.signIn!({ user, account: { provider: "oidc", type: "oauth", providerAccountId: sub }, profile } as never);
}

describe("OIDC sign-in with the e-mail only at userinfo", () => {
  it("reads the verified e-mail from userinfo and creates the waiting user with it", async () => {
    expect(await signInWithIdToken("kim", await accessTokenFor("kim"))).toBe(true);
    expect(await findUser(await getDashboardDb(), "kim@sso.example")).toMatchObject({ role: "planner", plants: [] });
  });

  it("refuses userinfo's unverified e-mail", async () => {
    expect(await signInWithIdToken("mallory", await accessTokenFor("mallory"))).toBe("/signin?error=EmailUnverified");
    expect(await findUser(await getDashboardDb(), "new.hire@sso.example")).toBeNull();
  });

  it("ignores userinfo that answers for another subject", async () => {
    // kim's token, presented with an ID token whose subject is someone else: no e-mail is taken from it.
    expect(await signInWithIdToken("someone-else", await accessTokenFor("kim"))).toBe("/signin?error=IdentityWithoutEmail");
  });
});
