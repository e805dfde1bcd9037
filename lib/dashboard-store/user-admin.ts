/**
 * Managing the dashboard's users: ONE set of rules for the admin page (`/api/users…`, lib/bff) and
 * the operator CLI (`npm run ops -- user …`, ops.ts). Every change is written to the audit log with
 * who made it (an admin's e-mail, or "(operator CLI)"), whatever its outcome.
 *
 * Rules: a valid e-mail that is not yet a user; a known role; plants `*` or at least one plant this
 * dashboard serves; the last enabled admin can be neither disabled nor given another role, and an
 * admin cannot disable themselves (nobody could undo it from the console); disabling a user ends
 * their sessions at once. A new user gets an invitation link (or, from the CLI, a password on stdin).
 */
import { recordAudit } from "./audit";
import { createInvitation } from "./invitations";
import { revokeUserSessions } from "./sessions";
import type { SqlDb } from "@/lib/platform/sql";
import { isRole, type PlantScope, type Role } from "../contract/roles";
import { emailKey, findUser, findUserById, formatPlantScope, upsertUser, UserInputError, validateNewUser, type DashboardUser } from "./users";

/** Who acts: an admin of the console (their id guards against disabling oneself), or the CLI. */
export interface UserAdminContext {
  db: SqlDb;
  actor: { email: string; id: number | null };
  /** The plants this dashboard serves: a user's plants must be among them. */
  servedPlants: readonly string[];
}

export const CLI_ACTOR = { email: "(operator CLI)", id: null } as const;

type UserAdminProblem = "invalid" | "not-found";

export class UserAdminError extends Error {
  constructor(
    message: string,
    readonly problem: UserAdminProblem,
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

function checkPlants(plants: PlantScope, served: readonly string[]): void {
  if (plants === "*") return;
  if (plants.length === 0) throw new UserAdminError("A user needs at least one plant, or * for every plant.", "invalid", "plants");
  const unknown = plants.filter((id) => !served.includes(id));
  if (unknown.length > 0) throw new UserAdminError(`Unknown plant(s) ${unknown.join(", ")}. Known plants: ${served.join(", ") || "none"}.`, "invalid", "plants");
}

async function enabledAdmins(db: SqlDb): Promise<number> {
  return Number((await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM users WHERE role = 'admin' AND disabled = 0"))!.n);
}

/** Runs a change and writes its audit row, SUCCESS or the problem it ended with. */
async function audited<T>(ctx: UserAdminContext, action: string, target: string, detail: Record<string, unknown> | null, change: () => Promise<T>): Promise<T> {
  try {
    const result = await change();
    await recordAudit(ctx.db, { userEmail: ctx.actor.email, action, target, outcome: "SUCCESS", httpStatus: 200, detail });
    return result;
  } catch (error) {
    const refused = error instanceof UserAdminError;
    const status = !refused ? 500 : error.problem === "not-found" ? 404 : 400;
    const outcome = !refused ? "INTERNAL_ERROR" : error.problem === "not-found" ? "NOT_FOUND" : "INVALID_INPUT";
    await recordAudit(ctx.db, { userEmail: ctx.actor.email, action, target, outcome, httpStatus: status, detail });
    throw error;
  }
}

async function existing(ctx: UserAdminContext, id: number): Promise<DashboardUser> {
  const user = await findUserById(ctx.db, id);
  if (!user) throw new UserAdminError(`No user with id ${id}.`, "not-found");
  return user;
}

interface NewUserInput {
  email: string;
  name?: string;
  role: Role;
  plants: PlantScope;
  /** CLI only (stdin); the console hands out an invitation link instead. */
  password?: string;
}

/**
 * Adds a user; with `replace` (the CLI's `user add`, which has always updated an existing user)
 * an existing user's name, role, plants and password are replaced instead of refused.
 */
export async function addUser(ctx: UserAdminContext, input: NewUserInput, options: { replace?: boolean; invite?: boolean } = {}) {
  const email = emailKey(input.email);
  return audited(ctx, "user.add", email, { role: input.role, plants: formatPlantScope(input.plants) }, async () => {
    try {
      validateNewUser({ ...input, email });
    } catch (error) {
      if (error instanceof UserInputError) throw new UserAdminError(error.message, "invalid", /password/i.test(error.message) ? "password" : /role/i.test(error.message) ? "role" : "email");
      throw error;
    }
    checkPlants(input.plants, ctx.servedPlants);
    const before = await findUser(ctx.db, email);
    if (before && !options.replace) throw new UserAdminError(`${email} is already a user.`, "invalid", "email");
    if (before?.role === "admin" && input.role !== "admin" && !before.disabled && (await enabledAdmins(ctx.db)) <= 1) {
      throw new UserAdminError("The last admin keeps the admin role.", "invalid", "role");
    }
    const user = await upsertUser(ctx.db, { ...input, email });
    // A new password for an existing user (the operator's `user add --password-stdin`) ends their sessions.
    if (before && input.password !== undefined) await revokeUserSessions(ctx.db, user.id);
    if (options.invite && before) await invitationWins(ctx.db, before);
    const invitation = options.invite ? await createInvitation(ctx.db, user.id, ctx.actor.email) : null;
    return { user, existed: before !== null, invitation };
  });
}

interface UserChange {
  name?: string;
  role?: Role;
  plants?: PlantScope;
}

/** Changes a user's name, role or plants (role and plants count from the user's next request). */
export async function updateUser(ctx: UserAdminContext, id: number, change: UserChange): Promise<DashboardUser> {
  const before = await findUserById(ctx.db, id);
  const detail = { ...(change.role ? { role: change.role } : {}), ...(change.plants ? { plants: formatPlantScope(change.plants) } : {}) };
  return audited(ctx, "user.update", before?.email ?? `#${id}`, detail, async () => {
    const user = await existing(ctx, id);
    if (change.role !== undefined && !isRole(change.role)) throw new UserAdminError(`Unknown role "${String(change.role)}".`, "invalid", "role");
    if (change.plants !== undefined) checkPlants(change.plants, ctx.servedPlants);
    const name = change.name?.replace(/\p{Cc}/gu, " ").trim();
    if (change.name !== undefined && (!name || name.length > 120)) throw new UserAdminError("A name has 1 to 120 characters.", "invalid", "name");
    if (user.role === "admin" && change.role && change.role !== "admin" && !user.disabled && (await enabledAdmins(ctx.db)) <= 1) {
      throw new UserAdminError("The last admin keeps the admin role.", "invalid", "role");
    }
    await ctx.db.run("UPDATE users SET name = @name, role = @role, plants = @plants, updated_at = @now WHERE id = @id", {
      name: name ?? user.name,
      role: change.role ?? user.role,
      plants: change.plants !== undefined ? formatPlantScope(change.plants) : formatPlantScope(user.plants),
      now: new Date().toISOString(),
      id,
    });
    return (await findUserById(ctx.db, id))!;
  });
}

/** Disables (and signs out everywhere) or re-enables a user. */
export async function setUserEnabled(ctx: UserAdminContext, id: number, enabled: boolean): Promise<DashboardUser> {
  const before = await findUserById(ctx.db, id);
  return audited(ctx, enabled ? "user.enable" : "user.disable", before?.email ?? `#${id}`, null, async () => {
    const user = await existing(ctx, id);
    if (!enabled) {
      if (ctx.actor.id === id) throw new UserAdminError("You cannot disable your own account.", "invalid");
      if (user.role === "admin" && !user.disabled && (await enabledAdmins(ctx.db)) <= 1) throw new UserAdminError("The last enabled admin cannot be disabled.", "invalid");
    }
    await ctx.db.transaction(async (tx) => {
      await tx.run("UPDATE users SET disabled = @disabled, updated_at = @now WHERE id = @id", { disabled: enabled ? 0 : 1, now: new Date().toISOString(), id });
      if (!enabled) await revokeUserSessions(tx, id);
    });
    return (await findUserById(ctx.db, id))!;
  });
}

/** Ends every session of the user (they must sign in again); returns how many ended. */
export async function endUserSessions(ctx: UserAdminContext, id: number): Promise<number> {
  const before = await findUserById(ctx.db, id);
  return audited(ctx, "user.end-sessions", before?.email ?? `#${id}`, null, async () => {
    await existing(ctx, id);
    return revokeUserSessions(ctx.db, id);
  });
}

/**
 * An admin's invitation for an address wins over a user still waiting for access (never granted
 * a plant), whom an SSO sign-in made: whoever claimed the address at a provider loses the binding
 * and their sessions, and only the invitation link binds an identity to this user again — so the
 * role and plants the admin gives the invited person never reach someone else (issue 35).
 */
async function invitationWins(db: UserAdminContext["db"], user: DashboardUser): Promise<void> {
  const waiting = user.role !== "admin" && user.plants !== "*" && user.plants.length === 0;
  if (!waiting) return;
  await db.run("DELETE FROM user_identities WHERE user_id = @id", { id: user.id });
  await revokeUserSessions(db, user.id);
}

/** A new invitation link's token for the user (the previous one stops working). */
export async function inviteUser(ctx: UserAdminContext, id: number): Promise<{ token: string; expiresAt: string }> {
  const before = await findUserById(ctx.db, id);
  return audited(ctx, "user.invite", before?.email ?? `#${id}`, null, async () => {
    const user = await existing(ctx, id);
    if (user.disabled) throw new UserAdminError("Enable the user before inviting them.", "invalid");
    await invitationWins(ctx.db, user);
    return createInvitation(ctx.db, id, ctx.actor.email);
  });
}
