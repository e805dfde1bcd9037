/**
 * Password hashes of the dashboard's users. New hashes are scrypt (node:crypto) at OWASP's current
 * minimum (N = 2^17, r = 8, p = 1), checked with the asynchronous `crypto.scrypt`, which runs in
 * libuv's thread pool: a sign-in never blocks the event loop. A hash made with weaker parameters
 * (older versions wrote 2^15) still matches and is replaced at the next sign-in (`upgradedHash`).
 *
 * Sign-in floods must not hurt signed-in users: every hash of a request waits its turn in ONE small
 * queue (HASH_CONCURRENCY at a time, about a third of a second and 128 MiB each), so a flood takes at
 * most that share of the CPU and memory, never the whole thread pool that telemetry queries and
 * session decryption share; the pool's threads run below the request loop's priority
 * (lib/platform/thread-priority.ts). A full queue refuses at once (HashQueueFull: "try again
 * in a few seconds") instead of holding connections for minutes. bcryptjs — pure JavaScript, so on the main thread whichever API is used — only checks hashes
 * written before (format `$2…`), and a user whose bcrypt hash matched gets a scrypt hash instead.
 *
 * Why scrypt and not bcryptjs in a worker thread: scrypt is built into Node, needs no worker script
 * (which Next's server bundles would have to ship and locate), is memory-hard, and its cost is set
 * per hash (stored with it), so it can be raised later without breaking existing hashes.
 *
 * Format: `scrypt$<log2 N>$<r>$<p>$<salt, base64url>$<key, base64url>`.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import os from "node:os";
import bcrypt from "bcryptjs";

/** 2^17 × 8 × 128 bytes = 128 MiB and ~0.3 s per hash on a current core: OWASP's minimum for scrypt. */
const LOG2_N = 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/** Longest password accepted anywhere (hashing input is bounded before any work is done). */
export const MAX_PASSWORD_LENGTH = 1024;

function options(log2N: number, r: number, p: number): ScryptOptions {
  // maxmem must exceed 128 × N × r, or Node refuses.
  return { N: 2 ** log2N, r, p, maxmem: 256 * 2 ** log2N * r };
}

const encode = (log2N: number, r: number, p: number, salt: Buffer, key: Buffer) =>
  `scrypt$${log2N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`;

/** Hashes running at once: one per two cores, at least one, at most two (each holds 128 MiB). */
export const HASH_CONCURRENCY = Math.max(1, Math.min(2, Math.floor(os.availableParallelism() / 2)));
/** Hashes waiting for a turn; about HASH_QUEUE_MAX × 0.3 s ÷ HASH_CONCURRENCY of waiting at most. */
export const HASH_QUEUE_MAX = 24;

/** Too many password checks are waiting: refused at once, nothing hashed. */
export class HashQueueFull extends Error {
  constructor() {
    super("Too many sign-ins are being checked at the moment.");
  }
}

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `work` when one of the HASH_CONCURRENCY places is free, or refuses when the queue is full. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASH_CONCURRENCY) {
    if (waiting.length >= HASH_QUEUE_MAX) throw new HashQueueFull();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running += 1;
  }
  try {
    return await work();
  } finally {
    // The place passes straight to the next one waiting, or is given back.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

function scryptAsync(password: string, salt: Buffer, length: number, opts: ScryptOptions): Promise<Buffer> {
  return inTurn(() => new Promise((resolve, reject) => scrypt(password, salt, length, opts, (error, key) => (error ? reject(error) : resolve(key)))));
}

/** A new hash, in the thread pool. */
export async function hashPassword(password: string): Promise<string> {
  if (password.length > MAX_PASSWORD_LENGTH) throw new Error(`A password may have at most ${MAX_PASSWORD_LENGTH} characters.`);
  const salt = randomBytes(SALT_LENGTH);
  return encode(LOG2_N, R, P, salt, await scryptAsync(password, salt, KEY_LENGTH, options(LOG2_N, R, P)));
}

const SCRYPT_HASH = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

interface Verification {
  ok: boolean;
  /** Set when the password matched a hash of an older kind or weaker parameters: store this one instead. */
  upgradedHash?: string;
}

/** Whether the password matches the stored hash; an unknown format never matches. */
export async function verifyPassword(password: string, stored: string): Promise<Verification> {
  if (password.length > MAX_PASSWORD_LENGTH) return { ok: false };
  const m = SCRYPT_HASH.exec(stored);
  if (m) {
    const [log2N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const expected = Buffer.from(m[5]!, "base64url");
    if (log2N > 20 || r > 16 || p > 4 || expected.length === 0) return { ok: false };
    const key = await scryptAsync(password, Buffer.from(m[4]!, "base64url"), expected.length, options(log2N, r, p));
    const ok = timingSafeEqual(key, expected);
    const weaker = log2N < LOG2_N || r < R;
    return ok && weaker ? { ok, upgradedHash: await hashPassword(password) } : { ok };
  }
  if (/^\$2[aby]\$\d\d\$/.test(stored)) {
    // Legacy: bcryptjs's async API yields between rounds but still computes on this thread.
    const ok = await bcrypt.compare(password, stored);
    return ok ? { ok, upgradedHash: await hashPassword(password) } : { ok };
  }
  return { ok: false };
}

let dummy: Promise<string> | undefined;

/**
 * A hash of nothing anyone knows, checked when the e-mail is unknown, so an unknown e-mail costs as
 * long as a wrong password. Made on first use (in the pool), not at import.
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString("hex"));
  return dummy;
}
