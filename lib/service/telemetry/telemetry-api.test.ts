/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are read freely in assertions */
/**
 * The telemetry interface and its OAuth server over real HTTP, against a temporary DATA_DIR with
 * one day of demo telemetry. Every response is validated against the served /openapi.json.
 */
import fc from "fast-check";
import { createLocalJWKSet, generateKeyPair, jwtVerify, SignJWT } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kqlQuery } from "@/lib/kql/testing/arbitrary";
import type { ServiceRuntime } from "../runtime";
import { startCheckedService, type ApiResponse, type CheckedService } from "../testing/openapi-checked-client";
import type { CreatedTelemetryClient } from "./oauth/clients";
import { embeddedDuckDb } from "../telemetry-service";

const TOKEN = "/oauth2/v2.0/token";
const QUERY = "/insights/v1/telemetry/query/table";
const SCOPE = "api://plant-telemetry/.default";

let service: CheckedService | undefined;
let runtime: ServiceRuntime;
let server: CheckedService["server"];
let client: CheckedService["client"];
let acme: CreatedTelemetryClient;
let nordic: CreatedTelemetryClient;
let acmeToken: string;
let nordicToken: string;
/** The demo data covers [dataStart, dataEnd). */
let dataEnd: Date;
let dataStart: Date;

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

function requestToken(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return client.call("POST", TOKEN, { rawBody: form(fields), headers: { ...FORM, ...headers } });
}

async function tokenFor(c: CreatedTelemetryClient): Promise<string> {
  const res = await requestToken({ grant_type: "client_credentials", client_id: c.client_id, client_secret: c.client_secret, scope: SCOPE });
  expect(res.status).toBe(200);
  return res.body.access_token;
}

/** A query over all the demo data unless the body says otherwise. */
function query(token: string, body: Record<string, unknown>): Promise<ApiResponse> {
  const range = dataStart ? { startTime: dataStart.toISOString(), endTime: dataEnd.toISOString() } : wideRange();
  return client.call("POST", QUERY, { token, body: { ...range, ...body } });
}

/** The widest range a query may ask for, ending tomorrow: it holds all the demo data. */
function wideRange() {
  const end = Date.now() + 86_400_000;
  return { startTime: new Date(end - 400 * 86_400_000).toISOString(), endTime: new Date(end).toISOString() };
}

function expectError(res: ApiResponse, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ status: "ERROR", code });
  expect(Array.isArray(res.body.data)).toBe(true);
}

function expectOAuthError(res: ApiResponse, status: number, error: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toBe(error);
  expect(typeof res.body.error_description).toBe("string");
  expect(res.headers.get("cache-control")).toBe("no-store");
}

beforeAll(async () => {
  // The issuer is configuration: here, the address this test's server will listen at.
  service = await startCheckedService("telemetry-api", (url) => ({ TELEMETRY_COST_BUDGET_PER_MINUTE: "1000000", OAUTH_ISSUER: url }));
  ({ runtime, server, client } = service);
  acme = await runtime.telemetry.clients.create("CUST-ACME");
  nordic = await runtime.telemetry.clients.create("CUST-NORDIC");
  acmeToken = await tokenFor(acme);
  nordicToken = await tokenFor(nordic);
  const res = await query(acmeToken, {
    query: "States | summarize first = min(Timestamp), last = max(Timestamp)",
    ...wideRange(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  dataStart = new Date(res.body.data.rows[0][0]);
  dataEnd = new Date(new Date(res.body.data.rows[0][1]).getTime() + 60_000);
}, 180_000);

afterAll(() => service?.close());

describe("token endpoint", () => {
  it("issues a bearer token for client_secret_post", async () => {
    const res = await requestToken({ grant_type: "client_credentials", client_id: acme.client_id, client_secret: acme.client_secret, scope: SCOPE });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token_type: "Bearer", expires_in: 3600, access_token: expect.any(String) });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("issues a bearer token for HTTP Basic client authentication", async () => {
    const res = await requestToken({ grant_type: "client_credentials", scope: SCOPE }, { authorization: basic(acme.client_id, acme.client_secret) });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe("Bearer");
  });

  it("issues JWTs with audience, customer and a one-hour expiry, verifiable with the published JWKS", async () => {
    const jwks = (await client.call("GET", "/oauth2/v2.0/keys")).body;
    const { payload, protectedHeader } = await jwtVerify(acmeToken, createLocalJWKSet(jwks), { audience: "api://plant-telemetry" });
    expect(protectedHeader.alg).toBe("ES256");
    expect(payload.sub).toBe(acme.client_id);
    expect(payload.customer_id).toBe("CUST-ACME");
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  it("answers every failure in RFC 6749's format", async () => {
    const good = { grant_type: "client_credentials", client_id: acme.client_id, client_secret: acme.client_secret, scope: SCOPE };
    // Not form-encoded.
    expectOAuthError(await client.call("POST", TOKEN, { body: good }), 400, "invalid_request");
    // Missing parameters.
    expectOAuthError(await requestToken({ ...good, grant_type: "" }), 400, "invalid_request");
    const { scope: _scope, ...noScope } = good;
    expectOAuthError(await requestToken(noScope), 400, "invalid_request");
    // A parameter twice.
    const twice = await client.call("POST", TOKEN, { rawBody: `${form(good)}&scope=${encodeURIComponent(SCOPE)}`, headers: FORM });
    expectOAuthError(twice, 400, "invalid_request");
    // Two authentication methods at once.
    expectOAuthError(await requestToken(good, { authorization: basic(acme.client_id, acme.client_secret) }), 400, "invalid_request");
    // No client authentication, wrong secret, unknown client: 401 with a Basic challenge.
    for (const fields of [
      { grant_type: "client_credentials", scope: SCOPE },
      { ...good, client_secret: "pdt_wrong" },
      { ...good, client_id: "00000000-0000-0000-0000-000000000000" },
      { ...good, client_secret: nordic.client_secret },
    ]) {
      const res = await requestToken(fields);
      expectOAuthError(res, 401, "invalid_client");
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
      expect(JSON.stringify(res.body)).not.toContain(acme.client_secret);
    }
    const badBasic = await requestToken({ grant_type: "client_credentials", scope: SCOPE }, { authorization: basic(acme.client_id, "nope") });
    expectOAuthError(badBasic, 401, "invalid_client");
    expect(badBasic.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
    // Grant type and scope.
    expectOAuthError(await requestToken({ ...good, grant_type: "password" }), 400, "unsupported_grant_type");
    expectOAuthError(await requestToken({ ...good, scope: "api://other/.default" }), 400, "invalid_scope");
    expectOAuthError(await requestToken({ ...good, scope: "api://plant-telemetry" }), 400, "invalid_scope");
  });

  it("answers GET with 405 and the service's error body", async () => {
    expectError(await client.call("GET", TOKEN), 405, "METHOD_NOT_ALLOWED");
  });

  it("publishes its metadata for standard clients", async () => {
    const res = await client.call("GET", "/.well-known/openid-configuration");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: server.url,
      token_endpoint: `${server.url}${TOKEN}`,
      jwks_uri: `${server.url}/oauth2/v2.0/keys`,
      grant_types_supported: ["client_credentials"],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    });
  });
});

describe("query authentication", () => {
  it("requires a bearer token (401 with a Bearer challenge)", async () => {
    const res = await client.call("POST", QUERY, { body: { query: "States | take 1", startTime: dataStart.toISOString(), endTime: dataEnd.toISOString() } });
    expectError(res, 401, "UNAUTHORIZED");
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    expectError(await query("not-a-token", { query: "States | take 1" }), 401, "UNAUTHORIZED");
  });

  it("rejects an expired token and accepts one that is about to expire", async () => {
    const principal = { clientId: acme.client_id, customerId: "CUST-ACME" };
    const expired = await runtime.telemetry.tokens.issue(principal, { now: new Date(Date.now() - 3601_000) });
    expectError(await query(expired, { query: "States | take 1" }), 401, "UNAUTHORIZED");
    const old = await runtime.telemetry.tokens.issue(principal, { now: new Date(Date.now() - 3500_000) });
    expect((await query(old, { query: "States | take 1" })).status).toBe(200);
  });

  it("rejects a token signed with another key, even with the right claims", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    const forged = await new SignJWT({ customer_id: "CUST-ACME" })
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: (await runtime.telemetry.tokens.jwks()).keys[0]!.kid! })
      .setSubject(acme.client_id)
      .setAudience("api://plant-telemetry")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
    expectError(await query(forged, { query: "States | take 1" }), 401, "UNAUTHORIZED");
  });

  it("stops a revoked client's existing tokens at once, and refuses it new ones", async () => {
    const doomed = await runtime.telemetry.clients.create("CUST-NORDIC");
    const token = await tokenFor(doomed);
    expect((await query(token, { query: "States | take 1" })).status).toBe(200);
    expect(await runtime.telemetry.clients.revoke(doomed.client_id)).toBe(true);
    expectError(await query(token, { query: "States | take 1" }), 401, "UNAUTHORIZED");
    const again = await requestToken({ grant_type: "client_credentials", client_id: doomed.client_id, client_secret: doomed.client_secret, scope: SCOPE });
    expectOAuthError(again, 401, "invalid_client");
  });
});

describe("query validation", () => {
  it("requires query, startTime and endTime, as UTC instants in order and at most 400 days apart", async () => {
    const start = dataStart.toISOString();
    const end = dataEnd.toISOString();
    const cases: Record<string, unknown>[] = [
      { query: "States | take 1", startTime: start },
      { startTime: start, endTime: end },
      { query: "   ", startTime: start, endTime: end },
      { query: "States | take 1", startTime: "2026-01-01T00:00:00+01:00", endTime: end },
      { query: "States | take 1", startTime: "2026-01-01", endTime: end },
      { query: "States | take 1", startTime: end, endTime: start },
      { query: "States | take 1", startTime: start, endTime: start },
      { query: "States | take 1", startTime: "2024-01-01T00:00:00.000Z", endTime: "2025-02-05T00:00:00.000Z" },
      { query: "States | take 1", startTime: start, endTime: end, plantIds: ["bad id!"] },
    ];
    for (const body of cases) {
      const res = await client.call("POST", QUERY, { token: acmeToken, body });
      expectError(res, 400, "INVALID_INPUT");
    }
    expectError(await client.call("POST", QUERY, { token: acmeToken, rawBody: "{", headers: { "content-type": "application/json" } }), 400, "INVALID_INPUT");
    expectError(await client.call("POST", QUERY, { token: acmeToken, rawBody: "x", headers: { "content-type": "text/plain" } }), 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("names a plant that is not the client's customer's", async () => {
    for (const plant of ["RTM1", "NOPE1"]) {
      const res = await query(nordicToken, { query: "States | take 1", plantIds: ["OUL1", plant] });
      expectError(res, 400, "INVALID_INPUT");
      expect(res.body.message).toContain(plant);
    }
  });

  it("answers a malformed query with INVALID_QUERY and its position", async () => {
    const res = await query(acmeToken, { query: "States\n| whre Value > 1" });
    expectError(res, 400, "INVALID_QUERY");
    expect(res.body.data).toEqual([{ line: 2, column: expect.any(Number), message: expect.any(String) }]);
    expect(res.body.message).toContain("line 2");
    const unknown = await query(acmeToken, { query: "Alarms | take 1" });
    expectError(unknown, 400, "INVALID_QUERY");
    expect(unknown.body.data[0]).toMatchObject({ line: 1, column: 1 });
    expectError(await query(acmeToken, { query: "States | where NoSuchColumn > 1" }), 400, "INVALID_QUERY");
  });

  it("gives null for a datetime beyond 9999-12-31, as ADX does", async () => {
    const res = await query(acmeToken, { query: "States | take 1 | project Later = datetime(9999-12-31) + 1d" });
    expect(res.status).toBe(200);
    expect(res.body.data.rows).toEqual([[null]]);
  });
});

describe("query results", () => {
  it("returns every States column with its types when nothing is projected", async () => {
    const res = await query(acmeToken, { query: "States | take 3" });
    expect(res.status).toBe(200);
    // Each column as [name, columnType, dataType].
    expect(res.body.data.columns.map((c: Record<string, string>) => [c.name, c.columnType, c.dataType])).toEqual([
      ["DeviceId", "string", "String"],
      ["Name", "string", "String"],
      ["Timestamp", "datetime", "DateTime"],
      ["Value", "dynamic", "Object"],
      ["PlantId", "string", "String"],
      ["DataMetadata", "dynamic", "Object"],
      ["MessageMetadata", "dynamic", "Object"],
      ["MessageType", "string", "String"],
      ["AgentTimestamp", "datetime", "DateTime"],
      ["IngestionTimestamp", "datetime", "DateTime"],
    ]);
    expect(res.body.data.rows).toHaveLength(3);
    const [row] = res.body.data.rows;
    expect(row[2]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(typeof row[3]).toBe("number");
    expect(row[6]).toMatchObject({ topologyReferenceType: "asset", messageIntervalMilliseconds: 60000 });
    expect(row[7]).toBe("state");
    expect(res.headers.get("x-query-cost")).toMatch(/^consumed=\d+; remaining=\d+; budget=\d+; reset=\d+$/);
  });

  it("applies the range half-open on States.Timestamp", async () => {
    const start = new Date(dataEnd.getTime() - 60 * 60_000);
    const end = new Date(start.getTime() + 3 * 60_000);
    const res = await query(acmeToken, {
      query: 'States | where DeviceId == "RTM1-DEV-001" and Name == "Temperature" | project Timestamp | order by Timestamp asc',
      startTime: start.toISOString(),
      endTime: end.toISOString(),
    });
    expect(res.body.data.rows.map((r: string[]) => r[0])).toEqual([0, 1, 2].map((m) => new Date(start.getTime() + m * 60_000).toISOString()));
  });

  it("keeps the Events that overlap the range, active ones included", async () => {
    const start = new Date(dataEnd.getTime() - 6 * 3600_000);
    const end = new Date(dataEnd.getTime() - 3 * 3600_000);
    const at = (hoursBeforeEnd: number) => new Date(dataEnd.getTime() - hoursBeforeEnd * 3600_000).toISOString();
    // Rows of its own: the demo's alarms depend on the hour the demo was seeded (an active one is not certain).
    const own: [id: string, startTime: string, endTime: string | null][] = [
      ["TEST-ACTIVE-BEFORE", at(8), null], // started before the range, still active: kept
      ["TEST-ACTIVE-INSIDE", at(4), null], // started inside the range, still active: kept
      ["TEST-ENDED-INSIDE", at(7), at(5)], // ended inside the range: kept
      ["TEST-ENDED-BEFORE", at(9), at(7)], // ended before the range: left out
      ["TEST-AFTER", at(2), null], // starts after the range: left out
    ];
    await embeddedDuckDb(runtime.telemetry).write("CUST-ACME", async (connection) => {
      for (const [id, startTime, endTime] of own)
        await connection.run(
          `INSERT INTO Events (EventId, PlantId, DeviceId, Name, Severity, Message, StartTime, EndTime)
           VALUES ($id, 'RTM1', 'RTM1-TEST', 'TestAlarm', 'Minor', 'test row', $start::TIMESTAMPTZ, $end::TIMESTAMPTZ)`,
          { id, start: startTime, end: endTime },
        );
    });
    const all = await query(acmeToken, { query: "Events | project EventId, StartTime, EndTime", ...wideRange() });
    expect(all.status).toBe(200);
    const expected = all.body.data.rows
      .filter(([, s, e]: string[]) => Date.parse(s!) < end.getTime() && (e === null || Date.parse(e!) >= start.getTime()))
      .map((r: string[]) => r[0])
      .sort();
    const res = await query(acmeToken, { query: "Events | project EventId", startTime: start.toISOString(), endTime: end.toISOString() });
    const kept = res.body.data.rows.map((r: string[]) => r[0]).sort();
    expect(kept).toEqual(expected);
    expect(kept.filter((id: string) => id.startsWith("TEST-"))).toEqual(["TEST-ACTIVE-BEFORE", "TEST-ACTIVE-INSIDE", "TEST-ENDED-INSIDE"]);
  });

  it("keeps only the requested plants", async () => {
    const res = await query(acmeToken, { query: "States | summarize count() by PlantId", plantIds: ["HOU1"] });
    expect(res.body.data.rows.map((r: unknown[]) => r[0])).toEqual(["HOU1"]);
    const both = await query(acmeToken, { query: "States | summarize count() by PlantId | order by PlantId asc" });
    expect(both.body.data.rows.map((r: unknown[]) => r[0])).toEqual(["HOU1", "RTM1"]);
  });

  it("never shows a client another customer's rows, whatever the query says", async () => {
    for (const text of [
      "States | summarize count() by PlantId",
      "Events | distinct PlantId",
      'States | where PlantId == "RTM1" | count',
      'States | where PlantId in ("RTM1", "HOU1") or DeviceId startswith "RTM1" | count',
      'Events | where DeviceId has "HOU1" | count',
    ]) {
      const res = await query(nordicToken, { query: text });
      expect(res.status, text).toBe(200);
      const body = JSON.stringify(res.body.data.rows);
      expect(body, text).not.toMatch(/RTM1|HOU1/);
      if (text.endsWith("count")) expect(res.body.data.rows).toEqual([[0]]);
    }
  });

  it("reports a render hint beside the table", async () => {
    const res = await query(acmeToken, { query: "States | summarize avg(Value) by bin(Timestamp, 1h) | render timechart" });
    expect(res.status).toBe(200);
    expect(res.body.data.render).toMatchObject({ kind: "timechart" });
  });

  it("binds declare query_parameters from the body's parameters, and refuses a value of another type", async () => {
    const text = "declare query_parameters(n:long, name:string, limit:long = 2);\nprint a = n * 2, b = name, c = limit";
    const res = await query(acmeToken, { query: text, parameters: { n: "21", name: "it's | take 0" } });
    expect(res.status).toBe(200);
    expect(res.body.data.rows).toEqual([[42, "it's | take 0", 2]]);
    // A number in JSON is read as its text.
    expect((await query(acmeToken, { query: text, parameters: { n: 4, limit: 7 } })).body.data.rows).toEqual([[8, "", 7]]);
    const wrong = await query(acmeToken, { query: text, parameters: { n: "datetime(2024-01-01)" } });
    expectError(wrong, 400, "INVALID_QUERY");
    expect(wrong.body.message).toContain("Query parameter 'n' of type long could not be parsed");
    expectError(await query(acmeToken, { query: text, parameters: { "not a name": "1" } }), 400, "INVALID_INPUT");
  });

  it("refuses results over 500,000 rows or 64 MB", async () => {
    const rows = await query(acmeToken, { query: "States | project Value" });
    expectError(rows, 400, "QUERY_LIMIT_EXCEEDED");
    expect(rows.body.message).toContain("500,000 rows");
    const bytes = await query(acmeToken, { query: "States" });
    expectError(bytes, 400, "QUERY_LIMIT_EXCEEDED");
    expect(bytes.body.message).toContain("64 MB");
  }, 120_000); // converts ~650,000 rows before it may refuse: seconds, longer on a loaded machine
});

describe("a standard OAuth client (openid-client)", () => {
  it("configures itself from the discovery URL, obtains a token and runs a query", async () => {
    for (const auth of [undefined, oidc.ClientSecretBasic(nordic.client_secret)]) {
      const config = await oidc.discovery(new URL(server.url), nordic.client_id, nordic.client_secret, auth, {
        execute: [oidc.allowInsecureRequests],
      });
      const token = await oidc.clientCredentialsGrant(config, { scope: SCOPE });
      expect(token.token_type.toLowerCase()).toBe("bearer");
      expect(token.expires_in).toBe(3600);
      const response = await oidc.fetchProtectedResource(
        config,
        token.access_token,
        new URL(QUERY, server.url),
        "POST",
        JSON.stringify({ query: "States | summarize count() by PlantId", startTime: dataStart.toISOString(), endTime: dataEnd.toISOString() }),
        new Headers({ "content-type": "application/json" }),
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as any;
      expect(body.data.rows).toEqual([["OUL1", expect.any(Number)]]);
    }
  });
});

describe("random pipelines (fast-check)", () => {
  it("never answer 500 and never leave the requested range, plants or customer", async () => {
    const span = dataEnd.getTime() - dataStart.getTime();
    let answered = 0;
    const runs = 60;
    await fc.assert(
      fc.asyncProperty(
        // Mostly well-formed pipelines, some with a junk token (the generator's own mix leans on junk).
        fc.oneof({ weight: 9, arbitrary: kqlQuery({ junk: 0 }) }, { weight: 1, arbitrary: kqlQuery({ junk: 1 }) }),
        fc.double({ min: 0, max: 0.9, noNaN: true }),
        fc.double({ min: 0.001, max: 0.1, noNaN: true }),
        fc.boolean(),
        async (text, from, length, asAcme) => {
          const start = new Date(dataStart.getTime() + Math.floor(from * span));
          const end = new Date(start.getTime() + Math.max(60_000, Math.floor(length * span)));
          const res = await query(asAcme ? acmeToken : nordicToken, {
            query: text,
            startTime: start.toISOString(),
            endTime: end.toISOString(),
            ...(asAcme ? { plantIds: ["HOU1"] } : {}),
          });
          expect([200, 400], `${text} → ${JSON.stringify(res.body).slice(0, 300)}`).toContain(res.status);
          if (res.status !== 200) {
            expect(["INVALID_QUERY", "QUERY_LIMIT_EXCEEDED", "QUERY_TIMEOUT"]).toContain(res.body.code);
            return;
          }
          answered++;
          const foreign = asAcme ? /RTM1|OUL1/ : /RTM1|HOU1/;
          // Plants outside the scope can only appear when the query itself wrote them.
          if (!foreign.test(text)) expect(JSON.stringify(res.body.data.rows), text).not.toMatch(foreign);
          // Untouched scope columns stay within the range.
          const columns: string[] = res.body.data.columns.map((c: { name: string }) => c.name);
          const untouched = (name: string) => columns.includes(name) && !new RegExp(`\\b${name}\\s*=[^=~]`).test(text);
          if (text.startsWith("States") && untouched("Timestamp")) {
            const i = columns.indexOf("Timestamp");
            for (const row of res.body.data.rows) {
              if (row[i] === null || typeof row[i] !== "string") continue;
              const t = Date.parse(row[i]);
              if (!/summarize|bin|floor|extend|project-rename/.test(text)) {
                expect(t >= start.getTime() && t < end.getTime(), `${text}: ${row[i]}`).toBe(true);
              }
            }
          }
        },
      ),
      { numRuns: runs },
    );
    // The property means little if most queries were rejected before they ran.
    expect(answered).toBeGreaterThan(runs / 3);
    // Generous: joins and make-series among the pipelines take seconds each on a loaded 2-core machine.
  }, 600_000);
});

describe("OpenAPI document", () => {
  it("documents the token endpoint, discovery and the query endpoint", async () => {
    const res = await client.call("GET", "/openapi.json");
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([QUERY, TOKEN, "/.well-known/openid-configuration", "/oauth2/v2.0/keys"]),
    );
    expect(res.body.paths[TOKEN].post.requestBody.content).toHaveProperty(["application/x-www-form-urlencoded"]);
    expect(client.checkedCount).toBeGreaterThan(20);
  });
});
