/**
 * The service with REDIS_URL, over real HTTP: the per-token request limit and the telemetry budget
 * are kept in Redis (under the deployment's key prefix), and with Redis configured but down every
 * request that needs them is refused with 503 SERVICE_UNAVAILABLE and the spec's error body — never
 * served unchecked. One DATA_DIR (one day of demo telemetry) serves both runtimes, one after the other.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { describeWithService } from "../testing/with-service";
import { createServiceRuntime, type ServiceRuntime } from "./runtime";
import { createCheckedClient, startHttpServer, testConfig } from "./testing/openapi-checked-client";

const QUERY = "/insights/v1/telemetry/query/table";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-shared-state-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function serve(variables: Record<string, string>) {
  const runtime = await createServiceRuntime(testConfig({ DATA_DIR: dataDir, ...variables }));
  const server = await startHttpServer(runtime);
  return { runtime, server, client: await createCheckedClient(server.url) };
}

async function telemetryToken(runtime: ServiceRuntime): Promise<string> {
  const created = await runtime.telemetry.clients.create("CUST-ACME");
  return runtime.telemetry.tokens.issue({ clientId: created.client_id, customerId: "CUST-ACME" });
}

const queryBody = { query: "States | take 1", startTime: "2026-01-01T00:00:00.000Z", endTime: "2026-01-02T00:00:00.000Z" };

describeWithService("redis", "service with REDIS_URL", (redis) => {
  const prefix = `test-${randomBytes(6).toString("hex")}:`;
  let s: Awaited<ReturnType<typeof serve>>;
  const inspect = new Redis(redis.url);
  beforeAll(async () => {
    s = await serve({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix, MAINTENANCE_RATE_LIMIT_PER_MINUTE: "3" });
  }, 180_000);
  afterAll(async () => {
    await s?.server.close();
    await s?.runtime.close();
    const keys = await inspect.keys(`${prefix}*`);
    if (keys.length > 0) await inspect.del(...keys);
    await inspect.quit();
  });

  it("counts a token's requests in Redis and answers 429 past the limit", async () => {
    const issued = await s.runtime.plantTokens.issue("RTM1");
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await s.client.call("GET", "/maintenance/v1/plants/RTM1/assets", { token: issued.token })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(await inspect.hget(`${prefix}window:maintenance-requests:${issued.id}`, "u")).toBe("3");
  });

  it("reserves telemetry cost in Redis", async () => {
    const token = await telemetryToken(s.runtime);
    const res = await s.client.call("POST", QUERY, { token, body: queryBody });
    expect(res.status).toBe(200);
    expect(await inspect.keys(`${prefix}window:telemetry-cost:*`)).toHaveLength(1);
  });
});

describe("service with REDIS_URL, Redis down", () => {
  let s: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    s = await serve({ REDIS_URL: `redis://:a-redis-password@127.0.0.1:${port}` });
  }, 180_000);
  afterAll(async () => {
    await s?.server.close();
    await s?.runtime.close();
  });

  it("refuses maintenance requests with 503 SERVICE_UNAVAILABLE and Retry-After", async () => {
    const { token } = await s.runtime.plantTokens.issue("RTM1");
    const res = await s.client.call("GET", "/maintenance/v1/plants/RTM1/assets", { token });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: "ERROR", code: "SERVICE_UNAVAILABLE", data: [] });
    expect(res.headers.get("retry-after")).toBe("1");
    expect(JSON.stringify(res.body)).not.toContain("a-redis-password");
  });

  it("refuses telemetry queries with 503 SERVICE_UNAVAILABLE", async () => {
    const res = await s.client.call("POST", QUERY, { token: await telemetryToken(s.runtime), body: queryBody });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("SERVICE_UNAVAILABLE");
  });

  it("still refuses a bad token with 401 first (the check order is unchanged)", async () => {
    const res = await s.client.call("GET", "/maintenance/v1/plants/RTM1/assets", { token: "pdm_not-a-token" });
    expect(res.status).toBe(401);
  });
});
