/**
 * A telemetry answer is complete or an error (docs/api.md §6): whenever the time limit fires —
 * while DuckDB computes or while the rows stream out — the answer is 400 QUERY_TIMEOUT, never a
 * 200 with the rows read so far; over the row or byte limit it is QUERY_LIMIT_EXCEEDED, however
 * that limit is reached. Real DuckDB files with one day of demo telemetry, over real HTTP.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/contract/errors";
import { suiteService } from "../testing/openapi-checked-client";
import { TELEMETRY_QUERY_PATH as QUERY } from "@/lib/contract/spec-paths";
import { issueToken, recentRange } from "../testing/telemetry-client";
import { TELEMETRY_LIMITS } from "../telemetry-service";

/** CUST-ACME has two plants × 42 devices × 5 data points × 1,440 minutes = 604,800 readings a day. */
const TAKE = 300_000;

const service = suiteService("complete-or-error", { TELEMETRY_QUERY_TIMEOUT_MS: "400", TELEMETRY_COST_BUDGET_PER_MINUTE: "100000" });
const tokenFor = (customerId: string) => issueToken(service().runtime, customerId);
let scope: { start: Date; end: Date; plantIds: null };

// Once the service (and its demo telemetry up to now) is there.
beforeAll(() => {
  scope = { ...recentRange(), plantIds: null };
});

/** The row count of a complete answer, or the error's code. */
async function outcome(kql: string, limits: { maxRows?: number; maxBytes?: number; timeoutMs: number }): Promise<number | string> {
  try {
    const table = await service().runtime.telemetry.store.query({
      customerId: "CUST-ACME",
      kql,
      scope,
      limits: { ...TELEMETRY_LIMITS, ...limits },
    });
    return table.rowCount;
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
}

describe("complete or an error", () => {
  it("answers QUERY_TIMEOUT, never part of the rows, whenever the time limit fires", async () => {
    // From limits that fire before the first row to limits that let the query finish: each
    // answer is all the rows or the timeout, wherever the interruption lands.
    const outcomes: (number | string)[] = [];
    for (const timeoutMs of [25, 50, 100, 200, 300, 400, 600, 800, 1200, 1600, 2400, 60_000]) {
      outcomes.push(await outcome(`States | project DeviceId, Timestamp, Value | take ${TAKE}`, { timeoutMs }));
    }
    for (const result of outcomes) expect([TAKE, "QUERY_TIMEOUT"]).toContain(result);
    // The longest limit lets it finish: the query itself is fine.
    expect(outcomes.at(-1)).toBe(TAKE);
  });

  it("answers 400 with the limit that fired (time or size) over HTTP, never part of the rows", async () => {
    // 300,000 whole rows are near both the time limit and the 64 MB cap: which fires first is a race
    // (the size is counted as rows are produced), and either must be the whole answer.
    const token = await tokenFor("CUST-ACME");
    const res = await service().client.call("POST", QUERY, {
      token,
      body: { query: `States | take ${TAKE}`, startTime: scope.start.toISOString(), endTime: scope.end.toISOString() },
    });
    if (res.status === 200) expect(res.body.data.rows).toHaveLength(TAKE);
    else {
      expect(res.status).toBe(400);
      expect(["QUERY_TIMEOUT", "QUERY_LIMIT_EXCEEDED"], JSON.stringify(res.body).slice(0, 300)).toContain(res.body.code);
      expect(res.body).not.toHaveProperty("data.rows");
    }
  });

  it("answers QUERY_LIMIT_EXCEEDED over the row or the byte limit", async () => {
    expect(await outcome("States | take 5000", { maxRows: 1000, timeoutMs: 60_000 })).toBe("QUERY_LIMIT_EXCEEDED");
    expect(await outcome("States | take 5000", { maxBytes: 20_000, timeoutMs: 60_000 })).toBe("QUERY_LIMIT_EXCEEDED");
    // Exactly at the limit is still an answer.
    expect(await outcome("States | take 1000", { maxRows: 1000, timeoutMs: 60_000 })).toBe(1000);
  });

  it("never answers 200 with a short result when heavy queries run at the same time", async () => {
    const token = await tokenFor("CUST-ACME");
    const body = { query: "States | take 600000", startTime: scope.start.toISOString(), endTime: scope.end.toISOString() };
    const answers = await Promise.all(Array.from({ length: 4 }, () => service().client.call("POST", QUERY, { token, body })));
    for (const res of answers) {
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).not.toBe(200);
      expect(["QUERY_LIMIT_EXCEEDED", "QUERY_TIMEOUT", "RATE_LIMITED"]).toContain(res.body.code);
    }
  });
});
