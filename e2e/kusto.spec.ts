/**
 * Microsoft's Kusto SDK (`azure-kusto-data`, unmodified) against the server exactly as `npm start`
 * starts it (playwright.config.ts): the front door of scripts/serve.ts, not a test's stand-in. The
 * client is created as an operator does (`npm run ops -- client create`), the token fetched from
 * the token endpoint. The protocol's details are in lib/service/telemetry/kusto/kusto-sdk.test.ts;
 * this proves the real server hands every Kusto request to the service and never to the sign-in page.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Client as KustoClient, KustoConnectionStringBuilder } from "azure-kusto-data";

const root = path.resolve(import.meta.dirname, "..");

test.skip(!!process.env.E2E_BASE_URL, "creates a telemetry client in the server's DATA_DIR, which an external server does not share");

function createClient(): { client_id: string; client_secret: string } {
  const result = spawnSync(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/ops.ts", "client", "create", "--customer", "CUST-ACME", "--json"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR },
  });
  if (result.status !== 0) throw new Error(`ops client create failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { client_id: string; client_secret: string };
}

test("the Kusto SDK connects to npm start's server with a Plantdesk access token", async ({ baseURL, request }) => {
  const cluster = baseURL!;
  const { client_id, client_secret } = createClient();
  const tokenResponse = await request.post("/oauth2/v2.0/token", {
    form: { grant_type: "client_credentials", client_id, client_secret, scope: "api://plant-telemetry/.default" },
  });
  expect(tokenResponse.status()).toBe(200);
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };

  // The SDK's first request: 404 in JSON, not a redirect.
  const metadata = await request.get("/v1/rest/auth/metadata", { maxRedirects: 0 });
  expect(metadata.status()).toBe(404);
  expect(await metadata.json()).toMatchObject({ code: "NOT_FOUND" });

  const client = new KustoClient(KustoConnectionStringBuilder.withAccessToken(cluster, token));
  try {
    const result = await client.execute("CUST-ACME", "States | where Timestamp > ago(1d) | summarize readings = count() by PlantId | order by PlantId asc");
    const rows = result.primaryResults[0]!._rows as [string, number][];
    expect(rows.map(([plant]) => plant)).toEqual(["HOU1", "RTM1"]);
    expect(rows.every(([, readings]) => readings > 0)).toBe(true);

    const databases = await client.executeMgmt("CUST-ACME", ".show databases | project DatabaseName");
    expect(databases.primaryResults[0]!._rows).toEqual([["CUST-ACME"]]);

    const v1 = await client.executeQueryV1("CUST-ACME", "print answer = 42");
    expect(v1.primaryResults[0]!._rows).toEqual([[42]]);
  } finally {
    client.close();
  }

  // A program's request at an unknown path: the service's JSON 404, never the sign-in page.
  for (const [url, headers] of [
    ["/v2/rest/unknown", {}],
    ["/no-such-thing", { authorization: `Bearer ${token}` }],
    ["/no-such-thing", { accept: "application/json" }],
  ] as const) {
    const res = await request.get(url, { headers, maxRedirects: 0 });
    expect(res.status(), url).toBe(404);
    expect(await res.json()).toMatchObject({ status: "ERROR", code: "NOT_FOUND" });
  }
  // A browser's request for a page still goes to sign-in.
  const page = await request.get("/no-such-thing", { headers: { accept: "text/html" }, maxRedirects: 0 });
  expect(page.status()).toBe(307);
});
