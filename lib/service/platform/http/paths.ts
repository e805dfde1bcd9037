/**
 * Which surface of the one server answers a request (scripts/serve.ts, docs/architecture.md):
 * the embedded service at its spec paths (docs/api.md §1) and at Kusto's REST paths (`/v1/`,
 * `/v2/`, docs/api.md §7); the dashboard's `/api/` router; Next.js for pages and their assets.
 */
const SERVICE_PREFIXES = ["/maintenance/", "/insights/", "/oauth2/", "/v1/", "/v2/"];
const SERVICE_PATHS = new Set(["/.well-known/openid-configuration", "/openapi.json"]);

export function isServicePath(pathname: string): boolean {
  return SERVICE_PATHS.has(pathname) || SERVICE_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

/**
 * A request no page can answer: a program's, not a browser's. It carries a bearer token, or asks
 * for JSON and not HTML. Such a request at a path no surface knows gets the service's JSON 404 —
 * never Next's redirect to the HTML sign-in page, which API clients follow into a page they
 * cannot read (Microsoft's Kusto SDK, for one, fails on any redirect).
 */
export function wantsApiAnswer(headers: Record<string, string | string[] | undefined>): boolean {
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
