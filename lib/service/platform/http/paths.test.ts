/**
 * The front door's choice of surface (scripts/serve.ts): a program's request never reaches the
 * pages, whose answer to it would be a redirect to the HTML sign-in page; a browser's always does.
 */
import { describe, expect, it } from "vitest";
import { surfaceFor } from "./paths";

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
