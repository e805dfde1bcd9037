import { describe, expect, it } from "vitest";
import { formatTimeTick, timeTicks, zoneOffsetMs } from "./time-ticks";

const at = (iso: string) => Date.parse(iso);

describe("timeTicks", () => {
  it("puts ticks on round UTC hours for a day", () => {
    const ticks = timeTicks(at("2026-11-21T03:17:00Z"), at("2026-11-22T03:17:00Z"), 8);
    expect(ticks.map((t) => new Date(t).toISOString().slice(11, 16))).toEqual(["06:00", "09:00", "12:00", "15:00", "18:00", "21:00", "00:00", "03:00"]);
  });

  it("uses whole days for a month and never exceeds the budget", () => {
    const ticks = timeTicks(at("2026-10-23T00:00:00Z"), at("2026-11-22T00:00:00Z"), 10);
    expect(ticks.length).toBeLessThanOrEqual(10);
    for (const t of ticks) expect(new Date(t).toISOString().endsWith("T00:00:00.000Z")).toBe(true);
  });

  it("labels midnight with the date", () => {
    expect(formatTimeTick(at("2026-11-22T00:00:00Z"), 86_400_000)).toBe("22 Nov");
    expect(formatTimeTick(at("2026-11-22T15:00:00Z"), 86_400_000)).toBe("15:00");
    expect(formatTimeTick(at("2026-11-22T12:00:00Z"), 5 * 86_400_000)).toBe("22 Nov 12:00");
  });
});

describe("time zones", () => {
  it("knows the offset of a zone, summer time included", () => {
    expect(zoneOffsetMs(at("2026-01-15T12:00:00Z"), "Europe/Amsterdam")).toBe(3_600_000);
    expect(zoneOffsetMs(at("2026-07-15T12:00:00Z"), "Europe/Amsterdam")).toBe(7_200_000);
    expect(zoneOffsetMs(at("2026-07-15T12:00:00Z"), "UTC")).toBe(0);
  });

  it("puts day ticks on the zone's midnight and labels them with the zone's date", () => {
    const ticks = timeTicks(at("2026-11-01T00:00:00Z"), at("2026-11-08T00:00:00Z"), 8, "Europe/Amsterdam");
    for (const t of ticks) expect(new Date(t).toISOString().slice(11, 16)).toBe("23:00");
    expect(formatTimeTick(at("2026-11-21T23:00:00Z"), 5 * 86_400_000, "Europe/Amsterdam")).toBe("22 Nov");
    expect(formatTimeTick(at("2026-11-22T14:00:00Z"), 86_400_000, "Europe/Amsterdam")).toBe("15:00");
  });
});
