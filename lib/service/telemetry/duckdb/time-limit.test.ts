/**
 * The time limit ends a query when it fires, even while the engine is inside one long step that
 * checks for interruption only at its end (issue 19: a query interrupted at 3 s answered at 27 s).
 * DuckDB is interrupted and the caller answered QUERY_TIMEOUT at once; the connection goes back
 * only once the engine has let go of it, and the error says when that is (engineStopped), so the
 * query's place is held until then (query-endpoint.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDuckDbTelemetryStore, type DuckDbTelemetryStore } from "./store";
import { engineStopped } from "../store";

/** One row whose single value takes DuckDB seconds to compute, in one step it does not interrupt. */
const ONE_LONG_STEP = "SELECT length(list_sort(list_transform(range(4000000), x -> (x * 7919) % 1000003))) AS n";
const LIMITS = { maxRows: 10, maxBytes: 1_000_000, timeoutMs: 200 };

let dir: string;
let store: DuckDbTelemetryStore;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-time-limit-"));
  store = await openDuckDbTelemetryStore({ dataDir: dir, customers: [{ id: "CUST-T", plants: [] }] });
});

afterAll(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("answers QUERY_TIMEOUT while the engine is still in the step, and frees the connection only after it", async () => {
  const statement = { sql: ONE_LONG_STEP, params: {}, columns: [{ name: "n", kqlType: "long" as const }] };
  const error = await store.execute("CUST-T", statement, { limits: LIMITS }).catch((thrown: unknown) => thrown);
  expect(error).toMatchObject({ code: "QUERY_TIMEOUT", status: 400 });
  const stopped = engineStopped(error);
  expect(stopped, "the refusal says when the engine lets go").not.toBeNull();
  let engineDone = false;
  void stopped!.then(() => (engineDone = true));
  // A turn of the event loop: were the answer sent only once the engine stopped, this would be true.
  await new Promise((resolve) => setImmediate(resolve));
  expect(engineDone, "answered before the engine finished its step").toBe(false);
  await stopped;
  // The store serves the next query normally.
  const next = await store.execute("CUST-T", { sql: "SELECT 42 AS n", params: {}, columns: statement.columns }, { limits: { ...LIMITS, timeoutMs: 30_000 } });
  expect(Buffer.concat(next.rows).toString()).toBe("[[42]]");
}, 60_000);

it("answers at once when the caller stops the query (budget spent, client gone), with the same hold on the connection", async () => {
  const statement = { sql: ONE_LONG_STEP, params: {}, columns: [{ name: "n", kqlType: "long" as const }] };
  const stop = new AbortController();
  setTimeout(() => stop.abort(), 200);
  const error = await store.execute("CUST-T", statement, { limits: { ...LIMITS, timeoutMs: 60_000 }, signal: stop.signal }).catch((thrown: unknown) => thrown);
  expect(error).toMatchObject({ code: "QUERY_TIMEOUT", message: expect.stringMatching(/went away/) });
  const stopped = engineStopped(error)!;
  let engineDone = false;
  void stopped.then(() => (engineDone = true));
  await new Promise((resolve) => setImmediate(resolve));
  expect(engineDone, "answered before the engine finished its step").toBe(false);
  await stopped;
}, 60_000);
