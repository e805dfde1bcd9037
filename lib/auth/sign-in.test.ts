/**
 * Password sign-in under attack, through next-auth's own `authorize` on a real SQLite file:
 * attempts are throttled per account at an address and per address with growing delays (and the
 * refusal names the wait), a guesser never keeps the real user at another address out, a burst of parallel guesses reaches the hash check only a few times, oversized input is
 * refused before hashing and never stored, and hashes are checked off the event loop (scrypt in
 * the thread pool; old bcrypt hashes still work and are replaced). The throttle's own rules, on
 * memory and on Redis, are in sign-in-throttle.test.ts.
 */
import { randomBytes, scryptSync } from "node:crypto";
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = vi.hoisted(() => {
  const dataDir = `${process.env.TMPDIR ?? "/tmp"}/pd-sign-in-${process.pid}-${Date.now()}`;
  Object.assign(process.env, { DATA_DIR: dataDir, DEMO_TELEMETRY_DAYS: "1", DEMO_PASSWORD: "demo-password-for-tests" });
  return { dataDir };
});

import { closeDashboardDb, getDashboardDb } from "@/lib/dashboard-store/database";
import { HASH_CONCURRENCY, HASH_QUEUE_MAX, HashQueueFull } from "@/lib/dashboard-store/passwords";
import { upsertUser, verifyCredentials } from "@/lib/dashboard-store/users";
import { CLIENT_ADDRESS_HEADER } from "./client-address";
import { getAuthOptions } from "./options";
import { ADDRESS_FREE, PAIR_FREE } from "./sign-in-throttle";

type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown>;
let authorize: Authorize;

/** The outcome of one attempt: the user's e-mail, null (refused), or the thrown error's message. */
async function attempt(email: string, password: string, address: string): Promise<string | null> {
  try {
    const user = (await authorize({ email, password }, { headers: { [CLIENT_ADDRESS_HEADER]: address } })) as { email: string } | null;
    return user?.email ?? null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The account's sign-in outcomes, oldest first: its own rows (successes) and its attempts in the aggregated rows of failures. */
async function outcomes(email: string): Promise<string[]> {
  const rows = (await (await getDashboardDb()).all(
    "SELECT user_email, outcome, detail FROM audit_log WHERE (user_email = @email OR user_email = '(anonymous)') AND action = 'auth.sign-in' ORDER BY id",
    { email },
  )) as { user_email: string; outcome: string; detail: string | null }[];
  return rows.flatMap((row) => (row.user_email === email ? [row.outcome] : Array(JSON.parse(row.detail ?? "{}").accounts?.[email] ?? 0).fill(row.outcome)));
}

/**
 * A stored hash of cheap scrypt parameters (2^10): the throttling tests check many wrong passwords,
 * and their rules do not depend on what one check costs (a machine shared by several test runs
 * would otherwise spend minutes on them). verifyPassword honours the parameters a hash names.
 */
function cheapHash(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$10$8$1$${salt.toString("base64url")}$${scryptSync(password, salt, 32, { N: 2 ** 10, r: 8, p: 1 }).toString("base64url")}`;
}

async function addUser(email: string, password: string, hash = cheapHash(password)): Promise<void> {
  const db = await getDashboardDb();
  await upsertUser(db, { email, role: "planner", plants: ["RTM1"] });
  await db.run("UPDATE users SET password_hash = @hash WHERE email = @email", { hash, email });
}

beforeAll(async () => {
  const options = await getAuthOptions();
  const credentials = options.providers.find((provider) => provider.id === "credentials") as unknown as { options: { authorize: Authorize } };
  authorize = credentials.options.authorize;
  for (const email of ["pat@example.com", "kim@example.com", "burst@example.com", "queue@example.com"]) await addUser(email, "right-password");
  for (let i = 0; i <= ADDRESS_FREE; i++) await addUser(`nobody${i}@example.com`, "right-password");
  await upsertUser(await getDashboardDb(), { email: "strong@example.com", role: "planner", plants: ["RTM1"], password: "right-password" });
});

afterAll(async () => {
  await closeDashboardDb();
  fs.rmSync(env.dataDir, { recursive: true, force: true });
});

describe("sign-in throttling", () => {
  it("lets an account fail a few times at one address, then makes that address wait, saying how long — never the real user elsewhere", async () => {
    // Started together: each is counted when it starts, so the last two meet the wait however long
    // the checks of the first ones take on a busy machine.
    const guesses = Array.from({ length: PAIR_FREE + 1 }, () => attempt("pat@example.com", "wrong-password", "10.0.0.1"));
    const again = attempt("pat@example.com", "wrong-password", "10.0.0.1");
    // Even the right password waits at the guessing address …
    const right = attempt("pat@example.com", "right-password", "10.0.0.1");
    expect(await Promise.all(guesses)).toEqual(Array(PAIR_FREE + 1).fill(null));
    expect(await again).toMatch(/^TooManyAttempts:\d+$/);
    expect(await right).toMatch(/^TooManyAttempts:\d+$/);
    // … but the real user at another address gets in at once: no lockout.
    expect(await attempt("pat@example.com", "right-password", "10.0.0.2")).toBe("pat@example.com");
    // Another account from the same address is not held up by pat's failures.
    expect(await attempt("kim@example.com", "right-password", "10.0.0.1")).toBe("kim@example.com");
    const audited = await outcomes("pat@example.com");
    expect(audited.filter((outcome) => outcome === "THROTTLED")).toHaveLength(2);
    expect(audited.at(-1)).toBe("SUCCESS");
  });

  it("makes an address wait after many failures across accounts", async () => {
    // Started together: each is counted when it starts, so kim's attempt, started last, meets the
    // address's wait however long the others' password checks then take on a busy machine.
    const failures = Array.from({ length: ADDRESS_FREE + 1 }, (_, i) => attempt(`nobody${i}@example.com`, "wrong-password", "10.0.0.3"));
    expect(failures).toHaveLength(ADDRESS_FREE + 1);
    const kim = attempt("kim@example.com", "right-password", "10.0.0.3");
    await Promise.all(failures);
    expect(await kim).toMatch(/^TooManyAttempts:\d+$/);
    expect(await attempt("kim@example.com", "right-password", "10.0.0.4")).toBe("kim@example.com");
  });

  it("checks only a few of 200 parallel wrong guesses; the rest are refused before any hashing", async () => {
    const results = await Promise.all(Array.from({ length: 200 }, () => attempt("burst@example.com", "wrong-password", "10.0.0.5")));
    const checked = (await outcomes("burst@example.com")).filter((outcome) => outcome === "INVALID_CREDENTIALS").length;
    expect(checked).toBe(PAIR_FREE + 1);
    expect(results.filter((result) => result?.startsWith("TooManyAttempts:"))).toHaveLength(200 - checked);
  });
});

describe("sign-in input", () => {
  it("refuses a 5 MiB e-mail or password before hashing and never stores it", async () => {
    const huge = `${"x".repeat(5 * 1024 * 1024)}@example.com`;
    expect(await attempt(huge, "wrong-password", "10.0.0.6")).toBeNull();
    expect(await attempt("pat2@example.com", "p".repeat(5 * 1024 * 1024), "10.0.0.6")).toBeNull();
    const longest = (await (await getDashboardDb()).get("SELECT max(length(user_email)) AS n, max(length(coalesce(detail, ''))) AS d FROM audit_log")) as { n: number; d: number };
    expect(longest.n).toBeLessThanOrEqual(320);
    expect(longest.d).toBeLessThanOrEqual(2000);
    expect(await outcomes("(too long)")).toEqual(["INVALID_INPUT", "INVALID_INPUT"]);
  });
});

describe("password hashes", () => {
  it("are scrypt at OWASP's minimum (N=2^17, r=8, p=1), checked in the thread pool while the event loop stays idle", async () => {
    const db = await getDashboardDb();
    const row = (await db.get("SELECT password_hash AS hash FROM users WHERE email = 'strong@example.com'")) as { hash: string };
    expect(row.hash).toMatch(/^scrypt\$17\$8\$1\$/);
    const before = performance.eventLoopUtilization();
    const results = await Promise.all(Array.from({ length: 3 }, () => verifyCredentials(db, "strong@example.com", "right-password")));
    const busy = performance.eventLoopUtilization(before);
    expect(results.every((user) => user?.email === "strong@example.com")).toBe(true);
    // Hashing on the main thread (bcryptjs, even its async API) keeps the loop busy all along.
    expect(busy.utilization).toBeLessThan(0.5);
  });

  it("replace a hash of weaker scrypt parameters at the next sign-in", async () => {
    const db = await getDashboardDb();
    await upsertUser(db, { email: "weak@example.com", role: "engineer", plants: ["RTM1"] });
    const salt = randomBytes(16);
    const key = scryptSync("a-weak-hash", salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 2 ** 20 });
    await db.run("UPDATE users SET password_hash = @passwordHash WHERE email = 'weak@example.com'", {
      passwordHash: `scrypt$15$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`,
    });
    expect(await verifyCredentials(db, "weak@example.com", "not-it")).toBeNull();
    expect((await db.get<{ hash: string }>("SELECT password_hash AS hash FROM users WHERE email = 'weak@example.com'"))!.hash).toMatch(/^scrypt\$15\$/);
    expect((await verifyCredentials(db, "weak@example.com", "a-weak-hash"))?.email).toBe("weak@example.com");
    expect((await db.get<{ hash: string }>("SELECT password_hash AS hash FROM users WHERE email = 'weak@example.com'"))!.hash).toMatch(/^scrypt\$17\$8\$1\$/);
    expect((await verifyCredentials(db, "weak@example.com", "a-weak-hash"))?.email).toBe("weak@example.com");
  });

  it("run at most HASH_CONCURRENCY at once and refuse beyond the queue, at once", async () => {
    const db = await getDashboardDb();
    const many = HASH_CONCURRENCY + HASH_QUEUE_MAX + 6;
    const results = await Promise.allSettled(Array.from({ length: many }, () => verifyCredentials(db, "queue@example.com", "wrong-password")));
    const refused = results.filter((result) => result.status === "rejected");
    expect(refused).toHaveLength(6);
    expect(refused.every((result) => (result as PromiseRejectedResult).reason instanceof HashQueueFull)).toBe(true);
    expect(results.filter((result) => result.status === "fulfilled" && result.value === null)).toHaveLength(many - 6);
  });

  it("still accept an old bcrypt hash, and replace it with a scrypt one", async () => {
    const db = await getDashboardDb();
    await upsertUser(db, { email: "old@example.com", role: "engineer", plants: ["RTM1"] });
    await db.run("UPDATE users SET password_hash = @passwordHash WHERE email = 'old@example.com'", { passwordHash: bcrypt.hashSync("an-old-password", 4) });
    expect(await verifyCredentials(db, "old@example.com", "not-it")).toBeNull();
    expect((await verifyCredentials(db, "old@example.com", "an-old-password"))?.email).toBe("old@example.com");
    const row = (await db.get("SELECT password_hash AS hash FROM users WHERE email = 'old@example.com'")) as { hash: string };
    expect(row.hash).toMatch(/^scrypt\$/);
    expect((await verifyCredentials(db, "old@example.com", "an-old-password"))?.email).toBe("old@example.com");
  });
});
