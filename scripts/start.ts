/**
 * `npm start`: builds the dashboard when the build is missing or older than the sources, then
 * serves everything (scripts/serve.ts). First start also creates and seeds the demo databases.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const buildId = path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
// Everything Next bundles: a change in any of them makes the build stale.
const sourceRoots = ["app", "components", "lib", "modules", "packages", "public", "proxy.ts", "next.config.mjs", "package.json", "postcss.config.mjs", "tsconfig.json"];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
const sourcesAt = Math.max(...sourceRoots.map((entry) => newestMtime(path.join(root, entry))));
if (builtAt < sourcesAt) {
  console.log(builtAt === 0 ? "No build found: building the dashboard…" : "Sources changed since the last build: rebuilding…");
  // Next would otherwise try to send anonymous usage data from every build.
  const build = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], { cwd: root, stdio: "inherit", env: { NEXT_TELEMETRY_DISABLED: "1", ...process.env } });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Next reads NODE_ENV when it loads; its types mark the variable read-only.
(process.env as Record<string, string>).NODE_ENV = "production";
await import("./serve");
