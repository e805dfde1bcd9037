import "server-only";
/**
 * Who is asking: the session cookie (next-auth's encrypted JWT) → the session id in it → the
 * session's row (not signed out, not ended by an admin, not idle too long, within its lifetime:
 * lib/dashboard-store/sessions.ts) → the user row. Both rows are read on every request, so a sign-out,
 * a disabled user or a changed role counts at once, and a copied cookie dies with its session.
 * Read from a Cookie header (the /api/ router, lib/api-handler/handler.ts) and, for pages, from Next's
 * cookie store.
 */
import { decode } from "next-auth/jwt";
import { getConfig } from "@/lib/config";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { resolveSessionSecret } from "@/lib/dashboard-store/session-secret";
import { checkSession, type SessionPolicy } from "@/lib/dashboard-store/sessions";
import { findUserById, type DashboardUser } from "@/lib/dashboard-store/users";

/** Idle timeout and absolute lifetime of sessions, as configured. */
export function sessionPolicy(): SessionPolicy {
  const { dashboard } = getConfig();
  return { idleMs: dashboard.sessionIdleSeconds * 1000, absoluteMs: dashboard.sessionMaxAgeSeconds * 1000 };
}

/** next-auth's cookie name: `__Secure-` prefixed when the dashboard is served over https. */
export function sessionCookieName(secure = getConfig().dashboard.secureCookies): string {
  return `${secure ? "__Secure-" : ""}next-auth.session-token`;
}

let secret: Promise<string> | null = null;
export function getSessionSecret(): Promise<string> {
  secret ??= getDashboardDb()
    .then((db) => resolveSessionSecret(db, getConfig().dashboard.sessionSecret))
    .catch((error: unknown) => {
      secret = null; // try again on the next request
      throw error;
    });
  return secret;
}

/** The cookie's value; next-auth splits values over 4 kB into `name.0`, `name.1`, … */
function sessionCookieValue(cookies: Map<string, string>): string | null {
  const name = sessionCookieName();
  const whole = cookies.get(name);
  if (whole) return whole;
  const chunks: string[] = [];
  for (let index = 0; cookies.has(`${name}.${index}`); index += 1) chunks.push(cookies.get(`${name}.${index}`)!);
  return chunks.length > 0 ? chunks.join("") : null;
}

export function parseCookieHeader(header: string | null): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    try {
      map.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // a malformed cookie is not ours
    }
  }
  return map;
}

/**
 * Session ids of decrypted tokens, until the tokens expire: a dashboard page fires several /api/
 * calls with the same cookie, and each decryption (HKDF + AES-GCM) is an async trip through
 * libuv's thread pool. Only what decrypted is kept; the session's row is checked every time anyway.
 */
const decoded = new Map<string, { sid: string; expiresAt: number }>();
const DECODED_LIMIT = 5_000;

async function sessionId(token: string): Promise<string | null> {
  const hit = decoded.get(token);
  if (hit && Date.now() < hit.expiresAt) return hit.sid;
  if (hit) decoded.delete(token);
  let payload: Awaited<ReturnType<typeof decode>>;
  try {
    payload = await decode({ token, secret: await getSessionSecret() });
  } catch {
    return null; // tampered, foreign-key or expired (jose checks exp)
  }
  // A token without a session id (written before sessions were kept on the server) is refused.
  if (typeof payload?.sid !== "string" || typeof payload.exp !== "number") return null;
  if (decoded.size >= DECODED_LIMIT) decoded.delete(decoded.keys().next().value!);
  decoded.set(token, { sid: payload.sid, expiresAt: payload.exp * 1000 });
  return payload.sid;
}

/** The enabled user of a live session, or null. */
export async function userOfSession(sid: string): Promise<DashboardUser | null> {
  const db = await getDashboardDb();
  const userId = await checkSession(db, sid, sessionPolicy());
  if (userId === null) return null;
  const user = await findUserById(db, userId);
  return user && !user.disabled ? user : null;
}

/**
 * The enabled user behind a request's `Cookie` header and the id of their session (the Sessions
 * page marks it as "this session"), or null: no cookie, bad or expired token, ended session,
 * unknown or disabled user.
 */
export async function sessionFromCookieHeader(header: string | null | undefined): Promise<{ user: DashboardUser; sessionId: string } | null> {
  const token = sessionCookieValue(parseCookieHeader(header ?? null));
  if (!token) return null;
  const sid = await sessionId(token);
  const user = sid ? await userOfSession(sid) : null;
  return user && sid ? { user, sessionId: sid } : null;
}

/** The signed-in user of a request, from its `Cookie` header. */
export async function userFromCookieHeader(header: string | null | undefined): Promise<DashboardUser | null> {
  return (await sessionFromCookieHeader(header))?.user ?? null;
}
