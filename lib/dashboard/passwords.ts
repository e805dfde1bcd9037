/**
 * Password hashes of the dashboard's users. New hashes are scrypt (node:crypto), checked with the
 * asynchronous `crypto.scrypt`, which runs in libuv's thread pool: a sign-in never blocks the event
 * loop. bcryptjs — pure JavaScript, so on the main thread whichever API is used — only checks hashes
 * written before (format `$2…`), and a user whose bcrypt hash matched gets a scrypt hash instead.
 *
 * Why scrypt and not bcryptjs in a worker thread: scrypt is built into Node, needs no worker script
 * (which Next's server bundles would have to ship and locate), is memory-hard, and its cost is set
 * per hash (stored with it), so it can be raised later without breaking existing hashes.
 *
 * Format: `scrypt$<log2 N>$<r>$<p>$<salt, base64url>$<key, base64url>`.
 */
import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from "node:crypto";
import bcrypt from "bcryptjs";

/** 2^15 × 8 × 128 bytes = 32 MiB and ~0.1 s per hash on a current core (OWASP's minimum is 2^17 × 8 at p=1; 2^15 keeps 16 parallel checks within 512 MiB). */
const LOG2_N = 15;
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

/** A new hash, synchronously: for the operator CLI and the demo users at start, never a request. */
export function hashPasswordSync(password: string): string {
  if (password.length > MAX_PASSWORD_LENGTH) throw new Error(`A password may have at most ${MAX_PASSWORD_LENGTH} characters.`);
  const salt = randomBytes(SALT_LENGTH);
  return encode(LOG2_N, R, P, salt, scryptSync(password, salt, KEY_LENGTH, options(LOG2_N, R, P)));
}

function scryptAsync(password: string, salt: Buffer, length: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password, salt, length, opts, (error, key) => (error ? reject(error) : resolve(key))));
}

/** A new hash, in the thread pool. */
export async function hashPassword(password: string): Promise<string> {
  if (password.length > MAX_PASSWORD_LENGTH) throw new Error(`A password may have at most ${MAX_PASSWORD_LENGTH} characters.`);
  const salt = randomBytes(SALT_LENGTH);
  return encode(LOG2_N, R, P, salt, await scryptAsync(password, salt, KEY_LENGTH, options(LOG2_N, R, P)));
}

const SCRYPT_HASH = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

export interface Verification {
  ok: boolean;
  /** Set when the password matched a hash of an older kind: store this one instead. */
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
    return { ok: timingSafeEqual(key, expected) };
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
