/**
 * The server started as the README starts it (`npm start`) keeps every file of its DATA_DIR to its
 * owner: databases and their companions, DuckDB files, demo-users.txt.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

test("every file the server made in DATA_DIR is readable by its owner only", async ({ request }) => {
  test.skip(Boolean(process.env.E2E_BASE_URL), "the server's DATA_DIR is known only when this run started it");
  // A request first: the server has opened everything it opens lazily.
  expect((await request.get("/signin")).ok()).toBeTruthy();
  const dir = process.env.E2E_DATA_DIR!;
  const entries = fs.readdirSync(dir, { recursive: true, withFileTypes: true });
  const names = entries.map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  expect(names).toEqual(expect.arrayContaining(["plantdesk.sqlite", "dashboard.sqlite", "demo-users.txt", "telemetry-CUST-ACME.duckdb"]));
  const exposed = names.filter((name) => fs.statSync(path.join(dir, name)).mode & 0o077);
  expect(exposed).toEqual([]);
});
