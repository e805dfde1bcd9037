import { describe, expect, it } from "vitest";
import { describeActor } from "./actor";

describe("describeActor", () => {
  it("shows a dashboard user by name, with the e-mail beside it", () => {
    expect(describeActor({ by: "Sam Supervisor <supervisor@plantdesk.demo>", client: "dashboard" })).toEqual({ name: "Sam Supervisor", detail: "supervisor@plantdesk.demo" });
  });

  it("shows a name another application gave as it is", () => {
    expect(describeActor({ by: "night shift", client: "pt_0a1b2c" })).toEqual({ name: "night shift", detail: null });
  });

  it("names the client when nobody was named, and says when nothing was recorded", () => {
    expect(describeActor({ by: "pt_0a1b2c", client: "pt_0a1b2c" })).toEqual({ name: "API client", detail: "pt_0a1b2c" });
    expect(describeActor({ by: "dashboard", client: "dashboard" })).toEqual({ name: "Plantdesk dashboard", detail: null });
    expect(describeActor({ by: null, client: null }).name).toBe("Not recorded");
  });
});
