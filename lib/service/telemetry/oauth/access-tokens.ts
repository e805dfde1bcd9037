/**
 * Telemetry access tokens: signed JWTs (ES256) carrying issuer (the configured OAUTH_ISSUER, never
 * a request's Host), audience (the resource id), subject (the client id), customer and expiry, so
 * checking one costs a signature check and no secret lookup; all of them are checked on every token.
 * Because a JWT alone cannot be taken back, every check ALSO asks the client table whether the
 * client still exists unrevoked and still belongs to the token's customer: revoking a client stops
 * its tokens on the next request. The signing key pair is made on first use and kept in the service database;
 * its public half is published at the JWKS URI of the discovery document.
 */
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK, type CryptoKey } from "jose";
import type { SqlDb } from "../../../platform/sql";
import type { TelemetryClients } from "./clients";

export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
/**
 * Tokens whose signature and claims were checked, kept by their exact text until they expire (issue
 * 38's fixed cost: the ES256 check took ~0.8 ms of every query at load 14). A kept token is still
 * checked for expiry against the request's time, and its client is still looked up on every request,
 * so revocation is as immediate as before. Least recently used out past this many.
 */
const VERIFIED_TOKENS = 1024;
const ALGORITHM = "ES256";
/** Private claim naming the customer whose telemetry the token opens. */
const CUSTOMER_CLAIM = "customer_id";

export interface TokenPrincipal {
  clientId: string;
  customerId: string;
}

export interface AccessTokens {
  issue(principal: TokenPrincipal, options?: { now?: Date; lifetimeSeconds?: number }): Promise<string>;
  /** The principal of a valid token whose client is still active; undefined otherwise. */
  verify(token: string, now?: Date): Promise<TokenPrincipal | undefined>;
  /** The public keys (JWKS) that verify issued tokens. */
  jwks(): Promise<{ keys: JWK[] }>;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

const LATEST_KEY = `SELECT kid, private_jwk AS "privateJwk", public_jwk AS "publicJwk" FROM telemetry_signing_keys
  WHERE algorithm = @algorithm ORDER BY created_at DESC, kid LIMIT 1`;
type KeyRow = { kid: string; privateJwk: string; publicJwk: string };

async function loadOrCreateKey(db: SqlDb): Promise<SigningKey> {
  let row = await db.get<KeyRow>(LATEST_KEY, { algorithm: ALGORITHM });
  if (!row) {
    const pair = await generateKeyPair(ALGORITHM, { extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg: ALGORITHM, use: "sig" };
    const privateJwk = { ...(await exportJWK(pair.privateKey)), kid, alg: ALGORITHM };
    // Another process or instance may make one at the same time: the check and the insert run in
    // one transaction (SQLite: BEGIN IMMEDIATE; PostgreSQL: a table lock), so the first one stored is kept.
    row = await db.transaction(async (tx) => {
      if (tx.engine === "postgres") await tx.run("LOCK TABLE telemetry_signing_keys IN SHARE ROW EXCLUSIVE MODE");
      const stored = await tx.get<KeyRow>(LATEST_KEY, { algorithm: ALGORITHM });
      if (stored) return stored;
      await tx.run(`INSERT INTO telemetry_signing_keys (kid, algorithm, private_jwk, public_jwk, created_at) VALUES (@kid, @algorithm, @privateJwk, @publicJwk, @now)`, {
        kid,
        algorithm: ALGORITHM,
        privateJwk: JSON.stringify(privateJwk),
        publicJwk: JSON.stringify(publicJwk),
        now: new Date().toISOString(),
      });
      return { kid, privateJwk: JSON.stringify(privateJwk), publicJwk: JSON.stringify(publicJwk) };
    });
  }
  const publicJwk = JSON.parse(row.publicJwk) as JWK;
  return {
    kid: row.kid,
    privateKey: (await importJWK(JSON.parse(row.privateJwk) as JWK, ALGORITHM)) as CryptoKey,
    publicKey: (await importJWK(publicJwk, ALGORITHM)) as CryptoKey,
    publicJwk,
  };
}

export function createAccessTokens(db: SqlDb, clients: TelemetryClients, resourceId: string, issuer: string): AccessTokens {
  let key: Promise<SigningKey> | undefined;
  const signingKey = () => (key ??= loadOrCreateKey(db));
  const verified = new Map<string, TokenPrincipal & { exp: number }>();

  /** The token's principal if its signature and claims hold at `now` (from `verified` when checked before). */
  async function checkToken(token: string, now: Date): Promise<TokenPrincipal | undefined> {
    const seconds = Math.floor(now.getTime() / 1000);
    const kept = verified.get(token);
    // jose's rule: a token is expired once exp <= now (in whole seconds).
    if (kept && kept.exp > seconds) {
      verified.delete(token);
      verified.set(token, kept);
      return { clientId: kept.clientId, customerId: kept.customerId };
    }
    const { publicKey } = await signingKey();
    let payload;
    try {
      ({ payload } = await jwtVerify(token, publicKey, {
        algorithms: [ALGORITHM],
        issuer,
        audience: resourceId,
        currentDate: now,
        typ: "at+jwt",
        requiredClaims: ["exp", "sub", "iss"],
      }));
    } catch {
      return undefined;
    }
    const clientId = payload.sub;
    const customerId = payload[CUSTOMER_CLAIM];
    if (typeof clientId !== "string" || typeof customerId !== "string") return undefined;
    // Only a token valid from now on is kept (a token dated in the future, nbf, is checked each time).
    if (payload.nbf === undefined && typeof payload.exp === "number") {
      verified.set(token, { clientId, customerId, exp: payload.exp });
      if (verified.size > VERIFIED_TOKENS) verified.delete(verified.keys().next().value!);
    }
    return { clientId, customerId };
  }

  return {
    async issue(principal, { now = new Date(), lifetimeSeconds = ACCESS_TOKEN_LIFETIME_SECONDS } = {}) {
      const { kid, privateKey } = await signingKey();
      const issuedAt = Math.floor(now.getTime() / 1000);
      return new SignJWT({ [CUSTOMER_CLAIM]: principal.customerId, azp: principal.clientId })
        .setProtectedHeader({ alg: ALGORITHM, kid, typ: "at+jwt" })
        .setIssuer(issuer)
        .setSubject(principal.clientId)
        .setAudience(resourceId)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetimeSeconds)
        .setJti(randomUUID())
        .sign(privateKey);
    },

    async verify(token, now = new Date()) {
      const principal = await checkToken(token, now);
      if (!principal) return undefined;
      return (await clients.activeCustomer(principal.clientId)) === principal.customerId ? principal : undefined;
    },

    async jwks() {
      return { keys: [(await signingKey()).publicJwk] };
    },
  };
}
