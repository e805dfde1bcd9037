/**
 * Time-axis ticks on round instants of the reader's clock (every 15 min, 6 h, 1 day …) rather than
 * wherever the range happens to start, so a chart reads like a clock — in UTC or in a time zone
 * (the explorer's UTC/local switch). Pure.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEPS = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY];

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** How far a zone's clock is ahead of UTC at an instant (ms; summer time included). */
export function zoneOffsetMs(at: number, timeZone: string): number {
  if (timeZone === "UTC") return 0;
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    offsetFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** At most about `maxTicks` round instants (on the zone's clock) within [from, to]. */
export function timeTicks(from: number, to: number, maxTicks: number, timeZone = "UTC"): number[] {
  const span = to - from;
  if (!(span > 0) || maxTicks < 1) return [];
  const step = STEPS.find((s) => span / s <= maxTicks) ?? Math.ceil(span / maxTicks / DAY) * DAY;
  const offset = zoneOffsetMs(from, timeZone);
  const ticks: number[] = [];
  for (let local = Math.ceil((from + offset) / step) * step; local - offset <= to; local += step) ticks.push(local - offset);
  return ticks;
}

const tickFormats = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

/** "14:30" within two days, "3 Nov" at midnight, "3 Nov 14:00" for sub-day ticks of longer spans. */
export function formatTimeTick(ms: number, spanMs: number, timeZone = "UTC", locale = "en-GB"): string {
  const key = `${locale}|${timeZone}`;
  let formats = tickFormats.get(key);
  if (!formats) {
    formats = {
      day: new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone }),
      time: new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone }),
    };
    tickFormats.set(key, formats);
  }
  const local = ms + zoneOffsetMs(ms, timeZone);
  const midnight = local % DAY === 0;
  const date = formats.day.format(ms);
  const time = formats.time.format(ms);
  if (midnight) return date;
  return spanMs <= 2 * DAY ? time : `${date} ${time}`;
}
