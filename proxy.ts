/**
 * The first, optimistic gate (Next 16's proxy, formerly middleware): a page request without a
 * session cookie goes to sign-in at once, remembering where it was headed. The real check — the
 * cookie decrypts, is not expired, and names an enabled user — happens server-side in the
 * dashboard layout (`requireSignedInUser`) and in every `/api/` route (`lib/bff/handler.ts`).
 */
import { NextResponse, type NextRequest } from "next/server";

const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

function hasSessionCookie(request: NextRequest): boolean {
  return SESSION_COOKIES.some((name) => request.cookies.has(name) || request.cookies.has(`${name}.0`));
}

export function proxy(request: NextRequest) {
  if (hasSessionCookie(request)) return NextResponse.next();
  const target = new URL("/signin", request.url);
  const back = request.nextUrl.pathname + request.nextUrl.search;
  if (back !== "/") target.searchParams.set("callbackUrl", back);
  return NextResponse.redirect(target);
}

export const config = {
  // Every page except sign-in itself. Not: the BFF (`/api/`, answers 401 itself), Next's assets, the
  // embedded service's own paths (token-protected), and the public API reference.
  matcher: [
    "/((?!api/|_next/|signin|favicon\\.ico|robots\\.txt|maintenance/|insights/|oauth2/|\\.well-known/|openapi\\.json|docs/).*)",
  ],
};
