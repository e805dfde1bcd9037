import "server-only";
/**
 * The `/api/account/sessions` work (docs/api.md, "Sessions"): every signed-in user lists and ends only
 * their own sessions. Ending one makes its next request unauthenticated (the row is revoked; every
 * request checks it, lib/auth/session.ts). The routes' audit rows (lib/bff/routes.ts) name the
 * session's handle, never its id.
 */
import { sessionPolicy } from "@/lib/auth/session";
import { ApiError, invalidInput } from "@/lib/contract/errors";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { listUserSessions, revokeOtherSessions, revokeUserSession } from "@/lib/dashboard-store/sessions";
import { json } from "@/lib/platform/http/respond";
import type { ApiContext } from "@/lib/api-handler/handler";
import { SESSION_HANDLE, type TSessionList, type TSessionsEnded } from "@/modules/account/contract/sessions";

const iso = (ms: number) => new Date(ms).toISOString();

export const sessionHandlers = {
  async list({ user, sessionId }: ApiContext) {
    const sessions = await listUserSessions(await getDashboardDb(), user.id, sessionId, sessionPolicy());
    const body: TSessionList = {
      data: sessions.map((session) => ({
        handle: session.handle,
        method: session.method,
        userAgent: session.userAgent,
        address: session.address,
        signedInAt: iso(session.createdAt),
        lastSeenAt: iso(session.lastSeenAt),
        current: session.current,
      })),
    };
    return json(body, 200, { "cache-control": "no-store" });
  },

  async end(context: ApiContext) {
    const handle = context.params.sessionHandle ?? "";
    if (!SESSION_HANDLE.test(handle)) throw invalidInput(`Invalid session '${handle.slice(0, 30)}'.`, [{ field: "sessionHandle", problem: "malformed" }]);
    context.audit.target = `session ${handle}`;
    const db = await getDashboardDb();
    const current = (await listUserSessions(db, context.user.id, context.sessionId, sessionPolicy())).find((session) => session.current)?.handle;
    if (!(await revokeUserSession(db, context.user.id, handle))) throw new ApiError("NOT_FOUND", "You have no open session by that name; it may have ended already.");
    context.audit.detail = { current: handle === current };
    return json({ ended: 1 } satisfies TSessionsEnded);
  },

  async endOthers(context: ApiContext) {
    const ended = await revokeOtherSessions(await getDashboardDb(), context.user.id, context.sessionId);
    context.audit.detail = { ended };
    return json({ ended } satisfies TSessionsEnded);
  },
};
