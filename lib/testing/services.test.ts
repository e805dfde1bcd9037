/**
 * One real round trip per external service, through the drivers the scale-out and live-plant work
 * use: proof that `describeWithService` runs a suite against a live service (and, run with the
 * services pointed at a closed port, the fixture of with-service.test.ts).
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import mqtt from "mqtt";
import pg from "pg";
import { expect, it } from "vitest";
import { describeWithService } from "./with-service";

describeWithService("postgres", "PostgreSQL round trip", (service) => {
  it("answers a parameterised SELECT", async () => {
    const client = new pg.Client({ connectionString: service.url, connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      const result = await client.query<{ answer: number }>("SELECT $1::int + 1 AS answer", [41]);
      expect(result.rows).toEqual([{ answer: 42 }]);
    } finally {
      await client.end();
    }
  });
});

describeWithService("redis", "Redis round trip", (service) => {
  it("answers PING and keeps a value until it is deleted", async () => {
    const redis = new Redis(service.url, { lazyConnect: true, connectTimeout: 5_000, maxRetriesPerRequest: 1 });
    await redis.connect();
    const key = `plantdesk:test:${randomUUID()}`;
    try {
      expect(await redis.ping()).toBe("PONG");
      await redis.set(key, "pump-17", "EX", 60);
      expect(await redis.get(key)).toBe("pump-17");
      expect(await redis.del(key)).toBe(1);
      expect(await redis.get(key)).toBeNull();
    } finally {
      await redis.quit();
    }
  });
});

describeWithService("mqtt", "MQTT round trip", (service) => {
  it("delivers a published message to a subscriber", async () => {
    const client = await mqtt.connectAsync(service.url, { connectTimeout: 5_000, reconnectPeriod: 0 });
    const topic = `plantdesk/test/${randomUUID()}`;
    try {
      const received = new Promise<string>((resolve) => {
        client.on("message", (from, payload) => {
          if (from === topic) resolve(payload.toString("utf8"));
        });
      });
      await client.subscribeAsync(topic, { qos: 1 });
      await client.publishAsync(topic, JSON.stringify({ asset: "P-101", value: 71.5 }), { qos: 1 });
      expect(JSON.parse(await received)).toEqual({ asset: "P-101", value: 71.5 });
    } finally {
      await client.endAsync();
    }
  });
});
