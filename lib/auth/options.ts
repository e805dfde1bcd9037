import "server-only";
/**
 * next-auth (v4) configuration (docs/architecture.md, "Sign-in"):
 *   - e-mail + password against the users table, throttled per account at an address (growing
 *     delays), per address, and per account (a ceiling that slows, never refuses: sign-in-throttle.ts);
 *     hashes checked in a bounded queue off the event loop (lib/dashboard-store/passwords.ts);
 *   - an invitation link's token + a new password (lib/dashboard-store/invitations.ts);
 *   - Microsoft Entra ID when AZURE_AD_* are set, and any OpenID Connect provider when OIDC_* are
 *     (discovery, authorization code with PKCE, state and nonce; the ID token's signature, issuer,
 *     audience and nonce are checked by openid-client inside next-auth). An identity is matched to a
 *     user by issuer + subject (Entra: tenant + object id), never by e-mail. The first sign-in of an
 *     unknown identity creates a user with NO plants, who sees "waiting for access" until an admin
 *     grants a role and plants; an invitation link binds an identity to an existing user instead.
 * Every sign-in creates a server-side session (lib/dashboard-store/sessions.ts) whose id the JWT cookie
 * carries; sign-out revokes it, and `/api/auth/session` re-issues only a live one.
 */
import type { AuthOptions, Profile, User } from "next-auth";
import type { Account } from "next-auth";
import AzureADModule from "next-auth/providers/azure-ad";
import CredentialsModule from "next-auth/providers/credentials";
import { setTimeout as sleep } from "node:timers/promises";
import { getConfig } from "@/lib/config";
import { ApiError } from "@/lib/contract/errors";
import { recordAudit, recordFailedSignIn } from "@/lib/dashboard-store/audit";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { consumeInvitation, INVITATION_TOKEN, peekInvitation } from "@/lib/dashboard-store/invitations";
import { HashQueueFull, MAX_PASSWORD_LENGTH } from "@/lib/dashboard-store/passwords";
import { resolveSessionSecret } from "@/lib/dashboard-store/session-secret";
import { createSession, revokeSession, type SessionClient } from "@/lib/dashboard-store/sessions";
import type { SqlDb } from "@/lib/platform/sql";
import {
  bindIdentity,
  createWaitingUser,
  findUserById,
  findUserByIdentity,
  MAX_EMAIL_LENGTH,
  setPassword,
  UserInputError,
  verifyCredentials,
  type DashboardUser,
} from "@/lib/dashboard-store/users";
import { safeCallbackPath } from "../contract/callback-url";
import { CLIENT_ADDRESS_HEADER } from "./client-address";
import { sessionPolicy, userOfSession } from "./session";

/**
 * next-auth's providers are CommonJS modules exporting `default`: a bundler unwraps it, Node's import
 * of CommonJS (the server runs lib/ through tsx, docs/architecture.md "One server in the process")
 * hands the whole exports object. Either way, the provider function.
 */
const cjsDefault = <T>(module: T): T => (module as { default?: T }).default ?? module;
const AzureADProvider = cjsDefault(AzureADModule);
const CredentialsProvider = cjsDefault(CredentialsModule);
import { getSignInThrottle } from "./sign-in-throttle";
import { SIGN_IN_ERRORS } from "../contract/sign-in-errors";

/** The generic OpenID Connect provider's id (its callback is /api/auth/callback/oidc). */
const OIDC_PROVIDER_ID = "oidc";

let cached: Promise<AuthOptions> | null = null;

/** The options, built once per process (the secret may come from the database). */
export function getAuthOptions(): Promise<AuthOptions> {
  cached ??= buildAuthOptions();
  return cached;
}

/**
 * The options for one request to `/api/auth/*`: an SSO sign-in that started on an invitation page
 * carries the invitation's token in its callback URL (`/?invitation=<token>`, kept by next-auth in
 * its httpOnly callback-url cookie); an unknown identity is then bound to the invited user.
 */
export async function authOptionsFor(cookies: Map<string, string>, client: SessionClient = { userAgent: null, address: null }): Promise<AuthOptions> {
  const base = await getAuthOptions();
  const db = await getDashboardDb();
  // The request's browser and address go with a session this request makes.
  const options: AuthOptions = { ...base, callbacks: { ...base.callbacks, jwt: sessionJwt(db, client) } };
  const callbackUrl = cookies.get("__Secure-next-auth.callback-url") ?? cookies.get("next-auth.callback-url");
  let invitation: string | null = null;
  try {
    const token = callbackUrl ? new URL(callbackUrl, "http://x").searchParams.get("invitation") : null;
    invitation = token && INVITATION_TOKEN.test(token) ? token : null;
  } catch {
    invitation = null;
  }
  if (!invitation) return options;
  return { ...options, callbacks: { ...options.callbacks, signIn: (params) => signInWithProvider(db, params, invitation) } };
}

/** An identity at an identity provider, from its verified ID token's claims (and its userinfo's). */
interface Identity {
  issuer: string;
  subject: string;
  /** An address the provider vouches for (OIDC: `email_verified`; Entra: its verified-domain claim or the UPN), else null. */
  email: string | null;
  /** The provider named an address but did not vouch for it. */
  unverifiedEmail: boolean;
  name: string;
}

type Claims = Profile & Record<string, unknown>;
const claim = (claims: Claims, name: string) => (typeof claims[name] === "string" && claims[name] ? (claims[name] as string) : null);

function identityOf(provider: string, claims: Claims | undefined): Identity | null {
  if (!claims) return null;
  const { dashboard } = getConfig();
  // An address anyone can type into their profile at the provider must not claim a future
  // colleague's account (issue 35): only one the provider says it verified counts.
  const named = claim(claims, "email");
  const vouched = claims.email_verified === true || claims.email_verified === "true";
  if (provider === "azure-ad") {
    // Entra ID: the tenant (tid) and the object id (oid) never change; sub differs per application.
    // Its `email` is vouched for when the domain is the tenant's verified one (`xms_edov`); the UPN
    // (preferred_username) is the tenant's own.
    const tid = claim(claims, "tid");
    const oid = claim(claims, "oid");
    const entraVouched = vouched || claims.xms_edov === true || claims.xms_edov === "1" || claims.xms_edov === "true";
    const email = (entraVouched ? named : null) ?? claim(claims, "preferred_username");
    const name = claim(claims, "name") ?? claim(claims, "preferred_username") ?? email ?? "";
    return tid && oid ? { issuer: `https://login.microsoftonline.com/${tid}/v2.0`, subject: oid, email, unverifiedEmail: false, name } : null;
  }
  const email = vouched ? named : null;
  const name = claim(claims, "name") ?? claim(claims, "preferred_username") ?? email ?? "";
  if (provider === OIDC_PROVIDER_ID && dashboard.oidc) {
    const issuer = claim(claims, "iss");
    const subject = claim(claims, "sub");
    // openid-client compared iss with the discovered issuer; this pins it to the configured one too.
    if (!issuer || !subject || issuer.replace(/\/+$/, "") !== dashboard.oidc.issuer) return null;
    return { issuer: dashboard.oidc.issuer, subject, email, unverifiedEmail: named !== null && !vouched, name };
  }
  return null;
}

/**
 * An SSO sign-in: the user bound to this identity; else, with an invitation, the invited user (now
 * bound); else a new user waiting for access. Refused: a disabled user, an identity without issuer
 * and subject, and an unknown identity whose e-mail is another user's (an invitation is needed).
 * Returns `true` (and sets `user.id` to the dashboard user's id for the jwt callback), or the
 * sign-in page with the reason.
 */
async function signInWithProvider(
  db: SqlDb,
  { user, account, profile }: { user: User; account: Account | null; profile?: Profile },
  invitation: string | null,
): Promise<boolean | string> {
  const provider = account?.provider ?? "unknown";
  if (provider === "credentials" || provider === "invitation") return true;
  const identity = identityOf(provider, profile as Claims | undefined);
  const refuse = async (outcome: string, error: string) => {
    await recordAudit(db, { userEmail: identity?.email ?? user.email ?? "(none)", action: "auth.sign-in", target: provider, outcome, httpStatus: 403 });
    return `/signin?error=${error}`;
  };
  if (!identity) return refuse("INVALID_IDENTITY", SIGN_IN_ERRORS.identity);
  let known = await findUserByIdentity(db, identity.issuer, identity.subject);
  if (!known && invitation) {
    const invited = await consumeInvitation(db, invitation);
    if (invited === null) return refuse("INVITATION_INVALID", SIGN_IN_ERRORS.invitation);
    await bindIdentity(db, identity.issuer, identity.subject, invited);
    known = await findUserById(db, invited);
  }
  if (!known) {
    if (identity.unverifiedEmail) return refuse("EMAIL_UNVERIFIED", SIGN_IN_ERRORS.unverifiedEmail);
    if (!identity.email) return refuse("NO_EMAIL", SIGN_IN_ERRORS.noEmail);
    known = await db.transaction(async (tx) => {
      const created = await createWaitingUser(tx, { email: identity.email!, name: identity.name });
      if (created) await bindIdentity(tx, identity.issuer, identity.subject, created.id);
      return created;
    });
    if (!known) return refuse("EMAIL_TAKEN", SIGN_IN_ERRORS.emailTaken);
  }
  if (known.disabled) return refuse("DISABLED", SIGN_IN_ERRORS.disabled);
  // next-auth hands this same object to the jwt callback, which opens the session for this id.
  user.id = String(known.id);
  await recordAudit(db, { userEmail: known.email, action: "auth.sign-in", target: provider, outcome: "SUCCESS", httpStatus: 200 });
  return true;
}

/**
 * The ID token's claims, with `email`, `email_verified` and `name` from the userinfo endpoint when
 * the ID token has no e-mail. Userinfo counts only for the ID token's own subject (OIDC Core
 * §5.3.2); its failure leaves the ID token's claims, which then name no e-mail.
 */
async function claimsWithUserinfo(
  tokens: { claims(): Record<string, unknown>; access_token?: string },
  client: { userinfo(accessToken: string): Promise<Record<string, unknown>> },
): Promise<Claims> {
  const claims = tokens.claims() as Claims;
  if (claim(claims, "email") || !tokens.access_token) return claims;
  try {
    const info = await client.userinfo(tokens.access_token);
    if (info.sub !== claims.sub) return claims;
    return { ...claims, email: info.email, email_verified: info.email_verified, name: claims.name ?? info.name } as Claims;
  } catch {
    return claims;
  }
}

async function passwordSignIn(db: SqlDb, email: string, password: string, address: string): Promise<DashboardUser | null> {
  // Bounded before anything is hashed, throttled or stored: an oversized field is refused as is.
  if (email.length > MAX_EMAIL_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    await recordFailedSignIn(db, { address, account: "(too long)", outcome: "INVALID_INPUT", httpStatus: 400 });
    return null;
  }
  if (!email || !password) {
    await recordFailedSignIn(db, { address, account: email || "(none)", outcome: "INVALID_CREDENTIALS", httpStatus: 401 });
    return null;
  }
  let admission;
  try {
    admission = await getSignInThrottle().begin({ account: email, address });
  } catch (error) {
    // The shared throttle (Redis) is unreachable: no attempt goes uncounted, so none is made.
    await recordAudit(db, { userEmail: email, action: "auth.sign-in", outcome: "SERVICE_UNAVAILABLE", httpStatus: 503 });
    throw error instanceof ApiError ? new Error(SIGN_IN_ERRORS.unavailable) : error;
  }
  if ("retryAfterSeconds" in admission) {
    await recordFailedSignIn(db, { address, account: email, outcome: "THROTTLED", httpStatus: 429 });
    throw new Error(`${SIGN_IN_ERRORS.throttled}:${admission.retryAfterSeconds}`);
  }
  // Past the account's ceiling: slowed, not refused (the real user just waits a few seconds).
  if (admission.slowMs > 0) await sleep(admission.slowMs);
  let user: DashboardUser | null;
  try {
    user = await verifyCredentials(db, email, password);
  } catch (error) {
    if (!(error instanceof HashQueueFull)) throw error;
    await recordAudit(db, { userEmail: email, action: "auth.sign-in", outcome: "SERVICE_UNAVAILABLE", httpStatus: 503 });
    throw new Error(SIGN_IN_ERRORS.busy);
  }
  if (user) await admission.attempt.succeeded();
  // A success is the user's own row; failures are aggregated per address and minute (audit.ts).
  if (user) await recordAudit(db, { userEmail: email, action: "auth.sign-in", outcome: "SUCCESS", httpStatus: 200 });
  else await recordFailedSignIn(db, { address, account: email, outcome: "INVALID_CREDENTIALS", httpStatus: 401 });
  return user;
}

/** An invitation link's token and the new password: sets it, uses the invitation up, signs in. */
async function acceptInvitation(db: SqlDb, token: string, password: string): Promise<DashboardUser | null> {
  const userId = await peekInvitation(db, token);
  if (userId === null) throw new Error(SIGN_IN_ERRORS.invitation);
  const user = await findUserById(db, userId);
  if (!user || user.disabled) throw new Error(SIGN_IN_ERRORS.invitation);
  try {
    await setPassword(db, userId, password);
  } catch (error) {
    if (error instanceof UserInputError) throw new Error(SIGN_IN_ERRORS.weakPassword);
    if (error instanceof HashQueueFull) throw new Error(SIGN_IN_ERRORS.busy);
    throw error;
  }
  // Used once: a second use of the same link (raced or replayed) is refused even after the password was set.
  if ((await consumeInvitation(db, token)) === null) throw new Error(SIGN_IN_ERRORS.invitation);
  await recordAudit(db, { userEmail: user.email, action: "auth.invitation-accepted", outcome: "SUCCESS", httpStatus: 200 });
  return user;
}

/**
 * next-auth's jwt callback. A sign-in makes a new server-side session, with the sign-in request's
 * browser and address for the user's Sessions page; the token carries its id, and the user's e-mail
 * and name for next-auth's own session answer (role and plants are read on every request).
 */
function sessionJwt(db: SqlDb, client: SessionClient): NonNullable<AuthOptions["callbacks"]>["jwt"] {
  return async ({ token, user, account }) => {
    if (user && account) {
      const known = await findUserById(db, Number(user.id));
      if (!known) throw new Error("signed-in user vanished");
      const sid = await createSession(db, known.id, account.provider, sessionPolicy(), Date.now(), client);
      return { sid, sub: String(known.id), email: known.email, name: known.name };
    }
    // `/api/auth/session` and the like: only a live session is re-issued (a throw here makes
    // next-auth clear the cookie instead).
    const live = typeof token.sid === "string" ? await userOfSession(token.sid) : null;
    if (!live) throw new Error("session ended");
    return { ...token, email: live.email, name: live.name };
  };
}

async function buildAuthOptions(): Promise<AuthOptions> {
  const config = getConfig();
  const { dashboard } = config;
  const db = await getDashboardDb();
  // The demo's accounts are made by the server before it listens (scripts/serve.ts; docs/architecture.md "Demo apart").
  // next-auth v4 builds absolute URLs (redirects, the OAuth redirect_uri) from NEXTAUTH_URL, or —
  // only with AUTH_TRUST_HOST — from the request's Host header. Without either, this server's own
  // address: a Host header never decides where a sign-in goes.
  if (!process.env.NEXTAUTH_URL && !process.env.AUTH_TRUST_HOST) process.env.NEXTAUTH_URL = config.publicUrl;

  const asUser = (user: DashboardUser | null) => (user ? { id: String(user.id), email: user.email, name: user.name } : null);
  const providers: AuthOptions["providers"] = [
    CredentialsProvider({
      id: "credentials",
      name: "E-mail and password",
      credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const address = (req?.headers?.[CLIENT_ADDRESS_HEADER] as string | undefined) ?? "unknown";
        return asUser(await passwordSignIn(db, credentials?.email?.trim().toLowerCase() ?? "", credentials?.password ?? "", address));
      },
    }),
    CredentialsProvider({
      id: "invitation",
      name: "Invitation",
      credentials: { token: { type: "text" }, password: { type: "password" } },
      async authorize(credentials) {
        const token = credentials?.token ?? "";
        if (!INVITATION_TOKEN.test(token)) throw new Error(SIGN_IN_ERRORS.invitation);
        return asUser(await acceptInvitation(db, token, credentials?.password ?? ""));
      },
    }),
  ];
  if (dashboard.azureAd) {
    providers.push(
      AzureADProvider({
        ...dashboard.azureAd,
        checks: ["pkce", "state", "nonce"],
        // The default profile() also fetches a photo from Microsoft Graph: not needed here.
        profile: (profile) => ({ id: profile.sub, name: profile.name, email: profile.email ?? profile.preferred_username ?? null, image: null }),
      }),
    );
  }
  if (dashboard.oidc) {
    const { issuer, clientId, clientSecret, name } = dashboard.oidc;
    providers.push({
      id: OIDC_PROVIDER_ID,
      name,
      type: "oauth",
      wellKnown: `${issuer}/.well-known/openid-configuration`,
      clientId,
      clientSecret,
      authorization: { params: { scope: "openid email profile" } },
      checks: ["pkce", "state", "nonce"],
      idToken: true,
      // OIDC Core §5.4: a provider may keep the scopes' claims out of the ID token and answer them
      // at userinfo (oidc-provider does by default); read it then, for this subject only.
      // next-auth hands over openid-client's TokenSet (validated claims()), typed as its parameters.
      userinfo: { request: ({ tokens, client }) => claimsWithUserinfo(tokens as unknown as Parameters<typeof claimsWithUserinfo>[0], client) },
      // Outbound calls to the provider (discovery, token, keys, userinfo) end within this time.
      httpOptions: { timeout: 10_000 },
      profile: (profile: Claims) => ({ id: String(profile.sub), name: claim(profile, "name") ?? claim(profile, "preferred_username"), email: claim(profile, "email"), image: null }),
    });
  }

  return {
    secret: await resolveSessionSecret(db, dashboard.sessionSecret),
    providers,
    // The JWT lives as long as the session may; the session's row decides whether it is still alive.
    session: { strategy: "jwt", maxAge: dashboard.sessionMaxAgeSeconds },
    jwt: { maxAge: dashboard.sessionMaxAgeSeconds },
    useSecureCookies: dashboard.secureCookies,
    pages: { signIn: "/signin", error: "/signin" },
    callbacks: {
      // next-auth's default, with the sign-in page's rule for paths: never another host.
      redirect({ url, baseUrl }) {
        let target: URL;
        try {
          target = new URL(url, baseUrl);
        } catch {
          return baseUrl;
        }
        if (target.origin !== new URL(baseUrl).origin) return baseUrl;
        return `${baseUrl}${safeCallbackPath(url.startsWith("/") ? url : `${target.pathname}${target.search}${target.hash}`)}`;
      },
      signIn: (params) => signInWithProvider(db, params, null),
      jwt: sessionJwt(db, { userAgent: null, address: null }),
      session({ session, token }) {
        session.user = { email: token.email ?? null, name: token.name ?? null };
        return session;
      },
    },
    events: {
      // Sign-out ends the session on the server: the same cookie, copied elsewhere, is refused.
      async signOut({ token }) {
        if (typeof token?.sid === "string") await revokeSession(db, token.sid);
      },
    },
    // next-auth's default logger prints request metadata (OAuth responses may hold tokens).
    logger: {
      error: (code) => console.error(`[auth] error ${code}`),
      warn: (code) => console.warn(`[auth] warning ${code}`),
      debug: () => {},
    },
  };
}
