/**
 * The process environment of a `/api/` suite: a temporary DATA_DIR of its own, one day of demo
 * telemetry, and whatever else the suite names (DEMO_PASSWORD, NEXTAUTH_SECRET, …). Call it from
 * `vi.hoisted` (through a dynamic import), so that it runs before the modules that read the
 * configuration are imported. This module imports nothing of the project for the same reason.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TestEnvironment {
  dataDir: string;
  /** Removes the data directory. */
  remove(): void;
}

export function setTestEnvironment(name: string, env: Record<string, string> = {}): TestEnvironment {
  const dataDir = path.join(process.env.TMPDIR ?? os.tmpdir(), `pd-${name}-${process.pid}-${Date.now()}`);
  Object.assign(process.env, { DATA_DIR: dataDir, DEMO_TELEMETRY_DAYS: "1", ...env });
  return { dataDir, remove: () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}
