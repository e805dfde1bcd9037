/**
 * Several Plantdesk instances on loopback behind one address, for the cluster test
 * (e2e/cluster.spec.ts) and `npm run bench:cluster`: one PostgreSQL schema of their own, a random
 * Redis key prefix, one DATA_DIR whose telemetry `npm run seed` writes first and every instance
 * opens read-only, and a round-robin balancer (balancer.ts) as the one address. The instances are
 * started as the README starts the server: `tsx scripts/start.ts` (which builds first when the
 * build is missing or stale; the first instance does that alone, the others then find it current).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./free-port";
import { startBalancer, type Balancer } from "./balancer";
import { createTestSchema, type TestSchema } from "./postgres-schema";
import { probeServices, servicesRequired, summarizeServices } from "./services";

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");

export interface ClusterInstance {
  port: number;
  url: string;
  process: ChildProcess;
  /** Everything it printed so far. */
  log: string;
  /**
   * SIGKILL to the instance's process group: tsx runs the server in a child process and cannot
   * pass on a SIGKILL, so killing tsx alone would leave the server running.
   */
  kill(): Promise<void>;
}

export interface Cluster {
  /** The balancer's address: the one address of the cluster. */
  url: string;
  balancer: Balancer;
  instances: ClusterInstance[];
  /** The variables every instance runs with (DATABASE_URL, REDIS_URL, DATA_DIR, …). */
  env: Record<string, string>;
  /** Runs a script of scripts/ (seed, ops) with the cluster's variables; its output, or it throws. */
  runScript(script: string, args?: string[]): Promise<string>;
  close(): Promise<void>;
}

/** Why a cluster cannot run here (PostgreSQL or Redis not answering), or null when it can. */
export async function clusterUnavailable(): Promise<string | null> {
  const probes = await probeServices();
  const missing = [probes.postgres, probes.redis].filter((probe) => !probe.available);
  return missing.length === 0 ? null : `a cluster needs PostgreSQL and Redis: ${summarizeServices(missing, servicesRequired())}`;
}

interface ClusterOptions {
  size: number;
  /** More variables for the seed and the instances (limits, DEMO_TELEMETRY_DAYS, …). */
  env?: Record<string, string>;
  /** Told each step (seeding, instance n up). */
  log?: (line: string) => void;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const probes = await probeServices();
  const schema: TestSchema = await createTestSchema(probes.postgres.url);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-cluster-"));
  const ports = await Promise.all(Array.from({ length: options.size }, () => freePort()));
  const balancer = await startBalancer(ports.map((port) => `http://127.0.0.1:${port}`));
  const instances: ClusterInstance[] = [];
  const env: Record<string, string> = {
    DATABASE_URL: schema.url,
    REDIS_URL: probes.redis.url,
    REDIS_KEY_PREFIX: `pd-cluster-${randomBytes(6).toString("hex")}:`,
    DATA_DIR: dataDir,
    TELEMETRY_READ_ONLY: "1",
    // Every instance signs and checks telemetry tokens as the one public address.
    OAUTH_ISSUER: balancer.url,
    HOST: "127.0.0.1",
    DEMO_TELEMETRY_DAYS: "1",
    NEXT_TELEMETRY_DISABLED: "1",
    ...options.env,
  };

  function runScript(script: string, args: string[] = []): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(tsx, [path.join(root, "scripts", script), ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} ${args.join(" ")} exited with ${code}:\n${out}`))));
    });
  }

  async function startInstance(port: number): Promise<ClusterInstance> {
    // A process group of its own (detached), so that kill() reaches the server under tsx.
    const child = spawn(tsx, ["scripts/start.ts"], { cwd: root, env: { ...process.env, ...env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const instance: ClusterInstance = {
      port,
      url: `http://127.0.0.1:${port}`,
      process: child,
      log: "",
      kill: async () => {
        if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
        await exited;
      },
    };
    instances.push(instance);
    child.stdout!.on("data", (chunk: Buffer) => (instance.log += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (instance.log += chunk.toString()));
    for (;;) {
      if (await fetch(`${instance.url}/openapi.json`).then((r) => r.ok, () => false)) break;
      if (child.exitCode !== null) throw new Error(`instance on port ${port} exited:\n${instance.log}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    options.log?.(`instance ${instances.indexOf(instance) + 1} answers on ${instance.url}`);
    return instance;
  }

  async function close() {
    await Promise.all(
      instances.map((instance) => {
        const child = instance.process;
        if (child.exitCode !== null || child.signalCode !== null) return null;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        return exited;
      }),
    );
    await balancer.close();
    await schema.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  try {
    // The telemetry files' one writer, before any instance opens them read-only.
    options.log?.("seeding PostgreSQL and the telemetry files (npm run seed)…");
    await runScript("seed.ts");
    // The first alone (it builds when the build is stale), then the rest side by side.
    const [first, ...rest] = ports;
    await startInstance(first!);
    await Promise.all(rest.map(startInstance));
  } catch (error) {
    await close();
    throw error;
  }
  return { url: balancer.url, balancer, instances, env, runScript, close };
}
