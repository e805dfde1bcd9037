/** The pages' first sign-in gate (sign-in-gate.ts): who goes to sign-in, and where they come back to. */
import { describe, expect, it } from "vitest";
import { hasSessionCookie, signInRedirect } from "./sign-in-gate";

describe("signInRedirect", () => {
  it("sends a page without a session to sign-in, remembering path and query", () => {
    expect(signInRedirect("/plants/RTM1/jobs", "?pageSize=25", false)).toBe("/signin?callbackUrl=%2Fplants%2FRTM1%2Fjobs%3FpageSize%3D25");
    expect(signInRedirect("/", "", false)).toBe("/signin");
    expect(signInRedirect("/account/sessions", "", false)).toBe("/signin?callbackUrl=%2Faccount%2Fsessions");
  });

  it("lets public pages, non-pages and requests with a session cookie pass", () => {
    for (const path of ["/signin", "/signin/", "/invite/abc", "/docs/api", "/api/me", "/api/auth/csrf", "/_next/static/x.js", "/maintenance/v1/plants", "/openapi.json", "/.well-known/openid-configuration", "/favicon.ico"]) {
      expect(signInRedirect(path, "", false), path).toBeNull();
    }
    expect(signInRedirect("/plants", "", true)).toBeNull();
    // Only whole names: /signinx and /docsy are pages like any other.
    expect(signInRedirect("/signinx", "", false)).toBe("/signin?callbackUrl=%2Fsigninx");
  });

  it("knows next-auth's session cookies, whole or chunked, and nothing else", () => {
    expect(hasSessionCookie("a=1; next-auth.session-token=x")).toBe(true);
    expect(hasSessionCookie("__Secure-next-auth.session-token.0=x; __Secure-next-auth.session-token.1=y")).toBe(true);
    expect(hasSessionCookie("next-auth.csrf-token=x; next-auth.callback-url=y")).toBe(false);
    expect(hasSessionCookie("xnext-auth.session-token=x")).toBe(false);
    expect(hasSessionCookie(undefined)).toBe(false);
  });
});
