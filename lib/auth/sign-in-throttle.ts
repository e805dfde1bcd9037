/**
 * Sign-in throttling (docs/architecture.md, "Sign-in"): failed password sign-ins are counted per
 * account and per client address. Past a few free failures each further attempt must wait a delay
 * that doubles with every failure (1 s, 2 s, 4 s, … up to 15 min); an attempt during the wait is
 * refused at once, before any password hashing, and the person is told how long to wait.
 *
 * An attempt is counted when it starts, not when its hash check ends, so a burst of parallel
 * guesses cannot all slip through while the first ones are still being checked. A success forgets
 * the account's failures and takes back its own count from the address (an address's failures are
 * not wiped by signing into some other account). Counts are forgotten after an hour without
 * failures. They are kept in memory (a restart forgets them, which only ever lets someone in early)
 * or, with REDIS_URL, in Redis, where every instance counts into the same entries: a guesser gains
 * nothing by spreading attempts over instances. Redis unreachable: attempts are refused (503).
 */
import { createHash } from "node:crypto";
import { getConfig } from "../config";
import { getSharedState, type SharedState } from "../shared-state";
import { luaScript, type SharedRedis } from "../shared-state/redis";

export interface ThrottlePolicy {
  /** Failures allowed without delay. */
  free: number;
}

/** An account is one person: a handful of typos. An address may be an office behind one NAT. */
export const ACCOUNT_POLICY: ThrottlePolicy = { free: 5 };
export const ADDRESS_POLICY: ThrottlePolicy = { free: 20 };

const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 15 * 60_000;
const FORGET_AFTER_MS = 60 * 60_000;
const ENTRIES_KEPT = 50_000;

interface Entry {
  failures: number;
  lockedUntil: number;
  lastFailure: number;
}

export interface Attempt {
  /** The attempt succeeded: the account's failures are forgotten, the address gets its count back. */
  succeeded(): Promise<void>;
}

export type Admission = { attempt: Attempt } | { retryAfterSeconds: number };

export interface SignInThrottle {
  /** Counts an attempt for these keys, or refuses it while one of them must wait. */
  begin(keys: { account: string; address: string }, now?: number): Promise<Admission>;
}

function delayAfter(failures: number, policy: ThrottlePolicy): number {
  if (failures <= policy.free) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(30, failures - policy.free - 1));
}

/** Refused until `waitUntil`: the wait in whole seconds, at least one. */
function refused(waitUntil: number, now: number): Admission {
  return { retryAfterSeconds: Math.max(1, Math.ceil((waitUntil - now) / 1000)) };
}

/** Admitted; `forgive` runs on the attempt's first success only. */
function admitted(forgive: () => void | Promise<void>): Admission {
  let settled = false;
  return {
    attempt: {
      async succeeded() {
        if (settled) return;
        settled = true;
        await forgive();
      },
    },
  };
}

export function createSignInThrottle(shared?: SharedState): SignInThrottle {
  return shared?.kind === "redis" ? createRedisSignInThrottle(shared.redis) : createMemorySignInThrottle();
}

function createMemorySignInThrottle(): SignInThrottle {
  const entries = new Map<string, Entry>();
  let lastSweep = 0;

  function sweep(now: number): void {
    if (now - lastSweep < 60_000 && entries.size < ENTRIES_KEPT) return;
    lastSweep = now;
    for (const [key, entry] of entries) if (now - entry.lastFailure > FORGET_AFTER_MS && now >= entry.lockedUntil) entries.delete(key);
    // Still too many (a flood of distinct names): forget the oldest.
    for (const key of entries.keys()) {
      if (entries.size <= ENTRIES_KEPT) break;
      entries.delete(key);
    }
  }

  return {
    async begin({ account, address }, now = Date.now()) {
      sweep(now);
      const keyed: [string, ThrottlePolicy][] = [
        [`account:${account}`, ACCOUNT_POLICY],
        [`address:${address}`, ADDRESS_POLICY],
      ];
      const waitUntil = Math.max(...keyed.map(([key]) => entries.get(key)?.lockedUntil ?? 0));
      if (now < waitUntil) return refused(waitUntil, now);

      // What the address's wait was before this attempt, and the wait this attempt set: a success
      // puts the first back unless another attempt has set a wait of its own since.
      let addressLockBefore = 0;
      let addressLockSet = 0;
      for (const [key, policy] of keyed) {
        const entry = entries.get(key) ?? { failures: 0, lockedUntil: 0, lastFailure: now };
        if (key.startsWith("address:")) addressLockBefore = entry.lockedUntil;
        entry.failures += 1;
        entry.lastFailure = now;
        entry.lockedUntil = now + delayAfter(entry.failures, policy);
        if (key.startsWith("address:")) addressLockSet = entry.lockedUntil;
        entries.delete(key); // re-inserted last: the map's order is the forgetting order
        entries.set(key, entry);
      }
      return admitted(() => {
        entries.delete(`account:${account}`);
        const byAddress = entries.get(`address:${address}`);
        if (byAddress) {
          byAddress.failures = Math.max(0, byAddress.failures - 1);
          // A right password never makes the next person behind the same address wait.
          if (byAddress.lockedUntil === addressLockSet) byAddress.lockedUntil = addressLockBefore;
        }
      });
    },
  };
}

const KEY = Symbol.for("plantdesk.signInThrottle");
type Holder = { [KEY]?: SignInThrottle };

// KEYS: the account's and the address's entry {f: failures, l: locked until}. ARGV: now, free
// failures of each, first and longest delay, how long an entry is kept after its last failure.
// Returns {1, address lock before, address lock set} when admitted, {0, wait until} when not.
const BEGIN = luaScript(`
local now = tonumber(ARGV[1])
local waitUntil = 0
for i = 1, 2 do
  local lock = tonumber(redis.call('HGET', KEYS[i], 'l')) or 0
  if lock > waitUntil then waitUntil = lock end
end
if now < waitUntil then return {0, waitUntil} end
local before, set = 0, 0
for i = 1, 2 do
  local free = tonumber(ARGV[1 + i])
  local failures = redis.call('HINCRBY', KEYS[i], 'f', 1)
  local delay = 0
  if failures > free then delay = math.min(tonumber(ARGV[5]), tonumber(ARGV[4]) * 2 ^ math.min(30, failures - free - 1)) end
  local lock = string.format('%.0f', now + delay)
  if i == 2 then before = tonumber(redis.call('HGET', KEYS[2], 'l')) or 0; set = now + delay end
  redis.call('HSET', KEYS[i], 'l', lock)
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[6]) + delay)
end
return {1, before, set}
`);

// KEYS: as BEGIN. ARGV: the address's lock before the attempt and the lock the attempt set.
const SUCCEEDED = luaScript(`
redis.call('DEL', KEYS[1])
local failures = tonumber(redis.call('HGET', KEYS[2], 'f'))
if failures then
  redis.call('HSET', KEYS[2], 'f', math.max(0, failures - 1))
  if redis.call('HGET', KEYS[2], 'l') == ARGV[2] then redis.call('HSET', KEYS[2], 'l', ARGV[1]) end
end
return 1
`);

const digest = (text: string) => createHash("sha256").update(text).digest("base64url").slice(0, 22);

function createRedisSignInThrottle(redis: SharedRedis): SignInThrottle {
  return {
    async begin({ account, address }, now = Date.now()) {
      // Hashed: Redis's key list shows no e-mail addresses or client addresses.
      const keys = [`${redis.prefix}sign-in:account:${digest(account)}`, `${redis.prefix}sign-in:address:${digest(address)}`];
      const at = Math.floor(now);
      const [admission, first, second] = await redis.run<number[]>(BEGIN, keys, [
        at,
        ACCOUNT_POLICY.free,
        ADDRESS_POLICY.free,
        FIRST_DELAY_MS,
        MAX_DELAY_MS,
        FORGET_AFTER_MS,
      ]);
      if (admission !== 1) return refused(first!, at);
      return admitted(async () => {
        await redis.run(SUCCEEDED, keys, [String(first), String(second)]);
      });
    },
  };
}

/** The process's throttle (on globalThis: the server and Next's bundles share one), in memory or Redis. */
export function getSignInThrottle(): SignInThrottle {
  const holder = globalThis as Holder;
  holder[KEY] ??= createSignInThrottle(getSharedState(getConfig()));
  return holder[KEY];
}
