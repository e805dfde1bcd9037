/**
 * Test and benchmark support: `npm run clickhouse:dev` (scripts/clickhouse-dev.ts) started as a
 * child process on a free port (CLICKHOUSE_DEV_PORT=0) with a data directory of its own, so the
 * HTTP executor and several service instances talk to ClickHouse's HTTP interface as they would
 * to a server. Resolves once the endpoint has printed its address.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface ClickHouseDev {
  url: string;
  port: number;
  dir: string;
  stop(): Promise<void>;
}

export async function startClickHouseDev(options: { port?: number; dir?: string } = {}): Promise<ClickHouseDev> {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "clickhouse-dev-data-"));
  const child = spawn(process.execPath, ["--import", "tsx", path.join(process.cwd(), "scripts/clickhouse-dev.ts")], {
    env: { ...process.env, CLICKHOUSE_DEV_PORT: String(options.port ?? 0), CLICKHOUSE_DEV_DIR: dir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`clickhouse:dev did not start within 60 s: ${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`clickhouse:dev exited (${code}): ${output}`));
    });
  });
  child.stdout!.resume();
  child.stderr!.resume();
  // A test or bench that dies (an uncaught error) must not leave the endpoint holding its directory.
  const orphaned = () => child.kill("SIGKILL");
  process.once("exit", orphaned);
  child.once("exit", () => process.off("exit", orphaned));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      if (!options.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
