/**
 * Redis configured but not answering: every check fails closed with 503 SERVICE_UNAVAILABLE (never
 * lets a request through unchecked), and what is logged names the host, never the password.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../contract/errors";
import { parseConfig } from "../config";
import { createRateLimiter } from "../platform/rate-limit";
import { createFixedWindowCounter } from "./fixed-window";
import { openRedis } from "./redis";
import { createConcurrencySlots } from "./slots";
import type { SharedState } from ".";

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("Redis down", () => {
  const logged: string[] = [];
  let shared: SharedState;
  beforeAll(async () => {
    const redis = openRedis(`redis://:s3cret-pa55@127.0.0.1:${await closedPort()}`, "test:", (line) => logged.push(line));
    shared = { kind: "redis", redis, close: () => redis.close() };
  });
  afterAll(() => shared.close());

  it("refuses a rate-limited request with 503 SERVICE_UNAVAILABLE and Retry-After", async () => {
    const limiter = createRateLimiter(10, createFixedWindowCounter(shared, "down", 60_000));
    const error = await limiter.consume("token").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE", headers: { "retry-after": "1" } });
    expect((error as ApiError).toBody()).toMatchObject({ status: "ERROR", code: "SERVICE_UNAVAILABLE" });
  });

  it("gives no concurrency place", async () => {
    const slots = createConcurrencySlots(shared, "down", { perKey: 1, perGroup: 1 });
    await expect(slots.tryOccupy("client", "customer")).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  });

  it("logs the host and port, never the password", () => {
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join("\n")).toContain("127.0.0.1:");
    expect(logged.join("\n")).not.toContain("s3cret-pa55");
  });
});

const env = (variables: Record<string, string>) => variables as unknown as NodeJS.ProcessEnv;

describe("REDIS_URL", () => {
  it("accepts redis:// and rediss://, refuses other schemes without echoing the value", () => {
    expect(parseConfig(env({ REDIS_URL: "rediss://:pw@cache.internal:6380/2" })).REDIS_URL).toBe("rediss://:pw@cache.internal:6380/2");
    expect(parseConfig(env({ REDIS_URL: "" })).REDIS_URL).toBeUndefined();
    expect(() => parseConfig(env({ REDIS_URL: "http://user:hunter2@cache:6379" }))).toThrow(/REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => parseConfig(env({ REDIS_URL: "http://user:hunter2@cache:6379" }))).not.toThrow(/hunter2/);
  });
});
