/**
 * Fixed windows per key (docs/api.md §6): a key's window begins at its first use and lasts
 * `windowMs`; units are taken from it up to a limit and may be given back while it lasts. The
 * request limiter and the telemetry cost throttle are built on it. In memory by default; in Redis
 * (one hash per key, changed by Lua scripts, so a check and its update are one atomic step) the
 * windows are shared by every instance: a limit holds for all of them together, not per instance.
 *
 * Times are the callers' clocks (`now`), as in memory: instances on one network agree to a few
 * milliseconds, and tests can move time without waiting. The Redis key expires with its window.
 */
import type { SharedState } from ".";
import { luaScript, type SharedRedis } from "./redis";

export interface WindowUse {
  /** Units taken in the key's current window. */
  used: number;
  /** When that window began (ms): it identifies the window. */
  start: number;
}

export interface FixedWindowCounter {
  readonly windowMs: number;
  /**
   * Takes units from the key's current window (a new one once the last has ended):
   * `all` takes `units` only when they all fit under `limit` (else none); `upTo` as many as fit.
   */
  take(key: string, units: number, limit: number, mode: "all" | "upTo", now: number): Promise<WindowUse & { taken: number }>;
  /** Gives units back to the window that began at `start` if it is still current; the current window after. */
  giveBack(key: string, start: number, units: number, now: number): Promise<WindowUse>;
}

/** Whole seconds until the window renews, at least 1: the `Retry-After` of a 429. */
export function secondsLeft(windowMs: number, window: WindowUse, now: number): number {
  return Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
}

export function createFixedWindowCounter(shared: SharedState, name: string, windowMs: number): FixedWindowCounter {
  return shared.kind === "redis" ? createRedisWindows(shared.redis, name, windowMs) : createMemoryWindows(windowMs);
}

export function createMemoryWindows(windowMs: number): FixedWindowCounter {
  const windows = new Map<string, WindowUse>();
  let lastSweep = 0;
  /** The key's current window; finished windows are forgotten now and then, so departed keys do not pile up. */
  const current = (key: string, now: number): WindowUse => {
    if (now - lastSweep > windowMs) {
      for (const [k, w] of windows) if (now - w.start >= windowMs) windows.delete(k);
      lastSweep = now;
    }
    let window = windows.get(key);
    if (!window || now - window.start >= windowMs) {
      window = { start: now, used: 0 };
      windows.set(key, window);
    }
    return window;
  };
  return {
    windowMs,
    async take(key, units, limit, mode, now) {
      const window = current(key, now);
      const available = Math.max(0, limit - window.used);
      const taken = mode === "upTo" ? Math.min(units, available) : units <= available ? units : 0;
      window.used += taken;
      return { taken, used: window.used, start: window.start };
    },
    async giveBack(key, start, units, now) {
      const window = current(key, now);
      // A window that has ended keeps its count: it no longer admits anything.
      if (window.start === start) window.used = Math.max(0, window.used - units);
      return { used: window.used, start: window.start };
    },
  };
}

// KEYS[1]: the key's window hash {s: start, u: used}. ARGV: now, windowMs, units, limit, upTo (1/0).
const TAKE = luaScript(`
local now = tonumber(ARGV[1])
local win = tonumber(ARGV[2])
local units = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 's', 'u')
local start = tonumber(state[1])
local used = tonumber(state[2]) or 0
if not start or now - start >= win then
  start = now
  used = 0
  redis.call('HSET', KEYS[1], 's', ARGV[1], 'u', 0)
  redis.call('PEXPIRE', KEYS[1], win)
end
local available = math.max(0, limit - used)
local taken = 0
if ARGV[5] == '1' then taken = math.min(units, available) elseif units <= available then taken = units end
if taken > 0 then used = redis.call('HINCRBY', KEYS[1], 'u', taken) end
return {taken, used, start}
`);

// KEYS[1]: the window hash. ARGV: now, windowMs, start of the window the units were taken from, units.
const GIVE_BACK = luaScript(`
local now = tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 's', 'u')
local start = tonumber(state[1])
if not start or now - start >= tonumber(ARGV[2]) then return {0, now} end
local used = tonumber(state[2]) or 0
if state[1] == ARGV[3] and tonumber(ARGV[4]) > 0 then
  used = math.max(0, used - tonumber(ARGV[4]))
  redis.call('HSET', KEYS[1], 'u', used)
end
return {used, start}
`);

function createRedisWindows(redis: SharedRedis, name: string, windowMs: number): FixedWindowCounter {
  const keyOf = (key: string) => `${redis.prefix}window:${name}:${key}`;
  return {
    windowMs,
    async take(key, units, limit, mode, now) {
      const [taken, used, start] = await redis.run<[number, number, number]>(TAKE, [keyOf(key)], [
        Math.floor(now),
        windowMs,
        units,
        limit,
        mode === "upTo" ? 1 : 0,
      ]);
      return { taken, used, start };
    },
    async giveBack(key, start, units, now) {
      const [used, current] = await redis.run<[number, number]>(GIVE_BACK, [keyOf(key)], [Math.floor(now), windowMs, String(start), units]);
      return { used, start: current };
    },
  };
}
