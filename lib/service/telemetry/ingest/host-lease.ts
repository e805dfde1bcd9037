/**
 * Which instance holds the Sparkplug primary host role (docs/telemetry-ingest.md, "Primary host"):
 * a lease in Redis (REDIS_URL) that the holder renews every third of its time to live; when the
 * holder dies, the lease runs out and another instance takes it. Without Redis the single
 * instance always holds it.
 *
 * The lease only decides who connects: the holder connects with the one MQTT client id of the
 * role (MQTT_CLIENT_ID, a persistent session), and the broker itself closes any older connection
 * with that id when a new one arrives, so two holders never read the session's messages at once
 * even if a paused holder wakes up late.
 */
import type { SharedState } from "@/lib/shared-state";
import { luaScript } from "@/lib/shared-state/redis";

export interface HostLease {
  /** Takes the lease if free (or already ours) and extends it; true while we hold it. */
  acquireOrRenew(): Promise<boolean>;
  release(): Promise<void>;
  readonly ttlMs: number;
}

const ACQUIRE = luaScript(`
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`);

const RELEASE = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);

export function hostLease(shared: SharedState, role: string, holder: string, ttlMs: number): HostLease {
  if (shared.kind === "memory") return { acquireOrRenew: async () => true, release: async () => {}, ttlMs };
  const { redis } = shared;
  const key = `${redis.prefix}sparkplug-host:${role}`;
  return {
    ttlMs,
    async acquireOrRenew() {
      return (await redis.run<number>(ACQUIRE, [key], [holder, ttlMs])) === 1;
    },
    async release() {
      await redis.run(RELEASE, [key], [holder]).catch(() => undefined);
    },
  };
}
