/** Runs the operator CLI as an operator does (`tsx scripts/ops.ts …`) against a DATA_DIR, for tests. */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createServiceRuntime, type ServiceRuntime } from "../runtime";
import { testConfig } from "./openapi-checked-client";

const root = path.resolve(import.meta.dirname, "../../..");

export function runOps(dataDir: string, args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(path.join(root, "node_modules", ".bin", "tsx"), [path.join(root, "scripts", "ops.ts"), ...args], {
    cwd: root,
    input,
    encoding: "utf8",
    env: { ...process.env, DATA_DIR: dataDir },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface OpsSuite {
  /** Runs the CLI against the suite's DATA_DIR. */
  ops(...args: string[]): ReturnType<typeof runOps>;
  /** Runs a command with `--json`; a failure throws with the command's stderr, success gives the parsed output. */
  opsJson<T = unknown>(...args: string[]): T;
  /** The service on the same DATA_DIR (the server running beside the CLI): opened on first use, closed after the suite. */
  runtime(): Promise<ServiceRuntime>;
}

/** A temporary DATA_DIR (`pd-<name>-…`) for the enclosing suite, removed after it. */
export function opsSuite(name: string): OpsSuite {
  let dataDir = "";
  let runtime: Promise<ServiceRuntime> | undefined;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `pd-${name}-`));
  });
  afterAll(async () => {
    await (await runtime?.catch(() => undefined))?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    ops: (...args) => runOps(dataDir, args),
    opsJson<T>(...args: string[]): T {
      const result = runOps(dataDir, [...args, "--json"]);
      if (result.status !== 0) throw new Error(`ops ${args.join(" ")} exited with ${result.status}: ${result.stderr}`);
      return JSON.parse(result.stdout) as T;
    },
    runtime: () => (runtime ??= createServiceRuntime(testConfig({ DATA_DIR: dataDir }))),
  };
}
