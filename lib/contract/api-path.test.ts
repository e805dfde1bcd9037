/**
 * `/api/` URLs come from the contract's one table (apiPath, operationApiPath): values are encoded,
 * a missing one is an error, and no browser or page module spells an `/api/` path of its own.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiPath, operationApiPath } from "./api";

describe("apiPath and operationApiPath", () => {
  it("fill a route's parameters from the table, URL-encoded", () => {
    expect(apiPath("me")).toBe("/api/me");
    expect(apiPath("getDashboard", { plantId: "RTM 1/x", dashboardId: 7 })).toBe("/api/plants/RTM%201%2Fx/dashboards/7");
    expect(operationApiPath("closeOutTask", { plantId: "RTM1", taskId: "a?b#c" })).toBe("/api/plants/RTM1/tasks/a%3Fb%23c/close-out");
    expect(operationApiPath("listJobsDone", { plantId: "HOU1" })).toBe("/api/plants/HOU1/jobs-done");
  });

  it("refuse a path whose value is missing (a caller bypassing the types)", () => {
    expect(() => operationApiPath("getTask", { plantId: "RTM1" } as never)).toThrow(/no value for \{taskId\}/);
  });

  it("are the only spelling of an /api/ path in the browser's and the pages' code", () => {
    const files = ["app", "components", "modules", "lib/client"]
      .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: "utf8" }).map((file) => path.join(dir, file)))
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
    expect(files.length).toBeGreaterThan(50);
    const spelled = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, index) => ({ line, where: `${file}:${index + 1}` }))
        // A string or template literal starting an /api/ path; comments may name the paths.
        .filter(({ line }) => /["'`]\/api\//.test(line) && !/^\s*(\*|\/\/|\/\*)/.test(line))
        .map(({ where }) => where),
    );
    expect(spelled).toEqual([]);
  });
});
