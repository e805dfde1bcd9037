/**
 * The dashboard's users in its store (SQLite, or PostgreSQL with DATABASE_URL). Used by sign-in, the BFF (which re-reads the
 * user on every request, so disabling a user or changing a role takes effect at once) and the
 * operator CLI. Passwords are kept only as hashes (passwords.ts: scrypt; older bcrypt hashes are
 * still checked and replaced on the next sign-in) and never returned by any function here.
 */
import type { SqlExecutor } from "@/lib/platform/sql";
import { isRole, type PlantScope, type Role } from "../contract/roles";
import { ID_PATTERN } from "../contract/vocabulary";
import { dummyHash, hashPassword, MAX_PASSWORD_LENGTH, verifyPassword } from "./passwords";
import { revokeUserSessions } from "./sessions";

export interface DashboardUser {
  id: number;
  email: string;
  name: string;
  role: Role;
  plants: PlantScope;
  disabled: boolean;
  hasPassword: boolean;
  createdAt: string;
  /** Last successful sign-in (any method), or null. */
  lastSignInAt: string | null;
}

interface UserRow {
  id: number;
  email: string;
  name: string;
  role: string;
  plants: string;
  password_hash: string | null;
  disabled: number;
  created_at: string;
  last_sign_in_at: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** RFC 5321's limit on an address (a path of 256 octets, brackets included). */
export const MAX_EMAIL_LENGTH = 254;

function toUser(row: UserRow): DashboardUser {
  if (!isRole(row.role)) throw new Error(`User ${row.email} has an unknown role in the database.`);
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    // Empty for a user who signed in through an identity provider and waits for an admin's grant.
    plants: row.plants === "" ? [] : parsePlantScope(row.plants),
    disabled: Number(row.disabled) === 1,
    hasPassword: row.password_hash !== null,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at ?? null,
  };
}

/** `*` or `P1,P2`; throws a message naming the bad plant id. */
export function parsePlantScope(text: string): PlantScope {
  const trimmed = text.trim();
  if (trimmed === "*") return "*";
  const ids = trimmed.split(",").map((id) => id.trim()).filter((id) => id.length > 0);
  if (ids.length === 0) throw new Error("A user needs at least one plant, or * for every plant.");
  for (const id of ids) if (!ID_PATTERN.test(id)) throw new Error(`"${id}" is not a valid plant id.`);
  return [...new Set(ids)];
}

export function formatPlantScope(plants: PlantScope): string {
  return plants === "*" ? "*" : plants.join(",");
}

interface NewUser {
  email: string;
  name?: string;
  role: Role;
  plants: PlantScope;
  /** Omitted for users who sign in with Entra ID only. */
  password?: string;
}

export class UserInputError extends Error {}

export function validateNewUser(input: NewUser): void {
  if (input.email.length > MAX_EMAIL_LENGTH) throw new UserInputError(`An e-mail address has at most ${MAX_EMAIL_LENGTH} characters.`);
  if (!EMAIL.test(input.email)) throw new UserInputError(`"${input.email}" is not an e-mail address.`);
  if (!isRole(input.role)) throw new UserInputError(`Unknown role "${String(input.role)}".`);
  if (input.password !== undefined && input.password.length < 8) {
    throw new UserInputError("The password must be at least 8 characters long.");
  }
  if (input.password !== undefined && input.password.length > MAX_PASSWORD_LENGTH) {
    throw new UserInputError(`The password may have at most ${MAX_PASSWORD_LENGTH} characters.`);
  }
}

function defaultName(email: string): string {
  const local = email.split("@")[0] ?? email;
  return local.replace(/[._-]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

/** E-mails are stored in lower case, so every lookup is case-insensitive on both engines. */
export const emailKey = (email: string) => email.trim().toLowerCase();

/** Creates a user, or replaces role, plants, name and password of an existing one (and re-enables it). */
export async function upsertUser(db: SqlExecutor, input: NewUser): Promise<DashboardUser> {
  validateNewUser(input);
  const now = new Date().toISOString();
  // In the thread pool (the hash queue): a new password never holds up the event loop.
  const hash = input.password === undefined ? null : await hashPassword(input.password);
  await db.run(
    `INSERT INTO users (email, name, role, plants, password_hash, disabled, created_at, updated_at)
     VALUES (@email, @name, @role, @plants, @hash, 0, @now, @now)
     ON CONFLICT (email) DO UPDATE SET name = excluded.name, role = excluded.role, plants = excluded.plants,
       password_hash = COALESCE(excluded.password_hash, users.password_hash), disabled = 0, updated_at = excluded.updated_at`,
    { email: emailKey(input.email), name: input.name?.trim() || defaultName(input.email), role: input.role, plants: formatPlantScope(input.plants), hash, now },
  );
  return (await findUser(db, input.email))!;
}

export async function findUserById(db: SqlExecutor, id: number): Promise<DashboardUser | null> {
  const row = await db.get<UserRow>("SELECT * FROM users WHERE id = @id", { id });
  return row ? toUser(row) : null;
}

export async function findUser(db: SqlExecutor, email: string): Promise<DashboardUser | null> {
  const row = await db.get<UserRow>("SELECT * FROM users WHERE email = @email", { email: emailKey(email) });
  return row ? toUser(row) : null;
}

export async function listUsers(db: SqlExecutor): Promise<DashboardUser[]> {
  return (await db.all<UserRow>("SELECT * FROM users ORDER BY email")).map(toUser);
}

export async function countUsers(db: SqlExecutor): Promise<number> {
  return (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM users"))!.n;
}

/** Returns false when no such user exists. */
export async function setUserDisabled(db: SqlExecutor, email: string, disabled: boolean): Promise<boolean> {
  const result = await db.run("UPDATE users SET disabled = @disabled, updated_at = @now WHERE email = @email", {
    disabled: disabled ? 1 : 0,
    now: new Date().toISOString(),
    email: emailKey(email),
  });
  return result.changes > 0;
}

/**
 * The enabled user with this e-mail and password, or null. Unknown e-mail, disabled user, user
 * without a password and wrong password all give null after the same hashing work, which runs in
 * the thread pool (passwords.ts). A matching legacy bcrypt hash is replaced by a scrypt one.
 */
export async function verifyCredentials(db: SqlExecutor, email: string, password: string): Promise<DashboardUser | null> {
  if (email.length > MAX_EMAIL_LENGTH || password.length > MAX_PASSWORD_LENGTH) return null;
  const row = await db.get<UserRow>("SELECT * FROM users WHERE email = @email", { email: emailKey(email) });
  const { ok, upgradedHash } = await verifyPassword(password, row?.password_hash ?? (await dummyHash()));
  if (!row || !row.password_hash || row.disabled === 1 || !ok) return null;
  if (upgradedHash) {
    await db.run("UPDATE users SET password_hash = @upgradedHash WHERE id = @id AND password_hash = @passwordHash", {
      upgradedHash,
      id: row.id,
      passwordHash: row.password_hash,
    });
  }
  return toUser(row);
}

/**
 * Sets a user's password (an accepted invitation: the reset path); the hash runs in the pool's
 * queue. Every session the user had ends (issue 35): whoever held one with the old password is out.
 */
export async function setPassword(db: SqlExecutor, userId: number, password: string): Promise<void> {
  validatePassword(password);
  await db.run("UPDATE users SET password_hash = @passwordHash, updated_at = @now WHERE id = @userId", {
    passwordHash: await hashPassword(password),
    now: new Date().toISOString(),
    userId,
  });
  await revokeUserSessions(db, userId);
}

function validatePassword(password: string): void {
  if (password.length < 8) throw new UserInputError("The password must be at least 8 characters long.");
  if (password.length > MAX_PASSWORD_LENGTH) throw new UserInputError(`The password may have at most ${MAX_PASSWORD_LENGTH} characters.`);
}

/**
 * The user bound to an identity of an identity provider: issuer + subject (for Entra ID the
 * tenant and the object id), never the e-mail, which a user or tenant can change.
 */
export async function findUserByIdentity(db: SqlExecutor, issuer: string, subject: string): Promise<DashboardUser | null> {
  const row = await db.get<UserRow>(
    "SELECT users.* FROM user_identities JOIN users ON users.id = user_identities.user_id WHERE issuer = @issuer AND subject = @subject",
    { issuer, subject },
  );
  return row ? toUser(row) : null;
}

export async function bindIdentity(db: SqlExecutor, issuer: string, subject: string, userId: number): Promise<void> {
  await db.run("INSERT INTO user_identities (issuer, subject, user_id, created_at) VALUES (@issuer, @subject, @userId, @now)", {
    issuer,
    subject,
    userId,
    now: new Date().toISOString(),
  });
}

/**
 * A user for the first sign-in of an unknown identity: the least-privileged role (planner: no
 * monitors, no approvals, no dashboards to change) with NO plants, so they see nothing but
 * "waiting for access" until an admin grants a role and plants. Returns null when the
 * e-mail already belongs to another user (that person needs an invitation link to bind this identity).
 */
export async function createWaitingUser(db: SqlExecutor, input: { email: string; name: string }): Promise<DashboardUser | null> {
  const email = emailKey(input.email);
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) return null;
  const now = new Date().toISOString();
  const result = await db.run(
    `INSERT INTO users (email, name, role, plants, password_hash, disabled, created_at, updated_at)
     VALUES (@email, @name, 'planner', '', NULL, 0, @now, @now) ON CONFLICT (email) DO NOTHING`,
    { email, name: input.name.replace(/\p{Cc}/gu, " ").trim().slice(0, 120) || defaultName(email), now },
  );
  return result.changes > 0 ? findUser(db, email) : null;
}
