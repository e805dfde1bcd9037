import "server-only";
/**
 * next-auth (v4) configuration: e-mail + password against the users table, and Microsoft Entra ID
 * when AZURE_AD_* are set (an Entra account gets in only as an existing, enabled user with the same
 * e-mail). Sessions are JWTs in an httpOnly cookie, `secure` when NEXTAUTH_URL is https.
 * Password sign-ins are bounded in length, throttled per account and per address
 * (sign-in-throttle.ts) and checked off the event loop (lib/dashboard/passwords.ts).
 */
import type { AuthOptions } from "next-auth";
import AzureADProvider from "next-auth/providers/azure-ad";
import CredentialsProvider from "next-auth/providers/credentials";
import { getConfig } from "@/lib/config";
import { ApiError } from "@/lib/contract/errors";
import { recordAudit } from "@/lib/dashboard/audit";
import { getDashboardDb } from "@/lib/dashboard/database";
import { ensureDemoUsers } from "@/lib/dashboard/demo-users";
import { resolveSessionSecret } from "@/lib/dashboard/session-secret";
import { MAX_PASSWORD_LENGTH } from "@/lib/dashboard/passwords";
import { findUser, MAX_EMAIL_LENGTH, verifyCredentials } from "@/lib/dashboard/users";
import { safeCallbackPath } from "./callback-url";
import { CLIENT_ADDRESS_HEADER } from "./client-address";
import { getSignInThrottle } from "./sign-in-throttle";

/**
 * The error a throttled sign-in ends with. next-auth hands an error thrown by `authorize` to the
 * sign-in page as `?error=<message>` (or to `signIn()` as `result.error`); the page turns it into
 * "wait N seconds" (components/auth/sign-in-form.tsx).
 */
export const THROTTLED_ERROR = "TooManyAttempts";
/** The sign-in throttle could not be checked (its Redis is unreachable). */
export const UNAVAILABLE_ERROR = "SignInUnavailable";

let cached: Promise<AuthOptions> | null = null;

/** The options, built once per process (the secret may come from the database). */
export function getAuthOptions(): Promise<AuthOptions> {
  cached ??= buildAuthOptions();
  return cached;
}

async function buildAuthOptions(): Promise<AuthOptions> {
  const config = getConfig();
  const { dashboard } = config;
  const db = await getDashboardDb();
  // Normally done (and announced) by the server at start; here too when Next runs on its own.
  if (dashboard.demo) await ensureDemoUsers(db, config.dataDir, dashboard.demoPassword);
  if (!dashboard.nextAuthUrl) {
    // next-auth v4 builds absolute URLs from NEXTAUTH_URL, or else from localhost:3000; without the
    // variable (the zero-configuration demo) it must take the origin from the request's Host.
    process.env.AUTH_TRUST_HOST ??= "true";
  }

  const providers: AuthOptions["providers"] = [
    CredentialsProvider({
      id: "credentials",
      name: "E-mail and password",
      credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const email = credentials?.email?.trim().toLowerCase() ?? "";
        const password = credentials?.password ?? "";
        // Bounded before anything is hashed, throttled or stored: an oversized field is refused as is.
        if (email.length > MAX_EMAIL_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
          await recordAudit(db, { userEmail: "(too long)", action: "auth.sign-in", outcome: "INVALID_INPUT", httpStatus: 400 });
          return null;
        }
        if (!email || !password) {
          await recordAudit(db, { userEmail: email || "(none)", action: "auth.sign-in", outcome: "INVALID_CREDENTIALS", httpStatus: 401 });
          return null;
        }
        const header = req?.headers?.[CLIENT_ADDRESS_HEADER] as string | undefined;
        let admission;
        try {
          admission = await getSignInThrottle().begin({ account: email, address: header ?? "unknown" });
        } catch (error) {
          // The shared throttle (Redis) is unreachable: no attempt goes uncounted, so none is made.
          await recordAudit(db, { userEmail: email, action: "auth.sign-in", outcome: "SERVICE_UNAVAILABLE", httpStatus: 503 });
          throw error instanceof ApiError ? new Error(UNAVAILABLE_ERROR) : error;
        }
        if ("retryAfterSeconds" in admission) {
          await recordAudit(db, { userEmail: email, action: "auth.sign-in", outcome: "THROTTLED", httpStatus: 429 });
          throw new Error(`${THROTTLED_ERROR}:${admission.retryAfterSeconds}`);
        }
        const user = await verifyCredentials(db, email, password);
        if (user) await admission.attempt.succeeded();
        await recordAudit(db, { userEmail: email, action: "auth.sign-in", outcome: user ? "SUCCESS" : "INVALID_CREDENTIALS", httpStatus: user ? 200 : 401 });
        return user ? { id: String(user.id), email: user.email, name: user.name } : null;
      },
    }),
  ];
  if (dashboard.azureAd) {
    providers.push(
      AzureADProvider({
        ...dashboard.azureAd,
        // The default profile() also fetches a photo from Microsoft Graph: not needed here.
        profile: (profile) => ({
          id: profile.sub,
          name: profile.name,
          email: (profile.email ?? profile.preferred_username ?? "").toLowerCase(),
          image: null,
        }),
      }),
    );
  }

  return {
    secret: await resolveSessionSecret(db, dashboard.sessionSecret),
    providers,
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
      async signIn({ user, account }) {
        if (account?.provider === "credentials") return true;
        // Entra ID: only people the operator added (`npm run ops -- user add`) and did not disable.
        const known = user.email ? await findUser(db, user.email) : null;
        const allowed = known !== null && !known.disabled;
        await recordAudit(db, { userEmail: user.email ?? "(none)", action: "auth.sign-in", target: account?.provider ?? null, outcome: allowed ? "SUCCESS" : "UNKNOWN_USER", httpStatus: allowed ? 200 : 403 });
        return allowed;
      },
      async jwt({ token, user }) {
        // Only the e-mail identifies the session; role and plants are re-read on every request.
        if (user?.email) {
          const known = await findUser(db, user.email);
          token.email = known?.email ?? user.email;
          token.name = known?.name ?? user.name ?? token.name;
        }
        return token;
      },
      session({ session, token }) {
        session.user = { email: token.email ?? null, name: token.name ?? null };
        return session;
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
