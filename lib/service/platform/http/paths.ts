/** Path prefixes the embedded service answers at (docs/api.md §1). */
const SERVICE_PREFIXES = ["/maintenance/", "/insights/", "/oauth2/"];
const SERVICE_PATHS = new Set(["/.well-known/openid-configuration", "/openapi.json"]);

export function isServicePath(pathname: string): boolean {
  return SERVICE_PATHS.has(pathname) || SERVICE_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}
