/** The sign-in page's callbackUrl: only a path on this site survives, whatever a browser would make of it. */
import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "./callback-url";

describe("safeCallbackPath", () => {
  it("keeps paths of this site, with their query and fragment", () => {
    expect(safeCallbackPath("/plants/RTM1/jobs?pageSize=25")).toBe("/plants/RTM1/jobs?pageSize=25");
    expect(safeCallbackPath("/plants/RTM1#top")).toBe("/plants/RTM1#top");
    expect(safeCallbackPath("/")).toBe("/");
    expect(safeCallbackPath("/a/../plants")).toBe("/plants");
  });

  it("refuses anything a browser would take to another host", () => {
    for (const attack of [
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "\\/evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r/evil.example",
      "/\r\n/evil.example",
      "\t//evil.example",
      " //evil.example",
      "/ /evil.example".replace(" ", "\u0000"),
      "/\\/evil.example",
      "javascript:alert(1)",
      "evil.example",
      "",
      "/".repeat(3000),
    ]) {
      expect(safeCallbackPath(attack), JSON.stringify(attack)).toBe("/");
    }
    expect(safeCallbackPath(undefined)).toBe("/");
  });

  it("keeps encoded slashes encoded, so they stay in the path", () => {
    expect(safeCallbackPath("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
    expect(new URL(safeCallbackPath("/%2F%2Fevil.example"), "http://localhost:3000").host).toBe("localhost:3000");
  });
});
