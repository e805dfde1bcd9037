import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_CATEGORIES } from "@/components/telemetry/chart-plan";
import { planResolution } from "@/lib/kql/resolution";
import { PLANT_HEALTH } from "@/modules/boards/store/plant-health";
import { earlyPanelWidth, newPanelId, PANEL_WIDTH_COOKIE, panelQuery, panelRequestWidth, panelUnit, parseBoardView, rememberPanelWidth, resolvesByWidth } from "./board-state";

const options = { devices: ["RTM1-PUMP-01", "RTM1-PUMP-02"], dataPoints: ["Pressure", "Temperature"] };

describe("parseBoardView", () => {
  it("takes the URL's range, refresh and values when the board and plant know them", () => {
    const view = parseBoardView(new URLSearchParams("range=7d&refresh=5m&var-device=RTM1-PUMP-02&var-point=Pressure"), PLANT_HEALTH, options);
    expect(view).toEqual({ range: "7d", refresh: "5m", values: { device: "RTM1-PUMP-02", point: "Pressure" } });
  });

  it("falls back to the board's range and refresh, and uses a named value without waiting for the plant's options", () => {
    const view = parseBoardView(new URLSearchParams("range=99y&refresh=1s&var-device=%22%20or%201"), PLANT_HEALTH, undefined);
    expect(view).toEqual({ range: "24h", refresh: "1m", values: { device: '" or 1', point: "Temperature" } });
  });

  it("takes the plant's first device when neither the URL nor the board names one, once the options are known", () => {
    expect(parseBoardView(new URLSearchParams(""), PLANT_HEALTH, undefined).values).toEqual({ point: "Temperature" });
    expect(parseBoardView(new URLSearchParams(""), PLANT_HEALTH, options).values).toEqual({ device: "RTM1-PUMP-01", point: "Temperature" });
    expect(parseBoardView(new URLSearchParams(`var-device=${"x".repeat(201)}`), PLANT_HEALTH, options).values.device).toBe("RTM1-PUMP-01");
  });
});

describe("panelQuery", () => {
  const panel = PLANT_HEALTH.panels.find((candidate) => candidate.id === "device-point")!;

  it("substitutes values as literals and $__bin from the range", () => {
    const view = { range: "7d" as const, refresh: "off" as const, values: { device: 'A"B', point: "Temperature" } };
    expect(panelQuery(panel, PLANT_HEALTH, view)).toEqual({
      ok: true,
      query: 'States\n| where DeviceId == "A\\"B" and Name == "Temperature"\n| summarize Value = round(avg(todouble(Value)), 3) by bin(Timestamp, 3h)',
    });
  });

  it("waits for a value not chosen yet, and names an unknown variable", () => {
    expect(panelQuery(panel, PLANT_HEALTH, { range: "24h", refresh: "off", values: { point: "Temperature" } })).toEqual({ ok: false, waiting: true });
    const stray = { ...panel, query: "States | where DeviceId == $line" };
    expect(panelQuery(stray, PLANT_HEALTH, { range: "24h", refresh: "off", values: {} })).toEqual({
      ok: false,
      waiting: false,
      message: "Line 1, column 28: $line is not a variable of this dashboard.",
    });
  });
});

it("makes panel ids from titles, unique on the board", () => {
  expect(newPanelId("Peak vibration (mm/s)", [])).toBe("peak-vibration-mm-s");
  expect(newPanelId("Temperature", ["temperature", "temperature-2"])).toBe("temperature-3");
  expect(newPanelId("°°°", [])).toBe("panel");
});

describe("panelUnit", () => {
  const units = new Map([
    ["Temperature", "degC"],
    ["Pressure", "bar"],
  ]);
  const view = (point: string) => ({ range: "24h" as const, refresh: "off" as const, values: { device: "RTM1-PUMP-01", point } });
  const chosen = PLANT_HEALTH.panels.find((candidate) => candidate.id === "device-point")!;

  it("follows the chosen data point when the panel's query is for the data point variable", () => {
    expect(panelUnit(chosen, PLANT_HEALTH, view("Temperature"), units)).toEqual({ unit: "degC", followed: true });
    expect(panelUnit(chosen, PLANT_HEALTH, view("Pressure"), units)).toEqual({ unit: "bar", followed: true });
  });

  it("stays without a unit while the catalogue is unknown or the data point has none", () => {
    expect(panelUnit(chosen, PLANT_HEALTH, view("Temperature"), undefined)).toEqual({ unit: "", followed: false });
    expect(panelUnit(chosen, PLANT_HEALTH, view("Running"), units)).toEqual({ unit: "", followed: false });
  });

  it("keeps the author's unit, and gives none to a panel not about the chosen data point", () => {
    const temperature = PLANT_HEALTH.panels.find((candidate) => candidate.id === "temperature")!;
    expect(panelUnit(temperature, PLANT_HEALTH, view("Pressure"), units)).toEqual({ unit: "°C", followed: false });
    const devices = PLANT_HEALTH.panels.find((candidate) => candidate.id === "devices")!;
    expect(panelUnit(devices, PLANT_HEALTH, view("Pressure"), units)).toEqual({ unit: "", followed: false });
    // "$point" inside a string is text, not the variable.
    const quoted = { ...chosen, query: 'States\n| where Name == "$point"\n| summarize Value = avg(todouble(Value)) by bin(Timestamp, $__bin)' };
    expect(panelUnit(quoted, PLANT_HEALTH, view("Pressure"), units)).toEqual({ unit: "", followed: false });
  });

  it("follows nothing when the query compares two data point variables", () => {
    const board = { ...PLANT_HEALTH, variables: [...PLANT_HEALTH.variables, { name: "other", label: "Other", kind: "dataPoint" as const, default: "Pressure" }] };
    const both = { ...chosen, query: "States\n| where Name == $point or Name == $other\n| summarize Value = avg(todouble(Value)) by Name, bin(Timestamp, $__bin)" };
    expect(panelUnit(both, board, { ...view("Temperature"), values: { point: "Temperature", other: "Pressure" } }, units)).toEqual({ unit: "", followed: false });
  });
});

describe("a panel's resolution", () => {
  it("gives a column panel no more bars than a chart draws, wherever its range starts (30 days at 12 h once gave 61)", () => {
    const query = `States | summarize count() by bin(Timestamp, 1m) | render columnchart`;
    fc.assert(
      fc.property(fc.integer({ min: 3_600_000, max: 400 * 86_400_000 }), fc.integer({ min: 0, max: 86_400_000 }), (spanMs, offsetMs) => {
        const startMs = Date.UTC(2026, 0, 1) + offsetMs;
        const plan = planResolution(query, { startMs, endMs: startMs + spanMs, width: panelRequestWidth(1000, "column") });
        const binMs = plan.kind === "bin" ? plan.shownBinMs : 60_000;
        // The bins the range touches, edges on multiples of the bin since the epoch (bin() in KQL).
        const bars = Math.floor((startMs + spanMs) / binMs) - Math.floor(startMs / binMs) + 1;
        expect(bars).toBeLessThanOrEqual(MAX_CATEGORIES);
      }),
    );
  });

  it("asks for its plot's width rounded up to a step, and the server's first answer uses the step a laptop's panel measures", () => {
    expect(panelRequestWidth(200)).toBe(400);
    expect(panelRequestWidth(450)).toBe(800);
    expect(panelRequestWidth(800)).toBe(800);
    expect(panelRequestWidth(1000)).toBe(1600);
    expect(panelRequestWidth(9000)).toBe(3200);
    expect(earlyPanelWidth({ chart: "line", width: "half" })).toBe(400);
    expect(earlyPanelWidth({ chart: "line", width: "full" })).toBe(1600);
    expect(earlyPanelWidth({ chart: "bar", width: "full" })).toBe(59);
    expect(panelRequestWidth(1000, "column")).toBe(59);
    expect(earlyPanelWidth({ chart: "table", width: "full" })).toBeNull();
    expect(["line", "column", "bar", "pie", "table", "stat"].filter((chart) => resolvesByWidth(chart as never))).toEqual(["line", "column", "bar"]);
  });

  it("remembers the width each size of line panel asked for, so the server's first answer is the one the panel keeps", () => {
    const first = rememberPanelWidth("half", 800, "other=1; theme=dark");
    expect(first).toBe(`${PANEL_WIDTH_COOKIE}=half:800; Path=/; Max-Age=31536000; SameSite=Lax`);
    const jar = `theme=dark; ${first!.split(";")[0]}`;
    // Unchanged: nothing written; the other size is added beside it.
    expect(rememberPanelWidth("half", 800, jar)).toBeNull();
    expect(rememberPanelWidth("full", 1600, jar)).toBe(`${PANEL_WIDTH_COOKIE}=half:800.full:1600; Path=/; Max-Age=31536000; SameSite=Lax`);
    // A width no panel asks for is never written, and a mangled entry is dropped.
    expect(rememberPanelWidth("half", 123, jar)).toBeNull();
    expect(rememberPanelWidth("full", 400, `${PANEL_WIDTH_COOKIE}=half:77.bogus:400.full`)).toBe(`${PANEL_WIDTH_COOKIE}=full:400; Path=/; Max-Age=31536000; SameSite=Lax`);
    expect(earlyPanelWidth({ chart: "line", width: "half" }, { half: 800 })).toBe(800);
    expect(earlyPanelWidth({ chart: "column", width: "half" }, { half: 800 })).toBe(59);
  });
});
