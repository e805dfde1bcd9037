/**
 * Runs one test suite against every place shared state can live: memory, and Redis (when it
 * answers; skipped with a reason otherwise, a failure with PLANTDESK_REQUIRE_SERVICES=1). Each Redis
 * suite uses a key prefix of its own, so parallel runs never see each other's keys. `connect()` opens
 * another connection to the same state — what a second instance of the server would hold — so a test
 * can show that two instances share a limit (memory: the same process's state).
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe } from "vitest";
import { describeWithService } from "../testing/with-service";
import { openSharedState, type SharedState } from ".";

export interface Backend {
  kind: SharedState["kind"];
  /** A new handle on the suite's shared state (closed after the suite). */
  connect(): SharedState;
}

export function describeSharedState(name: string, suite: (backend: Backend) => void): void {
  describe(`${name} (memory)`, () => {
    const state = openSharedState({ REDIS_URL: undefined, REDIS_KEY_PREFIX: "test:" });
    suite({ kind: "memory", connect: () => state });
  });
  describeWithService("redis", `${name} (redis)`, (service) => {
    const prefix = `test-${randomBytes(6).toString("hex")}:`;
    const opened: SharedState[] = [];
    afterAll(async () => {
      const [first] = opened;
      if (first?.kind === "redis") {
        const keys = await first.redis.client.keys(`${prefix}*`);
        if (keys.length > 0) await first.redis.client.del(...keys);
      }
      await Promise.all(opened.map((state) => state.close()));
    });
    suite({
      kind: "redis",
      connect() {
        const state = openSharedState({ REDIS_URL: service.url, REDIS_KEY_PREFIX: prefix });
        opened.push(state);
        return state;
      },
    });
  });
}
