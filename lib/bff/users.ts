import "server-only";
/**
 * The admin's Users page behind `/api/users…` (routes in lib/contract/dashboard.ts, bound in
 * routes.ts): list, add with an invitation link, change role, plants or name, disable, enable,
 * sign out everywhere, new invitation link. The rules and the audit rows are
 * lib/dashboard-store/user-admin.ts's, the same the operator CLI follows; here only the HTTP shapes.
 */
import { sessionPolicy } from "@/lib/auth/session";
import type { Permission } from "@/lib/contract/roles";
import { ZUserCreate, ZUserUpdate, type TUserRecord } from "@/lib/contract/dashboard";
import type { DashboardRouteId } from "@/lib/contract/routes";
import { ApiError, invalidInput } from "@/lib/contract/errors";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { invitationUrl } from "@/lib/dashboard-store/invitations";
import { activeSessionCounts } from "@/lib/dashboard-store/sessions";
import { addUser, endUserSessions, inviteUser, setUserEnabled, updateUser, UserAdminError, type UserAdminContext } from "@/lib/dashboard-store/user-admin";
import { listUsers, type DashboardUser } from "@/lib/dashboard-store/users";
import { getConfig } from "@/lib/config";
import { parseWith, readJsonBody } from "@/lib/platform/http/body";
import { json } from "@/lib/platform/http/respond";
import type { ApiContext, ApiRouteSpec } from "../api-handler/handler";

const PERMISSION: Permission = "users:manage";
/** The users list is one page: a plant's staff, not a directory (bounded all the same). */
const LIST_LIMIT = 5_000;

async function adminContext({ user, upstream }: ApiContext): Promise<UserAdminContext> {
  return { db: await getDashboardDb(), actor: { email: user.email, id: user.id }, servedPlants: upstream.plants().map((plant) => plant.id) };
}

function userId(context: ApiContext): number {
  const text = context.params.userId ?? "";
  const id = /^\d{1,12}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw invalidInput(`Invalid user id '${text.slice(0, 20)}'.`, [{ field: "userId", problem: "malformed" }]);
  return id;
}

/** The rules' refusals in the spec's error body. */
async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof UserAdminError)) throw error;
    if (error.problem === "not-found") throw new ApiError("NOT_FOUND", error.message);
    throw invalidInput(error.message, error.field ? [{ field: error.field, problem: error.message }] : []);
  }
}

function record(user: DashboardUser, counts: { identities: number; activeSessions: number }): TUserRecord {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    plants: user.plants === "*" ? "*" : [...user.plants],
    disabled: user.disabled,
    hasPassword: user.hasPassword,
    identities: counts.identities,
    activeSessions: counts.activeSessions,
    createdAt: user.createdAt,
    lastSignInAt: user.lastSignInAt,
  };
}

async function records(users: DashboardUser[]): Promise<TUserRecord[]> {
  const db = await getDashboardDb();
  const sessions = await activeSessionCounts(db, sessionPolicy());
  const identities = new Map(
    (await db.all<{ user_id: number; n: number }>("SELECT user_id, COUNT(*) AS n FROM user_identities GROUP BY user_id")).map((row) => [Number(row.user_id), Number(row.n)]),
  );
  return users.map((user) => record(user, { identities: identities.get(user.id) ?? 0, activeSessions: sessions.get(user.id) ?? 0 }));
}

const one = async (user: DashboardUser) => (await records([user]))[0]!;
const link = (token: string, expiresAt: string) => ({ url: invitationUrl(getConfig().publicUrl, token), expiresAt });

export const userRoutes: Record<Extract<DashboardRouteId, "listUsers" | "createUser" | "updateUser" | "disableUser" | "enableUser" | "endUserSessions" | "inviteUser">, {
  permission: Permission;
  run: ApiRouteSpec["run"];
}> = {
  listUsers: {
    permission: PERMISSION,
    run: async () => json({ data: await records((await listUsers(await getDashboardDb())).slice(0, LIST_LIMIT)) }),
  },
  createUser: {
    permission: PERMISSION,
    async run(context) {
      const input = parseWith(ZUserCreate, readJsonBody(context.req), "user");
      const { user, invitation } = await refusing(async () => addUser(await adminContext(context), input, { invite: true }));
      return json({ user: await one(user), invitation: link(invitation!.token, invitation!.expiresAt) });
    },
  },
  updateUser: {
    permission: PERMISSION,
    async run(context) {
      const id = userId(context);
      const change = parseWith(ZUserUpdate, readJsonBody(context.req), "user change");
      return json(await one(await refusing(async () => updateUser(await adminContext(context), id, change))));
    },
  },
  disableUser: {
    permission: PERMISSION,
    run: async (context) => json(await one(await refusing(async () => setUserEnabled(await adminContext(context), userId(context), false)))),
  },
  enableUser: {
    permission: PERMISSION,
    run: async (context) => json(await one(await refusing(async () => setUserEnabled(await adminContext(context), userId(context), true)))),
  },
  endUserSessions: {
    permission: PERMISSION,
    run: async (context) => json({ ended: await refusing(async () => endUserSessions(await adminContext(context), userId(context))) }),
  },
  inviteUser: {
    permission: PERMISSION,
    async run(context) {
      const { token, expiresAt } = await refusing(async () => inviteUser(await adminContext(context), userId(context)));
      return json(link(token, expiresAt));
    },
  },
};
