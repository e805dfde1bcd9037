/* eslint-disable @typescript-eslint/no-explicit-any -- SDK errors and raw frames are read freely in assertions */
/**
 * Microsoft's Kusto SDK for Node (`azure-kusto-data`, unmodified) against the service over real
 * HTTP, through the server's front door (`surfaceFor`, as scripts/serve.ts dispatches): the
 * embedded service's runtime on a temporary DATA_DIR, and in place of Next a stand-in that answers
 * as proxy.ts answers a request without a session — a 307 to the sign-in page — so that a request
 * the front door would hand to the pages fails here as it failed for Kusto users before.
 */
import http from "node:http";
import fc from "fast-check";
import type { AddressInfo } from "node:net";
import { ClientRequestProperties, Client as KustoClient, KustoConnectionStringBuilder, KustoDataErrors } from "azure-kusto-data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZKustoError, ZKustoV1Response, ZKustoV2Response } from "@/lib/contract/kusto";
import { kqlQuery } from "@/lib/kql/testing/arbitrary";
import { nodeListener } from "../../../platform/http/node-adapter";
import { surfaceFor } from "../../../platform/http/paths";
import { startCheckedService, type CheckedService } from "../../testing/openapi-checked-client";
import { TELEMETRY_QUERY_PATH } from "@/lib/contract/spec-paths";
import { issueToken } from "../../testing/telemetry-client";

let service: CheckedService;
let frontDoor: http.Server;
let url: string;
let acmeToken: string;
const BUDGET = 150;

/** The front door of scripts/serve.ts, with a stand-in for Next (see the module comment). */
function startFrontDoor(handle: CheckedService["runtime"]["handle"]): Promise<string> {
  const serviceListener = nodeListener(handle, "http://localhost");
  frontDoor = http.createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?")[0]!;
    if (surfaceFor(pathname, req.headers) === "service") return serviceListener(req, res);
    res.writeHead(307, { location: `/signin?callbackUrl=${encodeURIComponent(pathname)}` });
    res.end();
  });
  return new Promise((resolve) => frontDoor.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(frontDoor.address() as AddressInfo).port}`)));
}

const clientFor = (token: string) => new KustoClient(KustoConnectionStringBuilder.withAccessToken(url, token));

/** What the SDK threw: its HTTP status and ADX's error body, if any. */
async function failure(promise: Promise<unknown>): Promise<{ status?: number; body: any; error: any }> {
  try {
    await promise;
  } catch (error: any) {
    return { status: error?.response?.status ?? error?.inner?.response?.status, body: error?.response?.data ?? error?.inner?.response?.data, error };
  }
  throw new Error("expected the call to fail");
}

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${acmeToken}`, "content-type": "application/json", accept: "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

beforeAll(async () => {
  // A budget small enough to spend in a test (429), large enough for the tests sharing acmeToken.
  service = await startCheckedService("kusto-sdk", { TELEMETRY_COST_BUDGET_PER_MINUTE: String(BUDGET) });
  url = await startFrontDoor(service.runtime.handle);
  acmeToken = await issueToken(service.runtime, "CUST-ACME");
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => {
    frontDoor?.closeAllConnections();
    frontDoor?.close(resolve);
  });
  await service?.close();
});

/**
 * The same rows, a floating-point sum equal to 12 significant digits: DuckDB adds in parallel on
 * every core, so the last bits of `sum(real)` follow the order the threads finished in (ADX's do too).
 */
function expectSameRows(actual: unknown[][], expected: unknown[][]): void {
  const rounded = (rows: unknown[][]) => rows.map((row) => row.map((cell) => (typeof cell === "number" && !Number.isInteger(cell) ? Number(cell.toPrecision(12)) : cell)));
  expect(rounded(actual)).toEqual(rounded(expected));
}

describe("Kusto SDK: queries (v2)", () => {
  it("reads typed rows of every column type", async () => {
    const result = await clientFor(acmeToken).execute(
      "CUST-ACME",
      'print s = "text", l = 42, i = toint(7), r = 2.5, b = true, d = datetime(2024-05-01T10:20:30.123Z), t = 1d + 2h + 3m + 4s + 500ms, dyn = dynamic({"a": [1, 2]}), n = long(null)',
    );
    const table = result.primaryResults[0]!;
    expect(table.columns.map((c) => [c.name, c.type])).toEqual([
      ["s", "string"],
      ["l", "long"],
      ["i", "int"],
      ["r", "real"],
      ["b", "bool"],
      ["d", "datetime"],
      ["t", "timespan"],
      ["dyn", "dynamic"],
      ["n", "long"],
    ]);
    // ADX's value forms on the wire: timespan as d.hh:mm:ss.fffffff, datetime ISO with Z, dynamic as JSON.
    expect(table._rows[0]).toEqual(["text", 42, 7, 2.5, true, "2024-05-01T10:20:30.123Z", "1.02:03:04.5000000", { a: [1, 2] }, null]);
    // …and as the SDK types them: Date and milliseconds.
    const row = [...table.rows()][0]!.toJSON() as Record<string, unknown>;
    expect(row.d).toEqual(new Date("2024-05-01T10:20:30.123Z"));
    expect(row.t).toBe(93_784_500);
    expect(result.tableNames).toEqual(["@ExtendedProperties", "PrimaryResult", "QueryCompletionInformation"]);
    expect(result.getErrorsCount().errors).toBe(0);
  });

  it("answers ADX's frames, with the render visualization and the correlation headers", async () => {
    const res = await post("/v2/rest/query", { db: "CUST-ACME", csl: "States | summarize n = count() by bin(Timestamp, 1h) | render timechart with (title = 'Readings')" }, { "x-ms-client-request-id": "MyApp;req-1" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ms-client-request-id")).toBe("MyApp;req-1");
    expect(res.headers.get("x-ms-activity-id")).toMatch(/^[0-9a-f-]{36}$/);
    const frames = ZKustoV2Response.parse(await res.json()) as any[];
    expect(frames.map((f) => f.FrameType)).toEqual(["DataSetHeader", "DataTable", "DataTable", "DataTable", "DataSetCompletion"]);
    expect(frames[0]).toEqual({ FrameType: "DataSetHeader", IsProgressive: false, Version: "v2.0" });
    expect(frames.slice(1, 4).map((f) => [f.TableId, f.TableKind, f.TableName])).toEqual([
      [0, "QueryProperties", "@ExtendedProperties"],
      [1, "PrimaryResult", "PrimaryResult"],
      [2, "QueryCompletionInformation", "QueryCompletionInformation"],
    ]);
    const [tableId, key, value] = frames[1].Rows[0];
    expect([tableId, key]).toEqual([1, "Visualization"]);
    expect(JSON.parse(value)).toMatchObject({ Visualization: "timechart", Title: "Readings" });
    expect(frames[4]).toEqual({ FrameType: "DataSetCompletion", HasErrors: false, Cancelled: false });
  });

  it("gives the same numbers as the spec's endpoint for the same query and range", async () => {
    const token = await issueToken(service.runtime, "CUST-ACME");
    // A range that has ended: the demo plant keeps writing readings at "now", between the three queries.
    const end = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const start = new Date(end.getTime() - 6 * 3_600_000);
    const kql = "States | summarize readings = count(), total = sum(todouble(Value)), devices = dcount(DeviceId) by PlantId | order by PlantId asc";
    const spec = await service.client.call("POST", TELEMETRY_QUERY_PATH, { token, body: { query: kql, startTime: start.toISOString(), endTime: end.toISOString() } });
    expect(spec.status).toBe(200);
    expect(spec.body.data.rows.length).toBeGreaterThan(0);

    // The same range as ADX's request properties (query_datetimescope_to is inclusive)…
    const properties = new ClientRequestProperties();
    properties.setOption("query_datetimescope_column", "Timestamp");
    properties.setOption("query_datetimescope_from", start.toISOString());
    properties.setOption("query_datetimescope_to", new Date(end.getTime() - 1).toISOString());
    const scoped = await clientFor(token).execute("CUST-ACME", kql, properties);
    expectSameRows(scoped.primaryResults[0]!._rows, spec.body.data.rows);

    // …and as the query's own range, as ADX queries usually carry it.
    const ranged = await clientFor(token).execute("CUST-ACME", `States | where Timestamp >= datetime(${start.toISOString()}) and Timestamp < datetime(${end.toISOString()}) | ${kql.slice("States | ".length)}`);
    expectSameRows(ranged.primaryResults[0]!._rows, spec.body.data.rows);
  });

  it("honours query_now and properties sent as JSON text with names in any case", async () => {
    const res = await post("/v2/rest/query", { db: "CUST-ACME", csl: "print now(), ago(1d)", properties: JSON.stringify({ options: { QUERY_NOW: "2024-01-02T00:00:00Z", SomethingUnknown: 1 } }) });
    expect(res.status).toBe(200);
    const frames = (await res.json()) as any[];
    expect(frames.find((f) => f.TableKind === "PrimaryResult").Rows).toEqual([["2024-01-02T00:00:00.000Z", "2024-01-01T00:00:00.000Z"]]);
  });

  it("reports a result over truncationmaxrecords after the header, as ADX reports a failure while running", async () => {
    const properties = new ClientRequestProperties();
    properties.setOption("truncationmaxrecords", 5);
    const { error } = await failure(clientFor(acmeToken).execute("CUST-ACME", "States | take 10", properties));
    expect(String(error.message)).toMatch(/^Kusto request had errors\. .*5/);

    const res = await post("/v2/rest/query", { db: "CUST-ACME", csl: "States | take 10", properties: { Options: { truncationmaxrecords: 5 } } });
    expect(res.status).toBe(200);
    const frames = ZKustoV2Response.parse(await res.json()) as any[];
    expect(frames.at(-1)).toMatchObject({ FrameType: "DataSetCompletion", HasErrors: true, OneApiErrors: [{ error: { code: "LimitsExceeded" } }] });
  });

  it("stops a query at servertimeout and reports it after the header", async () => {
    const properties = new ClientRequestProperties();
    properties.setTimeout(1); // sent as servertimeout "00:00:00.001"
    const heavy = "States | summarize dcount(Name) by DeviceId, bin(Timestamp, 1m) | count";
    const { error } = await failure(clientFor(acmeToken).execute("CUST-ACME", heavy, properties));
    expect(String(error.message)).toMatch(/^Kusto request had errors\. /);

    const res = await post("/v2/rest/query", { db: "CUST-ACME", csl: heavy, properties: { Options: { servertimeout: "00:00:00.001" } } });
    const frames = ZKustoV2Response.parse(await res.json()) as any[];
    expect(frames.at(-1)).toMatchObject({ HasErrors: true, Cancelled: true, OneApiErrors: [{ error: { code: "RequestExecutionTimeout", "@permanent": false } }] });
  });

  it("gives a KQL error with its position in ADX's error body", async () => {
    const { status, body } = await failure(clientFor(acmeToken).execute("CUST-ACME", "States\n| where Foo == 1"));
    expect(status).toBe(400);
    expect(ZKustoError.parse(body)).toMatchObject({
      error: { code: "General_BadRequest", "@permanent": true, innererror: { code: "SEM0100", "@line": "2", "@pos": "8" } },
    });
    expect(body.error["@message"]).toMatch(/^Request is invalid and cannot be processed: Semantic error: SEM0100: .*Foo/);

    const syntax = await failure(clientFor(acmeToken).execute("CUST-ACME", "States | where (Value > 1"));
    expect(syntax.status).toBe(400);
    expect(syntax.body.error.innererror).toMatchObject({ code: "SYN0002", "@line": "1" });
    expect(syntax.body.error["@message"]).toMatch(/Syntax error: SYN0002: /);
  });

  it("binds declare query_parameters from ClientRequestProperties.setParameter, defaults for the ones not sent, never as query text", async () => {
    const properties = new ClientRequestProperties();
    properties.setParameter("n", "41");
    properties.setParameter("since", "datetime(2024-05-01)");
    properties.setParameter("name", `x" | take 0; print "injected`);
    properties.setParameter("ids", "dynamic([1, 2])");
    properties.setParameter("day", "2024-5-2");
    const query = "declare query_parameters(n:long, since:datetime, name:string, ids:dynamic, day:datetime, w:timespan = 1h, unset:string);\nprint a = n + 1, b = since + w, c = name, d = array_length(ids), e = day, f = isempty(unset)";
    const result = await clientFor(acmeToken).execute("CUST-ACME", query, properties);
    expect(result.primaryResults[0]!._rows).toEqual([[42, "2024-05-01T01:00:00.000Z", `x" | take 0; print "injected`, 2, "2024-05-02T00:00:00.000Z", true]]);

    // The same filter written as a literal and bound as a parameter reads the same rows.
    const literal = await clientFor(acmeToken).execute("CUST-ACME", 'States | where Name == "Temperature" | count');
    const named = new ClientRequestProperties();
    named.setParameter("point", "Temperature");
    const bound = await clientFor(acmeToken).execute("CUST-ACME", "declare query_parameters(point:string);\nStates | where Name == point | count", named);
    expect(bound.primaryResults[0]!._rows).toEqual(literal.primaryResults[0]!._rows);
  });

  it("refuses a query parameter that is not a literal of its declared type, as a semantic error", async () => {
    for (const value of ["abc", "1.5", "datetime(2024-01-01)", "1 + 1"]) {
      const properties = new ClientRequestProperties();
      properties.setParameter("n", value);
      const { status, body } = await failure(clientFor(acmeToken).execute("CUST-ACME", "declare query_parameters(n:long);\nprint n", properties));
      expect(status).toBe(400);
      expect(ZKustoError.parse(body).error).toMatchObject({ code: "General_BadRequest", innererror: { code: "SEM0100", "@line": "1" } });
      expect(body.error["@message"]).toContain(`Query parameter 'n' of type long could not be parsed from its value '${value}'`);
    }
  });

  it("refuses a bad request property with ADX's error body", async () => {
    const properties = new ClientRequestProperties();
    properties.setOption("query_datetimescope_column", "IngestionTimestamp");
    const { status, body } = await failure(clientFor(acmeToken).execute("CUST-ACME", "States | take 1", properties));
    expect(status).toBe(400);
    expect(body.error.code).toBe("BadRequest");
    expect(body.error["@message"]).toContain("query_datetimescope_column");
  });
});

describe("Kusto SDK: v1 query", () => {
  it("answers ADX's four tables, named by the table of contents", async () => {
    const result = await clientFor(acmeToken).executeQueryV1("CUST-ACME", "States | project DeviceId, Timestamp, Value | take 3 | render table");
    expect(result.tables.map((t) => [t.name, t.kind])).toEqual([
      ["PrimaryResult", "PrimaryResult"],
      ["@ExtendedProperties", "QueryProperties"],
      ["QueryStatus", "QueryCompletionInformation"],
      ["Table_3", "TableOfContents"],
    ]);
    const table = result.primaryResults[0]!;
    expect(table.columns.map((c) => [c.name, c.type])).toEqual([
      ["DeviceId", "string"],
      ["Timestamp", "datetime"],
      ["Value", "dynamic"],
    ]);
    expect(table._rows).toHaveLength(3);
    expect(JSON.parse(result.tables[1]!._rows[0][0])).toMatchObject({ Visualization: "table" });

    const raw = await post("/v1/rest/query", { db: "CUST-ACME", csl: "States | take 1" });
    const body = ZKustoV1Response.parse(await raw.json());
    expect(body.Tables[0]!.Columns.find((c) => c.ColumnName === "Timestamp")).toEqual({ ColumnName: "Timestamp", DataType: "DateTime", ColumnType: "datetime" });
  });
});

describe("Kusto SDK: management commands", () => {
  const mgmt = async (command: string) => {
    const result = await clientFor(acmeToken).executeMgmt("CUST-ACME", command);
    const table = result.primaryResults[0]!;
    return { columns: table.columns.map((c) => `${c.name}:${c.type}`), rows: table._rows as any[][] };
  };

  it(".show version", async () => {
    const { columns, rows } = await mgmt(".show version");
    expect(columns).toEqual(["BuildVersion:string", "BuildTime:datetime", "ServiceType:string", "ProductVersion:string", "ServiceOffering:string"]);
    expect(rows).toHaveLength(1);
  });

  it(".show databases lists only the caller's own database, with ADX's columns", async () => {
    const { columns, rows } = await mgmt(".show databases");
    expect(columns).toEqual([
      "DatabaseName:string",
      "PersistentStorage:string",
      "Version:string",
      "IsCurrent:bool",
      "DatabaseAccessMode:string",
      "PrettyName:string",
      "DatabaseId:guid",
      "InTransitionTo:string",
      "SuspensionState:string",
    ]);
    expect(rows.map((row) => row[0])).toEqual(["CUST-ACME"]);
    expect(rows[0]![3]).toBe(true);
  });

  it("piped: .show databases | project DatabaseName", async () => {
    expect(await mgmt(".show databases | project DatabaseName")).toEqual({ columns: ["DatabaseName:string"], rows: [["CUST-ACME"]] });
  });

  it(".show tables", async () => {
    const { columns, rows } = await mgmt(".show tables");
    expect(columns).toEqual(["TableName:string", "DatabaseName:string", "Folder:string", "DocString:string"]);
    expect(rows.map((row) => row[0])).toEqual(["States", "Events"]);
  });

  it(".show table States schema as json", async () => {
    const { columns, rows } = await mgmt(".show table States schema as json");
    expect(columns).toEqual(["TableName:string", "Schema:string", "DatabaseName:string", "Folder:string", "DocString:string"]);
    const schema = JSON.parse(rows[0]![1]);
    expect(schema.Name).toBe("States");
    expect(schema.OrderedColumns.slice(0, 3)).toEqual([
      { Name: "DeviceId", Type: "System.String", CslType: "string" },
      { Name: "Name", Type: "System.String", CslType: "string" },
      { Name: "Timestamp", Type: "System.DateTime", CslType: "datetime" },
    ]);
  });

  it(".show database CUST-ACME schema as json and .show databases schema as json", async () => {
    for (const command of [".show database CUST-ACME schema as json", ".show databases schema as json"]) {
      const { columns, rows } = await mgmt(command);
      expect(columns).toEqual(["DatabaseSchema:string"]);
      const schema = JSON.parse(rows[0]![0]);
      expect(Object.keys(schema.Databases)).toEqual(["CUST-ACME"]);
      expect(Object.keys(schema.Databases["CUST-ACME"].Tables)).toEqual(["States", "Events"]);
    }
  });

  it(".show functions is empty", async () => {
    expect(await mgmt(".show functions")).toEqual({ columns: ["Name:string", "Parameters:string", "Body:string", "Folder:string", "DocString:string"], rows: [] });
  });

  it("any other command is ADX's 'not supported' error, and a piped error points into the client's text", async () => {
    const dropped = await failure(clientFor(acmeToken).executeMgmt("CUST-ACME", ".drop table States"));
    expect(dropped.status).toBe(400);
    expect(dropped.body.error["@message"]).toMatch(/\.drop table States' is not supported/);
    const piped = await failure(clientFor(acmeToken).executeMgmt("CUST-ACME", ".show databases | where Nope == 1"));
    expect(piped.body.error.innererror).toMatchObject({ "@line": "1", "@pos": String(".show databases | where ".length) });
    const foreign = await failure(clientFor(acmeToken).executeMgmt("CUST-ACME", ".show database CUST-NORDIC schema as json"));
    expect(foreign.status).toBe(403);
  });
});

describe("Kusto SDK: refusals", () => {
  it("401 without a body for a bad token", async () => {
    const { status, body } = await failure(clientFor("not-a-token").execute("CUST-ACME", "States | take 1"));
    expect(status).toBe(401);
    expect(body).toBe("");
  });

  it("403 for another customer's database, for queries and commands", async () => {
    for (const call of [clientFor(acmeToken).execute("CUST-NORDIC", "States | take 1"), clientFor(acmeToken).executeQueryV1("CUST-NORDIC", "States | take 1")]) {
      const { status, body } = await failure(call);
      expect(status).toBe(403);
      expect(ZKustoError.parse(body).error.code).toBe("Forbidden");
    }
    // database("…") and cluster(…).database("…") inside the query: the caller's own database reads, any other is refused alike.
    const own = await clientFor(acmeToken).execute("CUST-ACME", 'cluster("https://example.kusto.windows.net").database("cust-acme").States | count');
    const plain = await clientFor(acmeToken).execute("CUST-ACME", "States | count");
    expect(own.primaryResults[0]!._rows).toEqual(plain.primaryResults[0]!._rows);
    for (const query of ['database("CUST-NORDIC").States | take 1', 'States | union (cluster("c").database("CUST-NORDIC").Events) | take 1']) {
      const { status, body } = await failure(clientFor(acmeToken).execute("CUST-ACME", query));
      expect(status).toBe(403);
      expect(ZKustoError.parse(body).error).toMatchObject({ code: "Forbidden" });
      expect(body.error["@message"]).toContain("Principal is not authorized to read database 'CUST-NORDIC'.");
    }
  });

  it("429 (the SDK's ThrottlingError) when the client's cost budget is spent", async () => {
    const token = await issueToken(service.runtime, "CUST-ACME");
    const client = clientFor(token);
    let throttled: unknown;
    // Twice the budget: enough even when the minute's window turns over during the loop.
    for (let i = 0; i < 2 * BUDGET + 10 && !throttled; i++) {
      await client.execute("CUST-ACME", "print 1").catch((error: unknown) => (throttled = error));
    }
    expect(throttled).toBeInstanceOf(KustoDataErrors.ThrottlingError);
    const res = await post("/v2/rest/query", { db: "CUST-ACME", csl: "print 1" }, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(ZKustoError.parse(await res.json()).error["@permanent"]).toBe(false);
  });
});

describe("Kusto protocol: any request", () => {
  it("is answered in ADX's forms — frames, tables or the error body — never 500, never another customer's rows", async () => {
    const token = await issueToken(service.runtime, "CUST-ACME");
    const option = fc.constantFrom("servertimeout", "TruncationMaxRecords", "query_now", "query_datetimescope_from", "query_datetimescope_to", "query_datetimescope_column", "unknown");
    const properties = fc.oneof(
      fc.constant(undefined),
      fc.dictionary(option, fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom("00:00:05", "1m", "2024-05-01T00:00:00Z", "Timestamp", "-1", "5")), { maxKeys: 4 }).map((Options) => ({ Options })),
      fc.string({ maxLength: 40 }),
    );
    const csl = fc.oneof(
      { weight: 3, arbitrary: kqlQuery({ junk: 0 }) },
      { weight: 1, arbitrary: kqlQuery({ junk: 1 }) },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom(".show databases", ".show tables", ".show table States schema as json", ".show functions", ".drop table States", ".show"), fc.constantFrom("", " | count", " | project Nope", " | take 1")).map(([a, b]) => a + b) },
    );
    const path = fc.constantFrom("/v2/rest/query", "/v1/rest/query", "/v1/rest/mgmt");
    const db = fc.constantFrom("CUST-ACME", "cust-acme", "CUST-NORDIC", "", "NetDefaultDB", "x".repeat(300));
    await fc.assert(
      fc.asyncProperty(path, db, csl, properties, async (where, database, text, props) => {
        const res = await post(where, { db: database, csl: text, ...(props === undefined ? {} : { properties: props }) }, { authorization: `Bearer ${token}` });
        const body = (await res.json()) as any;
        expect([200, 400, 403, 404, 429], JSON.stringify(body).slice(0, 300)).toContain(res.status);
        expect(res.headers.get("x-ms-activity-id")).toBeTruthy();
        if (res.status !== 200) return void ZKustoError.parse(body);
        if (where === "/v2/rest/query") ZKustoV2Response.parse(body);
        else ZKustoV1Response.parse(body);
        // Whatever was asked, no answer names or holds another customer's plants or database.
        expect(JSON.stringify(body)).not.toMatch(/CUST-NORDIC|OUL1/);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});

describe("Kusto protocol: the OpenAPI document", () => {
  it("describes every answer: frames, tables, ADX's errors and the bodiless 401", async () => {
    const token = await issueToken(service.runtime, "CUST-ACME");
    const call = (path: string, body: unknown, as = token) => service.client.call("POST", path, { token: as, body });
    expect((await call("/v2/rest/query", { db: "CUST-ACME", csl: "States | take 2 | render table" })).status).toBe(200);
    expect((await call("/v2/rest/query", { db: "CUST-ACME", csl: "States | take 3", properties: { Options: { truncationmaxrecords: 1 } } })).status).toBe(200);
    expect((await call("/v1/rest/query", { db: "CUST-ACME", csl: "States | take 2" })).status).toBe(200);
    expect((await call("/v1/rest/mgmt", { db: "CUST-ACME", csl: ".show databases" })).status).toBe(200);
    expect((await call("/v2/rest/query", { db: "CUST-ACME", csl: "States | where Nope" })).status).toBe(400);
    expect((await call("/v1/rest/mgmt", { db: "CUST-ACME", csl: ".show table Nope schema as json" })).status).toBe(404);
    expect((await call("/v2/rest/query", { db: "CUST-NORDIC", csl: "States" })).status).toBe(403);
    expect((await call("/v2/rest/query", { db: "CUST-ACME", csl: "States" }, "not-a-token")).status).toBe(401);
    expect((await service.client.call("GET", "/v1/rest/auth/metadata")).status).toBe(404);
  });
});

describe("the front door for programs", () => {
  it("answers the SDK's cloud metadata request 404 in JSON, never a redirect", async () => {
    const res = await fetch(`${url}/v1/rest/auth/metadata`, { redirect: "manual" });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: "ERROR", code: "NOT_FOUND" });
  });

  it("answers an unknown path of a program with the JSON 404 — pages still go to Next", async () => {
    for (const [path, headers] of [
      ["/v2/rest/nothing", {}],
      ["/v1/other", {}],
      ["/not-a-page", { authorization: "Bearer x" }],
      ["/not-a-page", { accept: "application/json" }],
    ] as const) {
      const res = await fetch(`${url}${path}`, { headers, redirect: "manual" });
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ status: "ERROR", code: "NOT_FOUND" });
    }
    const page = await fetch(`${url}/tasks`, { headers: { accept: "text/html,application/xhtml+xml,*/*" }, redirect: "manual" });
    expect(page.status).toBe(307);
  });
});
