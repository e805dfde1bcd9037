/** The fast path's table and the route files under app/api/ name the same routes and methods. */
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { API_ROUTES } from "./dispatch";

const apiDir = path.resolve(import.meta.dirname, "../../app/api");

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? routeFiles(full) : entry.name === "route.ts" ? [full] : [];
  });
}

it("lists exactly the methods the app/api route files export (sign-in aside)", () => {
  const fromFiles = routeFiles(apiDir)
    .filter((file) => !file.includes(`${path.sep}auth${path.sep}`))
    .flatMap((file) => {
      const pattern = "/api/" + path.relative(apiDir, path.dirname(file)).split(path.sep).join("/");
      const source = fs.readFileSync(file, "utf8");
      return [...source.matchAll(/as (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => `${m[1]} ${pattern}`);
    });
  expect(API_ROUTES.map((route) => `${route.method} ${route.pattern}`).sort()).toEqual(fromFiles.sort());
});
