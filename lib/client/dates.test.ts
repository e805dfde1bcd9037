import { describe, expect, it } from "vitest";
import { addDays, dayInZone, isIsoDate } from "./dates";

describe("dayInZone", () => {
  it("is the reader's day, not UTC's, in the evening west of Greenwich", () => {
    // 20:30 in New York on 4 March (EST, UTC-5) is 01:30 on 5 March in UTC.
    const instant = Date.parse("2026-03-05T01:30:00Z");
    expect(dayInZone(instant, "America/New_York")).toBe("2026-03-04");
    expect(dayInZone(instant, "UTC")).toBe("2026-03-05");
    expect(dayInZone(new Date(instant), "Europe/Amsterdam")).toBe("2026-03-05");
  });

  it("follows daylight saving time on both edges", () => {
    // New York springs forward on 8 March 2026 at 02:00 EST (07:00Z): midnight EDT is 04:00Z.
    expect(dayInZone(Date.parse("2026-03-09T03:59:59Z"), "America/New_York")).toBe("2026-03-08");
    expect(dayInZone(Date.parse("2026-03-09T04:00:00Z"), "America/New_York")).toBe("2026-03-09");
    // ... and falls back on 1 November 2026: midnight EST is 05:00Z from then on.
    expect(dayInZone(Date.parse("2026-11-02T04:59:59Z"), "America/New_York")).toBe("2026-11-01");
    expect(dayInZone(Date.parse("2026-11-02T05:00:00Z"), "America/New_York")).toBe("2026-11-02");
    // Amsterdam's switch (29 March 2026 01:00Z) happens at 02:00 → 03:00 local, not at midnight.
    expect(dayInZone(Date.parse("2026-03-28T22:59:59Z"), "Europe/Amsterdam")).toBe("2026-03-28");
    expect(dayInZone(Date.parse("2026-03-28T23:00:00Z"), "Europe/Amsterdam")).toBe("2026-03-29");
    expect(dayInZone(Date.parse("2026-10-24T22:00:00Z"), "Europe/Amsterdam")).toBe("2026-10-25");
  });

  it("handles the zones furthest from UTC (+14 and -11)", () => {
    const instant = Date.parse("2026-12-31T10:00:00Z");
    expect(dayInZone(instant, "Pacific/Kiritimati")).toBe("2027-01-01");
    expect(dayInZone(instant, "Pacific/Pago_Pago")).toBe("2026-12-30");
    expect(dayInZone(Date.parse("2026-12-31T09:59:59Z"), "Pacific/Kiritimati")).toBe("2026-12-31");
    expect(dayInZone(Date.parse("2027-01-01T10:59:59Z"), "Pacific/Pago_Pago")).toBe("2026-12-31");
    expect(dayInZone(Date.parse("2027-01-01T11:00:00Z"), "Pacific/Pago_Pago")).toBe("2027-01-01");
  });

  it("gives dates the service speaks (YYYY-MM-DD) that the pure helpers accept", () => {
    const day = dayInZone(Date.parse("2028-02-29T12:00:00Z"), "Asia/Kolkata");
    expect(day).toBe("2028-02-29");
    expect(isIsoDate(day)).toBe(true);
    expect(addDays(day, 1)).toBe("2028-03-01");
  });

  it("refuses a zone that does not exist instead of guessing", () => {
    expect(() => dayInZone(0, "Mars/Olympus_Mons")).toThrow(RangeError);
  });
});
