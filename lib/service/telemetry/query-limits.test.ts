/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are read freely in assertions */
/**
 * The telemetry query's time limit and cost throttle over real HTTP, on a runtime configured with
 * a short timeout and a small budget (its own DATA_DIR, one day of demo telemetry).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceRuntime, type ServiceRuntime } from "../runtime";
import { createCheckedClient, startHttpServer, testConfig, type ApiResponse } from "../testing/openapi-checked-client";

const QUERY = "/insights/v1/telemetry/query/table";
const BUDGET = 6;

let dataDir: string;
let runtime: ServiceRuntime;
let server: Awaited<ReturnType<typeof startHttpServer>>;
let client: Awaited<ReturnType<typeof createCheckedClient>>;

async function tokenFor(customerId: string): Promise<string> {
  const created = runtime.telemetry.clients.create(customerId);
  return runtime.telemetry.tokens.issue({ clientId: created.client_id, customerId }, { issuer: server.url });
}

function query(token: string, text: string): Promise<ApiResponse> {
  const end = new Date(Date.now() + 60_000);
  return client.call("POST", QUERY, {
    token,
    body: { query: text, startTime: new Date(end.getTime() - 2 * 86_400_000).toISOString(), endTime: end.toISOString() },
  });
}

function cost(res: ApiResponse): { consumed: number; remaining: number; budget: number; reset: number } {
  const header = res.headers.get("x-query-cost") ?? "";
  return Object.fromEntries(header.split(";").map((part) => part.trim().split("=")).map(([k, v]) => [k, Number(v)])) as any;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-telemetry-limits-"));
  runtime = await createServiceRuntime(
    testConfig({ DATA_DIR: dataDir, TELEMETRY_QUERY_TIMEOUT_MS: "150", TELEMETRY_COST_BUDGET_PER_MINUTE: String(BUDGET) }),
  );
  server = await startHttpServer(runtime);
  client = await createCheckedClient(server.url);
}, 180_000);

afterAll(async () => {
  await server?.close();
  await runtime?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("time limit", () => {
  it("interrupts a query that runs too long (400 QUERY_TIMEOUT) and keeps serving", async () => {
    const token = await tokenFor("CUST-ACME");
    const started = Date.now();
    const res = await query(
      token,
      "States | extend k = tostring(DataMetadata), m = tostring(MessageMetadata) | summarize dcount(k), make_list(m) by bin(Timestamp, 1m), DeviceId",
    );
    const elapsed = Date.now() - started;
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe("QUERY_TIMEOUT");
    // Interrupted, not waited for: the same work takes seconds when it may finish.
    expect(elapsed).toBeLessThan(3000);
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
    expect(cost(last!)).toMatchObject({ consumed: 0, remaining: 0 });
    // The budget is per client: another client of the same customer is not affected.
    expect((await query(await tokenFor("CUST-NORDIC"), "States | take 1")).status).toBe(200);
  });
});
