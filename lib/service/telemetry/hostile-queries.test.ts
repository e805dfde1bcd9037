/**
 * Issue 19's hostile queries over real HTTP on the telemetry endpoint (the service as `npm start`
 * starts it, demo data): each is answered 400 with a clear message or a complete 200, the server's
 * memory does not balloon, and the compile work a query caused is charged to the cost budget.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCheckedService, type CheckedService } from "../testing/openapi-checked-client";

const TOKEN = "/oauth2/v2.0/token";
const QUERY = "/insights/v1/telemetry/query/table";

let service: CheckedService | undefined;
let token: string;

beforeAll(async () => {
  service = await startCheckedService("hostile-queries", (url) => ({ TELEMETRY_COST_BUDGET_PER_MINUTE: "1000", OAUTH_ISSUER: url }));
  const created = await service.runtime.telemetry.clients.create("CUST-ACME");
  const res = await service.client.call("POST", TOKEN, {
    rawBody: new URLSearchParams({ grant_type: "client_credentials", client_id: created.client_id, client_secret: created.client_secret, scope: "api://plant-telemetry/.default" }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  token = res.body.access_token;
}, 180_000);

afterAll(() => service?.close());

function query(text: string) {
  const end = Date.now();
  return service!.client.call("POST", QUERY, { token, body: { query: text, startTime: new Date(end - 86_400_000).toISOString(), endTime: new Date(end).toISOString() } });
}

const doubling = ["let a0 = 1;", ...Array.from({ length: 24 }, (_, i) => `let a${i + 1} = a${i} + a${i};`), "print x = a24"].join(" ");
const nestedCalls = `let f = (x:long){ x + x }; print ${"f(".repeat(100)}1${")".repeat(100)}`;
const nestedCalls17 = `let f = (x:long){ x + x }; print ${"f(".repeat(17)}1${")".repeat(17)}`;
const strrep3 = `print s = strlen(strrep(strrep(strrep("abcdefghij", 1024), 1024), 60))`;
const fill = "print n = array_length(series_fill_linear(repeat(dynamic(null), 100000)))";

describe("the hostile queries of issue 19", () => {
  const rssBefore = () => process.memoryUsage().rss;
  let start = 0;
  beforeAll(() => {
    start = rssBefore();
  });

  it("a 24-step let doubling chain: 400 at the line that passes the expansion limit", async () => {
    const res = await query(doubling);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe("INVALID_QUERY");
    expect(res.body.message).toMatch(/expands to 65,535 terms .* at most 50,000 are allowed \(line 1, column \d+\)/);
  });

  it("100 nested function calls: 400 (nesting), and 17 levels: 400 (expansion)", async () => {
    const deep = await query(nestedCalls);
    expect(deep.status).toBe(400);
    expect(deep.body.message).toMatch(/nested deeper than 100 levels/);
    const wide = await query(nestedCalls17);
    expect(wide.status).toBe(400);
    expect(wide.body.message).toMatch(/expands to .* terms/);
  });

  it("strrep nested three deep: 400 naming strrep and the limit, nothing built", async () => {
    // Old main: 200 after building a 629 MB string (the server's RSS went from 0.58 to 1.83 GB).
    const res = await query(strrep3);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^strrep would build a string of 10,485,760 bytes; the limit is 1,048,576/);
  });

  it("series_fill_linear of 100,000 elements: a complete 200", async () => {
    // Old main: quadratic (10,000 elements took 9.5 s and 677 MB).
    const res = await query(fill);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.rows).toEqual([[100000]]);
  });

  it("left the server's memory within 256 MB of where it started", () => {
    expect(process.memoryUsage().rss - start).toBeLessThan(256 * 1024 * 1024);
  });
});

describe("compile work is charged to the cost budget", () => {
  it("a query refused at the compile work limit costs its work's units, not just 1", async () => {
    // f30(1) re-analyses f0's body 2^30 times: refused at 100,000 units, charged 1 + 10.
    const chain = ["let f0 = (x:long){ x };", ...Array.from({ length: 30 }, (_, i) => `let f${i + 1} = (x:long){ f${i}(f${i}(x)) };`), "print x = f30(1)"].join(" ");
    const res = await query(chain);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/more than 100,000 steps/);
    const consumed = Number(/consumed=(\d+)/.exec(res.headers.get("x-query-cost") ?? "")?.[1]);
    expect(consumed).toBeGreaterThanOrEqual(11);
    const cheap = await query("print x = 1");
    expect(Number(/consumed=(\d+)/.exec(cheap.headers.get("x-query-cost") ?? "")?.[1])).toBeLessThan(5);
  });
});
