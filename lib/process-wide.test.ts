/**
 * Two copies of a module in one process, as the server's (tsx) and Next's bundles are: vitest's
 * resetModules loads a module a second time with its own module-level variables.
 */
import { describe, expect, it, vi } from "vitest";
import { parseConfig } from "@/lib/config";

describe("process-wide values (lib/process-wide.ts)", () => {
  it("are made once per process, whichever copy of a module asks first", async () => {
    const first = await import("./process-wide");
    vi.resetModules();
    const second = await import("./process-wide");
    expect(second).not.toBe(first);
    let made = 0;
    const a = first.processWide("test.once", () => ({ made: ++made }));
    const b = second.processWide("test.once", () => ({ made: ++made }));
    expect(b).toBe(a);
    expect(made).toBe(1);
    expect(second.processBrand("Test")).toBe(first.processBrand("Test"));
  });

  it("counts one shared state for two copies of lib/shared-state", async () => {
    const config = parseConfig({} as NodeJS.ProcessEnv);
    const first = await import("@/lib/shared-state");
    vi.resetModules();
    const second = await import("@/lib/shared-state");
    expect(second.getSharedState).not.toBe(first.getSharedState);
    expect(second.getSharedState(config)).toBe(first.getSharedState(config));
    const { processWideNames } = await import("./process-wide");
    expect(processWideNames().filter((name) => name === "sharedState")).toHaveLength(1);
  });

  it("keeps no failure: the next caller tries again", async () => {
    const { processWideAsync } = await import("./process-wide");
    await expect(processWideAsync("test.fails", () => Promise.reject(new Error("not now")))).rejects.toThrow("not now");
    await expect(processWideAsync("test.fails", async () => "now")).resolves.toBe("now");
  });

  it("recognises an error thrown by the other copy by its brand", async () => {
    const first = await import("@/lib/platform/startup-error");
    vi.resetModules();
    const second = await import("@/lib/platform/startup-error");
    const error = new first.StartupError("Stop the other server first.");
    expect(error instanceof second.StartupError).toBe(false);
    expect(second.isStartupError(error)).toBe(true);
  });
});
