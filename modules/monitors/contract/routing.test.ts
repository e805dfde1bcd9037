/** The routing rule alone (docs/api.md, "Contact points and routing"): first match wins, empty matchers take anything, else the default. */
import { describe, expect, it } from "vitest";
import { routeFor, ZNotificationPolicy } from "./routing";

const policy = ZNotificationPolicy.parse({
  rules: [
    { severities: ["critical"], assetTags: ["PUMP-01"], contactPointId: 1 },
    { severities: ["critical"], contactPointId: 2 },
    { assetTags: ["PUMP-01", "FAN-02"], contactPointId: 3 },
  ],
  defaultContactPointId: 9,
});

describe("routeFor", () => {
  it("takes the first rule whose severity and asset both match", () => {
    expect(routeFor(policy, "critical", "PUMP-01")).toBe(1);
    expect(routeFor(policy, "critical", "FAN-02")).toBe(2);
    expect(routeFor(policy, "critical", null)).toBe(2);
    expect(routeFor(policy, "warning", "FAN-02")).toBe(3);
  });

  it("falls back to the default, or to nobody without one", () => {
    expect(routeFor(policy, "warning", null)).toBe(9);
    expect(routeFor(policy, "info", "OTHER")).toBe(9);
    expect(routeFor({ ...policy, defaultContactPointId: null }, "info", "OTHER")).toBeNull();
  });

  it("fills the omitted parts of a policy", () => {
    expect(ZNotificationPolicy.parse({})).toEqual({ rules: [], defaultContactPointId: null, groupSeconds: 30 });
    expect(ZNotificationPolicy.safeParse({ groupSeconds: 601 }).success).toBe(false);
  });
});
