import { describe, expect, it } from "vitest";
import { formatTimeTick, timeTicks } from "./time-ticks";

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
