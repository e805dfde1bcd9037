/**
 * The Redis connection behind the shared state (docs/architecture.md, "State shared by instances").
 * A command that cannot be answered — Redis down, unreachable, too slow — fails within about a
 * second and becomes 503 SERVICE_UNAVAILABLE: a limit, budget or throttle that cannot be checked
 * refuses the request rather than letting it through unchecked. The URL may carry a password: only
 * its host and port are ever logged, and the password is masked in any error text that is.
 */
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { ApiError } from "../contract/errors";

/** A command not answered in this time fails (the request gets 503, it does not hang). */
const COMMAND_TIMEOUT_MS = 1_000;
/** Unavailability is logged at most this often (a dead Redis would otherwise log every request). */
const LOG_EVERY_MS = 10_000;

export interface SharedRedis {
  readonly client: Redis;
  /** Prepended to every key (REDIS_KEY_PREFIX). */
  readonly prefix: string;
  /** `host:port`, for messages: never the password. */
  readonly where: string;
  /** Runs a Lua script (EVALSHA, loading it on first use); failures become 503 SERVICE_UNAVAILABLE. */
  run<T>(script: LuaScript, keys: string[], args: (string | number)[]): Promise<T>;
  /** Any other command, with the same failure mapping. */
  call<T>(command: (client: Redis) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

interface LuaScript {
  lua: string;
  sha: string;
}

export function luaScript(lua: string): LuaScript {
  return { lua, sha: createHash("sha1").update(lua).digest("hex") };
}

function sharedStateUnavailable(): ApiError {
  return new ApiError(
    "SERVICE_UNAVAILABLE",
    "The shared state of the service (Redis) cannot be reached, so limits cannot be checked; retry shortly.",
    [],
    { "retry-after": "1" },
  );
}

export function openRedis(url: string, prefix: string, log: (line: string) => void = (line) => console.warn(line)): SharedRedis {
  const parsed = new URL(url);
  const where = `${parsed.hostname}:${parsed.port || "6379"}`;
  const secret = decodeURIComponent(parsed.password);
  const mask = (text: string) => (secret ? text.split(secret).join("***") : text);
  let lastLog = 0;
  const report = (error: unknown) => {
    const now = Date.now();
    if (now - lastLog < LOG_EVERY_MS) return;
    lastLog = now;
    log(`[redis] ${where}: ${mask(error instanceof Error ? error.message : String(error))}`);
  };

  const client = new Redis(url, {
    // Commands issued while (re)connecting wait for one reconnection attempt, then fail.
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 100, 1_000),
  });
  // Without a listener ioredis prints every connection error itself, unthrottled.
  client.on("error", report);

  async function call<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    try {
      return await command(client);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      report(error);
      throw sharedStateUnavailable();
    }
  }

  return {
    client,
    prefix,
    where,
    call,
    run<T>(script: LuaScript, keys: string[], args: (string | number)[]) {
      return call(async (redis) => {
        try {
          return (await redis.evalsha(script.sha, keys.length, ...keys, ...args)) as T;
        } catch (error) {
          if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
          return (await redis.eval(script.lua, keys.length, ...keys, ...args)) as T;
        }
      });
    },
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
