/**
 * Several instances on one DATA_DIR (docs/architecture.md, "Several instances"): with `readOnly`
 * (TELEMETRY_READ_ONLY=1) the DuckDB files are opened by any number of processes at once, nothing
 * is written, and a file that is missing or held by a writer stops the start with one line that
 * says what to do. DuckDB's file locks are per process, so the other holders here are child
 * processes, as the other instances would be.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isStartupError } from "../../../platform/startup-error";
import { openDuckDbTelemetryStore, telemetryFile, type DuckDbTelemetryStore } from "./store";

const CUSTOMER = { id: "CUST-RO", plants: [{ id: "RO1", name: "Read-only plant", customerId: "CUST-RO", timeZone: "UTC" }] };
let dataDir: string;
const children: ChildProcess[] = [];
const stores: DuckDbTelemetryStore[] = [];

/** A child process that opens the customer's file (read-only or not) and holds it until killed. */
async function holdInChild(readOnly: boolean): Promise<ChildProcess> {
  const options = readOnly ? `{ access_mode: "READ_ONLY" }` : "{}";
  const script = `const { DuckDBInstance } = await import("@duckdb/node-api");
    await DuckDBInstance.create(${JSON.stringify(telemetryFile(dataDir, CUSTOMER.id))}, ${options});
    console.log("open"); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  return child;
}

async function open(readOnly: boolean): Promise<DuckDbTelemetryStore> {
  const store = await openDuckDbTelemetryStore({ dataDir, customers: [CUSTOMER], readOnly });
  stores.push(store);
  return store;
}

async function startupFailure(readOnly: boolean): Promise<string> {
  const failure = await open(readOnly).then(
    () => null,
    (error: unknown) => error,
  );
  expect(isStartupError(failure), String(failure)).toBe(true);
  return (failure as Error).message;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-read-only-"));
  // What `npm run seed` does: the one writer creates the file and fills it.
  const writer = await openDuckDbTelemetryStore({ dataDir, customers: [CUSTOMER] });
  await writer.write(CUSTOMER.id, (connection) =>
    connection.run(`INSERT INTO StateSeries VALUES (1, 'RO1', 'Temperature', 'DEV-1', NULL, NULL)`),
  );
  await writer.close();
}, 60_000);

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const child of children.splice(0)) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
});

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("DuckDB telemetry opened read-only", () => {
  it("is served by several processes at once and refuses writes", async () => {
    await holdInChild(true);
    const store = await open(true);
    expect(await store.dataPointNames(CUSTOMER.id)).toEqual(["Temperature"]);
    await expect(store.write(CUSTOMER.id, async () => undefined)).rejects.toThrow(/read-only/);
  });

  it("stops a writer's start with what to do while readers hold the file", async () => {
    await holdInChild(true);
    const message = await startupFailure(false);
    expect(message).toMatch(/^Cannot open .*telemetry-CUST-RO\.duckdb for writing: another process \(PID \d+\) has it open\./);
    expect(message).toContain("TELEMETRY_READ_ONLY=1");
    expect(message).not.toContain("\n");
  });

  it("stops a reader's start with what to do while a writer holds the file", async () => {
    await holdInChild(false);
    const message = await startupFailure(true);
    expect(message).toMatch(/^Cannot open .*telemetry-CUST-RO\.duckdb read-only: another process \(PID \d+\) is writing it/);
    expect(message).not.toContain("\n");
  });

  it("stops a reader's start when the seed has not created the file", async () => {
    fs.renameSync(telemetryFile(dataDir, CUSTOMER.id), `${telemetryFile(dataDir, CUSTOMER.id)}.away`);
    try {
      expect(await startupFailure(true)).toMatch(/does not exist: .*`npm run seed`/);
      expect(fs.existsSync(telemetryFile(dataDir, CUSTOMER.id))).toBe(false); // nothing created
    } finally {
      fs.renameSync(`${telemetryFile(dataDir, CUSTOMER.id)}.away`, telemetryFile(dataDir, CUSTOMER.id));
    }
  });
});
