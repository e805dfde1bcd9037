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
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kqlQuery } from "@/lib/kql/testing/arbitrary";
import { compileKql } from "@/lib/kql";
import { openDuckDbTelemetryStore, scopedSources, type DuckDbTelemetryStore } from "./store";
import { scopedSourcesOf } from "../scoped-sources";
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

interface PlanNode {
  name: string;
  children: PlanNode[];
  extra_info?: Record<string, unknown>;
}

/** The tables a subtree scans. */
const scansIn = (node: PlanNode): string[] => [
  ...(node.name.includes("SCAN") && typeof node.extra_info?.Table === "string" ? [node.extra_info.Table.split(".").pop()!] : []),
  ...node.children.flatMap(scansIn),
];

/** Whether every path from `node` down to a scan of `table` passes a grouping first. */
const groupedBefore = (node: PlanNode, table: string): boolean =>
  node.name.includes("GROUP_BY") || !scansIn(node).includes(table) || (!node.name.includes("SCAN") && node.children.every((c) => groupedBefore(c, table)));

/**
 * The plan as JSON, and the joins of the readings with the series table it has: `rowJoins` probe the
 * series table once per reading (the readings reach the join ungrouped; a semi-join on series ids
 * is not one), `groupJoins` join groups of readings already grouped (by series id).
 */
async function jsonPlanOf(kql: string, scope: TelemetryScope) {
  const compiled = compileKql(kql, { sources: scopedSources(scope) });
  const text = await store.plan(CUSTOMER.id, compiled, { json: true });
  const joins: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    if (node.name.includes("JOIN") && !/SEMI|ANTI|MARK/.test(String(node.extra_info?.["Join Type"]))) joins.push(node);
    node.children.forEach(walk);
  };
  (JSON.parse(text) as PlanNode[]).forEach(walk);
  const ofSeries = joins.filter((j) => j.children.some((c) => scansIn(c).includes("StateValues")) && j.children.some((c) => scansIn(c).includes("StateSeries") && !scansIn(c).includes("StateValues")));
  return {
    rowJoins: ofSeries.filter((j) => !j.children.every((c) => groupedBefore(c, "StateValues"))).length,
    groupJoins: ofSeries.filter((j) => j.children.every((c) => groupedBefore(c, "StateValues"))).length,
    plan: text,
  };
}

/** The answer, and the answer of the same query over the full view (no narrower source). */
async function answers(kql: string, scope: TelemetryScope) {
  const rows = async (table: { rows: Uint8Array[] }) => JSON.parse(Buffer.concat(table.rows).toString("utf8")) as unknown[][];
  // One now() for both reads: a pipeline may extend now() into its rows.
  const now = new Date();
  const narrowed = await rows(await store.query({ customerId: CUSTOMER.id, kql, scope, limits: LIMITS, now }));
  // The scope over the `States` view itself: no narrower form, no series filter.
  const full = scopedSourcesOf(scope, { param: (name) => `$${name}`, table: (name) => `"${name}"`, never: "FALSE" });
  const compiled = compileKql(kql, { sources: full, now });
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
    ['States | where Name == "Temperature" | count', 8_640],
    ['States | where DeviceId == "DEV-3" and Name == "Pressure" | summarize avg(Value) by bin(Timestamp, 12h) | count', 2],
    ['States | where DeviceId in ("DEV-1", "DEV-2") and Value > 0 | summarize n = count() by bin(Timestamp, 1d) | project n', 5_760],
    ['States | where tostring(DataMetadata.Area) == "A" and PlantId == "P2" | summarize max(Timestamp) | count', 1],
  ])("%s resolves the series filter to series ids before the scan, no join with the readings", async (kql, expected) => {
    const { joins, scans, plan } = await planOf(kql, dayScope(null));
    // The series ids come from the series table (a semi-join on its few rows): the readings' scan is never joined row by row.
    expect([...plan.matchAll(/Join Type: (\w+)/g)].map((m) => m[1]), plan).toEqual(["SEMI"]);
    expect(scans.filter((t) => t === "StateValues"), plan).toHaveLength(1);
    expect(scans.filter((t) => t === "StateSeries"), plan).toHaveLength(1);
    expect(joins, plan).toBeLessThanOrEqual(1);
    const { narrowed, reference } = await answers(kql, dayScope(null));
    expect(narrowed).toEqual(reference);
    expect(narrowed).toEqual([[expected]]);
  });

  it.each([
    ["States | summarize count() by Name | order by Name asc", null],
    ['States | where Name == "Temperature" | summarize count() by DeviceId | order by DeviceId asc', null],
    ["States | summarize n = count(), lo = min(Value), hi = max(Timestamp), total = sum(Value) by Name, DeviceId | order by Name asc, DeviceId asc", null],
    ["States | summarize a = avg(Value), c = countif(Value > 50) * 2 by DeviceId, bin(Timestamp, 12h) | order by DeviceId asc, Timestamp asc", null],
    ['States | summarize count() by tostring(DataMetadata.Area), PlantId | order by PlantId asc', null],
    ["States | summarize count() by Name | order by Name asc", ["P2"]],
  ])("%s groups the readings by series id before joining the series table (scope %j)", async (kql, plants) => {
    const { rowJoins, groupJoins, plan } = await jsonPlanOf(kql, dayScope(plants));
    // Fails when a plan probes the series table with every reading, or groups by the Name string after such a join.
    expect(rowJoins, plan).toBe(0);
    expect(groupJoins, plan).toBe(1);
    const { narrowed, reference } = await answers(kql, dayScope(plants));
    expect(narrowed).toEqual(reference);
    expect(narrowed.length).toBeGreaterThan(0);
  });

  it("States | summarize count() by Name counts every reading of each name", async () => {
    const { narrowed } = await answers("States | summarize count() by Name | order by Name asc", dayScope(null));
    expect(narrowed).toEqual([["Pressure", 8_640], ["Temperature", 8_640]]);
    const avg = await answers("States | where Value < 0 | summarize a = avg(Value), n = count() by Name", dayScope(null));
    expect(avg.narrowed).toEqual([]);
  });

  it.each([
    ["States | summarize count() by Name", 0],
    ["States | count", 0],
    ['States | where DeviceId == "DEV-3" | summarize avg(Value) by bin(Timestamp, 12h)', 0],
    ["States | summarize dcount(DeviceId) by tostring(DataMetadata.Area)", 1],
    ["States | summarize any(Value) by Name", 1],
    ["States | take 2", 1],
  ])("%s joins the readings with the series table row by row %i times", async (kql, expected) => {
    const { rowJoins, plan } = await jsonPlanOf(kql, dayScope(null));
    expect(rowJoins, plan).toBe(expected);
    const { narrowed, reference } = await answers(kql, dayScope(null));
    if (!/any\(/.test(kql)) expect(narrowed).toEqual(reference);
    expect(narrowed.length).toBe(reference.length);
  });

  it("keeps each read's own form: a join of a values-only read with a read of names", async () => {
    const kql = 'States | summarize n = count() by bin(Timestamp, 1d) | join kind=inner (States | where Name == "Pressure" | summarize m = count() by bin(Timestamp, 1d)) on Timestamp | project n, m';
    const { joins, plan } = await planOf(kql, dayScope(null));
    expect(joins, plan).toBe(2);
    const { narrowed, reference } = await answers(kql, dayScope(null));
    expect(narrowed).toEqual([[17_280, 8_640]]);
    expect(narrowed).toEqual(reference);
  });

  it("answers random pipelines as the full view does (narrower forms and series filters change no answer)", async () => {
    // Rows in a canonical order: a plan may return unordered rows in another order.
    const canonical = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();
    const outcome = async (run: () => Promise<{ narrowed: unknown[][]; reference: unknown[][] }>) => {
      try {
        const { narrowed, reference } = await run();
        return { narrowed: canonical(narrowed), reference: canonical(reference) };
      } catch (error) {
        return { error: error instanceof Error ? error.constructor.name : "error" };
      }
    };
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(kqlQuery({ junk: 0, tables: ["States"] }), fc.boolean(), async (kql, onePlant) => {
        const result = await outcome(() => answers(kql, dayScope(onePlant ? ["P2"] : null)));
        if ("error" in result) return;
        answered++;
        // Unordered, limited rows (take without sort) and any() / take_any() (one arbitrary value per
        // group, as in ADX: DuckDB's threads pick another on each run) may differ: compare how many only.
        const arbitrary = (/\b(take|limit)\b/.test(kql) && !/\b(sort|order|top)\b/.test(kql)) || /\b(any|take_any|take_anyif|anyif)\(/.test(kql);
        if (arbitrary) expect(result.narrowed.length, kql).toBe(result.reference.length);
        else expect(result.narrowed, kql).toEqual(result.reference);
      }),
      { numRuns: 60 },
    );
    expect(answered).toBeGreaterThan(20);
  }, 300_000);
});
