/**
 * The OAuth issuer comes from configuration, never from the request (docs/api.md §5): discovery and
 * issued tokens name OAUTH_ISSUER whatever Host or X-Forwarded-Host a request carries, and a token
 * whose `iss` is another — even one signed with the service's own key — is refused. Real HTTP,
 * real SQLite (the signing key is read from the service's own table to forge such a token).
 */
import http from "node:http";
import { decodeJwt, importJWK, SignJWT, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { suiteService } from "../testing/openapi-checked-client";

const ISSUER = "https://telemetry.plantdesk.example";
const SCOPE = "api://plant-telemetry/.default";

const service = suiteService("issuer", { OAUTH_ISSUER: `${ISSUER}/` });

/** A request with the Host and forwarding headers an attacker (or a misconfigured proxy) chose. */
function raw(method: string, pathname: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${service().server.url}${pathname}`, { method, headers: { ...headers, ...(body ? { "content-length": String(Buffer.byteLength(body)) } : {}) } });
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

const FOREIGN = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };


describe("the issuer", () => {
  it("defaults to http://localhost:<PORT> and is configurable", () => {
    expect(parseConfig({ PORT: "3700" } as unknown as NodeJS.ProcessEnv).oauthIssuer).toBe("http://localhost:3700");
    expect(parseConfig({} as unknown as NodeJS.ProcessEnv).oauthIssuer).toBe("http://localhost:3000");
    expect(() => parseConfig({ OAUTH_ISSUER: "not a url" } as unknown as NodeJS.ProcessEnv)).toThrow(/OAUTH_ISSUER/);
  });

  it("names the discovery document's issuer and endpoints, whatever Host the request had", async () => {
    const res = await raw("GET", "/.well-known/openid-configuration", FOREIGN);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({
      issuer: ISSUER,
      token_endpoint: `${ISSUER}/oauth2/v2.0/token`,
      jwks_uri: `${ISSUER}/oauth2/v2.0/keys`,
    });
    expect(res.body).not.toContain("evil.example");
  });

  it("is the iss of every token issued, whatever Host the token request had", async () => {
    const client = await service().runtime.telemetry.clients.create("CUST-ACME");
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret, scope: SCOPE }).toString();
    const res = await raw("POST", "/oauth2/v2.0/token", { ...FOREIGN, "content-type": "application/x-www-form-urlencoded" }, form);
    expect(res.status).toBe(200);
    expect(decodeJwt(JSON.parse(res.body).access_token).iss).toBe(ISSUER);
  });

  it("is checked on every token: the service's own signature with another iss is refused", async () => {
    const client = await service().runtime.telemetry.clients.create("CUST-ACME");
    const row = (await service().runtime.sql.get<{ jwk: string; kid: string }>("SELECT private_jwk AS jwk, kid FROM telemetry_signing_keys"))!;
    const key = await importJWK(JSON.parse(row.jwk) as JWK, "ES256");
    const sign = (iss: string | null) => {
      const jwt = new SignJWT({ customer_id: "CUST-ACME" })
        .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: row.kid })
        .setSubject(client.client_id)
        .setAudience("api://plant-telemetry")
        .setIssuedAt()
        .setExpirationTime("1h");
      return (iss === null ? jwt : jwt.setIssuer(iss)).sign(key);
    };
    const end = new Date(Date.now() + 60_000);
    const body = JSON.stringify({ query: "States | take 1", startTime: new Date(end.getTime() - 86_400_000).toISOString(), endTime: end.toISOString() });
    const ask = async (token: string) =>
      (await raw("POST", "/insights/v1/telemetry/query/table", { authorization: `Bearer ${token}`, "content-type": "application/json" }, body)).status;
    expect(await ask(await sign(ISSUER))).toBe(200);
    expect(await ask(await sign("http://evil.example"))).toBe(401);
    expect(await ask(await sign(null))).toBe(401);
  });
});
