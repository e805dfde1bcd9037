/**
 * The HTTP executor (`@clickhouse/client`) against ClickHouse's HTTP interface, served by
 * `npm run clickhouse:dev` (chdb) started by the test: the store seeds a customer database through
 * it (Parquet through `input()`), answers queries as the DuckDB store does, and keeps the spec's
 * errors (time limit, row limit, a fault of the query), which arrive as ClickHouse's codes. The
 * endpoint itself: `/ping`, parameters, settings, INSERT formats, gzip, and errors with
 * `X-ClickHouse-Exception-Code`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { createClient, type ClickHouseClient } from "@clickhouse/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PLANTS } from "../../demo/catalog";
import { openDuckDbTelemetryStore, type DuckDbTelemetryStore } from "../duckdb/store";
import { tableRows, type TelemetryQuery } from "../store";
import { clickhouseErrorCode, OutputTooLarge } from "./executor";
import { httpExecutor } from "./http-executor";
import { encodedNullableString, encodedString, RowBinaryWriter } from "./rowbinary";
import { openClickHouseTelemetryStore, type ClickHouseTelemetryStore } from "./store";
import { startClickHouseDev, type ClickHouseDev } from "./testing/clickhouse-dev";
import { demoTelemetrySeed } from "../demo-data";

const NOW = new Date("2026-03-02T00:00:00Z");
const customers = [{ id: "CUST-NORDIC", plants: DEMO_PLANTS.filter((p) => p.customerId === "CUST-NORDIC") }];
const seed = demoTelemetrySeed({ seed: "http-executor-test", days: 1, now: NOW });
const LIMITS = { maxRows: 500_000, maxBytes: 64 * 1024 * 1024, timeoutMs: 60_000 };
let endpoint: ClickHouseDev;
let client: ClickHouseClient;
let clickhouse: ClickHouseTelemetryStore;
let duckdb: DuckDbTelemetryStore;
let dir: string;

const request = (kql: string, extra: Partial<TelemetryQuery> = {}): TelemetryQuery => ({
  customerId: "CUST-NORDIC",
  kql,
  scope: { start: new Date(NOW.getTime() - 86_400_000), end: NOW, plantIds: null },
  limits: LIMITS,
  now: NOW,
  ...extra,
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "http-executor-"));
  endpoint = await startClickHouseDev();
  client = createClient({ url: endpoint.url, username: "default", password: "" });
  [clickhouse, duckdb] = await Promise.all([
    openClickHouseTelemetryStore({ executor: httpExecutor({ url: endpoint.url, username: "default", password: "" }), databasePrefix: "httptest_", customers, seed, maxQueryMemoryBytes: 64 * 1024 * 1024 }),
    openDuckDbTelemetryStore({ dataDir: dir, customers, seed }),
  ]);
}, 180_000);

afterAll(async () => {
  await client?.close();
  await clickhouse?.close();
  await duckdb?.close();
  await endpoint?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the ClickHouse store over HTTP (clickhouse:dev)", () => {
  it("seeds the customer database through the endpoint and answers like the DuckDB store", async () => {
    for (const kql of [
      "States | count",
      "Events | count",
      'States | where Name == "Temperature" | summarize avg(todouble(Value)) by bin(Timestamp, 6h), PlantId | order by Timestamp asc, PlantId asc',
      "States | top 3 by todouble(Value) desc, Timestamp asc, DeviceId asc | project DeviceId, Name, Timestamp, Value, DataMetadata",
    ]) {
      const [a, b] = await Promise.all([clickhouse.query(request(kql)), duckdb.query(request(kql))]);
      expect(a.columns, kql).toEqual(b.columns);
      const round = (v: unknown): unknown => (typeof v === "number" ? Number(v.toPrecision(12)) : Array.isArray(v) ? v.map(round) : v);
      expect(round(tableRows(a)), kql).toEqual(round(tableRows(b)));
    }
    expect(await clickhouse.dataPointNames("CUST-NORDIC")).toEqual(await duckdb.dataPointNames("CUST-NORDIC"));
  });

  it("carries string literals with backslashes, quotes, tabs and newlines, and nulls, as a ClickHouse server reads them", async () => {
    // @clickhouse/client escapes every parameter (clickhouse-js issue 249); a server unescapes them.
    const kql = String.raw`print a = extract(@"\d+", 0, "ab123"), b = @'C:\Folder', c = strcat("it's", "\t|\n|\\"), d = strlen("\t"), n = tostring(dynamic(null)), r = real(null)`;
    const [a, b] = await Promise.all([clickhouse.query(request(kql)), duckdb.query(request(kql))]);
    expect(tableRows(b)).toEqual([["123", "C:\\Folder", "it's\t|\n|\\", 1, "", null]]);
    expect(tableRows(a)).toEqual(tableRows(b));
  });

  it("keeps the spec's errors: row limit, time limit, a fault found while evaluating", async () => {
    await expect(clickhouse.query(request("States | take 11", { limits: { ...LIMITS, maxRows: 10 } }))).rejects.toMatchObject({ code: "QUERY_LIMIT_EXCEEDED" });
    const slow = "range a from 1 to 1000000 step 1 | extend k = 1 | join kind=inner (range b from 1 to 1000000 step 1 | extend k = 1) on k | count";
    await expect(clickhouse.query(request(slow, { limits: { ...LIMITS, timeoutMs: 1_000 } }))).rejects.toMatchObject({ code: "QUERY_TIMEOUT" });
    await expect(clickhouse.query(request("States | make-series n = count() on Timestamp step 1ms"))).rejects.toMatchObject({ code: "INVALID_QUERY" });
  }, 60_000);
});

describe("bounds of every query over HTTP", () => {
  it("stops reading an output at maxBytes and cancels it, never buffering the rest", async () => {
    const executor = httpExecutor({ url: endpoint.url, username: "default", password: "" });
    try {
      // 50 MB of output if read to the end.
      const huge = "SELECT repeat('x', 1000) FROM numbers(50000) FORMAT TabSeparatedRaw";
      await expect(executor.query(huge, {}, undefined, 1_000_000)).rejects.toBeInstanceOf(OutputTooLarge);
      // The executor goes on serving.
      expect(Buffer.from(await executor.query("SELECT 1 FORMAT TabSeparatedRaw", {}, undefined, 1_000_000)).toString()).toBe("1\n");
    } finally {
      await executor.close();
    }
  }, 60_000);

  it("carries max_memory_usage: a query that needs more is QUERY_LIMIT_EXCEEDED", async () => {
    const hungry = 'range a from 1 to 1000000 step 1 | extend s = strcat(tostring(a), strrep("-padding", 10)) | summarize n = count() by s | count';
    await expect(clickhouse.query(request(hungry))).rejects.toMatchObject({ code: "QUERY_LIMIT_EXCEEDED", message: expect.stringMatching(/more memory/) });
  }, 60_000);
});

describe("clickhouse:dev, the endpoint", () => {
  it("answers /ping, parameters, settings and the insert formats of @clickhouse/client", async () => {
    expect((await client.ping()).success).toBe(true);
    expect(await (await fetch(`${endpoint.url}/ping`)).text()).toBe("Ok.\n");
    await client.command({ query: "CREATE DATABASE IF NOT EXISTS endpoint_test" });
    await client.command({ query: "CREATE TABLE IF NOT EXISTS endpoint_test.t (k String, v Float64) ENGINE = MergeTree ORDER BY k" });
    await client.insert({ table: "endpoint_test.t", values: [{ k: "a", v: 1.5 }, { k: "b'\n", v: 2 }], format: "JSONEachRow" });
    await client.insert({ table: "endpoint_test.t", values: [["c", 3]], format: "JSONCompactEachRow" });
    const rows = await client.query({ query: "SELECT k, v FROM endpoint_test.t WHERE v >= {min:Float64} ORDER BY k", query_params: { min: 1.5 }, format: "JSONEachRow" });
    expect(await rows.json()).toEqual([{ k: "a", v: 1.5 }, { k: "b'\n", v: 2 }, { k: "c", v: 3 }]);
    // A setting applies to its statement only.
    const setting = await client.query({ query: "SELECT getSetting('max_threads') AS n", clickhouse_settings: { max_threads: 3 }, format: "JSONEachRow" });
    expect(await setting.json()).toEqual([{ n: 3 }]);
    const after = await client.query({ query: "SELECT getSetting('max_threads') AS n", format: "JSONEachRow" });
    expect(await after.json()).not.toEqual([{ n: 3 }]);
    // The database parameter, and gzip answers.
    const scoped = createClient({ url: endpoint.url, database: "endpoint_test", compression: { response: true } });
    expect(await (await scoped.query({ query: "SELECT count() AS n FROM t", format: "JSONEachRow" })).json()).toEqual([{ n: 3 }]);
    await scoped.close();
    // A gzip request body.
    const gzipped = await fetch(`${endpoint.url}/?query=${encodeURIComponent("INSERT INTO endpoint_test.t FORMAT TabSeparated")}`, { method: "POST", body: zlib.gzipSync("d\t4\n"), headers: { "Content-Encoding": "gzip" } });
    expect(gzipped.status).toBe(200);
    expect(await (await client.query({ query: "SELECT sum(v) AS s FROM endpoint_test.t", format: "JSONEachRow" })).json()).toEqual([{ s: 10.5 }]);
  });

  it("takes ingestion's RowBinary rows into named columns, and drops an insert retried with its deduplication token", async () => {
    await client.command({ query: "CREATE DATABASE IF NOT EXISTS endpoint_test" });
    await client.command({
      query: `CREATE TABLE IF NOT EXISTS endpoint_test.rb (k LowCardinality(String), t DateTime64(3, 'UTC'), v Nullable(Float64), m Nullable(String), a Nullable(DateTime64(3, 'UTC'))) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 10`,
    });
    const rows = new RowBinaryWriter(16);
    for (const [k, t, v, m] of [["Température\t'x'", Date.UTC(2026, 2, 1, 12, 0, 0, 5), 1.25, '{"Unit":"°C"}'], ["b", -1_500, null, null]] as const) {
      rows.raw(encodedString(k));
      rows.int64(t);
      rows.nullableFloat64(v);
      rows.raw(encodedNullableString(m));
      rows.nullableInt64(t + 7);
    }
    const executor = httpExecutor({ url: endpoint.url, username: "default", password: "" });
    // Columns named in another order than the table's.
    for (let i = 0; i < 2; i++) await executor.insertRowBinary("endpoint_test.rb", ["k", "t", "v", "m", "a"], rows.bytes(), { insert_deduplication_token: "rb-1" });
    await executor.close();
    const stored = await client.query({ query: "SELECT k, toFloat64(toUnixTimestamp64Milli(t)) AS t, v, m, toFloat64(toUnixTimestamp64Milli(a)) AS a FROM endpoint_test.rb ORDER BY t", format: "JSONEachRow" });
    expect(await stored.json()).toEqual([
      { k: "b", t: -1_500, v: null, m: null, a: -1_493 },
      { k: "Température\t'x'", t: Date.UTC(2026, 2, 1, 12, 0, 0, 5), v: 1.25, m: '{"Unit":"°C"}', a: Date.UTC(2026, 2, 1, 12, 0, 0, 12) },
    ]);
  });

  it("reads query parameters in ClickHouse's escaped form, as a server does", async () => {
    const text = "C:\\Folder\t'quoted'\n\\d+ é";
    const rows = await client.query({
      query: "SELECT {s:String} AS s, length({s:String}) AS n, {m:Nullable(String)} AS m, {f:Nullable(Float64)} AS f",
      query_params: { s: text, m: null, f: null },
      format: "JSONEachRow",
    });
    expect(await rows.json()).toEqual([{ s: text, n: Buffer.byteLength(text), m: null, f: null }]);
  });

  it("answers errors with ClickHouse's codes, in the header and the text the client parses", async () => {
    const failure = await client.query({ query: "SELEC 1" }).catch((error: unknown) => error);
    expect(clickhouseErrorCode(failure)).toBe(62);
    expect((failure as Error & { type?: string }).type).toBe("SYNTAX_ERROR");
    const unknown = await fetch(`${endpoint.url}/`, { method: "POST", body: "SELECT * FROM endpoint_test.nope" });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("x-clickhouse-exception-code")).toBe("60");
    expect(await unknown.text()).toMatch(/^Code: 60\. DB::Exception: .*\(UNKNOWN_TABLE\)/);
    const readonly = await fetch(`${endpoint.url}/?readonly=1`, { method: "POST", body: "DROP DATABASE endpoint_test" });
    expect([readonly.status, readonly.headers.get("x-clickhouse-exception-code")]).toEqual([403, "164"]);
    const badSetting = await fetch(`${endpoint.url}/?max%20threads=1`, { method: "POST", body: "SELECT 1" });
    expect(badSetting.headers.get("x-clickhouse-exception-code")).toBe("115");
    const thrown = await client.command({ query: "SELECT throwIf(1, 'no')" }).catch((error: unknown) => error);
    expect(clickhouseErrorCode(thrown)).toBe(395);
  });
});
