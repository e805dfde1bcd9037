/* eslint-disable @typescript-eslint/no-explicit-any -- ADX's tables are read freely in assertions */
/**
 * Grafana's Azure Data Explorer data source against Plantdesk, without Grafana (it cannot be
 * installed here): the plugin's own HTTP calls replayed over real HTTP on the embedded service, as
 * its Go client sends them (grafana/azure-data-explorer-datasource, pkg/azuredx/client/client.go
 * and resource_handler.go) and read as it reads them (models.TableFromJSON: `Tables[0]`'s
 * `Columns[].ColumnName/ColumnType` and `Rows`):
 * - "Save & test": POST /v1/rest/query `{ csl: ".show databases schema", db }` must answer 2xx;
 * - the database list: POST /v1/rest/mgmt `.show databases`;
 * - the schema for the query editor: POST /v1/rest/mgmt `.show databases schema as json`
 *   (`querySource: "schema"`), whose DatabaseSchema names States and Events;
 * - a panel's query: POST /v1/rest/query with the plugin's headers (`x-ms-app: Grafana-ADX`) and
 *   a time filter as its macros expand (`$__timeFilter(Timestamp)` → `Timestamp >= datetime(…) and
 *   Timestamp <= datetime(…)`), answering a time column and a number per row.
 * The provisioning file deploy/grafana/plantdesk-adx.yaml is checked for the fields the recipe names.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCheckedService, startHttpServer, type CheckedService } from "../../testing/openapi-checked-client";
import { issueToken } from "../../testing/telemetry-client";
import { surfaceFor } from "@/lib/platform/http/paths";

let service: CheckedService;
let server: { url: string; close(): Promise<void> };
let token: string;

/** One request as the plugin's KustoRequest sends it. */
function pluginRequest(pathname: string, payload: Record<string, unknown>) {
  return fetch(`${server.url}${pathname}`, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/json", "x-ms-app": "Grafana-ADX", authorization: `Bearer ${token}` },
    body: JSON.stringify(payload),
  });
}

/** What models.TableFromJSON reads: the first table's column names and types, and its rows. */
function firstTable(body: any): { columns: { name: string; type: string }[]; rows: unknown[][] } {
  const table = body.Tables[0];
  return { columns: table.Columns.map((column: any) => ({ name: column.ColumnName, type: column.ColumnType })), rows: table.Rows };
}

beforeAll(async () => {
  service = await startCheckedService("grafana-adx");
  server = await startHttpServer(service.runtime);
  token = await issueToken(service.runtime, "CUST-ACME");
}, 180_000);

afterAll(async () => {
  await server?.close();
  await service?.close();
});

describe("Grafana's ADX data source, replayed", () => {
  it("passes Save & test: .show databases schema on the v1 query path", async () => {
    const response = await pluginRequest("/v1/rest/query", { csl: ".show databases schema", db: "CUST-ACME", properties: { Options: { servertimeout: "00:00:30" } } });
    expect(response.status).toBe(200);
    const { columns, rows } = firstTable(await response.json());
    expect(columns.map((column) => column.name)).toEqual(["DatabaseName", "TableName", "ColumnName", "ColumnType", "IsDefaultTable", "IsDefaultColumn", "PrettyName", "Version", "Folder", "DocString"]);
    expect(rows.filter((row) => row[1] === "States" && row[2] === "Timestamp")).toHaveLength(1);
    // Another customer's database is refused, as ADX refuses a database the principal may not read.
    expect((await pluginRequest("/v1/rest/query", { csl: ".show databases schema", db: "CUST-NORDIC" })).status).toBe(403);
  });

  it("lists the databases and reads the schema the query editor completes from", async () => {
    const databases = firstTable(await (await pluginRequest("/v1/rest/mgmt", { csl: ".show databases", db: "" })).json());
    expect(databases.rows.map((row) => row[0])).toEqual(["CUST-ACME"]);
    const schemaResponse = await pluginRequest("/v1/rest/mgmt", { csl: ".show databases schema as json", db: "", querySource: "schema" });
    expect(schemaResponse.status).toBe(200);
    const schema = JSON.parse(String(firstTable(await schemaResponse.json()).rows[0]![0]));
    expect(Object.keys(schema.Databases["CUST-ACME"].Tables).sort()).toEqual(["Events", "States"]);
  });

  it("answers a time-series panel's query as the plugin expands it", async () => {
    const end = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const start = new Date(end.getTime() - 86_400_000);
    const csl = `States\n| where Timestamp >= datetime(${start.toISOString()}) and Timestamp <= datetime(${end.toISOString()})\n| where Name == "Temperature"\n| summarize avg(todouble(Value)) by bin(Timestamp, 1h)\n| order by Timestamp asc`;
    const response = await pluginRequest("/v1/rest/query", { csl, db: "CUST-ACME", properties: { Options: { servertimeout: "00:01:00", queryconsistency: "strongconsistency" } } });
    expect(response.status).toBe(200);
    const { columns, rows } = firstTable(await response.json());
    expect(columns).toEqual([
      { name: "Timestamp", type: "datetime" },
      { name: "avg_Value", type: "real" },
    ]);
    expect(rows.length).toBeGreaterThan(0);
    expect(typeof rows[0]![1]).toBe("number");
    // A query error answers ADX's error body, whose message the plugin shows.
    const bad = await pluginRequest("/v1/rest/query", { csl: "States | where Nope > 1", db: "CUST-ACME" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toBeTruthy();
  });

  it("signs in as the plugin's Azure SDK does: the tenant's discovery document, then client credentials at <authority>/<tenant>/oauth2/v2.0/token", async () => {
    const client = await service.runtime.telemetry.clients.create("CUST-ACME");
    // The tenant-prefixed paths reach the service from the one server's front door too.
    expect(surfaceFor("/plantdesk/oauth2/v2.0/token", { "content-type": "application/x-www-form-urlencoded" })).toBe("service");
    expect(surfaceFor("/plantdesk/v2.0/.well-known/openid-configuration", {})).toBe("service");

    const discovery = await fetch(`${server.url}/plantdesk/v2.0/.well-known/openid-configuration`, { headers: { accept: "application/json" } });
    expect(discovery.status).toBe(200);
    const document = (await discovery.json()) as any;
    expect(document.token_endpoint).toMatch(/\/plantdesk\/oauth2\/v2\.0\/token$/);
    expect(typeof document.issuer).toBe("string");
    expect(typeof document.authorization_endpoint).toBe("string");

    // MSAL's client-credentials request: a form with client_info=1 beside the OAuth fields.
    const exchange = (secret: string, tenant = "plantdesk") =>
      fetch(`${server.url}/${tenant}/oauth2/v2.0/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded;charset=utf-8", accept: "application/json" },
        body: new URLSearchParams({ client_id: client.client_id, client_secret: secret, grant_type: "client_credentials", scope: "api://plant-telemetry/.default", client_info: "1" }).toString(),
      });
    const answered = await exchange(client.client_secret);
    const body = (await answered.json()) as any;
    expect([answered.status, body.token_type]).toEqual([200, "Bearer"]);
    const query = await fetch(`${server.url}/v1/rest/query`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-ms-app": "Grafana-ADX", authorization: `Bearer ${body.access_token}` },
      body: JSON.stringify({ csl: ".show databases schema", db: "CUST-ACME" }),
    });
    expect(query.status).toBe(200);

    const wrong = await exchange("not-the-secret");
    expect([wrong.status, ((await wrong.json()) as any).error]).toEqual([401, "invalid_client"]);
    expect((await exchange(client.client_secret, "no%20such%20tenant")).status).toBe(404);
  });

  it("ships a provisioning file with the fields the recipe names", () => {
    const file = fs.readFileSync(path.join(process.cwd(), "deploy/grafana/plantdesk-adx.yaml"), "utf8");
    for (const field of ["type: grafana-azure-data-explorer-datasource", "clusterUrl: ${PLANTDESK_URL}", "defaultDatabase: ${PLANTDESK_CUSTOMER_ID}", "clientId: ${PLANTDESK_CLIENT_ID}", "azureClientSecret: ${PLANTDESK_CLIENT_SECRET}"]) {
      expect(file).toContain(field);
    }
  });
});
