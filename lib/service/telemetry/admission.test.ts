/**
 * Admission control of telemetry queries over real HTTP on real DuckDB files (one day of demo
 * telemetry): a cap on queries running at once per client and per customer with a short queue
 * (then 429 + Retry-After), cost reserved before a query runs so parallel queries cannot overrun
 * the budget together, and DuckDB opened without file access and with a memory limit.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { suiteService, type ApiResponse, type CheckedService } from "../testing/openapi-checked-client";
import { issueToken, queryRecent } from "../testing/telemetry-client";
import { embeddedDuckDb, TELEMETRY_LIMITS } from "../telemetry-service";

const BUDGET = 30;
/** One to two seconds of DuckDB work on one day of data (a sort of 600,000 strings): many cost units. */
const HEAVY = "States | extend m = tostring(MessageMetadata) | order by m asc, Timestamp desc | take 200000 | count";

/** Waits until the condition holds (the queries' progress is observed, not timed). */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const tokenFor = (h: CheckedService, customerId: string) => issueToken(h.runtime, customerId);
const query = queryRecent;

/** `n` heavy queries at once from one new client of CUST-ACME. */
async function heavyAtOnce(h: CheckedService, n: number): Promise<{ token: string; answers: ApiResponse[] }> {
  const token = await tokenFor(h, "CUST-ACME");
  return { token, answers: await Promise.all(Array.from({ length: n }, () => query(h, token, HEAVY))) };
}

function consumed(res: ApiResponse): number {
  return Number(/consumed=(\d+)/.exec(res.headers.get("x-query-cost") ?? "")?.[1] ?? NaN);
}

describe("queries running at once", () => {
  const h = suiteService("admission", {
    TELEMETRY_COST_BUDGET_PER_MINUTE: "100000",
    TELEMETRY_MAX_CONCURRENT_PER_CLIENT: "1",
    TELEMETRY_MAX_CONCURRENT_PER_CUSTOMER: "2",
    TELEMETRY_QUEUE_PER_CLIENT: "1",
    TELEMETRY_QUEUE_WAIT_MS: "60000",
  });

  it("runs one per client, queues one, and refuses the rest at once with 429 and Retry-After", async () => {
    const { answers } = await heavyAtOnce(h(), 5);
    const refused = answers.filter((res) => res.status === 429);
    expect(answers.filter((res) => res.status === 200)).toHaveLength(2);
    expect(refused).toHaveLength(3);
    for (const res of refused) {
      expect(res.body.code).toBe("RATE_LIMITED");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(consumed(res)).toBe(0);
    }
  });

  it("caps a customer's queries across its clients, and leaves other customers alone", async () => {
    const [a, b, c] = await Promise.all([tokenFor(h(), "CUST-ACME"), tokenFor(h(), "CUST-ACME"), tokenFor(h(), "CUST-ACME")]);
    const nordic = await tokenFor(h(), "CUST-NORDIC");
    const running = [query(h(), a, HEAVY), query(h(), b, HEAVY)];
    await until(() => h().runtime.telemetry.load().running === 2, "two running queries");
    // A third client of the same customer has a place of its own, but the customer has none left.
    const third = query(h(), c, "States | take 1");
    await until(() => h().runtime.telemetry.load().waiting === 1, "the third query to wait");
    expect(h().runtime.telemetry.load().running).toBe(2);
    // Another customer's query is not held up by ACME's.
    expect((await query(h(), nordic, "States | take 1")).status).toBe(200);
    expect(h().runtime.telemetry.load().waiting).toBe(1);
    const answers = await Promise.all([...running, third]);
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
  });
});

describe("cost reserved before a query runs", () => {
  const h = suiteService("admission", {
    TELEMETRY_COST_BUDGET_PER_MINUTE: String(BUDGET),
    TELEMETRY_MAX_CONCURRENT_PER_CLIENT: "12",
    TELEMETRY_MAX_CONCURRENT_PER_CUSTOMER: "12",
    TELEMETRY_QUEUE_PER_CLIENT: "0",
  });

  it("keeps parallel queries of one client within the budget together", async () => {
    const { token, answers } = await heavyAtOnce(h(), 12);
    const charged = answers.reduce((sum, res) => sum + consumed(res), 0);
    // Twelve heavy queries at once would cost far more than the budget; what was charged fits it.
    expect(charged).toBeLessThanOrEqual(BUDGET);
    expect(charged).toBeGreaterThan(BUDGET / 2);
    for (const res of answers) {
      if (res.status === 200) expect(res.body.data.rows).toHaveLength(1);
      else {
        expect(res.status).toBe(429);
        expect(res.body.code).toBe("RATE_LIMITED");
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
    }
    expect(answers.some((res) => res.status === 429)).toBe(true);
    // Spent: the next query is refused at the door.
    const next = await query(h(), token, "States | take 1");
    expect(next.status).toBe(429);
    expect(consumed(next)).toBe(0);
  });
});

describe("the engine's settings", () => {
  const h = suiteService("admission", { TELEMETRY_DUCKDB_MEMORY_LIMIT: "48MB", TELEMETRY_DUCKDB_THREADS: "1" });

  const limits = { ...TELEMETRY_LIMITS, timeoutMs: 60_000 };
  const run = (sql: string) => embeddedDuckDb(h().runtime.telemetry).execute("CUST-ACME", { sql, params: {}, columns: [{ name: "x", kqlType: "string" }] }, { limits });

  it("opens DuckDB without file access, with the configured memory limit and threads, locked", async () => {
    const settings = await run(
      "SELECT current_setting('enable_external_access')::VARCHAR || ' ' || current_setting('memory_limit') || ' ' || current_setting('threads')::VARCHAR || ' ' || current_setting('lock_configuration')::VARCHAR",
    );
    expect(JSON.parse(Buffer.concat(settings.rows).toString())).toEqual([["false 45.7 MiB 1 true"]]);
    await expect(run("SELECT content FROM read_text('/etc/hostname')")).rejects.toThrow(/disabled by configuration/);
  });

  it("answers QUERY_LIMIT_EXCEEDED, not 500, when a query needs more memory than the limit", async () => {
    const token = await tokenFor(h(), "CUST-ACME");
    // A tiny answer from a large aggregation: the lists of every reading's metadata, measured.
    const res = await query(
      h(),
      token,
      "States | extend m = tostring(MessageMetadata), d = tostring(DataMetadata) | summarize l = make_list(m), k = make_list(d) by PlantId | project n = strlen(tostring(l)) + strlen(tostring(k))",
    );
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
    expect(res.body.code).toBe("QUERY_LIMIT_EXCEEDED");
    expect((await query(h(), token, "States | take 1")).status).toBe(200);
  });

  it("creates the DuckDB files readable by their owner only", () => {
    for (const customerId of ["CUST-ACME", "CUST-NORDIC"]) {
      expect(fs.statSync(path.join(h().dataDir, `telemetry-${customerId}.duckdb`)).mode & 0o777).toBe(0o600);
    }
  });
});
