/**
 * `npm run bench`: every benchmark in turn (maintenance, telemetry, scale, BFF, UI, load, ingest, cluster). Each prints its own
 * figures as ratios against a baseline measured in the same run; this only sequences them, so one
 * never competes with another for the machine's cores.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const suites = ["maintenance", "telemetry", "scale", "bff", "ui", "load", "ingest", "cluster"];
const failed: string[] = [];

for (const suite of suites) {
  console.log(`\n━━ bench:${suite}`);
  const run = spawnSync(path.join(root, "node_modules", ".bin", "tsx"), [path.join(root, "bench", `${suite}.ts`)], {
    cwd: root,
    stdio: "inherit",
  });
  if (run.status !== 0) failed.push(suite);
}

if (failed.length > 0) {
  console.error(`\nThese benchmarks failed to run: ${failed.join(", ")}`);
  process.exit(1);
}
