/**
 * Places for work running at once, capped per key and per group (a telemetry client and its
 * customer: docs/architecture.md, "Telemetry under load"). In memory by default; in Redis the caps
 * hold for every instance together. There a place is a lease — a member of a sorted set per key
 * and per group, scored by when it expires — renewed while its holder runs, so the places of a
 * killed instance come free after `leaseMs` instead of being lost for good. Checking both caps and
 * taking the place is one Lua script: two instances cannot both take the last place.
 */
import { randomUUID } from "node:crypto";
import type { SharedState } from ".";
import { luaScript, type SharedRedis } from "./redis";

interface SlotCaps {
  perKey: number;
  perGroup: number;
}

export interface Slot {
  /** Gives the place back (once; later calls do nothing). */
  release(): Promise<void>;
}

export interface ConcurrencySlots {
  /** A place for `key` in `group` when both caps allow one now; null otherwise. */
  tryOccupy(key: string, group: string, now?: number): Promise<Slot | null>;
}

/** A lease not renewed for this long is taken to belong to a dead instance. */
const DEFAULT_LEASE_MS = 30_000;

export function createConcurrencySlots(shared: SharedState, name: string, caps: SlotCaps, leaseMs = DEFAULT_LEASE_MS): ConcurrencySlots {
  return shared.kind === "redis" ? createRedisSlots(shared.redis, name, caps, leaseMs) : createMemorySlots(caps);
}

export function createMemorySlots(caps: SlotCaps): ConcurrencySlots {
  const byKey = new Map<string, number>();
  const byGroup = new Map<string, number>();
  const count = (map: Map<string, number>, id: string, delta: number) => {
    const next = (map.get(id) ?? 0) + delta;
    if (next === 0) map.delete(id);
    else map.set(id, next);
  };
  return {
    async tryOccupy(key, group) {
      if ((byKey.get(key) ?? 0) >= caps.perKey || (byGroup.get(group) ?? 0) >= caps.perGroup) return null;
      count(byKey, key, 1);
      count(byGroup, group, 1);
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          count(byKey, key, -1);
          count(byGroup, group, -1);
        },
      };
    },
  };
}

// KEYS: the key's and the group's sorted sets. ARGV: now, leaseMs, perKey, perGroup, lease id.
const OCCUPY = luaScript(`
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) or redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
local expires = now + tonumber(ARGV[2])
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], expires, ARGV[5])
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2]) * 2)
end
return 1
`);

// KEYS: the two sorted sets. ARGV: now, leaseMs, lease id. Renews a lease that has not expired.
const RENEW = luaScript(`
local expires = tonumber(ARGV[1]) + tonumber(ARGV[2])
for i = 1, 2 do
  if redis.call('ZADD', KEYS[i], 'XX', 'CH', expires, ARGV[3]) == 1 then redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2]) * 2) end
end
return 1
`);

function createRedisSlots(redis: SharedRedis, name: string, caps: SlotCaps, leaseMs: number): ConcurrencySlots {
  const keysOf = (key: string, group: string) => [`${redis.prefix}slots:${name}:key:${key}`, `${redis.prefix}slots:${name}:group:${group}`];
  return {
    async tryOccupy(key, group, now = Date.now()) {
      const keys = keysOf(key, group);
      const id = randomUUID();
      const occupied = await redis.run<number>(OCCUPY, keys, [Math.floor(now), leaseMs, caps.perKey, caps.perGroup, id]);
      if (occupied !== 1) return null;
      // Renewed a few times per lease, so one late renewal does not lose the place.
      const renewal = setInterval(() => {
        redis.run(RENEW, keys, [Date.now(), leaseMs, id]).catch(() => {}); // unreachable: the lease runs out, the place comes free
      }, leaseMs / 3);
      renewal.unref();
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          clearInterval(renewal);
          await redis.call((client) => client.multi().zrem(keys[0]!, id).zrem(keys[1]!, id).exec());
        },
      };
    },
  };
}
