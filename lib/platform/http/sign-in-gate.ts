/**
 * The first, optimistic sign-in gate of pages (docs/architecture.md, "A fair front door"): a page
 * request without a session cookie goes to the sign-in page at once, remembering where it was
 * headed. The front door (scripts/front-door.ts) answers it before admission and before Next, so an
 * anonymous flood of page requests costs a redirect each, not a trip through Next; Next's proxy
 * (proxy.ts) applies the same rule to what reaches it. The real check — the cookie decrypts, its
 * session lives, its user is enabled — is server-side (lib/auth/session.ts). Pure.
 */

const SESSION_COOKIE_NAMES = ["next-auth.session-token", "__Secure-next-auth.session-token"] as const;

/** Pages anyone may open: sign-in itself, invitation links and the public API reference. */
const PUBLIC_PAGES = /^\/(signin|invite|docs)(\/|$)/;

/** Not pages (proxy.ts's matcher leaves them out): the JSON surfaces, Next's assets, the service's paths. */
const NOT_PAGES = /^\/(api\/|_next\/static|_next\/image|favicon\.ico|robots\.txt|maintenance\/|insights\/|oauth2\/|v1\/|v2\/|\.well-known\/|openapi\.json)/;

/** Whether a Cookie header names a session cookie (whole, or next-auth's first chunk). */
export function hasSessionCookie(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(";").some((part) => {
    const name = part.slice(0, part.indexOf("=")).trim();
    return SESSION_COOKIE_NAMES.some((cookie) => name === cookie || name === `${cookie}.0`);
  });
}

/**
 * Where a page request goes when it carries no session cookie: `/signin`, with `callbackUrl` the
 * path and query it asked for (none for `/`); null when it may pass (a public page, not a page, or
 * a session cookie present).
 */
export function signInRedirect(pathname: string, search: string, hasSession: boolean): string | null {
  if (hasSession || PUBLIC_PAGES.test(pathname) || NOT_PAGES.test(pathname)) return null;
  const back = pathname + search;
  return back === "/" ? "/signin" : `/signin?${new URLSearchParams({ callbackUrl: back })}`;
}
