/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are read freely in assertions */
/**
 * The telemetry query's time limit and cost throttle over real HTTP, on a runtime configured with
 * a short timeout and a small budget (its own DATA_DIR, one day of demo telemetry).
 */
import { describe, expect, it } from "vitest";
import { suiteService, type ApiResponse } from "../testing/openapi-checked-client";
import { issueToken, queryRecent } from "../testing/telemetry-client";

// Enough for the timed-out query (2 s of engine time at 100 ms a unit) to end by its time limit.
const BUDGET = 40;

// A limit that `States | take 1` never reaches even on a loaded machine, and a self-join that
// always does (billions of row pairs).
const service = suiteService("telemetry-limits", { TELEMETRY_QUERY_TIMEOUT_MS: "2000", TELEMETRY_COST_BUDGET_PER_MINUTE: String(BUDGET) });
const tokenFor = (customerId: string) => issueToken(service().runtime, customerId);
const query = (token: string, text: string) => queryRecent(service(), token, text);

function cost(res: ApiResponse): { consumed: number; remaining: number; budget: number; reset: number } {
  const header = res.headers.get("x-query-cost") ?? "";
  return Object.fromEntries(header.split(";").map((part) => part.trim().split("=")).map(([k, v]) => [k, Number(v)])) as any;
}

describe("time limit", () => {
  it("interrupts a query that runs too long (400 QUERY_TIMEOUT) and keeps serving", async () => {
    const token = await tokenFor("CUST-ACME");
    const res = await query(
      token,
      "States | join kind=inner (States) on DeviceId | summarize count()",
    );
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe("QUERY_TIMEOUT");
    expect(cost(res).consumed).toBeGreaterThanOrEqual(2);
    const next = await query(await tokenFor("CUST-ACME"), "States | take 1");
    expect(next.status).toBe(200);
  });
});

describe("cost throttle", () => {
  it("charges each query, reports what is left, and answers 429 with Retry-After when the budget is spent", async () => {
    const token = await tokenFor("CUST-NORDIC");
    let spent = 0;
    let last: ApiResponse | undefined;
    for (let i = 0; i < BUDGET + 1; i++) {
      last = await query(token, "States | take 1");
      if (last.status !== 200) break;
      const c = cost(last);
      expect(c.consumed).toBeGreaterThanOrEqual(1);
      spent += c.consumed;
      expect(c).toMatchObject({ remaining: Math.max(0, BUDGET - spent), budget: BUDGET });
    }
    expect(last!.status).toBe(429);
    expect(last!.body.code).toBe("RATE_LIMITED");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Refused at the door once nothing is left: nothing consumed.
    const refused = await query(token, "States | take 1");
    expect(refused.status).toBe(429);
    expect(cost(refused)).toMatchObject({ consumed: 0, remaining: 0 });
    // The budget is per client: another client of the same customer is not affected.
    expect((await query(await tokenFor("CUST-NORDIC"), "States | take 1")).status).toBe(200);
  });
});
