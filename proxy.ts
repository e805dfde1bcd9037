/**
 * Next 16's proxy (formerly middleware), on every page request:
 *  - a Content-Security-Policy with a fresh nonce (lib/platform/http/security-headers.ts):
 *    Next finds the nonce in the request's CSP header and puts it on its own scripts; the root
 *    layout reads it (`x-nonce`) for the theme script. No inline script runs without it.
 *  - the first, optimistic sign-in gate: a page request without a session cookie goes to sign-in
 *    at once, remembering where it was headed. The real check — the cookie decrypts, is not
 *    expired, and names an enabled user — happens server-side in the dashboard layout
 *    (`requireSignedInUser`) and in every `/api/` route (`lib/api-handler/handler.ts`).
 */
import { NextResponse, type NextRequest } from "next/server";
import { pageContentSecurityPolicy } from "@/lib/platform/http/security-headers";

const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];
/** Pages anyone may open: sign-in itself, invitation links and the public API reference. */
const PUBLIC_PAGES = /^\/(signin|invite|docs)(\/|$)/;

function hasSessionCookie(request: NextRequest): boolean {
  return SESSION_COOKIES.some((name) => request.cookies.has(name) || request.cookies.has(`${name}.0`));
}

function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

export function proxy(request: NextRequest) {
  const policy = pageContentSecurityPolicy(newNonce(), process.env.NODE_ENV === "development");
  if (!PUBLIC_PAGES.test(request.nextUrl.pathname) && !hasSessionCookie(request)) {
    const target = new URL("/signin", request.url);
    const back = request.nextUrl.pathname + request.nextUrl.search;
    if (back !== "/") target.searchParams.set("callbackUrl", back);
    const redirect = NextResponse.redirect(target);
    redirect.headers.set("content-security-policy", policy);
    return redirect;
  }
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  headers.set("x-nonce", /'nonce-([^']+)'/.exec(policy)![1]!);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  // Every page. Not: the BFF (`/api/`, JSON with its own headers; sign-in's `/api/auth/*` too), Next's
  // assets, and the embedded service's own paths.
  matcher: ["/((?!api/|_next/static|_next/image|favicon\\.ico|robots\\.txt|maintenance/|insights/|oauth2/|v1/|v2/|\\.well-known/|openapi\\.json).*)"],
};
