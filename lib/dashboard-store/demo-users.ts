/**
 * The demo's sign-in accounts (embedded mode only): one user per role, each with a sensible set of
 * plants, all sharing one password — DEMO_PASSWORD when set (the e2e tests set it), otherwise
 * generated on first start. The accounts and the password are written to DATA_DIR/demo-users.txt
 * (readable by the owner only). Made by the server once before it listens (scripts/serve.ts, the
 * only production module that imports this one: docs/architecture.md "Demo apart").
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { SqlDb } from "@/lib/platform/sql";
import type { PlantScope, Role } from "../contract/roles";
import { countUsers, upsertUser } from "./users";

export const DEMO_USERS: readonly { email: string; name: string; role: Role; plants: PlantScope }[] = [
  { email: "planner@plantdesk.demo", name: "Pia Planner", role: "planner", plants: ["RTM1", "HOU1"] },
  { email: "supervisor@plantdesk.demo", name: "Sam Supervisor", role: "supervisor", plants: ["RTM1"] },
  { email: "engineer@plantdesk.demo", name: "Eli Engineer", role: "engineer", plants: ["RTM1", "OUL1"] },
  { email: "admin@plantdesk.demo", name: "Ada Admin", role: "admin", plants: "*" },
];

const DEMO_USERS_FILE = "demo-users.txt";

interface DemoUsersOutcome {
  /** The users were created (or their password reset from DEMO_PASSWORD) by this call. */
  changed: boolean;
  /** Set only when this call generated the password (first start without DEMO_PASSWORD). */
  generatedPassword: string | null;
  file: string;
}

function generatePassword(): string {
  // 12 characters without look-alikes: easy to type from the console.
  const alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from(randomBytes(12), (byte) => alphabet[byte % alphabet.length]).join("");
}

/**
 * Creates the demo users when the database has no user at all; with DEMO_PASSWORD set, also makes
 * it the demo users' password on every start (so a kept DATA_DIR works with a new test run).
 */
export async function ensureDemoUsers(db: SqlDb, dataDir: string, demoPassword: string | null): Promise<DemoUsersOutcome> {
  const file = path.join(dataDir, DEMO_USERS_FILE);
  const empty = (await countUsers(db)) === 0;
  if (!empty && !demoPassword) return { changed: false, generatedPassword: null, file };
  const password = demoPassword ?? generatePassword();
  await db.transaction(async (tx) => {
    for (const user of DEMO_USERS) await upsertUser(tx, { ...user, password });
  });
  const lines = [
    "Plantdesk demo users (embedded demo mode). Everyone shares one password.",
    "",
    ...DEMO_USERS.map((user) => `${user.email.padEnd(28)} ${user.role.padEnd(11)} plants: ${user.plants === "*" ? "all" : user.plants.join(", ")}`),
    "",
    demoPassword ? "Password: the value of DEMO_PASSWORD" : `Password: ${password}`,
    "",
  ];
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, lines.join("\n"), { mode: 0o600 });
  // The mode above applies only to a new file: one left by an older version may be 0644.
  fs.chmodSync(file, 0o600);
  return { changed: true, generatedPassword: demoPassword ? null : password, file };
}
