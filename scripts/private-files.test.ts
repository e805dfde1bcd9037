/**
 * Secret files are readable by their owner only (docs/architecture.md, "Stores and their files"):
 * the SQLite databases and their companions, the DuckDB files with their write-ahead logs, and
 * demo-users.txt — also when an older version left one readable by everyone.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDashboardDatabase } from "@/lib/dashboard-store/database";
import { ensureDemoUsers } from "@/lib/dashboard-store/demo-users";
import { sqliteSql } from "@/lib/platform/sql";
import { createServiceRuntime, type ServiceRuntime } from "../lib/service/runtime";
import { keepFilesPrivate } from "../lib/platform/private-files";
import { testConfig } from "../lib/service/testing/openapi-checked-client";

let dataDir: string;
let runtime: ServiceRuntime;
const umask = process.umask();

/** Every file and directory under `dir` whose group or others have any permission. */
function exposed(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return fs.statSync(file).mode & 0o077 ? [`${path.relative(dir, file)} ${(fs.statSync(file).mode & 0o777).toString(8)}`] : [];
  });
}

beforeAll(async () => {
  // As scripts/serve.ts, scripts/ops.ts and scripts/seed.ts do first.
  keepFilesPrivate();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-private-files-"));
  fs.chmodSync(dataDir, 0o755);
  // An older version's demo-users.txt, readable by everyone.
  fs.writeFileSync(path.join(dataDir, "demo-users.txt"), "old\n", { mode: 0o644 });
  fs.chmodSync(path.join(dataDir, "demo-users.txt"), 0o644);
  runtime = await createServiceRuntime(testConfig({ DATA_DIR: dataDir }));
}, 180_000);

afterAll(async () => {
  await runtime?.close();
  process.umask(umask);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("files in DATA_DIR", () => {
  it("are the owner's only: databases, their companions, DuckDB's write-ahead log, demo-users.txt", async () => {
    const dashboard = sqliteSql(openDashboardDatabase(dataDir));
    await ensureDemoUsers(dashboard, dataDir, "demo-password-for-tests");
    // A DuckDB write that is not checkpointed leaves its write-ahead log next to the file.
    const instance = await DuckDBInstance.create(path.join(dataDir, "extra.duckdb"));
    const connection = await instance.connect();
    await connection.run("CREATE TABLE t AS SELECT 1 AS x");
    expect(fs.existsSync(path.join(dataDir, "extra.duckdb.wal"))).toBe(true);
    const files = fs.readdirSync(dataDir).sort();
    expect(files).toEqual(expect.arrayContaining(["dashboard.sqlite", "demo-users.txt", "plantdesk.sqlite", "telemetry-CUST-ACME.duckdb", "extra.duckdb.wal"]));
    expect(exposed(dataDir)).toEqual([]);
    connection.closeSync();
    instance.closeSync();
    await dashboard.close();
  });
});
