/**
 * Invitation links: an admin adds a user (console or CLI) and hands them a link; opening it, the
 * person sets their password, or binds the identity of the company's identity provider to this
 * user (the only way an existing user gets an SSO identity: never by matching e-mails). A link is
 * used once, expires after INVITATION_TTL_MS, and a new one for the same user replaces the old.
 * Only the token's SHA-256 is stored; the link is shown once.
 */
import { createHash, randomBytes } from "node:crypto";
import type { SqlExecutor } from "@/lib/platform/sql";

const INVITATION_TTL_MS = 7 * 86_400_000;
/** base64url of 32 random bytes: what a link's token looks like (anything else is refused unread). */
export const INVITATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash("sha256").update(token).digest("base64url");

/** A new invitation for this user (older unused ones end); returns the token, shown once. */
export async function createInvitation(db: SqlExecutor, userId: number, createdBy: string, now = Date.now()): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString("base64url");
  await db.run("UPDATE user_invitations SET used_at = @now WHERE user_id = @userId AND used_at IS NULL", { now, userId });
  await db.run("INSERT INTO user_invitations (token_hash, user_id, created_by, created_at, expires_at, used_at) VALUES (@tokenHash, @userId, @createdBy, @now, @expiresAt, NULL)", {
    tokenHash: hashOf(token),
    userId,
    createdBy: createdBy.slice(0, 254),
    now,
    expiresAt: now + INVITATION_TTL_MS,
  });
  return { token, expiresAt: new Date(now + INVITATION_TTL_MS).toISOString() };
}

/** The user id an unused, unexpired invitation is for, without using it (the invitation page). */
export async function peekInvitation(db: SqlExecutor, token: string, now = Date.now()): Promise<number | null> {
  if (!INVITATION_TOKEN.test(token)) return null;
  const row = await db.get<{ user_id: number }>("SELECT user_id FROM user_invitations WHERE token_hash = @tokenHash AND used_at IS NULL AND expires_at > @now", {
    tokenHash: hashOf(token),
    now,
  });
  return row ? Number(row.user_id) : null;
}

/** Uses the invitation: its user id, or null when it is unknown, used or expired. Once only, even when raced. */
export async function consumeInvitation(db: SqlExecutor, token: string, now = Date.now()): Promise<number | null> {
  const userId = await peekInvitation(db, token, now);
  if (userId === null) return null;
  const result = await db.run("UPDATE user_invitations SET used_at = @now WHERE token_hash = @tokenHash AND used_at IS NULL", {
    now,
    tokenHash: hashOf(token),
  });
  return result.changes > 0 ? userId : null;
}

/** The link a person opens: the invitation page of the dashboard's public URL. */
export function invitationUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/invite/${token}`;
}
