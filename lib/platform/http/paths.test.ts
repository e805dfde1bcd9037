/**
 * The front door (scripts/serve.ts): one spelling of a request target (normalizeRequestTarget) —
 * what the server decides on is what every surface receives (over HTTP on the real server:
 * e2e/server-limits.spec.ts) — and the choice of surface: a program's request never reaches the
 * pages, whose answer to it would be a redirect to the HTML sign-in page; a browser's always does.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeRequestTarget, surfaceFor } from "./paths";

const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

describe("surfaceFor", () => {
  it("sends the spec's and Kusto's paths to the service, whoever asks", () => {
    for (const path of ["/maintenance/v1/plants/RTM1/tasks", "/insights/v1/telemetry/query/table", "/oauth2/v2.0/token", "/v1/rest/auth/metadata", "/v2/rest/query", "/openapi.json"]) {
      expect(surfaceFor(path, BROWSER), path).toBe("service");
    }
  });

  it("sends a program's request at any other path to the service (its JSON 404), a browser's to the pages", () => {
    expect(surfaceFor("/anything", { authorization: "Bearer abc" })).toBe("service");
    expect(surfaceFor("/anything", { accept: "application/json" })).toBe("service");
    expect(surfaceFor("/anything", { accept: "application/json, text/plain, */*" })).toBe("service");
    expect(surfaceFor("/anything", BROWSER)).toBe("next");
    expect(surfaceFor("/anything", { accept: "*/*" })).toBe("next");
    expect(surfaceFor("/anything", { authorization: "Basic abc" })).toBe("next");
  });

  it("keeps sign-in and Next's own paths with Next, and /api/ with the dashboard's router", () => {
    expect(surfaceFor("/api/auth/session", { accept: "application/json" })).toBe("next");
    expect(surfaceFor("/_next/static/chunks/main.js", { accept: "application/json" })).toBe("next");
    expect(surfaceFor("/__nextjs_original-stack-frames", { accept: "application/json" })).toBe("next");
    expect(surfaceFor("/api/plants", { accept: "application/json" })).toBe("api");
  });
});

describe("normalizeRequestTarget", () => {
  it.each([
    ["/x/../api/auth/callback/credentials", "/api/auth/callback/credentials"],
    ["/%2e%2e/api/auth/callback/credentials", "/api/auth/callback/credentials"],
    ["/x/.%2E/api/auth/csrf", "/api/auth/csrf"],
    ["//api//auth///callback/credentials", "/api/auth/callback/credentials"],
    ["/x\\..\\api\\auth/signin", "/api/auth/signin"],
    ["/api/%61uth/%63allback/credentials?x=../y", "/api/auth/callback/credentials?x=../y"],
    ["http://elsewhere/x/../maintenance/v1/plants?page=2", "/maintenance/v1/plants?page=2"],
    ["/plants/RTM1/jobs#frag", "/plants/RTM1/jobs"],
    ["/a%2Fb/%252e%252e/c", "/a%2Fb/%252e%252e/c"],
  ])("%s → %s", (target, expected) => {
    expect(normalizeRequestTarget(target)).toBe(expected);
  });

  it("never names another host, and its result is its own normal form", () => {
    const segment = fc.constantFrom("..", ".", "", "%2e%2e", "%2E", ".%2e", "api", "auth", "%61uth", "x", "\\", "%2F", "%25", "a b");
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 12 }), fc.constantFrom("", "?q=../x", "?a=%2e"), (segments, query) => {
        const normal = normalizeRequestTarget("/" + segments.join("/") + query);
        expect(normal.startsWith("/")).toBe(true);
        const path = normal.split("?")[0]!;
        expect(path).not.toMatch(/\/\/|\/\.\.?(\/|$)|%2e|\\/i);
        expect(normalizeRequestTarget(normal)).toBe(normal);
        expect(new URL(normal, "http://localhost").host).toBe("localhost");
      }),
    );
  });
});
