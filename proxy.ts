/**
 * Next 16's proxy (formerly middleware), on every page request:
 *  - a Content-Security-Policy with a fresh nonce (lib/platform/http/security-headers.ts):
 *    Next finds the nonce in the request's CSP header and puts it on its own scripts; the root
 *    layout reads it (`x-nonce`) for the theme script. No inline script runs without it.
 *  - the first, optimistic sign-in gate (lib/platform/http/sign-in-gate.ts): a page request without
 *    a session cookie goes to sign-in at once, remembering where it was headed. The front door
 *    answers most of these before Next (scripts/front-door.ts); this catches the rest (development).
 *    The real check — the cookie decrypts, is not expired, and names an enabled user — happens
 *    server-side in the dashboard layout (`requireSignedInUser`) and in every `/api/` route
 *    (`lib/api-handler/handler.ts`).
 */
import { NextResponse, type NextRequest } from "next/server";
import { pageContentSecurityPolicy } from "@/lib/platform/http/security-headers";
import { hasSessionCookie, signInRedirect } from "@/lib/platform/http/sign-in-gate";

function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

export function proxy(request: NextRequest) {
  const policy = pageContentSecurityPolicy(newNonce(), process.env.NODE_ENV === "development");
  const signIn = signInRedirect(request.nextUrl.pathname, request.nextUrl.search, hasSessionCookie(request.headers.get("cookie")));
  if (signIn) {
    const redirect = NextResponse.redirect(new URL(signIn, request.url));
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
