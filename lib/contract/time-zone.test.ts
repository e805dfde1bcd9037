/** Days and instants in named zones, across daylight-saving changes (time-zone.ts). */
import { describe, expect, it } from "vitest";
import { startOfDay, zonedIso, zoneOffset } from "./time-zone";

describe("time zones", () => {
  it("starts a day at the zone's midnight, on both sides of a change", () => {
    expect(startOfDay("2026-01-15", "Europe/Amsterdam")).toBe("2026-01-14T23:00:00.000Z");
    expect(startOfDay("2026-07-15", "Europe/Amsterdam")).toBe("2026-07-14T22:00:00.000Z");
    // Amsterdam changes at 02:00 on 29 March: that day still starts at +01:00, the next at +02:00.
    expect(startOfDay("2026-03-29", "Europe/Amsterdam")).toBe("2026-03-28T23:00:00.000Z");
    expect(startOfDay("2026-03-30", "Europe/Amsterdam")).toBe("2026-03-29T22:00:00.000Z");
    expect(startOfDay("2026-03-10", "UTC")).toBe("2026-03-10T00:00:00.000Z");
    expect(startOfDay("2026-03-10", "Asia/Kolkata")).toBe("2026-03-09T18:30:00.000Z");
  });

  it("starts a day whose midnight is skipped at the change (Santiago, 6 September 2026)", () => {
    const start = startOfDay("2026-09-06", "America/Santiago");
    expect(zonedIso(start, "America/Santiago").slice(0, 10)).toBe("2026-09-06");
    expect(zonedIso(Date.parse(start) - 1000, "America/Santiago").slice(0, 10)).toBe("2026-09-05");
  });

  it("writes an instant as the zone's wall clock with its offset", () => {
    expect(zonedIso("2026-11-25T21:04:05.600Z", "Europe/Amsterdam")).toBe("2026-11-25T22:04:05+01:00");
    expect(zonedIso("2026-11-25T21:04:05Z", "America/St_Johns")).toBe("2026-11-25T17:34:05-03:30");
    expect(zonedIso("2026-11-25T21:04:05Z", "UTC")).toBe("2026-11-25T21:04:05+00:00");
    expect(zoneOffset(Date.parse("2026-07-01T00:00:00Z"), "America/Chicago")).toBe(-5 * 3_600_000);
  });
});
