/**
 * Sign-in throttling without lockout (docs/architecture.md, "Sign-in"). Failed password sign-ins
 * are counted under three keys:
 *
 *   - the account at one client address: past a few free failures each further attempt from that
 *     address must wait a delay that doubles with every failure (1 s, 2 s, 4 s, … up to 15 min); an
 *     attempt during the wait is refused at once, before any hashing, and the person is told in
 *     words when to try again;
 *   - the client address, over all accounts (password spraying): the same, with more free failures
 *     (an office behind one NAT);
 *   - the account, over all addresses: a looser ceiling that only SLOWS — past it every attempt on
 *     the account is held a little longer before its password is checked, never refused.
 *
 * So someone guessing from one address locks out only that address: the real user, at another
 * address, is at most slowed by a few seconds, and one request every 15 minutes keeps nobody out.
 *
 * An attempt is counted when it starts, not when its hash check ends, so a burst of parallel
 * guesses cannot all slip through while the first ones are still being checked. A success forgets
 * the account's failures (at that address and overall) and takes back its own count from the
 * address (an address's failures are not wiped by signing into some other account). Counts are
 * forgotten after an hour without failures. They are kept in memory (a restart forgets them, which
 * only ever lets someone in early) or, with REDIS_URL, in Redis, where every instance counts into
 * the same entries. Redis unreachable: attempts are refused (503).
 */
import { createHash } from "node:crypto";
import { getConfig } from "../config";
import { getSharedState, type SharedState } from "../shared-state";
import { luaScript, type SharedRedis } from "../shared-state/redis";

/** Failures allowed without delay, per key. */
export const PAIR_FREE = 5;
export const ADDRESS_FREE = 20;
/** Failures of one account (from anywhere) before its attempts are slowed. */
export const ACCOUNT_CEILING = 20;

const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 15 * 60_000;
/** Past the account's ceiling each further failure holds attempts on it this much longer … */
const SLOW_STEP_MS = 250;
/** … up to this: slow enough to make guessing costly, short enough that the real user just waits. */
export const MAX_SLOW_MS = 5_000;
const FORGET_AFTER_MS = 60 * 60_000;
const ENTRIES_KEPT = 50_000;

interface Attempt {
  /** The attempt succeeded: the account's failures are forgotten, the address gets its count back. */
  succeeded(): Promise<void>;
}

/** Admitted after `slowMs` (the account's ceiling: wait that long, then check), or refused for a while. */
export type Admission = { attempt: Attempt; slowMs: number } | { retryAfterSeconds: number };

interface SignInThrottle {
  /** Counts an attempt for these keys, or refuses it while the account at this address (or the address) must wait. */
  begin(keys: { account: string; address: string }, now?: number): Promise<Admission>;
}

function delayAfter(failures: number, free: number): number {
  if (failures <= free) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(30, failures - free - 1));
}

function slowAfter(failures: number): number {
  return failures <= ACCOUNT_CEILING ? 0 : Math.min(MAX_SLOW_MS, SLOW_STEP_MS * (failures - ACCOUNT_CEILING));
}

/** Refused until `waitUntil`: the wait in whole seconds, at least one. */
function refused(waitUntil: number, now: number): Admission {
  return { retryAfterSeconds: Math.max(1, Math.ceil((waitUntil - now) / 1000)) };
}

/** Admitted; `forgive` runs on the attempt's first success only. */
function admitted(slowMs: number, forgive: () => void | Promise<void>): Admission {
  let settled = false;
  return {
    slowMs,
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

interface Entry {
  failures: number;
  lockedUntil: number;
  lastFailure: number;
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

  /** One more failure on `key`; entries are re-inserted last, so the map's order is the forgetting order. */
  function count(key: string, now: number, delay: (failures: number) => number): Entry {
    const entry = entries.get(key) ?? { failures: 0, lockedUntil: 0, lastFailure: now };
    entry.failures += 1;
    entry.lastFailure = now;
    entry.lockedUntil = now + delay(entry.failures);
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  }

  return {
    async begin({ account, address }, now = Date.now()) {
      sweep(now);
      const pairKey = `pair:${address}\n${account}`;
      const addressKey = `address:${address}`;
      const accountKey = `account:${account}`;
      const waitUntil = Math.max(entries.get(pairKey)?.lockedUntil ?? 0, entries.get(addressKey)?.lockedUntil ?? 0);
      if (now < waitUntil) return refused(waitUntil, now);

      count(pairKey, now, (failures) => delayAfter(failures, PAIR_FREE));
      // What the address's wait was before this attempt, and the wait this attempt set: a success
      // puts the first back unless another attempt has set a wait of its own since.
      const addressLockBefore = entries.get(addressKey)?.lockedUntil ?? 0;
      const addressLockSet = count(addressKey, now, (failures) => delayAfter(failures, ADDRESS_FREE)).lockedUntil;
      const slowMs = slowAfter(count(accountKey, now, () => 0).failures);
      return admitted(slowMs, () => {
        entries.delete(pairKey);
        entries.delete(accountKey);
        const byAddress = entries.get(addressKey);
        if (byAddress) {
          byAddress.failures = Math.max(0, byAddress.failures - 1);
          // A right password never makes the next person behind the same address wait.
          if (byAddress.lockedUntil === addressLockSet) byAddress.lockedUntil = addressLockBefore;
        }
      });
    },
  };
}

// KEYS: the entries {f: failures, l: locked until} of the account at the address, of the address
// and of the account. ARGV: now, free failures of the pair and of the address, the account's
// ceiling, first and longest delay, slow step and longest slow-down, how long an entry is kept
// after its last failure. Returns {1, address lock before, address lock set, slow ms} when
// admitted, {0, wait until} when not.
const BEGIN = luaScript(`
local now = tonumber(ARGV[1])
local waitUntil = 0
for i = 1, 2 do
  local lock = tonumber(redis.call('HGET', KEYS[i], 'l')) or 0
  if lock > waitUntil then waitUntil = lock end
end
if now < waitUntil then return {0, waitUntil} end
local keep = tonumber(ARGV[9])
local before, set = 0, 0
for i = 1, 2 do
  local free = tonumber(ARGV[1 + i])
  local failures = redis.call('HINCRBY', KEYS[i], 'f', 1)
  local delay = 0
  if failures > free then delay = math.min(tonumber(ARGV[6]), tonumber(ARGV[5]) * 2 ^ math.min(30, failures - free - 1)) end
  if i == 2 then before = tonumber(redis.call('HGET', KEYS[2], 'l')) or 0; set = now + delay end
  redis.call('HSET', KEYS[i], 'l', string.format('%.0f', now + delay))
  redis.call('PEXPIRE', KEYS[i], keep + delay)
end
local failures = redis.call('HINCRBY', KEYS[3], 'f', 1)
redis.call('PEXPIRE', KEYS[3], keep)
local slow = 0
local ceiling = tonumber(ARGV[4])
if failures > ceiling then slow = math.min(tonumber(ARGV[8]), tonumber(ARGV[7]) * (failures - ceiling)) end
return {1, before, set, slow}
`);

// KEYS: as BEGIN. ARGV: the address's lock before the attempt and the lock the attempt set.
const SUCCEEDED = luaScript(`
redis.call('DEL', KEYS[1], KEYS[3])
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
      const keys = [
        `${redis.prefix}sign-in:pair:${digest(`${address}\n${account}`)}`,
        `${redis.prefix}sign-in:address:${digest(address)}`,
        `${redis.prefix}sign-in:account:${digest(account)}`,
      ];
      const at = Math.floor(now);
      const [admission, first, second, slowMs] = await redis.run<number[]>(BEGIN, keys, [
        at,
        PAIR_FREE,
        ADDRESS_FREE,
        ACCOUNT_CEILING,
        FIRST_DELAY_MS,
        MAX_DELAY_MS,
        SLOW_STEP_MS,
        MAX_SLOW_MS,
        FORGET_AFTER_MS,
      ]);
      if (admission !== 1) return refused(first!, at);
      return admitted(slowMs ?? 0, async () => {
        await redis.run(SUCCEEDED, keys, [String(first), String(second)]);
      });
    },
  };
}

let throttle: SignInThrottle | undefined;

/** The process's throttle, in memory or Redis. */
export function getSignInThrottle(): SignInThrottle {
  throttle ??= createSignInThrottle(getSharedState(getConfig()));
  return throttle;
}
