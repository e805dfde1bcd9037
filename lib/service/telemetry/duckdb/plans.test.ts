/**
 * Plans that read only what they need (docs/architecture.md, "Plans that read only what they
 * need"): DuckDB's EXPLAIN of the store's own statements. A query that reads no series column
 * (Name, DeviceId, PlantId, metadata) never joins `StateSeries`; one that does joins it once; a
 * plant scope is resolved to series ids on the series table, not by joining every reading. Every
 * answer is compared with the same query over the full `States` view.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileKql } from "@/lib/kql";
import { openDuckDbTelemetryStore, scopedSources, type DuckDbTelemetryStore } from "./store";
import type { TelemetryScope } from "../store";

const CUSTOMER = {
  id: "CUST-PLAN",
  plants: ["P1", "P2"].map((id) => ({ id, name: `Plant ${id}`, customerId: "CUST-PLAN", timeZone: "UTC" })),
};
const START = Date.UTC(2026, 0, 1);
const LIMITS = { maxRows: 100_000, maxBytes: 10_000_000, timeoutMs: 30_000 };
let dataDir: string;
let store: DuckDbTelemetryStore;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-plans-"));
  store = await openDuckDbTelemetryStore({ dataDir, customers: [CUSTOMER] });
  // 2 plants × 3 devices × 2 data points, one reading a minute for two days: 34,560 readings.
  await store.write(CUSTOMER.id, async (connection) => {
    await connection.run(`INSERT INTO StateSeries
      SELECT i, 'P' || (1 + i // 6), CASE WHEN i % 2 = 0 THEN 'Temperature' ELSE 'Pressure' END, 'DEV-' || (i // 2), '{"Area":"A"}', NULL
      FROM range(12) t(i)`);
    await connection.run(`INSERT INTO StateValues
      SELECT s.i, TIMESTAMP '2026-01-01' + to_minutes(m.i), s.i * 10 + m.i % 7, 5, 10
      FROM range(12) s(i), range(2880) m(i) ORDER BY 1, 2`);
  });
}, 60_000);

afterAll(async () => {
  await store?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const dayScope = (plantIds: string[] | null): TelemetryScope => ({ start: new Date(START), end: new Date(START + 86_400_000), plantIds });

/** EXPLAIN's operators and the tables its scans read. */
async function planOf(kql: string, scope: TelemetryScope) {
  const compiled = compileKql(kql, { sources: scopedSources(scope) });
  const plan = await store.plan(CUSTOMER.id, compiled);
  return {
    joins: [...plan.matchAll(/│\s*([A-Z_]*JOIN)\s*│/g)].length,
    // A scan's table is printed as "<file>".main.<table>, broken over lines: its last part names it.
    scans: [...plan.matchAll(/\.(StateValues|StateSeries|Events)\b/g)].map((m) => m[1]),
    plan,
  };
}

/** The answer, and the answer of the same query over the full view (no narrower source). */
async function answers(kql: string, scope: TelemetryScope) {
  const rows = async (table: { rows: Uint8Array[] }) => JSON.parse(Buffer.concat(table.rows).toString("utf8")) as unknown[][];
  const narrowed = await rows(await store.query({ customerId: CUSTOMER.id, kql, scope, limits: LIMITS }));
  const full = { ...scopedSources(scope) };
  full.States = { sql: full.States.sql, params: full.States.params };
  const compiled = compileKql(kql, { sources: full });
  const reference = await rows(await store.execute(CUSTOMER.id, { ...compiled, columns: compiled.columns }, { limits: LIMITS }));
  return { narrowed, reference };
}

describe("DuckDB plans of the telemetry tables", () => {
  it.each([
    ["States | count", 17_280],
    ["States | summarize avg(Value) by bin(Timestamp, 6h) | count", 4],
    ["States | where Value > 100 | summarize n = count()", null],
    ["States | project Timestamp, Value, IngestionTimestamp | take 3", null],
  ])("%s reads StateValues only, no join", async (kql, expected) => {
    const { joins, scans, plan } = await planOf(kql, dayScope(null));
    expect(joins, plan).toBe(0);
    expect(scans, plan).toEqual(["StateValues"]);
    const { narrowed, reference } = await answers(kql, dayScope(null));
    expect(narrowed).toEqual(reference);
    if (expected !== null) expect(narrowed).toEqual([[expected]]);
  });

  it("resolves a plant scope to series ids on the series table, with the same answer", async () => {
    const { plan, scans } = await planOf("States | count", dayScope(["P2"]));
    expect(scans.filter((t) => t === "StateValues"), plan).toHaveLength(1);
    expect(scans, plan).toContain("StateSeries");
    const { narrowed, reference } = await answers("States | count", dayScope(["P2"]));
    expect(narrowed).toEqual([[8_640]]);
    expect(narrowed).toEqual(reference);
    expect((await answers("States | count", dayScope([]))).narrowed).toEqual([[0]]);
  });

  it.each([
    'States | where Name == "Temperature" | count',
    "States | summarize count() by Name | order by Name asc",
    'States | where DeviceId == "DEV-3" | summarize avg(Value) by bin(Timestamp, 12h) | order by Timestamp asc',
    "States | summarize dcount(DeviceId) by tostring(DataMetadata.Area)",
    "States | take 2",
  ])("%s joins the series table once", async (kql) => {
    const { joins, plan } = await planOf(kql, dayScope(null));
    expect(joins, plan).toBe(1);
    const { narrowed, reference } = await answers(kql, dayScope(null));
    expect(narrowed).toEqual(reference);
    expect(narrowed.length).toBeGreaterThan(0);
  });

  it("keeps each read's own form: a join of a values-only read with a read of names", async () => {
    const kql = 'States | summarize n = count() by bin(Timestamp, 1d) | join kind=inner (States | where Name == "Pressure" | summarize m = count() by bin(Timestamp, 1d)) on Timestamp | project n, m';
    const { joins, plan } = await planOf(kql, dayScope(null));
    expect(joins, plan).toBe(2);
    const { narrowed, reference } = await answers(kql, dayScope(null));
    expect(narrowed).toEqual([[17_280, 8_640]]);
    expect(narrowed).toEqual(reference);
  });
});
