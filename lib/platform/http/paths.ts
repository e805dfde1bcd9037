/**
 * Which surface of the one server answers a request (scripts/serve.ts, docs/architecture.md):
 * the embedded service at its spec paths (docs/api.md §1) and at Kusto's REST paths (`/v1/`,
 * `/v2/`, docs/api.md §7); the dashboard's `/api/` router; Next.js for pages and their assets.
 */
const SERVICE_PREFIXES = ["/maintenance/", "/insights/", "/oauth2/", "/v1/", "/v2/"];
const SERVICE_PATHS = new Set(["/.well-known/openid-configuration", "/openapi.json"]);

/** Entra ID's tenant-prefixed spelling of the token endpoint and its discovery document (lib/contract/spec-paths.ts). */
const TENANT_PATH = /^\/[^/]+\/(oauth2\/v2\.0\/token|v2\.0\/\.well-known\/openid-configuration)$/;

function isServicePath(pathname: string): boolean {
  return SERVICE_PATHS.has(pathname) || SERVICE_PREFIXES.some((prefix) => pathname.startsWith(prefix)) || TENANT_PATH.test(pathname);
}

/**
 * A request no page can answer: a program's, not a browser's. It carries a bearer token, or asks
 * for JSON and not HTML. Such a request at a path no surface knows gets the service's JSON 404 —
 * never Next's redirect to the HTML sign-in page, which API clients follow into a page they
 * cannot read (Microsoft's Kusto SDK, for one, fails on any redirect).
 */
function wantsApiAnswer(headers: Record<string, string | string[] | undefined>): boolean {
  const authorization = headers.authorization;
  if (typeof authorization === "string" && /^bearer\s/i.test(authorization)) return true;
  const accept = typeof headers.accept === "string" ? headers.accept.toLowerCase() : "";
  return accept.includes("application/json") && !accept.includes("text/html");
}

export type Surface = "service" | "api" | "next";

/**
 * The surface for a request. Next keeps sign-in (`/api/auth/`) and its own paths (`/_next/`, `/__next…`);
 * every other request of a program goes to the service, whose router answers unknown paths 404.
 */
export function surfaceFor(pathname: string, headers: Record<string, string | string[] | undefined>): Surface {
  if (isServicePath(pathname)) return "service";
  if (pathname.startsWith("/api/auth/")) return "next";
  if (pathname.startsWith("/api/")) return "api";
  // Next's assets, and its development server's own endpoints (`/__nextjs_original-stack-frames`, …).
  if (pathname.startsWith("/_next/") || pathname.startsWith("/__next")) return "next";
  return wantsApiAnswer(headers) ? "service" : "next";
}

/** RFC 3986 §2.3's unreserved characters: their percent-encoded and plain forms mean the same (§6.2.2.2). */
const ENCODED_UNRESERVED = /%(4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]|3[0-9]|2D|2E|5F|7E)/gi;

/**
 * The one spelling of a request target that every decision of the server is made on — which
 * surface answers, which body limits apply — and that every surface, Next included, then receives
 * (docs/architecture.md, "One path"). Without it, `/x/../api/auth/…`, `/%2e%2e/api/auth/…` or
 * `//api/auth/…` passed a check made on the raw text and reached next-auth, which resolves them
 * later. Percent-encoded unreserved characters are decoded, `\` counts as `/` (as WHATWG URLs and
 * browsers read it), dot segments are resolved and runs of slashes become one; the query is kept
 * as it was. Encoded slashes (`%2F`) stay encoded: they are data, not separators.
 */
export function normalizeRequestTarget(target: string): string {
  // Absolute form (`POST http://host/path`) names a path too; `*` (OPTIONS) has none.
  const relative = /^[a-z][a-z0-9+.-]*:/i.test(target) ? URL.canParse(target) ? new URL(target).pathname + new URL(target).search : "/" : target;
  const hash = relative.indexOf("#");
  const withoutFragment = hash < 0 ? relative : relative.slice(0, hash);
  const question = withoutFragment.indexOf("?");
  const rawPath = question < 0 ? withoutFragment : withoutFragment.slice(0, question);
  const query = question < 0 ? "" : withoutFragment.slice(question);
  const decoded = rawPath.replace(ENCODED_UNRESERVED, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
  // Prefixed with an origin, so a path that starts with `//` or `\\` can never be read as a host.
  const pathname = new URL(`http://localhost/${decoded.replace(/^[/\\]+/, "")}`).pathname.replace(/\/{2,}/g, "/");
  return pathname + query;
}
