/**
 * The dashboard's users in SQLite (migration 003). Used by sign-in, the BFF (which re-reads the
 * user on every request, so disabling a user or changing a role takes effect at once) and the
 * operator CLI. Passwords are kept only as bcrypt hashes and never returned by any function here.
 */
import bcrypt from "bcryptjs";
import type { Database } from "better-sqlite3";
import { isRole, type PlantScope, type Role } from "./roles";

export interface DashboardUser {
  id: number;
  email: string;
  name: string;
  role: Role;
  plants: PlantScope;
  disabled: boolean;
  hasPassword: boolean;
  createdAt: string;
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
}

const BCRYPT_ROUNDS = 10;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PLANT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Compared against when the e-mail is unknown, so a wrong e-mail costs as long as a wrong password. */
const DUMMY_HASH = bcrypt.hashSync("not-a-password", BCRYPT_ROUNDS);

function toUser(row: UserRow): DashboardUser {
  if (!isRole(row.role)) throw new Error(`User ${row.email} has an unknown role in the database.`);
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    plants: parsePlantScope(row.plants),
    disabled: row.disabled === 1,
    hasPassword: row.password_hash !== null,
    createdAt: row.created_at,
  };
}

/** `*` or `P1,P2`; throws a message naming the bad plant id. */
export function parsePlantScope(text: string): PlantScope {
  const trimmed = text.trim();
  if (trimmed === "*") return "*";
  const ids = trimmed.split(",").map((id) => id.trim()).filter((id) => id.length > 0);
  if (ids.length === 0) throw new Error("A user needs at least one plant, or * for every plant.");
  for (const id of ids) if (!PLANT_ID.test(id)) throw new Error(`"${id}" is not a valid plant id.`);
  return [...new Set(ids)];
}

export function formatPlantScope(plants: PlantScope): string {
  return plants === "*" ? "*" : plants.join(",");
}

export interface NewUser {
  email: string;
  name?: string;
  role: Role;
  plants: PlantScope;
  /** Omitted for users who sign in with Entra ID only. */
  password?: string;
}

export class UserInputError extends Error {}

export function validateNewUser(input: NewUser): void {
  if (!EMAIL.test(input.email)) throw new UserInputError(`"${input.email}" is not an e-mail address.`);
  if (!isRole(input.role)) throw new UserInputError(`Unknown role "${String(input.role)}".`);
  if (input.password !== undefined && input.password.length < 8) {
    throw new UserInputError("The password must be at least 8 characters long.");
  }
}

function defaultName(email: string): string {
  const local = email.split("@")[0] ?? email;
  return local.replace(/[._-]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

/** Creates a user, or replaces role, plants, name and password of an existing one (and re-enables it). */
export function upsertUser(db: Database, input: NewUser): DashboardUser {
  validateNewUser(input);
  const now = new Date().toISOString();
  const hash = input.password === undefined ? null : bcrypt.hashSync(input.password, BCRYPT_ROUNDS);
  db.prepare(
    `INSERT INTO users (email, name, role, plants, password_hash, disabled, created_at, updated_at)
     VALUES (@email, @name, @role, @plants, @hash, 0, @now, @now)
     ON CONFLICT (email) DO UPDATE SET name = excluded.name, role = excluded.role, plants = excluded.plants,
       password_hash = COALESCE(excluded.password_hash, users.password_hash), disabled = 0, updated_at = excluded.updated_at`,
  ).run({
    email: input.email.trim().toLowerCase(),
    name: input.name?.trim() || defaultName(input.email),
    role: input.role,
    plants: formatPlantScope(input.plants),
    hash,
    now,
  });
  return findUser(db, input.email)!;
}

export function findUser(db: Database, email: string): DashboardUser | null {
  const row = db.prepare("SELECT * FROM users WHERE email = ?").get(email.trim()) as UserRow | undefined;
  return row ? toUser(row) : null;
}

export function listUsers(db: Database): DashboardUser[] {
  return (db.prepare("SELECT * FROM users ORDER BY email").all() as UserRow[]).map(toUser);
}

export function countUsers(db: Database): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM users").get() as { n: number }).n;
}

/** Returns false when no such user exists. */
export function setUserDisabled(db: Database, email: string, disabled: boolean): boolean {
  const result = db
    .prepare("UPDATE users SET disabled = ?, updated_at = ? WHERE email = ?")
    .run(disabled ? 1 : 0, new Date().toISOString(), email.trim());
  return result.changes > 0;
}

/**
 * The enabled user with this e-mail and password, or null. Unknown e-mail, disabled user, user
 * without a password and wrong password all give null after the same bcrypt work.
 */
export async function verifyCredentials(db: Database, email: string, password: string): Promise<DashboardUser | null> {
  const row = db.prepare("SELECT * FROM users WHERE email = ?").get(email.trim()) as UserRow | undefined;
  const ok = await bcrypt.compare(password, row?.password_hash ?? DUMMY_HASH);
  if (!row || !row.password_hash || row.disabled === 1 || !ok) return null;
  return toUser(row);
}
