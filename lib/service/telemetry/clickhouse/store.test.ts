/**
 * The ClickHouse telemetry store on the real engine (chdb, in process, the same statements the HTTP
 * client sends): its layout, demo data equal to the DuckDB store's, the same answers for the same
 * queries, scopes, and the spec's errors for limits, time and faulty queries.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CUSTOMERS, DEMO_PLANTS } from "../../demo/catalog";
import { openDuckDbTelemetryStore, type DuckDbTelemetryStore } from "../duckdb/store";
import { tableRows, type TelemetryQuery } from "../store";
import { sharedChdb } from "@/lib/service/telemetry/testing/clickhouse.test-support";
import { openClickHouseTelemetryStore, type ClickHouseTelemetryStore } from "./store";
import { demoTelemetrySeed } from "../demo-data";

const NOW = new Date("2026-03-02T00:00:00Z");
const customers = DEMO_CUSTOMERS.map((c) => ({ id: c.id, plants: DEMO_PLANTS.filter((p) => p.customerId === c.id) }));
const seed = demoTelemetrySeed({ seed: "clickhouse-store-test", days: 1, now: NOW });
const LIMITS = { maxRows: 500_000, maxBytes: 64 * 1024 * 1024, timeoutMs: 60_000 };
/** max_memory_usage of each query: small, so that a query can be shown to reach it. */
const QUERY_MEMORY = 64 * 1024 * 1024;

let clickhouse: ClickHouseTelemetryStore;
let duckdb: DuckDbTelemetryStore;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "plantdesk-ch-store-"));
  const executor = sharedChdb();
  for (const c of customers) await executor.command(`DROP DATABASE IF EXISTS "storetest_${c.id.replace(/-/g, "_")}"`);
  [clickhouse, duckdb] = await Promise.all([
    openClickHouseTelemetryStore({ executor, databasePrefix: "storetest_", customers, seed, maxQueryMemoryBytes: QUERY_MEMORY }),
    openDuckDbTelemetryStore({ dataDir: dir, customers, seed }),
  ]);
}, 120_000);

afterAll(async () => {
  await duckdb?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const rounded = (value: unknown): unknown =>
  typeof value === "number" ? Number(value.toPrecision(12)) : Array.isArray(value) ? value.map(rounded) : value;

const request = (kql: string, extra: Partial<TelemetryQuery> = {}): TelemetryQuery => ({
  customerId: "CUST-ACME",
  kql,
  scope: { start: new Date(NOW.getTime() - 86_400_000), end: NOW, plantIds: null },
  limits: LIMITS,
  now: NOW,
  ...extra,
});

describe("layout", () => {
  it("keeps one database per customer, States ordered by plant, device, data point and time", async () => {
    const executor = sharedChdb();
    const output = Buffer.from(await executor.query(`SELECT name, sorting_key FROM system.tables WHERE database = 'storetest_CUST_ACME' ORDER BY name FORMAT JSONCompact`, {})).toString();
    const rows = (JSON.parse(output) as { data: string[][] }).data;
    expect(rows).toContainEqual(["States", "PlantId, DeviceId, Name, Timestamp"]);
    expect(rows).toContainEqual(["Events", "PlantId, DeviceId, StartTime"]);
    expect(clickhouse.database("CUST-NORDIC")).toBe("storetest_CUST_NORDIC");
  });

  it("holds the same demo data as the DuckDB store for the same seed", async () => {
    for (const kql of ["States | count", "Events | count", "States | summarize n = count(), v = round(sum(todouble(Value)), 3) by PlantId | order by PlantId asc"]) {
      const [a, b] = await Promise.all([clickhouse.query(request(kql)), duckdb.query(request(kql))]);
      expect(tableRows(a)).toEqual(tableRows(b));
      expect(a.columns).toEqual(b.columns);
    }
    const [a, b] = await Promise.all([clickhouse.dataPointNames("CUST-ACME"), duckdb.dataPointNames("CUST-ACME")]);
    expect(a).toEqual(b);
  });
});

describe("queries", () => {
  const queries = [
    'States | where Name == "Temperature" | summarize avg(todouble(Value)) by bin(Timestamp, 1h), DeviceId | order by Timestamp asc, DeviceId asc',
    "States | top 5 by todouble(Value) desc, Timestamp asc, DeviceId asc | project DeviceId, Name, Timestamp, Value, DataMetadata",
    "Events | summarize n = count() by Severity, tostring(DataMetadata.Area) | order by n desc, Severity asc, DataMetadata_Area asc",
    'States | where DeviceId startswith "RTM" | make-series v = avg(todouble(Value)) default = 0 on Timestamp step 6h by Name | order by Name asc',
  ];
  for (const kql of queries) {
    it(`answers like the DuckDB store: ${kql}`, async () => {
      const [a, b] = await Promise.all([clickhouse.query(request(kql)), duckdb.query(request(kql))]);
      expect(a.columns).toEqual(b.columns);
      expect(a.rowCount).toBe(b.rowCount);
      // Sums of reals may differ in the last bits (the engines add in different orders).
      expect(rounded(tableRows(a))).toEqual(rounded(tableRows(b)));
    });
  }

  it("sees only the scope's plants and time range", async () => {
    const result = await clickhouse.query(request("States | summarize min(Timestamp), max(Timestamp) by PlantId", { scope: { start: new Date(NOW.getTime() - 3_600_000), end: NOW, plantIds: ["HOU1"] } }));
    const rows = tableRows(result) as [string, string, string][];
    expect(rows.map((r) => r[0])).toEqual(["HOU1"]);
    expect(Date.parse(rows[0]![1])).toBeGreaterThanOrEqual(NOW.getTime() - 3_600_000);
    expect(Date.parse(rows[0]![2])).toBeLessThan(NOW.getTime());
  });

  it("refuses a customer it does not hold", async () => {
    await expect(clickhouse.query(request("States | count", { customerId: "CUST-NOBODY" }))).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("errors", () => {
  it("answers QUERY_LIMIT_EXCEEDED past the row limit, never a shortened result", async () => {
    await expect(clickhouse.query(request("States | take 11", { limits: { ...LIMITS, maxRows: 10 } }))).rejects.toMatchObject({ code: "QUERY_LIMIT_EXCEEDED" });
    expect((await clickhouse.query(request("States | take 10", { limits: { ...LIMITS, maxRows: 10 } }))).rowCount).toBe(10);
  });

  it("answers QUERY_LIMIT_EXCEEDED past the byte limit", async () => {
    await expect(clickhouse.query(request("States | take 1000", { limits: { ...LIMITS, maxBytes: 10_000 } }))).rejects.toMatchObject({ code: "QUERY_LIMIT_EXCEEDED" });
  });

  it("answers QUERY_LIMIT_EXCEEDED when a query needs more memory than max_memory_usage", async () => {
    // A million distinct 80-character keys, grouped: well over 64 MB of hash table.
    const hungry = 'range a from 1 to 1000000 step 1 | extend s = strcat(tostring(a), strrep("-padding", 10)) | summarize n = count() by s | count';
    await expect(clickhouse.query(request(hungry))).rejects.toMatchObject({ code: "QUERY_LIMIT_EXCEEDED", message: expect.stringMatching(/more memory/) });
  }, 60_000);

  it("answers QUERY_TIMEOUT when the time limit stops the query", async () => {
    const slow = "range a from 1 to 1000000 step 1 | extend k = 1 | join kind=inner (range b from 1 to 1000000 step 1 | extend k = 1) on k | count";
    await expect(clickhouse.query(request(slow, { limits: { ...LIMITS, timeoutMs: 1_000 } }))).rejects.toMatchObject({ code: "QUERY_TIMEOUT" });
  }, 30_000);

  it("answers INVALID_QUERY for a fault found while evaluating", async () => {
    // The bounds come from the data, so the point count is only known while the query runs.
    const tooMany = "States | make-series n = count() on Timestamp step 1ms";
    await expect(clickhouse.query(request(tooMany))).rejects.toMatchObject({ code: "INVALID_QUERY" });
  });
});

describe("TELEMETRY_URL", () => {
  it("names the server, credentials and database prefix; unset keeps the embedded DuckDB store", async () => {
    const { parseConfig, parseTelemetryUrl } = await import("@/lib/config");
    expect(parseTelemetryUrl("clickhouse://reader:s%40cret@ch.internal:9000/?database_prefix=pd_")).toEqual({ url: "http://ch.internal:9000", username: "reader", password: "s@cret", databasePrefix: "pd_" });
    expect(parseTelemetryUrl("clickhouses://ch.example")).toEqual({ url: "https://ch.example:8443", username: "default", password: "", databasePrefix: "plantdesk_" });
    expect(parseConfig({ DATA_DIR: dir } as unknown as NodeJS.ProcessEnv).telemetryClickHouse).toBeNull();
    expect(() => parseConfig({ DATA_DIR: dir, TELEMETRY_URL: "http://ch:8123" } as unknown as NodeJS.ProcessEnv)).toThrow(/TELEMETRY_URL/);
  });
});
