/**
 * Calendar days and instants in a named (IANA) time zone, with nothing but Intl: the audit log's
 * days are the reader's days, and its CSV gives each time in the reader's zone with its offset
 * (docs/api.md, "The audit log"). Pure; the browser and the server share it.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    // Bounded: the zones are the few hundred IANA names (checked by ZTimeZone before they get here).
    if (formatters.size < 1000) formatters.set(timeZone, found);
  }
  return found;
}

export function isTimeZone(name: string): boolean {
  try {
    partsFormat(name);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of an instant in a zone, read as if it were UTC (whole seconds). */
function wallClock(instant: number, timeZone: string): number {
  const parts = partsFormat(timeZone).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)!.value);
  return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
}

/** The zone's offset from UTC at an instant, in milliseconds (+3,600,000 for Amsterdam in winter). */
export function zoneOffset(instant: number, timeZone: string): number {
  return wallClock(instant, timeZone) - Math.floor(instant / 1000) * 1000;
}

/**
 * The first instant of a calendar day (`YYYY-MM-DD`) in a zone, as an ISO instant. Where a
 * daylight-saving change skips midnight, the day starts at the change; where midnight happens twice,
 * at the first.
 */
export function startOfDay(day: string, timeZone: string): string {
  const wall = Date.parse(`${day}T00:00:00Z`);
  const first = wall - zoneOffset(wall, timeZone);
  const second = wall - zoneOffset(first, timeZone);
  const inDay = [first, second].filter((instant) => new Date(wallClock(instant, timeZone)).toISOString().slice(0, 10) === day);
  return new Date(Math.min(...(inDay.length > 0 ? inDay : [first]))).toISOString();
}

/** An instant as the zone's wall clock with its offset: `2026-11-25T21:04:05+01:00`. */
export function zonedIso(instant: string | number, timeZone: string): string {
  const time = typeof instant === "number" ? instant : Date.parse(instant);
  if (Number.isNaN(time)) return String(instant);
  const offset = zoneOffset(time, timeZone);
  const wall = new Date(Math.floor(time / 1000) * 1000 + offset).toISOString().slice(0, 19);
  const minutes = Math.abs(offset) / 60_000;
  const sign = offset < 0 ? "-" : "+";
  return `${wall}${sign}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}
