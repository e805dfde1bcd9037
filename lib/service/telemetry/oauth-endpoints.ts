/**
 * The OAuth 2.0 authorization server of the telemetry interface (docs/api.md §5): the
 * client-credentials token endpoint, its metadata document and the JWKS. The token endpoint alone
 * answers errors in RFC 6749 §5.2's format, checked in this order: malformed request or missing
 * parameter (invalid_request) → client authentication (invalid_client, 401) → grant type
 * (unsupported_grant_type) → scope (invalid_scope). Before any of it, the endpoint is throttled per
 * client address and, once the request names one, per client id (429 `temporarily_unavailable`
 * with Retry-After): a client needs one token an hour, so a flood is either a broken client or
 * someone guessing secrets, and neither may take the endpoint from the others.
 */
import {
  ZJsonWebKeySet,
  ZOAuthError,
  ZOpenIdConfiguration,
  ZTokenRequest,
  ZTokenResponse,
  type TOAuthErrorCode,
} from "@/lib/contract/telemetry";
import { ApiError } from "../../contract/errors";
import { readFormBody } from "../../platform/http/body";
import { json } from "../../platform/http/respond";
import type { Route } from "../../platform/http/router";
import type { ServiceRequest, ServiceResponse } from "../../platform/http/types";
import type { ApiContribution } from "../../platform/openapi";
import { ACCESS_TOKEN_LIFETIME_SECONDS, type AccessTokens } from "./oauth/access-tokens";
import type { TelemetryClients } from "./oauth/clients";
import type { RateLimiter } from "../../platform/rate-limit";

import { DISCOVERY_PATH, JWKS_PATH, TENANT_DISCOVERY_PATH, TENANT_TOKEN_PATH, TOKEN_PATH } from "@/lib/contract/spec-paths";
import { ID_PATTERN } from "@/lib/contract/vocabulary";

interface OAuthContext {
  clients: TelemetryClients;
  tokens: AccessTokens;
  resourceId: string;
  /** The configured issuer (OAUTH_ISSUER): the discovery document never echoes a request's Host. */
  issuer: string;
  /** Token requests per client id, and per client address, per window (shared by the instances with Redis). */
  throttle: { perClient: RateLimiter; perAddress: RateLimiter };
}

/** RFC 6749 §5.1: token responses must not be cached. */
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

class OAuthError extends Error {
  constructor(
    readonly error: TOAuthErrorCode,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

function oauthError(error: OAuthError): ServiceResponse {
  const headers: Record<string, string> = { ...NO_STORE, ...error.headers };
  // 401 must name a scheme the client can use; Basic is the one this endpoint accepts.
  if (error.status === 401) headers["www-authenticate"] = 'Basic realm="plantdesk-telemetry", charset="UTF-8"';
  return json({ error: error.error, error_description: error.description }, error.status, headers);
}

/** RFC 6749 §2.3.1: id and secret are form-encoded, joined by ':' and base64-encoded. */
function basicCredentials(header: string | undefined): { clientId: string; secret: string } | null {
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header);
  if (!m) throw new OAuthError("invalid_client", "The Authorization header is not a valid Basic credential.", 401);
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new OAuthError("invalid_client", "The Basic credential has no ':' between client id and secret.", 401);
  const formDecode = (text: string) => decodeURIComponent(text.replace(/\+/g, " "));
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError("invalid_client", "The Basic credential is not properly encoded.", 401);
  }
}

function readTokenForm(req: ServiceRequest): URLSearchParams {
  let form: URLSearchParams | null;
  try {
    form = readFormBody(req);
  } catch (error) {
    if (error instanceof ApiError) throw new OAuthError("invalid_request", error.message);
    throw error;
  }
  if (!form) throw new OAuthError("invalid_request", "The request must be sent as Content-Type: application/x-www-form-urlencoded.");
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1) throw new OAuthError("invalid_request", `Parameter '${name}' is given more than once.`);
  }
  return form;
}

/** Spends one request of the key's window; 429 when it is spent (never naming the secret or the address). */
async function throttle(limiter: RateLimiter, key: string, who: string): Promise<void> {
  const decision = await limiter.consume(key);
  if (decision.allowed) return;
  throw new OAuthError("temporarily_unavailable", `Too many token requests ${who}; retry in ${decision.retryAfterSeconds} s. A token lasts ${ACCESS_TOKEN_LIFETIME_SECONDS} s: reuse it.`, 429, {
    "retry-after": String(decision.retryAfterSeconds),
  });
}

/** The client id a token request names (HTTP Basic or the form), without checking anything else. */
function namedClientId(req: ServiceRequest, form: URLSearchParams): string | null {
  try {
    return basicCredentials(req.headers.authorization)?.clientId ?? form.get("client_id");
  } catch {
    return form.get("client_id");
  }
}

async function issueToken(req: ServiceRequest, ctx: OAuthContext): Promise<ServiceResponse> {
  await throttle(ctx.throttle.perAddress, req.clientAddress ?? "in-process", "from this address");
  const form = readTokenForm(req);
  const named = namedClientId(req, form);
  // Per (client, address): a stranger who knows a client id cannot use up that client's requests
  // from elsewhere (issue 35); the per-address limit above bounds any one address. Bounded key: an
  // id longer than any real one is refused as unknown anyway.
  if (named) await throttle(ctx.throttle.perClient, `${named.slice(0, 200)}|${req.clientAddress ?? "in-process"}`, "for this client from this address");
  const grantType = form.get("grant_type");
  const scope = form.get("scope");
  if (!grantType) throw new OAuthError("invalid_request", "Parameter 'grant_type' is required.");
  if (!scope) throw new OAuthError("invalid_request", `Parameter 'scope' is required; use '${ctx.resourceId}/.default'.`);

  const basic = basicCredentials(req.headers.authorization);
  const bodyId = form.get("client_id");
  const bodySecret = form.get("client_secret");
  if (basic && bodySecret !== null) {
    throw new OAuthError("invalid_request", "Use one client authentication method: HTTP Basic or client_secret in the body, not both.");
  }
  if (basic && bodyId !== null && bodyId !== basic.clientId) {
    throw new OAuthError("invalid_request", "client_id in the body differs from the one in the Authorization header.");
  }
  const credentials = basic ?? (bodyId !== null && bodySecret !== null ? { clientId: bodyId, secret: bodySecret } : null);
  if (!credentials) {
    throw new OAuthError("invalid_client", "Client authentication is required: client_id and client_secret, or HTTP Basic.", 401);
  }
  const client = await ctx.clients.authenticate(credentials.clientId, credentials.secret);
  if (!client) throw new OAuthError("invalid_client", "Client authentication failed.", 401);

  if (grantType !== "client_credentials") {
    throw new OAuthError("unsupported_grant_type", "Only grant_type=client_credentials is supported.");
  }
  if (scope !== `${ctx.resourceId}/.default`) {
    throw new OAuthError("invalid_scope", `The scope must be '${ctx.resourceId}/.default'.`);
  }
  const accessToken = await ctx.tokens.issue(client);
  return json({ token_type: "Bearer", expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, access_token: accessToken }, 200, NO_STORE);
}

function discoveryDocument(origin: string, resourceId: string) {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    jwks_uri: `${origin}${JWKS_PATH}`,
    grant_types_supported: ["client_credentials"],
    token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    scopes_supported: [`${resourceId}/.default`],
    response_types_supported: ["token"],
  };
}

/**
 * The tenant's discovery document as MSAL reads it before a client-credentials exchange (it needs
 * issuer, authorization_endpoint and token_endpoint): the tenant is any identifier and changes
 * nothing but the paths (this issuer has one tenant). There is no authorization endpoint to use
 * (client credentials never call it); the field names where it would be, because MSAL requires one.
 */
function tenantDiscoveryDocument(origin: string, resourceId: string, tenant: string) {
  const base = `${origin}/${encodeURIComponent(tenant)}`;
  return { ...discoveryDocument(origin, resourceId), token_endpoint: `${base}/oauth2/v2.0/token`, authorization_endpoint: `${base}/oauth2/v2.0/authorize` };
}

function tenantOf(params: Record<string, string>): string {
  const tenant = params.tenant ?? "";
  if (!ID_PATTERN.test(tenant)) throw new ApiError("NOT_FOUND", "No such tenant: a tenant is 1–64 letters, digits, '.', '_' or '-'.");
  return tenant;
}

export function createOAuthRoutes(ctx: OAuthContext): Route[] {
  const token = async (req: ServiceRequest) => {
    try {
      return await issueToken(req, ctx);
    } catch (error) {
      if (error instanceof OAuthError) return oauthError(error);
      throw error;
    }
  };
  return [
    { method: "POST", pattern: TOKEN_PATH, handler: token },
    // Entra ID's spelling of the same endpoint (any tenant: one issuer, one set of clients).
    { method: "POST", pattern: TENANT_TOKEN_PATH, handler: async (req, params) => (tenantOf(params), token(req)) },
    {
      method: "GET",
      pattern: TENANT_DISCOVERY_PATH,
      handler: (_req, params) => json(tenantDiscoveryDocument(ctx.issuer, ctx.resourceId, tenantOf(params)), 200, { "cache-control": "public, max-age=300" }),
    },
    {
      method: "GET",
      pattern: DISCOVERY_PATH,
      handler: () => json(discoveryDocument(ctx.issuer, ctx.resourceId), 200, { "cache-control": "public, max-age=300" }),
    },
    {
      method: "GET",
      pattern: JWKS_PATH,
      handler: async () => json(await ctx.tokens.jwks(), 200, { "cache-control": "public, max-age=300" }),
    },
  ];
}

export const oauthApi: ApiContribution = {
  operations: [
    {
      method: "POST",
      path: TOKEN_PATH,
      operationId: "issueToken",
      summary: "Access token (OAuth 2.0 client credentials)",
      description:
        "Client authentication by `client_secret_post` (client_id and client_secret in the form) or `client_secret_basic` (HTTP Basic). " +
        "Errors use RFC 6749 §5.2's body, checked in this order: malformed request or missing parameter → `invalid_request` (400); " +
        "failed client authentication → `invalid_client` (401, `WWW-Authenticate: Basic`); another grant type → `unsupported_grant_type` (400); " +
        "another scope → `invalid_scope` (400). Requests are throttled per client address and per (client id, client address) " +
        "(`TOKEN_RATE_LIMIT_PER_ADDRESS_PER_MINUTE`, `TOKEN_RATE_LIMIT_PER_CLIENT_PER_MINUTE`): past the limit → `temporarily_unavailable` (429, `Retry-After`).",
      tag: "OAuth",
      security: [],
      requestBody: { schema: ZTokenRequest, contentType: "application/x-www-form-urlencoded" },
      response: { schema: ZTokenResponse, description: "A bearer token for the telemetry interface, valid 3600 s." },
      errors: [],
      otherResponses: {
        400: { schema: ZOAuthError, description: "invalid_request, unsupported_grant_type or invalid_scope." },
        401: { schema: ZOAuthError, description: "invalid_client." },
        429: { schema: ZOAuthError, description: "temporarily_unavailable: too many token requests from this address or for this client; `Retry-After` says when to try again." },
      },
    },
    {
      method: "GET",
      path: DISCOVERY_PATH,
      operationId: "getOpenIdConfiguration",
      summary: "Authorization server metadata",
      description:
        "`issuer` is the configured base URL of the service (`OAUTH_ISSUER`, never the request's `Host`), and the `iss` of every token it issues; standard OAuth client libraries configure themselves from it.",
      tag: "OAuth",
      security: [],
      response: { schema: ZOpenIdConfiguration, description: "Metadata of the token endpoint." },
      errors: [],
    },
    {
      method: "GET",
      path: JWKS_PATH,
      operationId: "getJsonWebKeySet",
      summary: "Token signing keys",
      tag: "OAuth",
      security: [],
      response: { schema: ZJsonWebKeySet, description: "The public keys of the access tokens." },
      errors: [],
    },
  ],
  securitySchemes: {
    telemetryOAuth: {
      type: "oauth2",
      description:
        "Client credentials. Clients are created with `npm run ops -- client create --customer <customerId>` and belong to one customer.",
      flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: { "api://plant-telemetry/.default": "Query the customer's telemetry." } } },
    },
  },
  notes: [
    "**Telemetry access tokens** are JWTs signed with ES256 (public keys at `/oauth2/v2.0/keys`): `iss` is the discovery document's issuer, `aud` the resource id, `sub` the client id, `customer_id` the client's customer, `exp` 3600 s after issue. Besides the signature, every query checks that the client still exists and is not revoked, so revoking a client (`npm run ops -- client revoke <client_id>`) stops its tokens at once. Client secrets are stored only as SHA-256 hashes and compared in constant time.",
  ],
};
