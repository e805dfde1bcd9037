/**
 * Server-side sessions of the dashboard. Each sign-in creates one row; the session cookie (next-auth's
 * encrypted JWT) carries the session's random id, the row only its SHA-256. Every request checks
 * the row together with the user (lib/auth/session.ts), so a session ends for good when:
 *   - the user signs out (the row is revoked: a copied cookie is refused from then on),
 *   - an admin ends the user's sessions, or disables the user,
 *   - nobody used it for the idle timeout (SESSION_IDLE_MINUTES),
 *   - its absolute lifetime passed (SESSION_MAX_AGE_HOURS), however busy it was.
 * `last_seen_at` is written at most once a minute per session, so reads stay reads.
 * A user sees their own live sessions (browser, sign-in address, times) on the Sessions page and ends
 * any of them; the page names a session by its handle, a hash of the row's hash, so neither the
 * cookie's id nor the stored hash ever leaves the server.
 */
import { createHash, randomBytes } from "node:crypto";
import type { SqlExecutor } from "@/lib/platform/sql";

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/** How often a session's last use is written: the idle timeout is this precise. */
const TOUCH_EVERY_MS = 60_000;
/** Ended sessions are kept this long (for "last sign-in" and investigations), then deleted. */
const KEEP_ENDED_MS = 30 * 86_400_000;

const hashOf = (id: string) => createHash("sha256").update(id).digest("base64url");

interface SessionRow {
  user_id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** What the sign-in request said of the client: its User-Agent and address (each bounded when kept). */
export interface SessionClient {
  userAgent: string | null;
  address: string | null;
}

/** A session as its user sees it on the Sessions page. */
interface SessionView {
  handle: string;
  method: string;
  userAgent: string | null;
  address: string | null;
  createdAt: number;
  lastSeenAt: number;
  current: boolean;
}

/** The page's name of a session: derived from the stored hash, so sessions older than the page have one too. */
const handleOf = (idHash: string) => createHash("sha256").update(`handle:${idHash}`).digest("base64url").slice(0, 22);

/** A live session: not ended, within its lifetime, used within the idle timeout. */
const LIVE = "revoked_at IS NULL AND expires_at > @now AND created_at > @createdAt AND last_seen_at > @lastSeenAt";
const liveParams = (policy: SessionPolicy, now: number) => ({ now, createdAt: now - policy.absoluteMs, lastSeenAt: now - policy.idleMs });

/** A new session for this user; returns the id the cookie carries (never stored as is). */
export async function createSession(
  db: SqlExecutor,
  userId: number,
  method: string,
  policy: SessionPolicy,
  now = Date.now(),
  client: SessionClient = { userAgent: null, address: null },
): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  await db.run(
    "INSERT INTO user_sessions (id_hash, user_id, method, created_at, last_seen_at, expires_at, revoked_at, user_agent, address) VALUES (@idHash, @userId, @method, @now, @now, @expiresAt, NULL, @userAgent, @address)",
    {
      idHash: hashOf(id),
      userId,
      method: method.slice(0, 40),
      now,
      expiresAt: now + policy.absoluteMs,
      userAgent: client.userAgent?.slice(0, 400) || null,
      address: client.address?.slice(0, 64) || null,
    },
  );
  await db.run("UPDATE users SET last_sign_in_at = @now WHERE id = @userId", { now: new Date(now).toISOString(), userId });
  // Housekeeping on sign-in, which is rare: the table holds live sessions and a month of ended ones.
  await db.run("DELETE FROM user_sessions WHERE expires_at < @before OR revoked_at < @before", { before: now - KEEP_ENDED_MS });
  return id;
}

/**
 * The user id of a live session: not revoked, used within the idle timeout, within its absolute
 * lifetime. Marks it used. Null for anything else (unknown id included).
 */
export async function checkSession(db: SqlExecutor, id: string, policy: SessionPolicy, now = Date.now()): Promise<number | null> {
  const idHash = hashOf(id);
  const row = await db.get<SessionRow>("SELECT user_id, created_at, last_seen_at, expires_at, revoked_at FROM user_sessions WHERE id_hash = @idHash", {
    idHash,
  });
  if (!row || row.revoked_at !== null) return null;
  // The absolute limit is the stricter of the row's own and today's setting (shortening it applies at once).
  if (now >= Math.min(row.expires_at, row.created_at + policy.absoluteMs)) return null;
  if (now - row.last_seen_at >= policy.idleMs) return null;
  if (now - row.last_seen_at >= TOUCH_EVERY_MS) {
    await db.run("UPDATE user_sessions SET last_seen_at = @now WHERE id_hash = @idHash AND last_seen_at < @now", { now, idHash });
  }
  return row.user_id;
}

/** Sign-out: this session ends now. */
export async function revokeSession(db: SqlExecutor, id: string, now = Date.now()): Promise<void> {
  await db.run("UPDATE user_sessions SET revoked_at = @now WHERE id_hash = @idHash AND revoked_at IS NULL", { now, idHash: hashOf(id) });
}

/** Every live session of the user ends now; returns how many there were. */
export async function revokeUserSessions(db: SqlExecutor, userId: number, now = Date.now()): Promise<number> {
  const result = await db.run("UPDATE user_sessions SET revoked_at = @now WHERE user_id = @userId AND revoked_at IS NULL AND expires_at > @now", {
    now,
    userId,
  });
  return result.changes;
}

/** Live sessions per user id (admin's user list). */
export async function activeSessionCounts(db: SqlExecutor, policy: SessionPolicy, now = Date.now()): Promise<Map<number, number>> {
  const rows = await db.all<{ user_id: number; n: number }>(`SELECT user_id, COUNT(*) AS n FROM user_sessions WHERE ${LIVE} GROUP BY user_id`, liveParams(policy, now));
  return new Map(rows.map((row) => [Number(row.user_id), Number(row.n)]));
}


/** The user's live sessions, the one of `currentId` marked, most recently used first. */
export async function listUserSessions(db: SqlExecutor, userId: number, currentId: string | null, policy: SessionPolicy, now = Date.now()): Promise<SessionView[]> {
  const rows = await db.all<{ id_hash: string; method: string; user_agent: string | null; address: string | null; created_at: number; last_seen_at: number }>(
    `SELECT id_hash, method, user_agent, address, created_at, last_seen_at FROM user_sessions WHERE user_id = @userId AND ${LIVE} ORDER BY last_seen_at DESC, created_at DESC`,
    { userId, ...liveParams(policy, now) },
  );
  const current = currentId === null ? null : hashOf(currentId);
  return rows.map((row) => ({
    handle: handleOf(row.id_hash),
    method: row.method,
    userAgent: row.user_agent,
    address: row.address,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    current: row.id_hash === current,
  }));
}

/**
 * The user ends one of their own live sessions by its handle; false when no live session of theirs
 * has it (another user's handle included).
 */
export async function revokeUserSession(db: SqlExecutor, userId: number, handle: string, now = Date.now()): Promise<boolean> {
  const rows = await db.all<{ id_hash: string }>("SELECT id_hash FROM user_sessions WHERE user_id = @userId AND revoked_at IS NULL AND expires_at > @now", { userId, now });
  const row = rows.find((candidate) => handleOf(candidate.id_hash) === handle);
  if (!row) return false;
  const result = await db.run("UPDATE user_sessions SET revoked_at = @now WHERE id_hash = @idHash AND revoked_at IS NULL", { now, idHash: row.id_hash });
  return result.changes > 0;
}

/** Every live session of the user but `keepId`'s ends now ("sign out everywhere else"); how many ended. */
export async function revokeOtherSessions(db: SqlExecutor, userId: number, keepId: string, now = Date.now()): Promise<number> {
  const result = await db.run(
    "UPDATE user_sessions SET revoked_at = @now WHERE user_id = @userId AND id_hash <> @keep AND revoked_at IS NULL AND expires_at > @now",
    { now, userId, keep: hashOf(keepId) },
  );
  return result.changes;
}
