/**
 * The signed-in user's own sessions (docs/api.md, "Sessions"): each live sign-in of theirs, with the
 * browser and address it signed in from, and which one is this browser's; any can be ended. A
 * session is named by its handle, never by the cookie's id. No server-only import.
 */
import { z } from "@/lib/contract/zod";

/** A session's handle: what lib/dashboard-store/sessions.ts derives (22 base64url characters). */
export const SESSION_HANDLE = /^[A-Za-z0-9_-]{22}$/;

const ZSession = z
  .object({
    handle: z.string(),
    /** How it signed in: `credentials`, `invitation`, `oidc`, `azure-ad`. */
    method: z.string(),
    /** The sign-in request's User-Agent, as sent (null when unknown). */
    userAgent: z.string().nullable(),
    /** The address it signed in from (behind a trusted proxy: the proxy's X-Forwarded-For). */
    address: z.string().nullable(),
    signedInAt: z.string(),
    /** Accurate to a minute: a session's last use is written at most once a minute. */
    lastSeenAt: z.string(),
    current: z.boolean(),
  })
  .meta({ id: "Session" });

export const ZSessionList = z.object({ data: z.array(ZSession) });

/** Answer of ending one session or the others: how many ended. */
export const ZSessionsEnded = z.object({ ended: z.number().int() });

export type TSession = z.infer<typeof ZSession>;
export type TSessionList = z.infer<typeof ZSessionList>;
export type TSessionsEnded = z.infer<typeof ZSessionsEnded>;
