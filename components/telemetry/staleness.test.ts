import { describe, expect, it } from "vitest";
import { durationInWords, expectedInterval, freshness, staleReason, staleSinceText } from "./staleness";

const T = Date.parse("2026-11-25T14:05:00Z");
const minute = 60_000;

describe("freshness of a data point's current value", () => {
  it("is stale from the death when the newest reading is the death's (no value, Quality STALE)", () => {
    expect(freshness({ at: T, value: null, quality: "STALE", readings: 100, firstAt: T - 100 * minute }, T + 5_000)).toEqual({ state: "stale", reason: "died", since: T });
  });

  it("judges silence by the data point's own pace", () => {
    // Every minute for the last 99 minutes; the newest one minute old: current.
    const perMinute = { at: T, value: 71.3, quality: "GOOD", readings: 100, firstAt: T - 99 * minute };
    expect(freshness(perMinute, T + minute)).toEqual({ state: "current", expectedMs: minute });
    // Two intervals and the slack later it is overdue, stale since the reading that did not come.
    expect(freshness(perMinute, T + 2 * minute + 14_000).state).toBe("current");
    expect(freshness(perMinute, T + 2 * minute + 16_000)).toEqual({ state: "stale", reason: "overdue", since: T + minute, expectedMs: minute, lastAt: T });
    // A device that reports every 2 s is stale after 20 s without a reading, one of every minute is not.
    const fast = { at: T, value: 1, quality: "", readings: 31, firstAt: T - 60_000 };
    expect(freshness(fast, T + 20_000)).toMatchObject({ state: "stale", reason: "overdue", expectedMs: 2_000 });
    expect(freshness(perMinute, T + 20_000).state).toBe("current");
  });

  it("assumes a minute when too few readings tell the pace", () => {
    expect(expectedInterval({ at: T, value: 1, readings: 1, firstAt: T }, T)).toBe(minute);
    expect(expectedInterval({ at: T, value: 1, readings: 2, firstAt: T - 1_000 }, T)).toBe(minute);
  });

  it("a birth after a death makes it current again (the newest reading has a value and GOOD)", () => {
    expect(freshness({ at: T, value: 3, quality: "GOOD", readings: 5, firstAt: T - 4 * 2_000 }, T + 1_000).state).toBe("current");
  });
});

describe("in words, in the reader's language and time zone", () => {
  it("names the time today, and the date otherwise", () => {
    expect(staleSinceText(T, T + 12 * minute, "en-GB", "Europe/Amsterdam")).toBe("Stale since 15:05 (12 minutes ago)");
    expect(staleSinceText(T, T + 12 * minute, "en-US", "America/Chicago")).toBe("Stale since 08:05 AM (12 minutes ago)");
    expect(staleSinceText(T, T + 30 * 3_600_000, "en-GB", "UTC")).toBe("Stale since 25 Nov, 14:05 (30 hours ago)");
    expect(staleSinceText(T, T + 12 * minute, "nl-NL", "Europe/Amsterdam")).toBe("Stale since 15:05 (12 minuten geleden)");
  });

  it("says why", () => {
    expect(staleReason({ state: "stale", reason: "died", since: T }, T, "en-GB")).toMatch(/went offline/);
    expect(staleReason({ state: "stale", reason: "overdue", since: T + minute, expectedMs: minute, lastAt: T }, T + 5 * minute, "en-GB")).toBe("No reading for 5 minutes; its usual interval is 1 minute.");
    expect(durationInWords(2 * 3_600_000, "en-GB")).toBe("2 hours");
  });
});
