/**
 * Where the state that several instances must share is kept (docs/architecture.md, "State shared
 * by instances"): in this process's memory by default, in Redis when `REDIS_URL` is set. Chosen
 * once from the configuration; each kind of shared state (fixed windows, concurrency slots, sign-in
 * throttles, the upstream's token) has one small interface with a memory and a Redis implementation
 * and picks between them by this object.
 */
import type { AppConfig } from "../config";
import { openRedis, type SharedRedis } from "./redis";

export type SharedState = { kind: "memory"; close(): Promise<void> } | { kind: "redis"; redis: SharedRedis; close(): Promise<void> };

export function openSharedState(config: Pick<AppConfig, "REDIS_URL" | "REDIS_KEY_PREFIX">): SharedState {
  if (!config.REDIS_URL) return { kind: "memory", close: async () => {} };
  const redis = openRedis(config.REDIS_URL, config.REDIS_KEY_PREFIX);
  return { kind: "redis", redis, close: () => redis.close() };
}

/**
 * The dashboard's shared state (sign-in throttle, remote upstream's token), one per process
 * (the pages reach it through the server, lib/bff/page-server.ts). The service runtime opens its own.
 */
let shared: SharedState | undefined;

export function getSharedState(config: Pick<AppConfig, "REDIS_URL" | "REDIS_KEY_PREFIX">): SharedState {
  shared ??= openSharedState(config);
  return shared;
}
