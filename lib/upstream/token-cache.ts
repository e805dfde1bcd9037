import "server-only";
/**
 * The telemetry access token of the remote upstream, shared by every query: fetched once, reused
 * until shortly before it expires, and fetched by ONE request of this process however many queries
 * need it at the same moment (single flight). A token the service rejects (401) is dropped so the
 * next caller fetches a fresh one — unless another caller already replaced it.
 *
 * Where the token is held is a TokenStore: this process's memory by default; with REDIS_URL, Redis,
 * so that the instances of a deployment use one token (not one each) and a token rejected on one
 * instance is dropped for all of them at once. The token is a secret: it is never logged.
 */
import { createHash } from "node:crypto";
import type { SharedState } from "../shared-state";
import { luaScript, type SharedRedis } from "../shared-state/redis";

export interface AccessToken {
  value: string;
  /** Lifetime in seconds, as the token endpoint's `expires_in`. */
  expiresIn: number;
}

export interface TokenCache {
  get(): Promise<string>;
  /** Forget `rejected` if it is still the cached token. */
  invalidate(rejected: string): Promise<void>;
}

interface TokenStore {
  /** The held token, unless none is held or it is due for refresh. */
  get(): Promise<string | null>;
  /** Holds `value` for `keepMs` (until it is due for refresh). */
  put(value: string, keepMs: number): Promise<void>;
  /** Forgets `rejected` if it is still the held token. */
  drop(rejected: string): Promise<void>;
}

function createMemoryTokenStore(now: () => number = () => Date.now()): TokenStore {
  let held: { value: string; refreshAt: number } | null = null;
  return {
    async get() {
      return held && now() < held.refreshAt ? held.value : null;
    },
    async put(value, keepMs) {
      held = { value, refreshAt: now() + keepMs };
    },
    async drop(rejected) {
      if (held?.value === rejected) held = null;
    },
  };
}

// KEYS[1]: the token's key. ARGV[1]: the rejected token. Deletes it only if it is still the one held.
const DROP_IF_HELD = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

function createRedisTokenStore(redis: SharedRedis, identity: string): TokenStore {
  // The key names the client without showing it.
  const key = `${redis.prefix}upstream-token:${createHash("sha256").update(identity).digest("hex").slice(0, 32)}`;
  return {
    get: () => redis.call((client) => client.get(key)),
    async put(value, keepMs) {
      await redis.call((client) => client.set(key, value, "PX", Math.max(1, Math.floor(keepMs))));
    },
    async drop(rejected) {
      await redis.run(DROP_IF_HELD, [key], [rejected]);
    },
  };
}

/** The store for the token of one client (`identity`: who the token is for, e.g. client id and scope). */
export function createTokenStore(shared: SharedState | undefined, identity: string): TokenStore {
  return shared?.kind === "redis" ? createRedisTokenStore(shared.redis, identity) : createMemoryTokenStore();
}

export function createTokenCache(
  fetchToken: () => Promise<AccessToken>,
  { refreshMarginMs = 60_000, now = () => Date.now(), store = createMemoryTokenStore(now) }: { refreshMarginMs?: number; now?: () => number; store?: TokenStore } = {},
): TokenCache {
  let inFlight: Promise<string> | null = null;

  return {
    async get() {
      const held = await store.get();
      if (held) return held;
      inFlight ??= fetchToken()
        .then(async (token) => {
          // Refresh a margin before expiry, but never sooner than half the lifetime (short test tokens).
          const lifetimeMs = token.expiresIn * 1000;
          await store.put(token.value, Math.max(lifetimeMs - refreshMarginMs, lifetimeMs / 2));
          return token.value;
        })
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },
    invalidate: (rejected) => store.drop(rejected),
  };
}
