import { describe, expect, it } from "vitest";
import { planChromium, readChromiumFacts, type ChromiumFacts } from "./chromium";
import { DEBIAN_CHROMIUM, chromiumPath } from "./chromium-path";

const missingDebian: ChromiumFacts = { path: DEBIAN_CHROMIUM, executable: false, fonts: true, root: true, aptGet: true, installForbidden: false };

describe("chromiumPath", () => {
  it("is Debian's binary unless CHROMIUM_PATH names another", () => {
    expect(chromiumPath({})).toBe("/usr/bin/chromium");
    expect(chromiumPath({ CHROMIUM_PATH: "  " })).toBe("/usr/bin/chromium");
    expect(chromiumPath({ CHROMIUM_PATH: "/opt/chromium/chrome" })).toBe("/opt/chromium/chrome");
  });
});

describe("planChromium", () => {
  it("goes ahead when the binary is there, whatever else holds", () => {
    expect(planChromium({ ...missingDebian, executable: true, root: false, aptGet: false })).toEqual({ action: "ready" });
  });

  it("is not ready when Debian's Chromium came without the Liberation fonts the layout tests measure with", () => {
    expect(planChromium({ ...missingDebian, executable: true, fonts: false })).toEqual({ action: "install" });
    const stop = planChromium({ ...missingDebian, executable: true, fonts: false, root: false });
    expect(stop).toMatchObject({ action: "stop", line: expect.stringContaining("fonts-liberation") });
    expect(planChromium({ ...missingDebian, path: "/opt/chrome/chrome", executable: true, fonts: false })).toEqual({ action: "ready" });
  });

  it("installs Debian's package as root with apt-get", () => {
    expect(planChromium(missingDebian)).toEqual({ action: "install" });
  });

  it("stops with the apt-get command (with sudo) when not root", () => {
    const plan = planChromium({ ...missingDebian, root: false });
    expect(plan).toEqual({
      action: "stop",
      line: "Chromium for the browser tests is missing at /usr/bin/chromium: run `sudo apt-get update && sudo apt-get install -y chromium fonts-liberation`, then npm test again.",
    });
  });

  it("stops without sudo when root but installing is forbidden (PLANTDESK_NO_INSTALL=1)", () => {
    const plan = planChromium({ ...missingDebian, installForbidden: true });
    expect(plan.action).toBe("stop");
    expect(plan.action === "stop" && plan.line).toContain("run `apt-get update && apt-get install -y chromium fonts-liberation`");
  });

  it("does not install for a custom CHROMIUM_PATH, which the package would not create", () => {
    const plan = planChromium({ ...missingDebian, path: "/nonexistent/chromium" });
    expect(plan.action).toBe("stop");
    expect(plan.action === "stop" && plan.line).toMatch(/^Chromium for the browser tests is missing at \/nonexistent\/chromium \(CHROMIUM_PATH\): /);
  });

  it("asks for another package manager where apt-get is absent", () => {
    const plan = planChromium({ ...missingDebian, aptGet: false });
    expect(plan.action === "stop" && plan.line).toContain("install Chromium with your package manager and set CHROMIUM_PATH");
  });

  it("every stop is one line", () => {
    for (const facts of [{ ...missingDebian, root: false }, { ...missingDebian, aptGet: false }, { ...missingDebian, path: "/x" }]) {
      const plan = planChromium(facts);
      expect(plan.action === "stop" && plan.line.includes("\n")).toBe(false);
    }
  });
});

describe("readChromiumFacts", () => {
  it("sees a missing binary, an executable one, and the no-install switch", () => {
    expect(readChromiumFacts({ CHROMIUM_PATH: "/nonexistent/chromium", PATH: process.env.PATH }).executable).toBe(false);
    // Node's own binary stands in for an executable file.
    expect(readChromiumFacts({ CHROMIUM_PATH: process.execPath, PATH: process.env.PATH }).executable).toBe(true);
    expect(readChromiumFacts({ PLANTDESK_NO_INSTALL: "1" }).installForbidden).toBe(true);
    expect(readChromiumFacts({}).installForbidden).toBe(false);
  });
});
