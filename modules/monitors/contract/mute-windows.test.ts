import { describe, expect, it } from "vitest";
import { mutedAt, windowCovers, type MuteWindow } from "./mute-windows";

const at = (iso: string) => Date.parse(iso);

describe("mute windows", () => {
  it("a one-off window covers [from, to)", () => {
    const once: MuteWindow = { kind: "once", from: "2026-11-20T06:00:00Z", to: "2026-11-20T14:00:00Z" };
    expect(windowCovers(once, at("2026-11-20T05:59:59Z"))).toBe(false);
    expect(windowCovers(once, at("2026-11-20T06:00:00Z"))).toBe(true);
    expect(windowCovers(once, at("2026-11-20T13:59:59Z"))).toBe(true);
    expect(windowCovers(once, at("2026-11-20T14:00:00Z"))).toBe(false);
  });

  it("a weekly window repeats on its days at its wall-clock start, in its zone, across midnight and the week's end", () => {
    // Sundays 22:00 for 4 hours in Amsterdam (UTC+1 in November): Sunday 21:00Z to Monday 01:00Z.
    const sunday: MuteWindow = { kind: "weekly", days: ["sun"], start: "22:00", minutes: 240, timeZone: "Europe/Amsterdam" };
    expect(windowCovers(sunday, at("2026-11-22T20:59:00Z"))).toBe(false); // Sunday 21:59 local
    expect(windowCovers(sunday, at("2026-11-22T21:00:00Z"))).toBe(true);
    expect(windowCovers(sunday, at("2026-11-23T00:59:00Z"))).toBe(true); // Monday 01:59 local
    expect(windowCovers(sunday, at("2026-11-23T01:00:00Z"))).toBe(false);
    expect(windowCovers(sunday, at("2026-11-29T21:30:00Z"))).toBe(true); // the next Sunday
    expect(windowCovers(sunday, at("2026-11-25T21:30:00Z"))).toBe(false); // a Wednesday
    // In summer (UTC+2) the same wall clock is an hour earlier in UTC.
    expect(windowCovers(sunday, at("2026-07-05T20:00:00Z"))).toBe(true);
  });

  it("names the first window that covers an instant, or none", () => {
    const windows: MuteWindow[] = [
      { kind: "weekly", days: ["mon", "tue"], start: "06:00", minutes: 60, timeZone: "UTC", reason: "shift change" },
      { kind: "once", from: "2026-11-24T00:00:00Z", to: "2026-11-25T00:00:00Z", reason: "shutdown" },
    ];
    expect(mutedAt(windows, at("2026-11-23T06:30:00Z"))?.reason).toBe("shift change");
    expect(mutedAt(windows, at("2026-11-24T12:00:00Z"))?.reason).toBe("shutdown");
    expect(mutedAt(windows, at("2026-11-26T06:30:00Z"))).toBeNull();
  });
});
