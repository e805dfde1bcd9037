import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/**
 * A production build into the bench's own dist dir, so a bench never touches the developer's
 * `.next`. BENCH_NO_BUILD=1 reuses that build when it exists.
 */
export function buildInto(root: string, distDir: string): void {
  if (process.env.BENCH_NO_BUILD === "1" && existsSync(path.join(root, distDir, "BUILD_ID"))) return;
  console.log(`Building into ${distDir} …`);
  const result = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_DIST_DIR: distDir },
  });
  if (result.status !== 0) throw new Error("next build failed");
}
