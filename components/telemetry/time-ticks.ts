/**
 * Time-axis ticks on round UTC instants (every 15 min, 6 h, 1 day …) rather than wherever the
 * range happens to start, so a chart reads like a clock. Pure.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEPS = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY];

/** At most about `maxTicks` round instants within [from, to]. */
export function timeTicks(from: number, to: number, maxTicks: number): number[] {
  const span = to - from;
  if (!(span > 0) || maxTicks < 1) return [];
  const step = STEPS.find((s) => span / s <= maxTicks) ?? Math.ceil(span / maxTicks / DAY) * DAY;
  const ticks: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t);
  return ticks;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "14:30" within two days, "3 Nov" beyond, "3 Nov 14:00" for sub-day ticks of longer spans. */
export function formatTimeTick(ms: number, spanMs: number): string {
  const d = new Date(ms);
  const time = d.toISOString().slice(11, 16);
  const date = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
  if (spanMs <= 2 * DAY) return time === "00:00" ? date : time;
  return time === "00:00" ? date : `${date} ${time}`;
}
