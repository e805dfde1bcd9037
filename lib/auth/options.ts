import "server-only";
/**
 * next-auth (v4) configuration: e-mail + password against the users table, and Microsoft Entra ID
 * when AZURE_AD_* are set (an Entra account gets in only as an existing, enabled user with the same
 * e-mail). Sessions are JWTs in an httpOnly cookie, `secure` when NEXTAUTH_URL is https.
 */
import type { AuthOptions } from "next-auth";
import AzureADProvider from "next-auth/providers/azure-ad";
import CredentialsProvider from "next-auth/providers/credentials";
import { getConfig } from "@/lib/config";
import { getServiceRuntime } from "@/lib/service/runtime";
import { recordAudit } from "@/lib/bff/audit";
import { ensureDemoUsers } from "./demo-users";
import { resolveSessionSecret } from "./session-secret";
import { findUser, verifyCredentials } from "./users";

let cached: Promise<AuthOptions> | null = null;

/** The options, built once per process (the secret may come from the database). */
export function getAuthOptions(): Promise<AuthOptions> {
  cached ??= buildAuthOptions();
  return cached;
}

async function buildAuthOptions(): Promise<AuthOptions> {
  const { dashboard } = getConfig();
  const { db, config } = await getServiceRuntime();
  // Normally done (and announced) by the server at start; here too when Next runs on its own.
  if (dashboard.demo) ensureDemoUsers(db, config.dataDir, dashboard.demoPassword);
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
      async authorize(credentials) {
        const email = credentials?.email?.trim().toLowerCase() ?? "";
        const user = email && credentials?.password ? await verifyCredentials(db, email, credentials.password) : null;
        recordAudit(db, { userEmail: email || "(none)", action: "auth.sign-in", outcome: user ? "SUCCESS" : "INVALID_CREDENTIALS", httpStatus: user ? 200 : 401 });
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
    secret: resolveSessionSecret(db, dashboard.sessionSecret),
    providers,
    session: { strategy: "jwt", maxAge: dashboard.sessionMaxAgeSeconds },
    jwt: { maxAge: dashboard.sessionMaxAgeSeconds },
    useSecureCookies: dashboard.secureCookies,
    pages: { signIn: "/signin", error: "/signin" },
    callbacks: {
      signIn({ user, account }) {
        if (account?.provider === "credentials") return true;
        // Entra ID: only people the operator added (`npm run ops -- user add`) and did not disable.
        const known = user.email ? findUser(db, user.email) : null;
        const allowed = known !== null && !known.disabled;
        recordAudit(db, { userEmail: user.email ?? "(none)", action: "auth.sign-in", target: account?.provider ?? null, outcome: allowed ? "SUCCESS" : "UNKNOWN_USER", httpStatus: allowed ? 200 : 403 });
        return allowed;
      },
      jwt({ token, user }) {
        // Only the e-mail identifies the session; role and plants are re-read on every request.
        if (user?.email) {
          const known = findUser(db, user.email);
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
