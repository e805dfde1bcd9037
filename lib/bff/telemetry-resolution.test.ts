/**
 * `POST /api/telemetry/query` over real HTTP on the real embedded service (DuckDB, one day of demo
 * telemetry at one minute): a chart's width brings the answer within what it can show (a coarser
 * bin, or each series' low and high per bin — the same values the full rows have), the full
 * resolution is there when asked, and `meta` carries the inspector's figures.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  const demoPassword = "demo-password-for-tests";
  return { ...(await import("./testing/environment")).setTestEnvironment("bff-resolution-test", { DEMO_PASSWORD: demoPassword }), demoPassword };
});

import { ZExplorerQueryResponse, type TExplorerQueryResponse } from "@/lib/contract/explorer";
import { startEmbeddedDashboard, type EmbeddedDashboard } from "./testing/dashboards";
import { withMeta } from "./telemetry-query";

let dashboard: EmbeddedDashboard;
let cookie: string;
const endTime = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
const startTime = new Date(endTime.getTime() - 12 * 3_600_000);
const range = { startTime: startTime.toISOString(), endTime: endTime.toISOString(), plantIds: ["RTM1"] };

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, env.demoPassword);
  cookie = await dashboard.cookieFor("engineer@plantdesk.demo");
});
afterAll(() => dashboard.close());

async function query(body: Record<string, unknown>): Promise<TExplorerQueryResponse> {
  const response = await dashboard.api.call("/api/telemetry/query", { method: "POST", body: { ...range, ...body }, cookie });
  expect(response.status, await response.clone().text()).toBe(200);
  return ZExplorerQueryResponse.parse(await response.json());
}

const RAW = `States\n| where Name == "Temperature"\n| project Timestamp, DeviceId, Value`;
const BINNED = `States\n| where Name == "Temperature"\n| summarize avg(todouble(Value)) by bin(Timestamp, 1m), DeviceId\n| render timechart`;
const key = (row: unknown[]) => `${String(row[0])}|${String(row[1])}`;

describe("automatic resolution", () => {
  it("shows a one-minute summarize at a coarser bin: the same rows as that bin written by hand", async () => {
    // 12 h over 100 px, one point per pixel column: 7.2 min → 10-min bins.
    const reduced = await query({ query: BINNED, resolution: { width: 100 } });
    expect(reduced.meta.resolution).toMatchObject({ method: "bin", sourceBinMs: 60_000, shownBinMs: 600_000, fullFits: true });
    expect(reduced.data.render?.kind).toBe("timechart");
    const byHand = await query({ query: BINNED.replace("1m", "10m") });
    expect(byHand.meta.resolution).toBeNull();
    const sort = (rows: unknown[][]) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));
    expect(sort(reduced.data.rows)).toEqual(sort(byHand.data.rows));
    const full = await query({ query: BINNED, resolution: { width: 100, full: true } });
    expect(full.meta.resolution).toBeNull();
    expect(full.data.rows.length).toBeGreaterThan(reduced.data.rows.length * 9);
    expect(reduced.meta.resolution!.fullRows).toBe(reduced.data.rows.length * 10);
  });

  it("reduces raw samples to each series' low and high per bin, from the full rows' own values", async () => {
    const reduced = await query({ query: RAW, resolution: { width: 100 } });
    const full = await query({ query: RAW, resolution: { width: 100, full: true } });
    expect(reduced.meta.resolution).toMatchObject({ method: "minmax", sourceBinMs: null, shownBinMs: 900_000, fullRows: full.data.rows.length, fullFits: true });
    expect(reduced.meta.inspection.queries).toBe(2);
    expect(reduced.data.columns.map((column) => column.name)).toEqual(["Timestamp", "DeviceId", "Value"]);
    // One bin per two pixel columns (two points each): 12 h over 50 bins → 14.4 min → 15-min bins.
    // Expected: per device and 15-minute bin, the lowest and the highest of the full rows.
    const expected = new Map<string, number[]>();
    for (const [time, device, value] of full.data.rows as [string, string, number][]) {
      const bin = new Date(Math.floor(Date.parse(time) / 900_000) * 900_000).toISOString();
      const k = `${bin}|${device}`;
      const seen = expected.get(k);
      expected.set(k, seen ? [Math.min(seen[0]!, value), Math.max(seen[1]!, value)] : [value, value]);
    }
    const got = new Map<string, number[]>();
    for (const [time, device, value] of reduced.data.rows as [string, string, number][]) {
      const k = `${time}|${device}`;
      got.set(k, [...(got.get(k) ?? []), value].sort((a, b) => a - b));
    }
    expect(got.size).toBe(expected.size);
    for (const [k, [low, high]] of expected) expect(got.get(k)).toEqual([low, high]);
    expect(reduced.data.rows.length).toBe(2 * expected.size);
  });

  it("draws a series short enough for the chart as it is", async () => {
    const device = (await query({ query: `States | where Name == "Temperature" | distinct DeviceId | take 1` })).data.rows[0]![0];
    const narrow = `States\n| where Name == "Temperature" and DeviceId == ${JSON.stringify(device)} and Timestamp < datetime(${new Date(startTime.getTime() + 3_600_000).toISOString()})\n| project Timestamp, Value`;
    const answer = await query({ query: narrow, resolution: { width: 100 } });
    expect(answer.meta.resolution).toBeNull();
    expect(answer.data.rows.length).toBe(60);
  });

  it("leaves a table's query as written", async () => {
    const answer = await query({ query: RAW });
    expect(answer.meta.resolution).toBeNull();
    expect(answer.meta.inspection.queries).toBe(1);
  });

  it("refuses a width outside 50–8000 px with the error body", async () => {
    const response = await dashboard.api.call("/api/telemetry/query", { method: "POST", body: { ...range, query: RAW, resolution: { width: 10 } }, cookie });
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe("INVALID_INPUT");
  });
});

describe("the inspector's figures", () => {
  it("reports rows scanned, rows returned, cost and each stage's time", async () => {
    const answer = await query({ query: `States | where Name == "Temperature" | summarize n = count()`, inspect: true });
    const inScope = await query({ query: "States | count" });
    const { inspection } = answer.meta;
    expect(inspection.rowsScanned).toBe(inScope.data.rows[0]![0]);
    expect(inspection.rowsReturned).toBe(1);
    expect(inspection.cost).toBeGreaterThanOrEqual(1);
    for (const stage of Object.values(inspection.stages)) expect(stage).toBeGreaterThanOrEqual(0);
    expect((await query({ query: "States | count" })).meta.inspection.rowsScanned).toBeNull();
  });
});

describe("withMeta", () => {
  it("puts meta first in text and in byte parts without touching the rows", () => {
    const meta = { resolution: null, inspection: { rowsScanned: null, rowsReturned: 1, cost: 1, queries: 1, stages: { compileMs: 1, queueMs: 0, executeMs: 2, serializeMs: 0 } } };
    const text = `{"data":{"columns":[],"rows":[[1]]}}`;
    expect(JSON.parse(withMeta(text, meta) as string)).toEqual({ meta, data: { columns: [], rows: [[1]] } });
    const parts = withMeta([Buffer.from(`{"data":{"columns":[],"rows":`), Buffer.from("[[1]]"), Buffer.from("}}")], meta) as Uint8Array[];
    expect(JSON.parse(Buffer.concat(parts).toString("utf8"))).toEqual({ meta, data: { columns: [], rows: [[1]] } });
  });
});
