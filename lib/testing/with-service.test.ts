/**
 * The service probe against real sockets, and describeWithService end to end: Vitest runs
 * services.test.ts with every service pointed at a closed loopback port, once as a developer
 * would (skips, one line each) and once as CI does (PLANTDESK_REQUIRE_SERVICES=1: failures).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { probeService, serviceAddress, servicesRequired, summarizeServices, type ServiceProbe } from "./services";

const root = path.resolve(import.meta.dirname, "../..");
const scratch = mkdtempSync(path.join(tmpdir(), "plantdesk-with-service-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A loopback port that nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("serviceAddress", () => {
  it("defaults to the local services and follows the override variables", () => {
    expect(serviceAddress("postgres", {})).toMatchObject({ host: "127.0.0.1", port: 5432, url: "postgres://postgres@127.0.0.1:5432/test" });
    expect(serviceAddress("redis", {})).toMatchObject({ host: "127.0.0.1", port: 6379 });
    expect(serviceAddress("mqtt", {})).toMatchObject({ host: "127.0.0.1", port: 1883 });
    expect(serviceAddress("redis", { TEST_REDIS_URL: "redis://localhost:6390/2" })).toMatchObject({ host: "localhost", port: 6390 });
    expect(servicesRequired({ PLANTDESK_REQUIRE_SERVICES: "1" })).toBe(true);
    expect(servicesRequired({})).toBe(false);
  });
});

describe("summarizeServices", () => {
  const up = (name: "postgres" | "redis" | "mqtt"): ServiceProbe => ({ ...serviceAddress(name, {}), available: true });
  const down: ServiceProbe = { ...serviceAddress("mqtt", {}), available: false, reason: "connection refused" };

  it("says which answer and what happens to the suites of the others", () => {
    expect(summarizeServices([up("postgres"), up("redis"), up("mqtt")], false)).toBe(
      "Services: postgres 127.0.0.1:5432 answers; redis 127.0.0.1:6379 answers; mqtt 127.0.0.1:1883 answers",
    );
    expect(summarizeServices([up("postgres"), down], false)).toBe(
      "Services: postgres 127.0.0.1:5432 answers; mqtt 127.0.0.1:1883 did not answer (connection refused) — suites that need mqtt are skipped",
    );
    expect(summarizeServices([down], true)).toMatch(/— suites that need mqtt fail \(PLANTDESK_REQUIRE_SERVICES=1\)$/);
  });
});

describe("probeService", () => {
  it("finds a listening port available and a closed one not, with the reason", async () => {
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const open = await probeService(serviceAddress("redis", { TEST_REDIS_URL: `redis://127.0.0.1:${port}` }));
      expect(open).toMatchObject({ available: true, port });
      expect(open.reason).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    const closed = await probeService(serviceAddress("redis", { TEST_REDIS_URL: `redis://127.0.0.1:${await closedPort()}` }));
    expect(closed).toMatchObject({ available: false, reason: "connection refused" });
  });
});

describe("describeWithService with the services missing", () => {
  async function runServiceSuites(require: boolean) {
    const port = await closedPort();
    const report = path.join(scratch, `report-${require ? "required" : "optional"}.json`);
    const env = { ...process.env };
    // The child is a Vitest run of its own, not a worker of this one.
    for (const name of Object.keys(env)) if (name.startsWith("VITEST") || name === "TEST") delete env[name];
    delete env.PLANTDESK_REQUIRE_SERVICES;
    Object.assign(env, {
      TEST_POSTGRES_URL: `postgres://postgres@127.0.0.1:${port}/test`,
      TEST_REDIS_URL: `redis://127.0.0.1:${port}`,
      TEST_MQTT_URL: `mqtt://127.0.0.1:${port}`,
      ...(require ? { PLANTDESK_REQUIRE_SERVICES: "1" } : {}),
    });
    const result = spawnSync(
      path.join(root, "node_modules", ".bin", "vitest"),
      ["run", "lib/testing/services.test.ts", "--reporter=json", `--outputFile.json=${report}`],
      { cwd: root, env, encoding: "utf8", timeout: 90_000 },
    );
    const counts = JSON.parse(readFileSync(report, "utf8")) as { numPassedTests: number; numFailedTests: number; numPendingTests: number };
    return { status: result.status, stderr: result.stderr, port, counts };
  }

  it("skips each suite with one line saying which and why, and passes nothing", async () => {
    const run = await runServiceSuites(false);
    expect(run.status).toBe(0);
    expect(run.counts).toMatchObject({ numPassedTests: 0, numFailedTests: 0, numPendingTests: 3 });
    const lines = run.stderr.split("\n").filter((line) => line.startsWith("skipped suite"));
    expect(lines.sort()).toEqual([
      `skipped suite "MQTT round trip": mqtt at 127.0.0.1:${run.port} did not answer (connection refused); start it or set TEST_MQTT_URL.`,
      `skipped suite "PostgreSQL round trip": postgres at 127.0.0.1:${run.port} did not answer (connection refused); start it or set TEST_POSTGRES_URL.`,
      `skipped suite "Redis round trip": redis at 127.0.0.1:${run.port} did not answer (connection refused); start it or set TEST_REDIS_URL.`,
    ]);
  });

  it("fails each suite instead when PLANTDESK_REQUIRE_SERVICES=1", async () => {
    const run = await runServiceSuites(true);
    expect(run.status).not.toBe(0);
    expect(run.counts).toMatchObject({ numPassedTests: 0, numFailedTests: 3, numPendingTests: 0 });
    expect(run.stderr).not.toContain("skipped suite");
  });
});
